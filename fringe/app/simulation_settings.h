// Settings -> SimulationConfig (sim/simulation_config.h): the simulator/..., observation/...,
// sky/... (flux filter, horizon clip, failed Gaussians), telescope/... (station beam) and
// interferometer/... keys of settings/sim_interferometer.xml, read and checked in one place.
// Settings that fringe cannot run yet, or bad values, are fringe::Error::in_setting naming
// the key.
#pragma once

#include <vector>

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/output_guard.h"
#include "fringe/imager/imager_config.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/simulation_config.h"

namespace fringe::app {

// Every key of SimulationConfig. Refuses unsupported values (Aperture array and VLA (PBCOR)
// stations through jones::validate, Drift scan mode) and invalid ones (beam widths, no
// ms_filename).
sim::SimulationConfig simulation_config(const settings::Settings& s);

// Every output of a sim_interferometer run, for fringe::check_outputs: the Measurement Set
// (interferometer/ms_filename), the true gains table and CSV of gain corruption
// (<ms>.true_gains[.csv]), the sky model text file (sky/output_text_file), the gain table and
// CSV of the calibration step (calibrate/output_gains, default <ms>.gains) and the FITS
// images of the imaging step (image/root_path + _<product>.fits). Calibration and imaging
// may be null (not run).
std::vector<OutputTarget> interferometer_outputs(const sim::SimulationConfig& config,
                                                 const settings::Settings& s,
                                                 const calibrate::CalibrateMsConfig* calibration,
                                                 const imager::ImagerConfig* imaging);

}  // namespace fringe::app
