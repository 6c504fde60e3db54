#include <gtest/gtest.h>

#include <cmath>

#include "fringe/sky/spectrum.h"

namespace fringe::sky {
namespace {

constexpr double kC = 299792458.0;

SkyModel one(const Source& s) {
  SkyModel sky;
  sky.push_back(s);
  return sky;
}

Source base(double i, double f0, std::vector<double> spix) {
  Source s;
  s.I = i;
  s.ref_freq = f0;
  s.spectral_index = std::move(spix);
  return s;
}

// OSKAR's power-law example (docs/conventions.md, "Sky model files"): 1 Jy, alpha = -0.7, nu/nu0
// = 1.2 -> 0.88018 Jy.
TEST(Spectrum, OskarPowerLawFact) {
  const auto c = evaluate_stokes(one(base(1.0, 100e6, {-0.7})), 120e6);
  EXPECT_NEAR(c.I[0], 0.88018, 5e-6);
  EXPECT_NEAR(c.I[0], std::pow(1.2, -0.7), 1e-14);
}

TEST(Spectrum, AllStokesScaleLikeI) {
  Source s = base(2.0, 100e6, {-0.7});
  s.Q = 0.5;
  s.U = -0.25;
  s.V = 0.125;
  const auto c = evaluate_stokes(one(s), 150e6);
  const double r = std::pow(1.5, -0.7);
  EXPECT_NEAR(c.I[0], 2.0 * r, 1e-14);
  EXPECT_NEAR(c.Q[0], 0.5 * r, 1e-14);
  EXPECT_NEAR(c.U[0], -0.25 * r, 1e-14);
  EXPECT_NEAR(c.V[0], 0.125 * r, 1e-14);
}

TEST(Spectrum, LogPolynomial) {
  const double a0 = -0.7, a1 = 0.2, a2 = -0.05;
  const auto c = evaluate_stokes(one(base(3.0, 100e6, {a0, a1, a2})), 250e6);
  const double x = std::log10(2.5);
  EXPECT_NEAR(c.I[0], 3.0 * std::pow(2.5, a0 + a1 * x + a2 * x * x), 1e-13);
}

TEST(Spectrum, Linear) {
  Source s = base(3.0, 100e6, {0.5, -0.25});
  s.linear_spectral_index = true;
  const auto c = evaluate_stokes(one(s), 130e6);
  EXPECT_NEAR(c.I[0], 3.0 + 0.5 * 0.3 - 0.25 * 0.09, 1e-14);
}

TEST(Spectrum, Curvature) {
  Source s = base(1.5, 100e6, {-0.8, 99.0});  // higher terms ignored with curvature
  s.has_curvature = true;
  s.curvature = -0.3;
  const auto c = evaluate_stokes(one(s), 60e6);
  const double l = std::log(0.6);
  EXPECT_NEAR(c.I[0], 1.5 * std::pow(0.6, -0.8) * std::exp(-0.3 * l * l), 1e-14);
}

TEST(Spectrum, FlatWhenReferenceFrequencyIsZero) {
  Source s = base(4.0, 0.0, {-0.7});
  s.Q = 1.0;
  const auto c = evaluate_stokes(one(s), 123e6);
  EXPECT_EQ(c.I[0], 4.0);
  EXPECT_EQ(c.Q[0], 1.0);
}

TEST(Spectrum, MultiValuedNearestReference) {
  Source s;
  s.chan_i = {1.0, 2.0, 3.0};
  s.chan_q = {0.1, 0.2, 0.3};
  s.I = 1.0;
  s.Q = 0.1;
  s.chan_ref_freq = {100e6, 110e6, 120e6};
  s.ref_freq = 100e6;
  s.spectral_index = {-0.7};  // ignored for multi-valued spectra
  const SkyModel sky = one(s);
  EXPECT_EQ(evaluate_stokes(sky, 104e6).I[0], 1.0);
  EXPECT_EQ(evaluate_stokes(sky, 106e6).I[0], 2.0);
  EXPECT_EQ(evaluate_stokes(sky, 106e6).Q[0], 0.2);
  EXPECT_EQ(evaluate_stokes(sky, 500e6).I[0], 3.0);
  // Start + k * increment form.
  Source t;
  t.chan_i = {5.0, 6.0};
  t.I = 5.0;
  t.ref_freq = 100e6;
  t.freq_inc = 1e6;
  EXPECT_EQ(evaluate_stokes(one(t), 100.9e6).I[0], 6.0);
}

TEST(Spectrum, GaussianLines) {
  Source s;
  s.chan_i = {2.0, 1.0};
  s.I = 2.0;
  s.chan_ref_freq = {100e6, 101e6};
  s.ref_freq = 100e6;
  s.line_width = {2e5, 1e5};
  const double f = 100.3e6;
  const double expect = 2.0 * std::exp(-0.3e6 * 0.3e6 / (2 * 2e5 * 2e5)) +
                        1.0 * std::exp(-0.7e6 * 0.7e6 / (2 * 1e5 * 1e5));
  EXPECT_NEAR(evaluate_stokes(one(s), f).I[0], expect, 1e-14);
}

TEST(Spectrum, RotationMeasureRotatesPolarisationAngle) {
  Source s = base(2.0, 100e6, {-0.7});
  s.Q = 0.6;
  s.U = 0.8;  // p = 0.5, chi(lambda0) = atan2(0.8, 0.6) / 2
  s.has_rotation_measure = true;
  s.rotation_measure = 3.0;
  const SkyModel sky = one(s);
  const double lambda0 = kC / 100e6;
  const double chi_ref = 0.5 * std::atan2(0.8, 0.6);
  for (double f : {100e6, 80e6, 140e6}) {
    const auto c = evaluate_stokes(sky, f);
    const double i = 2.0 * std::pow(f / 100e6, -0.7);
    const double lambda = kC / f;
    const double chi = chi_ref + 3.0 * (lambda * lambda - lambda0 * lambda0);
    EXPECT_NEAR(c.I[0], i, 1e-13);
    EXPECT_NEAR(c.Q[0], 0.5 * i * std::cos(2 * chi), 1e-13) << f;
    EXPECT_NEAR(c.U[0], 0.5 * i * std::sin(2 * chi), 1e-13) << f;
    // Polarised fraction is conserved.
    EXPECT_NEAR(std::hypot(c.Q[0], c.U[0]) / c.I[0], 0.5, 1e-13);
  }
  // At the reference frequency Q, U are unchanged.
  const auto c0 = evaluate_stokes(sky, 100e6);
  EXPECT_NEAR(c0.Q[0], 0.6, 1e-13);
  EXPECT_NEAR(c0.U[0], 0.8, 1e-13);
}

TEST(Spectrum, PolarisationFractionAndAngleColumns) {
  Source s = base(1.0, 100e6, {});
  s.pol_fraction = {0.2};
  s.pol_angle = {0.3};
  s.has_rotation_measure = true;
  s.rotation_measure = -2.0;
  const double f = 90e6, lambda = kC / f;
  const auto c = evaluate_stokes(one(s), f);
  const double chi = 0.3 - 2.0 * lambda * lambda;
  EXPECT_NEAR(c.Q[0], 0.2 * std::cos(2 * chi), 1e-14);
  EXPECT_NEAR(c.U[0], 0.2 * std::sin(2 * chi), 1e-14);
}

TEST(Spectrum, CommonFluxFilterBounds) {
  const std::vector<double> I = {0.5, 1.0, 1.5, 2.0, 2.5};
  CommonFluxFilterConfig cfg;
  cfg.flux_min = 1.0;  // exclusive
  cfg.flux_max = 2.0;  // inclusive
  EXPECT_EQ(common_flux_filter_mask(I, cfg), (std::vector<std::uint8_t>{0, 0, 1, 1, 0}));
}

}  // namespace
}  // namespace fringe::sky
