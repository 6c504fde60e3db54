// The run summary of sim_interferometer, from its typed configs: the observation, the sky
// inputs, the telescope and beams, the output, and the simulation plan (precision, devices,
// block sizes, smearing). Lines name settings keys where the user wrote a path.
#pragma once

#include "fringe/core/log.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_config.h"

namespace fringe::app {

// Observation, Sky, Telescope and Output sections; warns when no sky input is set.
void log_summary(const sim::SimulationConfig& config, const sky::SkyConfig& sky, Logger& log);

// The Simulation section: precision, polarisation, products, devices, blocks, smearing.
void log_simulation_plan(const sim::SimulationConfig& config, Logger& log);

}  // namespace fringe::app
