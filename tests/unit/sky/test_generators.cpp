#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "fringe/core/error.h"
#include "fringe/sky/filters.h"
#include "fringe/sky/generators.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

using test::kArcsec;
using test::kDeg;
constexpr double kPi = std::numbers::pi;

// Least-squares slope of log(dN/dS) against log(S) over log-spaced bins in [lo, hi].
double fitted_slope(const std::vector<double>& flux, double lo, double hi, int bins) {
  std::vector<double> counts(bins, 0.0);
  const double a = std::log(lo), b = std::log(hi);
  for (double s : flux) {
    if (s < lo || s >= hi) continue;
    counts[static_cast<int>((std::log(s) - a) / (b - a) * bins)] += 1;
  }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (int k = 0; k < bins; ++k) {
    if (counts[k] < 20) continue;
    const double e0 = std::exp(a + (b - a) * k / bins), e1 = std::exp(a + (b - a) * (k + 1) / bins);
    const double x = 0.5 * (std::log(e0) + std::log(e1));
    const double y = std::log(counts[k] / (e1 - e0));
    sx += x, sy += y, sxx += x * x, sxy += x * y, ++n;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TEST(Generators, PowerLawSlopeCountAndPositions) {
  RandomPowerLawConfig cfg;
  cfg.num_sources = 200000;
  cfg.flux_min = 1.0;
  cfg.flux_max = 100.0;
  cfg.power = -2.0;
  cfg.seed = 7;
  const SkyModel sky = generate_random_power_law(cfg);
  ASSERT_EQ(sky.size(), 200000u);
  EXPECT_GE(*std::min_element(sky.I.begin(), sky.I.end()), 1.0);
  EXPECT_LE(*std::max_element(sky.I.begin(), sky.I.end()), 100.0);
  EXPECT_NEAR(fitted_slope(sky.I, 1.0, 100.0, 20), -2.0, 0.05);
  // Analytic CDF at S = 2: (1 - 1/2) / (1 - 1/100).
  const double below = std::count_if(sky.I.begin(), sky.I.end(), [](double s) { return s < 2; });
  EXPECT_NEAR(below / 200000.0, 0.5 / 0.99, 0.005);
  // Uniform on the sphere: half the sources North, <sin dec> = 0, <ra> = pi.
  double north = 0, mean_ra = 0;
  for (std::size_t i = 0; i < sky.size(); ++i) {
    north += sky.dec[i] > 0;
    mean_ra += sky.ra[i];
  }
  EXPECT_NEAR(north / sky.size(), 0.5, 0.005);
  EXPECT_NEAR(mean_ra / sky.size(), kPi, 0.02);
  // Same seed, same sky; different seed, different sky.
  EXPECT_EQ(generate_random_power_law(cfg).I, sky.I);
  cfg.seed = 8;
  EXPECT_NE(generate_random_power_law(cfg).I[0], sky.I[0]);
  cfg.flux_min = 0.0;
  EXPECT_THROW(generate_random_power_law(cfg), Error);
}

TEST(Generators, BrokenPowerLaw) {
  RandomBrokenPowerLawConfig cfg;
  cfg.num_sources = 200000;
  cfg.flux_min = 1.0;
  cfg.flux_max = 1000.0;
  cfg.threshold = 10.0;
  cfg.power1 = -1.5;
  cfg.power2 = -2.5;
  cfg.seed = 3;
  const SkyModel sky = generate_random_broken_power_law(cfg);
  ASSERT_EQ(sky.size(), 200000u);
  EXPECT_NEAR(fitted_slope(sky.I, 1.0, 10.0, 10), -1.5, 0.08);
  EXPECT_NEAR(fitted_slope(sky.I, 10.0, 1000.0, 10), -2.5, 0.08);
  // Fraction below the threshold from the continuous density.
  const double w1 = (std::pow(10.0, -0.5) - 1.0) / -0.5;
  const double w2 = std::pow(10.0, 1.0) * (std::pow(1000.0, -1.5) - std::pow(10.0, -1.5)) / -1.5;
  const double below =
      std::count_if(sky.I.begin(), sky.I.end(), [](double s) { return s < 10; }) / 200000.0;
  EXPECT_NEAR(below, w1 / (w1 + w2), 0.005);
}

TEST(Generators, GridPositionsAndFlux) {
  GridConfig cfg;
  cfg.side_length = 3;
  cfg.fov_rad = 2 * kDeg;
  cfg.mean_flux_jy = 1.5;
  const double ra0 = 30 * kDeg, dec0 = 60 * kDeg;
  const SkyModel sky = generate_grid(cfg, ra0, dec0);
  ASSERT_EQ(sky.size(), 9u);
  // Direction cosines from the local East/North basis at the phase centre.
  const double east[3] = {-std::sin(ra0), std::cos(ra0), 0};
  const double north[3] = {-std::sin(dec0) * std::cos(ra0), -std::sin(dec0) * std::sin(ra0),
                           std::cos(dec0)};
  const double h = std::sin(1 * kDeg);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const std::size_t k = j * 3 + i;
      const double s[3] = {std::cos(sky.dec[k]) * std::cos(sky.ra[k]),
                           std::cos(sky.dec[k]) * std::sin(sky.ra[k]), std::sin(sky.dec[k])};
      const double l = s[0] * east[0] + s[1] * east[1] + s[2] * east[2];
      const double m = s[0] * north[0] + s[1] * north[1] + s[2] * north[2];
      EXPECT_NEAR(l, h - h * i, 1e-14);
      EXPECT_NEAR(m, -h + h * j, 1e-14);
      EXPECT_EQ(sky.I[k], 1.5);
    }
  cfg.side_length = 100;
  cfg.std_flux_jy = 0.5;
  const SkyModel big = generate_grid(cfg, ra0, dec0);
  double mean = 0, var = 0;
  for (double s : big.I) mean += s;
  mean /= big.size();
  for (double s : big.I) var += (s - mean) * (s - mean);
  EXPECT_NEAR(mean, 1.5, 0.02);
  EXPECT_NEAR(std::sqrt(var / big.size()), 0.5, 0.02);
}

TEST(Generators, Healpix) {
  HealpixGeneratorConfig cfg;
  cfg.nside = 4;
  cfg.amplitude = 2.5;
  const SkyModel sky = generate_healpix(cfg);
  ASSERT_EQ(sky.size(), 192u);
  EXPECT_EQ(sky.I[100], 2.5);
}

TEST(Filters, FluxAndRadiusBounds) {
  SkyModel sky;
  for (double r_deg : {0.0, 1.0, 2.0, 3.0}) {
    Source s;
    s.ra = 0.0;
    s.dec = r_deg * kDeg;
    s.I = r_deg;  // flux equal to distance for convenience
    sky.push_back(s);
  }
  FilterConfig f;
  f.flux_min = 1.0;
  f.flux_max = 3.0;
  EXPECT_EQ(apply_filter(sky, f, 0, 0, false).size(), 2u);  // 2 and 3 (min exclusive)
  f = FilterConfig{};
  f.radius_inner_rad = 1 * kDeg;
  f.radius_outer_rad = 3 * kDeg;
  const SkyModel r = apply_filter(sky, f, 0, 0, false);
  ASSERT_EQ(r.size(), 2u);  // 1 (inner inclusive) and 2 (outer exclusive)
  EXPECT_EQ(r.I[0], 1.0);
  EXPECT_EQ(r.I[1], 2.0);
  EXPECT_EQ(apply_filter(sky, f, 0, 0, true).size(), 4u);  // drift scan: no radius filter
  EXPECT_NEAR(angular_distance(0, 0, kPi / 2, 0), kPi / 2, 1e-15);
}

TEST(Filters, ExtendedDefaultsAndSpectralIndexOverride) {
  SkyModel sky;
  for (int i = 0; i < 20000; ++i) {
    Source s;
    s.I = 1;
    s.spectral_index = {0.1, 0.2};
    s.linear_spectral_index = true;
    sky.push_back(s);
  }
  ExtendedSourceConfig e;
  e.fwhm_major_rad = 60 * kArcsec;
  apply_extended_sources(sky, e);  // minor = 0: not applied
  EXPECT_EQ(sky.num_gaussian(), 0u);
  e.fwhm_minor_rad = 30 * kArcsec;
  e.position_angle_rad = 0.5;
  apply_extended_sources(sky, e);
  EXPECT_EQ(sky.num_gaussian(), sky.size());
  EXPECT_EQ(sky.position_angle[7], 0.5);
  SpectralIndexConfig si;
  si.override = true;
  si.mean = -0.7;
  si.std_dev = 0.2;
  si.ref_frequency_hz = 150e6;
  override_spectral_index(sky, si);
  double mean = 0, var = 0;
  for (std::size_t i = 0; i < sky.size(); ++i) {
    ASSERT_EQ(sky.spectral_index.count(i), 1u);
    mean += sky.spectral_index.row(i)[0];
  }
  mean /= sky.size();
  for (std::size_t i = 0; i < sky.size(); ++i)
    var += std::pow(sky.spectral_index.row(i)[0] - mean, 2);
  EXPECT_NEAR(mean, -0.7, 0.01);
  EXPECT_NEAR(std::sqrt(var / sky.size()), 0.2, 0.01);
  EXPECT_EQ(sky.ref_freq[3], 150e6);
  EXPECT_FALSE(sky.flags[3] & kLinearSpectralIndex);
}

}  // namespace
}  // namespace fringe::sky
