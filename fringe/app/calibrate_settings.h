// Settings -> CalibrateMsConfig: the calibrate/ group (settings/common/calibrate.xml) of the
// calibrate app and of sim_interferometer's optional calibration step. Bad values are
// fringe::Error naming the key.
#pragma once

#include <string>

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/settings/settings.h"

namespace fringe::app {

// calibrate/input_ms empty: `default_ms` when given (sim_interferometer: the Measurement Set it
// writes), else an error naming the key.
calibrate::CalibrateMsConfig calibrate_config(const settings::Settings& s,
                                              const std::string& default_ms = "");

}  // namespace fringe::app
