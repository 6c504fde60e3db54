// sim_interferometer's chain: simulate a Measurement Set, then optionally calibrate it
// (fringe/calibrate) and image it (fringe/imager), all from typed configs. chain_config()
// reads the three configs from the settings (interferometer/calibrate_output and
// interferometer/image_output switch the last two steps on); run_chain() runs them in order.
#pragma once

#include <functional>
#include <optional>

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/progress.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/imager_config.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::app {

struct ChainConfig {
  sim::SimulationConfig simulation;
  // Run on the simulated Measurement Set when set (their input MS is that MS).
  std::optional<calibrate::CalibrateMsConfig> calibration;
  std::optional<imager::ImagerConfig> imaging;
};

struct ChainContext {
  sim::RunContext simulation;          // logger (also of the later steps), timers, progress
  ProgressCallback imaging_progress;   // empty: nobody listens
  std::function<void()> imaging_done;  // called when imaging ends, before its summary is logged
};

struct ChainResult {
  sim::SimulationResult simulation;
  std::optional<calibrate::CalibrateMsResult> calibration;
  std::optional<imager::ImagerResult> imaging;
};

// The configs of the chain, every setting checked before any work: the simulation's, and the
// calibration's and imaging's when switched on, with the simulated MS as their default input.
// After calibration that writes CORRECTED_DATA, the corrected data are imaged unless
// image/ms_column was given. force and strict are the command line's --force and --strict.
// Throws fringe::Error naming the key of a bad setting.
ChainConfig chain_config(const settings::Settings& s, bool force, bool strict);

// Simulates (sim::simulate_interferometer), then calibrates and images the Measurement Set
// when config asks for it, logging each step's summary. Errors of any step throw
// fringe::Error; the steps before it have written their outputs.
ChainResult run_chain(const ChainConfig& config, sky::SkyModel sky,
                      const telescope::TelescopeModel& telescope, const ChainContext& context);

}  // namespace fringe::app
