// The interferometer simulation pipeline (docs/simulation.md): a sky and a telescope model
// in, an OSKAR-compatible Measurement Set out.
//
//   for each visibility block (<= times_per_block times x <= channels_per_block channels):
//     work units (time, sky chunk) on the workers of a compute back end (sim_backend.h:
//     DeviceRequest.num_devices CPU threads, or one worker per GPU; dynamic scheduling):
//       horizon clip (source above the horizon of any station, at the dump centre), then per
//       channel: Stokes at the channel frequency, common flux filter, station Jones E R
//       (fringe/jones), predict with K from TRUE station positions (fringe/predict) into the
//       unit's private buffer;
//     CPU: each unit's buffer is added into the block in chunk order (a unit waits for the
//     previous chunk of the same time), so results are bitwise independent of the number of
//     threads and of the block sizes; GPUs: each adds into its own copy of the block, and the
//     copies are summed at the end of the block;
//     UVW of the block from MEASURED station positions (docs/conventions.md,
//     "Coordinates and (u, v, w)");
//   the block is written (io/ms MsWriter) by a writer thread while the next one computes,
//   and handed to RunContext::block_sink (block_view.h) when there is one.
//
// Times are dump centres, channels centres; units SI and radians. The precision of the
// compute (float/double) is SimulationConfig::precision; the MS DATA are complex float.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/core/progress.h"
#include "fringe/core/timer.h"
#include "fringe/sim/block_view.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::sim {

struct RunContext {
  Logger* logger = nullptr;                 // nullable
  ProgressCallback progress;                // empty: nobody listens
  StageTimers* timers = nullptr;            // stages "horizon clip", "jones", "correlate", "write"
  std::vector<std::string> settings_lines;  // HISTORY (ORIGIN OSKAR_SETTINGS), .vis settings
  std::string application = "sim_interferometer";
  // --strict: all-zero DATA is an error, not a warning (docs/reliability/sim.md).
  bool strict = false;
  // Called just before the MS is closed: the run log lines for HISTORY (ORIGIN FRINGE_LOG).
  std::function<std::vector<std::string>()> run_log;
  // Given each visibility block as the MS holds it (block_view.h), in block order, on the
  // writer's thread; with a sink, a run may write no file at all.
  BlockSink block_sink;
};

struct SimulationResult {
  std::string ms_path;   // final path of the Measurement Set ("" = none written)
  std::string vis_path;  // final path of the OSKAR .vis file ("" = none written)
  std::size_t num_rows = 0;
  std::size_t num_blocks = 0;
  std::size_t num_chunks = 0;
  std::size_t num_work_units = 0;
  int num_threads = 0;
  std::vector<int> gpus;                             // CUDA devices used (empty: CPU threads)
  std::size_t stations_with_beam_below_horizon = 0;  // max over evaluations (0 normally)
};

// Runs the simulation and writes the MS named by config.ms_path and/or the OSKAR .vis file
// named by config.vis_path (at least one unless context.block_sink is set; each written under
// a temporary name and renamed when complete), handing every block to context.block_sink. The sky
// must not be empty (fringe::Error otherwise, before any file is created). Gaussian sources are
// projected onto the phase-centre tangent plane once (sky/gaussian.h); failed fits follow
// config.zero_failed_gaussians. Errors (bad config, unwritable output) throw fringe::Error; no MS
// is left behind then.
SimulationResult simulate_interferometer(const SimulationConfig& config, sky::SkyModel sky,
                                         const telescope::TelescopeModel& telescope,
                                         const RunContext& context);

// The number of CPU threads of a CPU run: SimulationConfig.devices.num_devices, or the core
// count when that is 0 (auto).
int resolve_num_threads(const SimulationConfig& config);

}  // namespace fringe::sim
