// Gain corruption of simulated visibilities (fringe/sim/corruption_gains.h): seeded and
// independent of blocks, the statistics of the fixed part, the random walk and the
// Gauss-Markov process, the delay's phase slope, and apply(): DATA = G (V + N) G^H with the
// model returned noise-free.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fringe/core/jones.h"
#include "fringe/sim/corruption_gains.h"

namespace {

using fringe::Complex;
using fringe::sim::GainCorruption;
using fringe::sim::GainCorruptionConfig;
using fringe::sim::GainTimeVariation;

fringe::vis::VisMeta make_meta(int stations, int times, int channels) {
  fringe::vis::VisMeta m;
  for (int p = 0; p < stations; ++p) {
    m.station_names.push_back("s" + std::to_string(p));
    m.station_ecef_m.push_back({1.0 * p, 0.0, 0.0});
  }
  m.num_channels = channels;
  m.start_frequency_hz = 100e6;
  m.frequency_inc_hz = 1e6;
  m.num_times = times;
  m.start_time_mjd_utc = 60000.0;
  m.time_inc_sec = 10.0;
  m.pol_mode = fringe::vis::PolMode::Full;
  return m;
}

// Sample variance of x[i] over i.
template <class F>
double variance(int n, F x) {
  double s = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    s += x(i);
    s2 += x(i) * x(i);
  }
  return s2 / n - (s / n) * (s / n);
}

TEST(GainCorruption, SeededAndIndependentOfCallOrder) {
  GainCorruptionConfig c;
  c.enable = true;
  c.seed = 5;
  const auto meta = make_meta(8, 6, 2);
  const GainCorruption a(c, meta), b(c, meta);
  c.seed = 6;
  const GainCorruption other(c, meta);
  for (int t = 5; t >= 0; --t) {
    EXPECT_EQ(a.gain(t, 3, 1, 101e6), b.gain(t, 3, 1, 101e6));
    EXPECT_NE(a.gain(t, 3, 1, 101e6), other.gain(t, 3, 1, 101e6));
  }
}

TEST(GainCorruption, FixedPartAndRandomWalkStatistics) {
  const int n = 4000, times = 10;
  GainCorruptionConfig c;
  c.enable = true;
  c.amplitude_std = 0.2;
  c.phase_std_rad = 0.3;
  c.time_variation = GainTimeVariation::RandomWalk;
  c.amplitude_time_std = 0.05;
  c.phase_time_std_rad = 0.02;
  const auto meta = make_meta(n, times, 1);
  const GainCorruption g(c, meta);
  // log|g| and arg g at time t: fixed N(0, s0) plus (t + 1) steps N(0, s).
  for (int t : {0, times - 1}) {
    const double va =
        variance(n, [&](int p) { return std::log(fringe::abs(g.gain(t, p, 0, 100e6))); });
    const double vp = variance(n, [&](int p) {
      const Complex<double> z = g.gain(t, p, 1, 100e6);
      return std::atan2(z.im, z.re);
    });
    const double ea = 0.2 * 0.2 + (t + 1) * 0.05 * 0.05, ep = 0.3 * 0.3 + (t + 1) * 0.02 * 0.02;
    EXPECT_NEAR(va / ea, 1.0, 0.1) << "time " << t;
    EXPECT_NEAR(vp / ep, 1.0, 0.1) << "time " << t;
  }
  // Steps of the walk: independent, variance s^2.
  const double vs = variance(n, [&](int p) {
    return std::log(fringe::abs(g.gain(5, p, 0, 100e6))) -
           std::log(fringe::abs(g.gain(4, p, 0, 100e6)));
  });
  EXPECT_NEAR(vs / (0.05 * 0.05), 1.0, 0.1);
}

TEST(GainCorruption, GaussMarkovIsStationaryWithExponentialCorrelation) {
  const int n = 4000, times = 6;
  GainCorruptionConfig c;
  c.enable = true;
  c.amplitude_std = 0;
  c.phase_std_rad = 0;
  c.time_variation = GainTimeVariation::GaussMarkov;
  c.amplitude_time_std = 0.1;
  c.correlation_time_sec = 20.0;  // dt = 10 s: rho = exp(-0.5)
  const auto meta = make_meta(n, times, 1);
  const GainCorruption g(c, meta);
  auto a = [&](int t, int p) { return std::log(fringe::abs(g.gain(t, p, 0, 100e6))); };
  for (int t : {0, times - 1}) {
    EXPECT_NEAR(variance(n, [&](int p) { return a(t, p); }) / 0.01, 1.0, 0.1) << "time " << t;
  }
  double cov = 0;
  for (int p = 0; p < n; ++p) cov += a(2, p) * a(3, p);
  EXPECT_NEAR(cov / n / 0.01, std::exp(-0.5), 0.05);
}

TEST(GainCorruption, DelayIsAPhaseSlopeOverTheBand) {
  const int n = 4000;
  GainCorruptionConfig c;
  c.enable = true;
  c.amplitude_std = 0;
  c.phase_std_rad = 0;
  c.time_variation = GainTimeVariation::None;
  c.delay_std_sec = 1e-9;
  const auto meta = make_meta(n, 1, 3);
  const GainCorruption g(c, meta);
  // At f0 the gain is 1; over 1 MHz the phase is 2 pi 1e6 tau (|phase| << pi here).
  EXPECT_EQ(g.gain(0, 7, 0, 100e6), (Complex<double>{1.0, 0.0}));
  const double v = variance(n, [&](int p) {
    const Complex<double> z = g.gain(0, p, 1, 101e6);
    return std::atan2(z.im, z.re) / (2 * std::numbers::pi * 1e6);
  });
  EXPECT_NEAR(std::sqrt(v) / 1e-9, 1.0, 0.05);
  const Complex<double> z1 = g.gain(0, 9, 0, 101e6), z2 = g.gain(0, 9, 0, 102e6);
  EXPECT_NEAR(std::atan2(z2.im, z2.re), 2 * std::atan2(z1.im, z1.re), 1e-12);
}

TEST(GainCorruption, ApplyCorruptsDataAndReturnsTheNoiseFreeModel) {
  GainCorruptionConfig c;
  c.enable = true;
  c.seed = 3;
  const int ns = 5;
  auto meta = make_meta(ns, 2, 2);
  meta.write_autocorrelations = true;
  const GainCorruption g(c, meta);
  fringe::vis::VisBlock<double> sky(2, 2, ns, fringe::vis::PolMode::Full, true, true);
  sky.set_axes(meta, 0, 0);
  for (std::size_t i = 0; i < sky.cross_data().size(); ++i) {
    sky.cross_data()[i] = {0.1 * double(i % 7) + 1.0, 0.05 * double(i % 5)};
  }
  for (std::size_t i = 0; i < sky.auto_data().size(); ++i) sky.auto_data()[i] = {2.0, 0.0};
  fringe::vis::NoiseTable noise;
  noise.freq_hz = {100e6};
  noise.rms_jy.assign(ns, {0.5});
  const fringe::vis::NoiseParams params{9, 1e6, 10.0};
  auto block = sky;
  fringe::vis::add_system_noise(block, noise, params);
  const auto noisy = block;
  const auto model = g.apply(block, &noise, params);
  ASSERT_TRUE(model.has_value());
  double worst_model = 0, worst_data = 0;
  for (std::size_t i = 0; i < sky.cross_data().size(); ++i) {
    worst_model = std::max(worst_model, fringe::abs(model->cross_data()[i] - sky.cross_data()[i]));
  }
  for (int t = 0; t < 2; ++t) {
    for (int ch = 0; ch < 2; ++ch) {
      std::size_t b = 0;
      for (int p = 0; p < ns; ++p) {
        for (int q = p + 1; q < ns; ++q, ++b) {
          const double f = sky.frequency_hz(ch);
          const auto gp = fringe::jones_diagonal(g.gain(t, p, 0, f), g.gain(t, p, 1, f));
          const auto gq = fringe::jones_diagonal(g.gain(t, q, 0, f), g.gain(t, q, 1, f));
          const Complex<double>* v = &noisy.cross(t, ch, b, 0);
          const auto expect = fringe::jones_sandwich(gp, {v[0], v[1], v[2], v[3]}, gq);
          const Complex<double> e[4] = {expect.a, expect.b, expect.c, expect.d};
          for (int k = 0; k < 4; ++k) {
            worst_data = std::max(worst_data, fringe::abs(block.cross(t, ch, b, k) - e[k]));
          }
        }
      }
    }
  }
  EXPECT_LT(worst_model, 1e-12);
  EXPECT_LT(worst_data, 1e-12);
  // Disabled: nothing changes, no model.
  GainCorruptionConfig off;
  auto untouched = sky;
  EXPECT_FALSE(GainCorruption(off, meta).apply(untouched, nullptr, params).has_value());
  EXPECT_EQ(untouched.cross_data()[3], sky.cross_data()[3]);
}

}  // namespace
