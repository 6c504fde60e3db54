// vis/noise: system noise statistics on a zeroed block (docs/conventions.md, "System noise").
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fringe/vis/noise.h"

namespace {

using fringe::vis::NoiseTable;
using fringe::vis::PolMode;
using fringe::vis::VisBlock;

// Published Philox-4x32-10 known answer (Random123 kat_vectors): zero counter and key.
TEST(Noise, PhiloxKnownAnswer) {
  const auto r = fringe::vis::philox4x32({0, 0, 0, 0}, {0, 0});
  EXPECT_EQ(r[0], 0x6627e8d5u);
  EXPECT_EQ(r[1], 0xe169c58du);
  EXPECT_EQ(r[2], 0xbc57ac4cu);
  EXPECT_EQ(r[3], 0x9b00dbd8u);
}

NoiseTable flat_table(int stations, double sigma) {
  NoiseTable t;
  t.freq_hz = {100e6};
  t.rms_jy.assign(std::size_t(stations), {sigma});
  return t;
}

VisBlock<double> zero_block(PolMode pol, int times = 40, int channels = 5, int stations = 12) {
  VisBlock<double> b(times, channels, stations, pol, true, true);
  for (int c = 0; c < channels; ++c) b.frequency_hz(c) = 100e6 + c * 1e6;
  return b;
}

struct Stats {
  double mean_re = 0, mean_im = 0, var_re = 0, var_im = 0;
};
template <typename F>
Stats stats(std::size_t n, F value) {
  Stats s;
  for (std::size_t i = 0; i < n; ++i) {
    s.mean_re += value(i).re;
    s.mean_im += value(i).im;
  }
  s.mean_re /= double(n);
  s.mean_im /= double(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.var_re += std::pow(value(i).re - s.mean_re, 2);
    s.var_im += std::pow(value(i).im - s.mean_im, 2);
  }
  s.var_re /= double(n - 1);
  s.var_im /= double(n - 1);
  return s;
}

// OSKAR's noise test (docs/conventions.md, "System noise"): sigma = 5 Jy, dnu = 10 Hz, tau = 10 s
// gives "linear-pol std 7.071 Jy, Stokes std 5 Jy, cross mean 0, auto mean 100 Jy". The std there
// is that of the complex visibility, sqrt(var(re) + var(im)): each part has std 5 Jy in Full mode,
// so XX has 5 sqrt 2 = 7.071 Jy and Stokes I = (XX + YY)/2 has 7.071 / sqrt 2 = 5 Jy; the auto
// mean is sqrt(2) 5 sqrt(2 * 10 * 10) = 100 Jy.
TEST(Noise, OskarFactFullMode) {
  auto b = zero_block(PolMode::Full);
  fringe::vis::add_system_noise(b, flat_table(12, 5.0), {42, 10.0, 10.0});
  const auto& x = b.cross_data();
  const std::size_t nv = x.size() / 4;
  for (int pol = 0; pol < 4; ++pol) {
    const Stats s = stats(nv, [&](std::size_t i) { return x[4 * i + pol]; });
    const double n = double(nv);
    EXPECT_NEAR(s.mean_re, 0.0, 5 * 5.0 / std::sqrt(n));
    EXPECT_NEAR(s.mean_im, 0.0, 5 * 5.0 / std::sqrt(n));
    EXPECT_NEAR(std::sqrt(s.var_re + s.var_im), 7.071, 0.1);
  }
  const Stats si = stats(nv, [&](std::size_t i) {
    return fringe::Complex<double>{(x[4 * i].re + x[4 * i + 3].re) / 2,
                                   (x[4 * i].im + x[4 * i + 3].im) / 2};
  });
  EXPECT_NEAR(std::sqrt(si.var_re + si.var_im), 5.0, 0.08);
  const auto& a = b.auto_data();
  const std::size_t na = a.size() / 4;
  for (int pol : {0, 3}) {
    const Stats s = stats(na, [&](std::size_t i) { return a[4 * i + pol]; });
    // OSKAR's auto-correlation term in Full mode: N(0, sqrt(2) sigma) = 7.071 Jy.
    EXPECT_NEAR(s.mean_re, 100.0, 5 * 7.071 / std::sqrt(double(na)));
    EXPECT_NEAR(std::sqrt(s.var_re), 7.071, 0.4);
    EXPECT_EQ(s.var_im, 0.0);
  }
  for (std::size_t i = 0; i < na; ++i) {  // Hermitian: YX = conj(XY)
    EXPECT_EQ(a[4 * i + 2].re, a[4 * i + 1].re);
    EXPECT_EQ(a[4 * i + 2].im, -a[4 * i + 1].im);
  }
}

// Scalar mode: each part sqrt(sp sq)/sqrt 2, so the complex std is the Stokes std, 5 Jy.
TEST(Noise, ScalarMode) {
  auto b = zero_block(PolMode::Scalar);
  fringe::vis::add_system_noise(b, flat_table(12, 5.0), {7, 10.0, 10.0});
  const auto& x = b.cross_data();
  const Stats s = stats(x.size(), [&](std::size_t i) { return x[i]; });
  EXPECT_NEAR(std::sqrt(s.var_re), 5.0 / std::sqrt(2.0), 0.08);
  EXPECT_NEAR(std::sqrt(s.var_re + s.var_im), 5.0, 0.1);
  const auto& a = b.auto_data();
  const Stats sa = stats(a.size(), [&](std::size_t i) { return a[i]; });
  // OSKAR's auto-correlation term in Scalar mode: N(0, sigma), sigma = 5 Jy.
  EXPECT_NEAR(sa.mean_re, 100.0, 5 * 5.0 / std::sqrt(double(a.size())));
  EXPECT_NEAR(std::sqrt(sa.var_re), 5.0, 0.3);
}

// Baseline (p, q) gets sqrt(sigma_p sigma_q); sigma is taken at the nearest noise frequency.
TEST(Noise, NearestFrequencyAndStationProduct) {
  NoiseTable t;
  t.freq_hz = {50e6, 100e6, 200e6};
  t.rms_jy = {{1, 2, 3}, {10, 20, 30}};
  EXPECT_EQ(t.nearest(10e6), 0u);
  EXPECT_EQ(t.nearest(80e6), 1u);
  EXPECT_EQ(t.nearest(160e6), 2u);
  EXPECT_EQ(t.nearest(1e12), 2u);
  EXPECT_DOUBLE_EQ(t.sigma(1, 140e6), 20.0);
  VisBlock<double> b(4000, 2, 2, PolMode::Full, true, false);
  b.frequency_hz(0) = 60e6;   // nearest 50 MHz: sqrt(1 * 10)
  b.frequency_hz(1) = 190e6;  // nearest 200 MHz: sqrt(3 * 30)
  fringe::vis::add_system_noise(b, t, {3, 0, 0});
  for (int c = 0; c < 2; ++c) {
    std::vector<double> parts;
    for (int ti = 0; ti < 4000; ++ti) {
      for (int pol = 0; pol < 4; ++pol) {
        parts.push_back(b.cross(ti, c, 0, pol).re);
        parts.push_back(b.cross(ti, c, 0, pol).im);
      }
    }
    double ss = 0;
    for (double v : parts) ss += v * v;
    const double expected = c == 0 ? std::sqrt(10.0) : std::sqrt(90.0);
    EXPECT_NEAR(std::sqrt(ss / double(parts.size())), expected, 0.02 * expected);
  }
}

// Same seed and position in the observation: same noise, whatever the block split.
TEST(Noise, CounterBasedAndSeeded) {
  auto whole = zero_block(PolMode::Full, 6, 4, 5);
  fringe::vis::add_system_noise(whole, flat_table(5, 2.0), {11, 1, 1});
  VisBlock<double> part(3, 2, 5, PolMode::Full, true, true);
  part.start_time_index = 3;
  part.start_channel_index = 2;
  for (int c = 0; c < 2; ++c) part.frequency_hz(c) = whole.frequency_hz(2 + c);
  fringe::vis::add_system_noise(part, flat_table(5, 2.0), {11, 1, 1});
  for (int t = 0; t < 3; ++t)
    for (int c = 0; c < 2; ++c)
      for (std::size_t bl = 0; bl < part.num_baselines(); ++bl)
        for (int pol = 0; pol < 4; ++pol) {
          EXPECT_EQ(part.cross(t, c, bl, pol).re, whole.cross(3 + t, 2 + c, bl, pol).re);
          EXPECT_EQ(part.cross(t, c, bl, pol).im, whole.cross(3 + t, 2 + c, bl, pol).im);
        }
  auto other = zero_block(PolMode::Full, 6, 4, 5);
  fringe::vis::add_system_noise(other, flat_table(5, 2.0), {12, 1, 1});
  std::size_t same = 0;
  for (std::size_t i = 0; i < other.cross_data().size(); ++i)
    same += other.cross_data()[i].re == whole.cross_data()[i].re;
  EXPECT_EQ(same, 0u);
}

TEST(Noise, BadTableRefused) {
  auto b = zero_block(PolMode::Full, 1, 1, 3);
  EXPECT_THROW(fringe::vis::add_system_noise(b, flat_table(2, 1.0), {1, 0, 0}), fringe::Error);
  NoiseTable t = flat_table(3, -1.0);
  EXPECT_THROW(fringe::vis::add_system_noise(b, t, {1, 0, 0}), fringe::Error);
}

}  // namespace
