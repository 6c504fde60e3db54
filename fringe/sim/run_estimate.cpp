#include "fringe/sim/run_estimate.h"

#include <algorithm>
#include <string>

#include "fringe/io/ms/ms_path.h"
#include "fringe/sim/interferometer.h"

namespace fringe::sim {
RunEstimate interferometer_estimate(const SimulationConfig& c, std::size_t num_stations,
                                    std::size_t num_sources, bool calibrate) {
  const ObservationConfig& o = c.observation;
  // Doubles throughout: 1e9 times x 1e5 baselines must not overflow.
  const double ns = double(num_stations);
  const double nb = ns * (ns - 1) / 2;
  const double per_time = (c.write_cross ? nb : 0.0) + (c.write_autos ? ns : 0.0);
  const double rows = double(o.num_time_steps) * per_time;
  const bool full = c.pol_mode == PolarisationMode::Full;
  const double npol_ms = full || c.force_polarised_ms ? 4 : 1;
  const double nch = o.num_channels;
  const double columns = 1 + (c.corruption.enable ? 1 : 0) + (calibrate ? 1 : 0);
  const double row_bytes = columns * 8 * npol_ms * nch + npol_ms * nch + 8 * npol_ms + 130;

  RunEstimate e;
  e.what = "simulation of " + std::to_string(o.num_time_steps) + " time(s) x " +
           std::to_string(o.num_channels) + " channel(s) x " +
           std::to_string(std::size_t(per_time)) + " baseline(s)";
  const double value = c.precision == Precision::Double ? 16 : 8;  // complex T
  const double npol = full ? 4 : 1;
  // The MS and/or the .vis file (amplitudes in the run's precision, plus per-station u, v, w).
  const bool ms = !c.ms_path.empty();
  const double vis_bytes = rows * npol * nch * value + double(o.num_time_steps) * ns * 3 * value;
  e.output_bytes = (ms ? rows * row_bytes : 0.0) + (c.vis_path.empty() ? 0.0 : vis_bytes);
  // Its nearest existing folder is measured (the MS's when there is one).
  e.output_dir = ms ? io::ms_output_path(c.ms_path) : c.vis_path;
  const double block =
      double(c.times_per_block()) * c.channels_per_block() * (nb + ns) * npol * value;
  const double threads = std::max(1, resolve_num_threads(c));
  const double per_thread = double(c.channels_per_block()) * (nb + ns) * npol * value +
                            ns * double(std::min(num_sources, c.max_sources_per_chunk)) * 4 * value;
  const double sky = double(num_sources) * 30 * 8;
  const double gains = c.corruption.enable ? double(o.num_time_steps) * ns * 2 * 16 : 0.0;
  e.memory_bytes = 4 * block + threads * per_thread + sky + gains;
  e.setting_hint =
      "ObservationConfig.num_time_steps, ObservationConfig.num_channels, "
      "SimulationConfig.max_times_per_block";
  return e;
}

}  // namespace fringe::sim
