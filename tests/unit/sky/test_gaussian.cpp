#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fringe/sky/gaussian.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

using test::kArcsec;
using test::kDeg;
constexpr double kPi = std::numbers::pi;

// OSKAR's Test_fit_ellipse values (docs/conventions.md, "Gaussian sources").
TEST(EllipseFit, OskarFact) {
  const std::vector<double> x = {-0.1686, -0.0921, 0.0765, 0.1686, 0.0921, -0.0765, -0.1686};
  const std::vector<double> y = {0.7282, 0.6994, 0.6675, 0.6643, 0.7088, 0.7407, 0.7282};
  const auto fit = fit_ellipse(x, y);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->major, 0.3608619735, 1e-9);
  EXPECT_NEAR(fit->minor, 0.0494223702, 1e-9);
  EXPECT_NEAR(fit->position_angle, -1.3865537748, 1e-9);
}

TEST(EllipseFit, ExactEllipsesAnyOrientation) {
  for (double pa_deg : {-80.0, -45.0, 0.0, 10.0, 45.0, 89.0, 90.0}) {
    const double A = 3e-4, B = 1e-4, pa = pa_deg * kDeg, x0 = 0.01, y0 = -0.02;
    std::vector<double> x, y;
    for (int j = 0; j < 6; ++j) {
      const double t = j * kPi / 3;
      x.push_back(x0 + A * std::cos(t) * std::sin(pa) + B * std::sin(t) * std::cos(pa));
      y.push_back(y0 + A * std::cos(t) * std::cos(pa) - B * std::sin(t) * std::sin(pa));
    }
    const auto fit = fit_ellipse(x, y);
    ASSERT_TRUE(fit) << pa_deg;
    EXPECT_NEAR(fit->major, 2 * A, 1e-12) << pa_deg;
    EXPECT_NEAR(fit->minor, 2 * B, 1e-12) << pa_deg;
    double d = fit->position_angle - pa;
    d = std::remainder(d, kPi);  // orientation is defined modulo pi
    EXPECT_NEAR(d, 0.0, 1e-8) << pa_deg;
  }
}

TEST(EllipseFit, DegenerateInputsFail) {
  EXPECT_FALSE(fit_ellipse(std::vector<double>{0, 1, 2, 3}, std::vector<double>{0, 1, 2, 3}));
  // Collinear points are not an ellipse.
  EXPECT_FALSE(
      fit_ellipse(std::vector<double>{0, 1, 2, 3, 4, 5}, std::vector<double>{0, 2, 4, 6, 8, 10}));
}

TEST(Gaussian, AtPhaseCentreTheShapeIsUnchanged) {
  const double ra0 = 20 * kDeg, dec0 = -30 * kDeg;
  const auto fit = project_gaussian(ra0, dec0, 600 * kArcsec, 50 * kArcsec, 45 * kDeg, ra0, dec0);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->major / (600 * kArcsec), 1.0, 1e-9);
  EXPECT_NEAR(fit->minor / (50 * kArcsec), 1.0, 1e-9);
  EXPECT_NEAR(fit->position_angle, 45 * kDeg, 1e-8);
}

TEST(Gaussian, OffsetSourceIsForeshortenedAlongTheOffset) {
  // A circular source 60 deg North of the phase centre: on the phase-centre plane its
  // North-South extent shrinks by cos(60 deg) (orthographic projection), East-West stays.
  const double fwhm = 100 * kArcsec;
  const auto fit = project_gaussian(0.0, 60 * kDeg, fwhm, fwhm, 0.0, 0.0, 0.0);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->major / fwhm, 1.0, 1e-6);
  EXPECT_NEAR(fit->minor / fwhm, 0.5, 1e-6);
  EXPECT_NEAR(std::fabs(fit->position_angle), 90 * kDeg, 1e-6);  // major axis East-West
}

TEST(Gaussian, CoefficientsMatchFormula) {
  double a = 0, b = 0, c = 0;
  const double maj = 1e-3, min = 4e-4, pa = 0.3;
  gaussian_uv_coefficients(maj, min, pa, a, b, c);
  const double k = kPi * kPi / (4 * std::log(2.0));
  const double smaj = k * maj * maj, smin = k * min * min;
  EXPECT_NEAR(a, std::cos(pa) * std::cos(pa) * smin + std::sin(pa) * std::sin(pa) * smaj, 1e-20);
  EXPECT_NEAR(b, 0.5 * std::sin(2 * pa) * (smaj - smin), 1e-20);
  EXPECT_NEAR(c, std::sin(pa) * std::sin(pa) * smin + std::cos(pa) * std::cos(pa) * smaj, 1e-20);
  // The taper is 1/2 at half the uv-plane FWHM along the major axis direction:
  // FT of a Gaussian of FWHM theta has FWHM 4 ln2 / (pi theta) in u.
  gaussian_uv_coefficients(maj, maj, 0.0, a, b, c);
  const double u_half = 0.5 * 4 * std::log(2.0) / (kPi * maj);
  EXPECT_NEAR(std::exp(-a * u_half * u_half), 0.5, 1e-12);
}

TEST(Gaussian, FailedFitIsReportedAndBecomesPointOrZero) {
  SkyModel sky;
  Source good;
  good.I = 1;
  good.fwhm_major = 60 * kArcsec;
  good.fwhm_minor = 30 * kArcsec;
  Source huge = good;
  huge.I = 2;
  huge.fwhm_major = 200 * kDeg;  // ellipse points leave the tangent plane: no fit
  huge.fwhm_minor = 150 * kDeg;
  Source point;
  point.I = 3;
  sky.push_back(good);
  sky.push_back(huge);
  sky.push_back(point);
  std::vector<std::string> w;
  Diagnostics d;
  d.warnings = &w;
  auto coeffs = evaluate_gaussian_coefficients(sky, 0.0, 0.0, false, d);
  EXPECT_EQ(coeffs.failed, (std::vector<std::size_t>{1}));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("source 1"), std::string::npos) << w[0];
  EXPECT_GT(coeffs.a[0], 0.0);
  EXPECT_EQ(coeffs.a[1], 0.0);
  EXPECT_EQ(coeffs.c[2], 0.0);
  EXPECT_EQ(sky.I[1], 2.0);
  coeffs = evaluate_gaussian_coefficients(sky, 0.0, 0.0, true, d);
  EXPECT_EQ(sky.I[1], 0.0);
  EXPECT_EQ(sky.I[0], 1.0);
}

}  // namespace
}  // namespace fringe::sky
