#include "fringe/beam_pattern/beam_pattern_estimate.h"

#include <algorithm>
#include <string>

namespace fringe::beam_pattern {

RunEstimate beam_pattern_estimate(const BeamPatternConfig& c, std::size_t num_pixels,
                                  const std::vector<BeamProduct>& products) {
  const ObservationConfig& o = c.observation;
  const bool full = c.pol_mode == PolarisationMode::Full;
  const double pixels = double(num_pixels);
  double bytes = 0, averaged = 0;
  for (const BeamProduct& p : products) {
    const double planes = (p.time_average ? 1.0 : double(o.num_time_steps)) *
                          (p.channel_average ? 1.0 : double(o.num_channels));
    const double values = p.num_values(full);
    const double per_value =
        p.format == ProductFormat::Fits ? (c.precision == Precision::Double ? 8 : 4) : 25;
    const double row_extra = p.format == ProductFormat::Fits ? 0 : 60;
    bytes += planes * pixels * (values * per_value + row_extra);
    if (p.time_average || p.channel_average) averaged += pixels * values * 16;
  }
  RunEstimate e;
  e.what = "beam pattern of " + std::to_string(num_pixels) + " pixel(s) x " +
           std::to_string(o.num_time_steps) + " time(s) x " + std::to_string(o.num_channels) +
           " channel(s), " + std::to_string(products.size()) + " product(s)";
  e.output_bytes = bytes;
  e.output_dir = c.root_path;
  const double chunk = double(std::min<std::size_t>(num_pixels, c.max_pixels_per_chunk));
  e.memory_bytes = chunk * (double(products.size()) * 8 * 16 + 64 * 16) + averaged;
  e.setting_hint =
      "BeamImageConfig.width, ObservationConfig.num_time_steps, ObservationConfig.num_channels";
  return e;
}

}  // namespace fringe::beam_pattern
