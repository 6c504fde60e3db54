// GainCorruption: known station gains for a simulation (GainCorruptionConfig).
// For station p, polarisation x in {X, Y}, time index t and frequency f (Hz):
//   g = exp(a0 + a(t)) exp(i (phi0 + phi(t) + 2 pi (f - f0) tau))
// with a0 ~ N(0, amplitude_std), phi0 ~ N(0, phase_std), tau ~ N(0, delay_std) fixed, and
//   random walk:  a(t) = a(t-1) + N(0, s_a),  a(-1) = 0   (phi likewise with s_phi)
//   Gauss-Markov: a(0) = N(0, s_a),  a(t) = rho a(t-1) + sqrt(1 - rho^2) N(0, s_a),
//                 rho = exp(-dt / T)   (stationary, correlation exp(-|dt| / T))
// f0 = the observation's first channel. Every draw is Philox (core/philox.h) keyed by the seed
// and counted by (time, station, kind), so the gains do not depend on blocks or threads.
// Scalar pol mode uses the X gain. The gains are tabulated for every time step at construction
// (2 complex values per station per time).
//
// apply(block, noise, params): the block holds the sky visibilities V plus the system noise N
// (vis/noise.h; none if noise is null). It becomes G_p (V + N)_pq G_q^H (autocorrelations
// G_p A_p G_p^H), G = diag(g_X, g_Y): the noise passes through the receiver gains, so the
// data corrected with the true gains are exactly V + N. Returns the noise-free model V for
// MODEL_DATA: the noise is position-determined (Philox), so it is regenerated and subtracted.
// nullopt when disabled.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/log.h"
#include "fringe/sim/corruption_config.h"
#include "fringe/vis/noise.h"
#include "fringe/vis/vis_block.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::sim {

class GainCorruption {
 public:
  GainCorruption(const GainCorruptionConfig& config, const vis::VisMeta& meta);

  bool enabled() const { return config_.enable; }
  // Gain of station p, polarisation x (0 = X, 1 = Y), observation time index t, frequency f.
  Complex<double> gain(int t, int p, int x, double frequency_hz) const;

  template <typename T>
  std::optional<vis::VisBlock<T>> apply(vis::VisBlock<T>& block, const vis::NoiseTable* noise,
                                        const vis::NoiseParams& params) const;

  // Writes <ms_path>.true_gains (casacore table) and <ms_path>.true_gains.csv: one row per
  // (time, channel, station). No-op when disabled. Returns the table path ("" if disabled).
  std::string write_true_gains(const std::string& ms_path, Logger* log) const;

 private:
  GainCorruptionConfig config_;
  vis::VisMeta meta_;
  int num_stations_ = 0;
  double f0_hz_ = 0;
  std::vector<double> log_amp_;  // [t][p][x]
  std::vector<double> phase_;    // [t][p][x]
  std::vector<double> delay_;    // [p][x], seconds
};

}  // namespace fringe::sim
