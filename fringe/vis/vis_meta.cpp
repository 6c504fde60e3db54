#include "fringe/vis/vis_meta.h"

#include <cmath>
#include <string>

#include "fringe/core/error.h"

namespace fringe::vis {

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw Error("visibility metadata: " + message);
}

bool finite3(const std::array<double, 3>& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

}  // namespace

void validate(const VisMeta& meta) {
  const std::size_t n = meta.num_stations();
  require(n > 0, "no stations");
  require(meta.station_ecef_m.size() == n, std::to_string(meta.station_ecef_m.size()) +
                                               " station positions for " + std::to_string(n) +
                                               " station names");
  require(meta.feed_angles_rad.empty() || meta.feed_angles_rad.size() == n,
          std::to_string(meta.feed_angles_rad.size()) + " feed angle pairs for " +
              std::to_string(n) + " stations (expected 0 or one per station)");
  require(meta.antenna_names.empty() || meta.antenna_names.size() == n,
          std::to_string(meta.antenna_names.size()) + " antenna names for " + std::to_string(n) +
              " stations (expected 0 or one per station)");
  require(meta.element_enu_m.empty() || meta.element_enu_m.size() == n,
          std::to_string(meta.element_enu_m.size()) + " element lists for " + std::to_string(n) +
              " stations (expected 0 or one per station)");
  for (std::size_t i = 0; i < meta.element_enu_m.size(); ++i) {
    for (const auto& e : meta.element_enu_m[i])
      require(finite3(e), "station " + std::to_string(i) + " has a non-finite element position");
  }
  for (std::size_t i = 0; i < n; ++i) {
    require(finite3(meta.station_ecef_m[i]),
            "station " + std::to_string(i) + " has a non-finite position");
  }
  require(finite3(meta.array_centre_ecef_m), "non-finite array centre");
  require(meta.num_channels > 0, "num_channels must be positive");
  require(meta.num_times > 0, "num_times must be positive");
  require(std::isfinite(meta.start_frequency_hz) && meta.start_frequency_hz > 0.0,
          "start frequency (observation/start_frequency_hz) must be positive");
  require(std::isfinite(meta.frequency_inc_hz), "non-finite frequency increment");
  require(std::isfinite(meta.channel_bandwidth_hz) && meta.channel_bandwidth_hz >= 0.0,
          "channel bandwidth must be >= 0");
  require(std::isfinite(meta.start_time_mjd_utc), "non-finite start time");
  require(std::isfinite(meta.time_inc_sec) && meta.time_inc_sec >= 0.0,
          "time increment must be >= 0");
  require(std::isfinite(meta.time_average_sec) && meta.time_average_sec >= 0.0,
          "time average must be >= 0");
  require(std::isfinite(meta.phase_centre_ra_rad) && std::isfinite(meta.phase_centre_dec_rad),
          "non-finite phase centre");
  require(std::isfinite(meta.dish_diameter_m) && meta.dish_diameter_m >= 0.0,
          "dish diameter must be >= 0");
  require(meta.write_autocorrelations || meta.write_crosscorrelations,
          "neither auto- nor cross-correlations selected");
  require(meta.write_autocorrelations || n >= 2, "cross-correlations need at least 2 stations");
}

}  // namespace fringe::vis
