// Station gain corruption of simulated visibilities (corruption_gains.h).
#include "fringe/sim/corruption_gains.h"

#include <cmath>
#include <numbers>

#include "fringe/core/error.h"
#include "fringe/core/jones.h"
#include "fringe/core/philox.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/sim/station_gains_apply.h"

namespace fringe::sim {

namespace {
// Philox counter word c2: which quantity a draw is for.
constexpr std::uint32_t kFixed = 0, kTime = 1, kDelay = 2;
}  // namespace

GainCorruption::GainCorruption(const GainCorruptionConfig& config, const vis::VisMeta& meta)
    : config_(config), meta_(meta) {
  if (!config_.enable) return;
  num_stations_ = int(meta.num_stations());
  f0_hz_ = meta.channel_frequency_hz(0);
  const int nt = meta.num_times, n = num_stations_;
  log_amp_.assign(std::size_t(nt) * n * 2, 0.0);
  phase_.assign(std::size_t(nt) * n * 2, 0.0);
  delay_.assign(std::size_t(n) * 2, 0.0);
  const double rho = config_.correlation_time_sec > 0
                         ? std::exp(-meta.time_inc_sec / config_.correlation_time_sec)
                         : 0.0;
  const double innovation = std::sqrt(std::max(0.0, 1.0 - rho * rho));
  for (int p = 0; p < n; ++p) {
    // Normals: [a_X, a_Y, phi_X, phi_Y] per (time, station, kind).
    const auto fixed = philox_normals(config_.seed, 0, std::uint32_t(p), kFixed, 0);
    const auto del = philox_normals(config_.seed, 0, std::uint32_t(p), kDelay, 0);
    double a_t[2] = {0, 0}, ph_t[2] = {0, 0};
    for (int x = 0; x < 2; ++x) delay_[2 * p + x] = config_.delay_std_sec * del[x];
    for (int t = 0; t < nt; ++t) {
      const auto z = philox_normals(config_.seed, std::uint32_t(t), std::uint32_t(p), kTime, 0);
      for (int x = 0; x < 2; ++x) {
        switch (config_.time_variation) {
          case GainTimeVariation::None:
            break;
          case GainTimeVariation::RandomWalk:
            a_t[x] += config_.amplitude_time_std * z[x];
            ph_t[x] += config_.phase_time_std_rad * z[2 + x];
            break;
          case GainTimeVariation::GaussMarkov:
            if (t == 0) {
              a_t[x] = config_.amplitude_time_std * z[x];
              ph_t[x] = config_.phase_time_std_rad * z[2 + x];
            } else {
              a_t[x] = rho * a_t[x] + innovation * config_.amplitude_time_std * z[x];
              ph_t[x] = rho * ph_t[x] + innovation * config_.phase_time_std_rad * z[2 + x];
            }
            break;
        }
        const std::size_t i = (std::size_t(t) * n + p) * 2 + x;
        log_amp_[i] = config_.amplitude_std * fixed[x] + a_t[x];
        phase_[i] = config_.phase_std_rad * fixed[2 + x] + ph_t[x];
      }
    }
  }
}

Complex<double> GainCorruption::gain(int t, int p, int x, double frequency_hz) const {
  const std::size_t i = (std::size_t(t) * num_stations_ + p) * 2 + x;
  const double phase =
      phase_[i] + 2.0 * std::numbers::pi * (frequency_hz - f0_hz_) * delay_[2 * p + x];
  return polar(std::exp(log_amp_[i]), phase);
}

template <typename T>
std::optional<vis::VisBlock<T>> GainCorruption::apply(vis::VisBlock<T>& block,
                                                      const vis::NoiseTable* noise,
                                                      const vis::NoiseParams& params) const {
  if (!config_.enable) return std::nullopt;
  if (block.num_stations() != num_stations_) {
    throw Error("gain corruption: block of " + std::to_string(block.num_stations()) +
                " stations, expected " + std::to_string(num_stations_));
  }
  vis::VisBlock<T> model = block;
  if (noise) {
    vis::VisBlock<T> n = block;
    n.clear_data();
    vis::add_system_noise(n, *noise, params);
    for (std::size_t i = 0; i < n.cross_data().size(); ++i)
      model.cross_data()[i] -= n.cross_data()[i];
    for (std::size_t i = 0; i < n.auto_data().size(); ++i) model.auto_data()[i] -= n.auto_data()[i];
  }
  const bool full = block.num_pols() == 4;
  apply_diagonal_station_gains(block, [&](int t, int c, int p, int pol) {
    return gain(block.start_time_index + t, p, full ? pol : 0, block.frequency_hz(c));
  });
  return model;
}

std::string GainCorruption::write_true_gains(const std::string& ms_path, Logger* log) const {
  if (!config_.enable) return "";
  io::GainTable table;
  table.gain_type = meta_.pol_mode == vis::PolMode::Full ? "diagonal" : "scalar";
  table.reference_station = -1;
  table.station_names = meta_.station_names;
  // Without a delay the gains do not depend on frequency: one row per (time, station)
  // covering every channel; with a delay one row per (time, channel, station).
  const bool per_channel = config_.delay_std_sec > 0 && meta_.num_channels > 1;
  const int groups = per_channel ? meta_.num_channels : 1;
  for (int t = 0; t < meta_.num_times; ++t) {
    for (int c = 0; c < groups; ++c) {
      for (int p = 0; p < num_stations_; ++p) {
        io::GainTableRow row;
        row.time_mjd_sec = meta_.time_centre_mjd_utc_sec(t);
        row.interval_sec = meta_.time_inc_sec;
        row.station = p;
        row.chan_start = per_channel ? c : 0;
        row.chan_end = per_channel ? c : meta_.num_channels - 1;
        const double f = meta_.channel_frequency_hz(per_channel ? c : 0);
        row.frequency_hz = f;
        const Complex<double> gx = gain(t, p, 0, f);
        const Complex<double> gy = meta_.pol_mode == vis::PolMode::Full ? gain(t, p, 1, f) : gx;
        row.gain = {gx, Complex<double>{0, 0}, Complex<double>{0, 0}, gy};
        table.rows.push_back(row);
      }
    }
  }
  const std::string path = ms_path + ".true_gains";
  io::write_gain_table(path, table);
  io::write_gain_csv(path + ".csv", table);
  if (log) log->info("True gains: " + path + " and " + path + ".csv");
  return path;
}

template std::optional<vis::VisBlock<float>> GainCorruption::apply(vis::VisBlock<float>&,
                                                                   const vis::NoiseTable*,
                                                                   const vis::NoiseParams&) const;
template std::optional<vis::VisBlock<double>> GainCorruption::apply(vis::VisBlock<double>&,
                                                                    const vis::NoiseTable*,
                                                                    const vis::NoiseParams&) const;

}  // namespace fringe::sim
