// Settings -> ImagerConfig: the image/ group of settings/imager.xml (oskar-compat.md 1.5) in
// SI units. Used by the imager app and by sim_interferometer's optional imaging step. Values
// that cannot run (odd size, unsupported options) are fringe::Error naming the key.
#pragma once

#include <string>

#include "fringe/imager/imager_config.h"
#include "fringe/settings/settings.h"

namespace fringe::sim {

// image/root_path empty: the first input's name without its extension. image/input_vis_data
// empty: `default_input` when given (sim_interferometer's imaging step: the Measurement Set
// it writes), else an error naming the key.
imager::ImagerConfig imager_config(const settings::Settings& s,
                                   const std::string& default_input = "");

}  // namespace fringe::sim
