// Size estimates of a simulator run, for fringe::check_run_size (core/resources.h): a
// runaway request (ObservationConfig.num_time_steps = 1e9) is refused before it
// starts instead of filling the disk or dying in std::bad_alloc (docs/reliability/sim.md).
// Estimates are upper bounds of the right order (within a factor of ~2), not exact.
#pragma once

#include <cstddef>
#include <vector>

#include "fringe/core/resources.h"
#include "fringe/sim/simulation_config.h"

namespace fringe::sim {

// Measurement Set rows, bytes and peak host memory of a sim_interferometer run.
//   rows   = times x (baselines + autocorrelations written)
//   bytes  = rows x (DATA [+ MODEL_DATA with gain corruption] [+ CORRECTED_DATA with the
//            calibration step] at 8 bytes per complex float x pols x channels, FLAG 1 byte,
//            WEIGHT/SIGMA 4 bytes per pol, ~130 bytes of scalar columns and UVW)
//   memory = 4 blocks (computing, writing, spare, model) + per-thread buffers + the sky's
//            chunks + the gain tables (16 bytes per station, polarisation and time).
RunEstimate interferometer_estimate(const SimulationConfig& config, std::size_t num_stations,
                                    std::size_t num_sources, bool calibrate);

}  // namespace fringe::sim
