#include "fringe/vis/noise.h"

#include <cmath>
#include <string>

#include "fringe/core/error.h"
#include "fringe/core/philox.h"
#include "fringe/vis/noise_math.h"

namespace fringe::vis {
std::array<std::uint32_t, 4> philox4x32(std::array<std::uint32_t, 4> counter,
                                        std::array<std::uint32_t, 2> key) {
  return fringe::philox4x32(counter, key);
}

std::array<double, 4> noise_normals(std::uint64_t seed, std::uint32_t time, std::uint32_t channel,
                                    std::uint32_t index, std::uint32_t draw) {
  return philox_normals(seed, time, channel, index, draw);
}

std::size_t NoiseTable::nearest(double f) const {
  std::size_t best = 0;
  for (std::size_t i = 1; i < freq_hz.size(); ++i) {
    if (std::abs(freq_hz[i] - f) < std::abs(freq_hz[best] - f)) best = i;
  }
  return best;
}

double NoiseTable::sigma(std::size_t station, double f) const {
  return rms_jy[station][nearest(f)];
}

void NoiseTable::validate(std::size_t num_stations) const {
  if (freq_hz.empty()) throw Error("system noise: no noise frequencies");
  for (double f : freq_hz) {
    if (!std::isfinite(f)) throw Error("system noise: a noise frequency is not finite");
  }
  if (rms_jy.size() != num_stations) {
    throw Error("system noise: RMS values for " + std::to_string(rms_jy.size()) +
                " station(s), expected " + std::to_string(num_stations));
  }
  for (std::size_t s = 0; s < rms_jy.size(); ++s) {
    if (rms_jy[s].size() != freq_hz.size()) {
      throw Error("system noise: station " + std::to_string(s) + " has " +
                  std::to_string(rms_jy[s].size()) + " RMS value(s) for " +
                  std::to_string(freq_hz.size()) + " noise frequencies");
    }
    for (double v : rms_jy[s]) {
      if (!std::isfinite(v) || v < 0) {
        throw Error("system noise: station " + std::to_string(s) + " has RMS " + std::to_string(v) +
                    " Jy; expected a finite value >= 0");
      }
    }
  }
}

template <typename T>
void add_system_noise(VisBlock<T>& block, const NoiseTable& table, const NoiseParams& params) {
  const std::size_t ns = std::size_t(block.num_stations());
  table.validate(ns);
  const bool full = block.pol_mode() == PolMode::Full;
  std::vector<double> sigma(ns);
  for (int c = 0; c < block.num_channels(); ++c) {
    for (std::size_t s = 0; s < ns; ++s) sigma[s] = table.sigma(s, block.frequency_hz(c));
    const auto channel = std::uint32_t(block.start_channel_index + c);
    for (int t = 0; t < block.num_times(); ++t) {
      const auto time = std::uint32_t(block.start_time_index + t);
      if (block.has_cross()) {
        std::size_t b = 0;
        for (std::size_t p = 0; p < ns; ++p) {
          for (std::size_t q = p + 1; q < ns; ++q, ++b) {
            add_cross_noise(&block.cross(t, c, b, 0), full, sigma[p], sigma[q], params.seed, time,
                            channel, std::uint32_t(b));
          }
        }
      }
      if (block.has_autos()) {
        for (std::size_t p = 0; p < ns; ++p) {
          const double bias =
              auto_noise_bias(sigma[p], params.channel_bandwidth_hz, params.time_average_sec);
          add_auto_noise(&block.autos(t, c, int(p), 0), full, sigma[p], bias, params.seed, time,
                         channel, std::uint32_t(p));
        }
      }
    }
  }
}

template void add_system_noise<float>(VisBlock<float>&, const NoiseTable&, const NoiseParams&);
template void add_system_noise<double>(VisBlock<double>&, const NoiseTable&, const NoiseParams&);

}  // namespace fringe::vis
