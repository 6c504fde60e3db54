// What an imager run checks before any work starts (docs/reliability/imager.md):
//  - the configuration's ranges, each message naming the config field ("ImagerConfig.size",
//    "IdgConfig.subgrid_size"), which the app layer turns into the settings key;
//  - its FITS outputs (<root>_<product>.fits) may be written: fringe::check_outputs, with the
//    input Measurement Sets and the model image as the run's inputs;
//  - its memory and disk needs (fringe::check_run_size, --force to override).
#pragma once

#include <string>
#include <vector>

#include "fringe/core/output_guard.h"
#include "fringe/core/resources.h"
#include "fringe/imager/imager_config.h"

namespace fringe::imager {

// Throws fringe::Error naming the field, the value and the range expected.
void validate(const ImagerConfig& config);

// The FITS files a run writes (none for prediction, which writes a column of its inputs) and
// the paths it reads.
std::vector<OutputTarget> output_targets(const ImagerConfig& config);
std::vector<std::string> run_inputs(const ImagerConfig& config);

// Host memory and output bytes of a run, from the inputs' row, channel and correlation counts
// (inputs that cannot be opened are left out: the read reports them). Memory: the columns
// read, the visibility buffer, the grid, the images and the plan.
RunEstimate estimate_run(const ImagerConfig& config);

}  // namespace fringe::imager
