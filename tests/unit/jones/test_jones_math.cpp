// jones_math.h: the per-element formulas, checked against analytic values, ERFA and the
// documented OSKAR facts (docs/conventions.md, "Station beams"; docs/station_beams.md).
#include <erfa.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fringe/astro/horizontal_math.h"
#include "fringe/jones/jones_math.h"

namespace fringe::jones {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;

TEST(JonesMath, CircularGaussianIsHalfAtDocumentedRadius) {
  // OSKAR's Gaussian station beam is 0.5 at the tangent-plane radius sin(FWHM)/2.
  for (const double fwhm_deg : {0.5, 3.0, 20.0, 60.0}) {
    const double fwhm = fwhm_deg * kDeg;
    const GaussianFeed<double> g = gaussian_circular(fwhm);
    const double r = std::sin(fwhm) / 2.0;
    for (const double phi : {0.0, 0.7, 2.0, 4.0}) {
      EXPECT_NEAR(gaussian_value(g, r * std::cos(phi), r * std::sin(phi)), 0.5, 1e-14)
          << fwhm_deg << " deg, direction " << phi;
    }
    EXPECT_EQ(gaussian_value(g, 0.0, 0.0), 1.0);
  }
}

TEST(JonesMath, SigmaIsSinFwhmOverTwoSqrtTwoLnTwo) {
  const double fwhm = 7.0 * kDeg;
  EXPECT_NEAR(gaussian_sigma_lm(fwhm), std::sin(fwhm) / (2.0 * std::sqrt(2.0 * std::log(2.0))),
              1e-17);
}

TEST(JonesMath, FrequencyScalingOnlyWithReferenceFrequency) {
  EXPECT_DOUBLE_EQ(gaussian_fwhm_at(2.0, 100e6, 200e6), 1.0);  // FWHM * f_ref / f
  EXPECT_DOUBLE_EQ(gaussian_fwhm_at(2.0, 100e6, 50e6), 4.0);
  EXPECT_DOUBLE_EQ(gaussian_fwhm_at(2.0, 0.0, 200e6), 2.0);  // ref 0: no scaling (OSKAR)
}

TEST(JonesMath, EllipticalAxesAndAngle) {
  const double maj = 4.0 * kDeg, mn = 1.5 * kDeg;
  // Angle 0: major axis along +m, minor along +l.
  GaussianFeed<double> g = gaussian_elliptical(maj, mn, 0.0);
  EXPECT_NEAR(gaussian_value(g, 0.0, std::sin(maj) / 2), 0.5, 1e-14);
  EXPECT_NEAR(gaussian_value(g, std::sin(mn) / 2, 0.0), 0.5, 1e-14);
  // Angle 30 deg: the major axis turns from +m towards +l.
  const double t = 30.0 * kDeg;
  g = gaussian_elliptical(maj, mn, t);
  const double rj = std::sin(maj) / 2, rn = std::sin(mn) / 2;
  EXPECT_NEAR(gaussian_value(g, rj * std::sin(t), rj * std::cos(t)), 0.5, 1e-14);
  EXPECT_NEAR(gaussian_value(g, rn * std::cos(t), -rn * std::sin(t)), 0.5, 1e-14);
  // Equal axes reduce to the circular beam at any angle.
  const GaussianFeed<double> e = gaussian_elliptical(maj, maj, 1.234);
  const GaussianFeed<double> c = gaussian_circular(maj);
  EXPECT_NEAR(e.a, c.a, 1e-9 * c.a);
  EXPECT_NEAR(e.b, 0.0, 1e-9 * c.a);
  EXPECT_NEAR(e.c, c.c, 1e-9 * c.a);
}

TEST(JonesMath, TangentPlaneAxesFollowAzimuthAndElevation) {
  // Beam towards azimuth 40 deg, elevation 50 deg.
  const double az0 = 40.0 * kDeg, el0 = 50.0 * kDeg;
  auto enu = [](double az, double el, double& e, double& n, double& u) {
    e = std::cos(el) * std::sin(az);
    n = std::cos(el) * std::cos(az);
    u = std::sin(el);
  };
  double be, bn, bu;
  enu(az0, el0, be, bn, bu);
  const TangentPlane<double> p = beam_tangent_plane(be, bn, bu);
  double e, n, u, l, m;
  tangent_plane_lm(p, be, bn, bu, l, m);  // the beam direction itself
  EXPECT_NEAR(l, 0.0, 1e-15);
  EXPECT_NEAR(m, 0.0, 1e-15);
  const double d = 0.01;
  enu(az0, el0 + d, e, n, u);  // higher: +m
  tangent_plane_lm(p, e, n, u, l, m);
  EXPECT_NEAR(l, 0.0, 1e-15);
  EXPECT_NEAR(m, std::sin(d), 1e-15);
  enu(az0 + d, el0, e, n, u);  // larger azimuth: -l
  tangent_plane_lm(p, e, n, u, l, m);
  EXPECT_LT(l, -0.9 * d * std::cos(el0));
  EXPECT_NEAR(m, 0.0, 1e-4);
  // l^2 + m^2 = sin^2 of the angle from the beam direction (a projection on the plane).
  enu(az0 - 0.3, el0 + 0.2, e, n, u);
  tangent_plane_lm(p, e, n, u, l, m);
  const double cos_d = e * be + n * bn + u * bu;
  EXPECT_NEAR(l * l + m * m, 1.0 - cos_d * cos_d, 1e-15);
}

TEST(JonesMath, SourceEnuAndParallacticAngleMatchErfa) {
  for (const double lat_deg : {-60.0, -26.7, 0.0, 34.1, 78.0}) {
    for (const double ha_deg : {-150.0, -40.0, 0.0, 25.0, 170.0}) {
      for (const double dec_deg : {-80.0, -30.0, 5.0, 60.0}) {
        const double lat = lat_deg * kDeg, ha = ha_deg * kDeg, dec = dec_deg * kDeg;
        double e, n, u;
        source_enu(std::sin(ha), std::cos(ha), std::sin(dec), std::cos(dec), std::sin(lat),
                   std::cos(lat), e, n, u);
        double az, el;
        eraHd2ae(ha, dec, lat, &az, &el);
        EXPECT_NEAR(u, std::sin(el), 1e-14);
        EXPECT_NEAR(e, std::cos(el) * std::sin(az), 1e-14);
        EXPECT_NEAR(n, std::cos(el) * std::cos(az), 1e-14);
        const double psi = parallactic_angle(std::sin(ha), std::cos(ha), std::sin(dec),
                                             std::cos(dec), std::sin(lat), std::cos(lat));
        EXPECT_NEAR(psi, eraHd2pa(ha, dec, lat), 1e-13);
        const auto r = parallactic_rotation_from_terms(std::sin(ha), std::cos(ha), std::sin(dec),
                                                       std::cos(dec), std::sin(lat), std::cos(lat));
        const auto ref = astro::parallactic_rotation(eraHd2pa(ha, dec, lat));
        EXPECT_NEAR(r.xx, ref.xx, 1e-14);
        EXPECT_NEAR(r.xy, ref.xy, 1e-14);
        EXPECT_NEAR(r.yx, ref.yx, 1e-14);
        EXPECT_NEAR(r.yy, ref.yy, 1e-14);
      }
    }
  }
}

TEST(JonesMath, RotationAtTheZenithIsIdentity) {
  // Source exactly at the zenith (H = 0, Dec = latitude): psi = atan2(0, 0) = 0.
  const double lat = -0.4;
  const auto r = parallactic_rotation_from_terms(0.0, 1.0, std::sin(lat), std::cos(lat),
                                                 std::sin(lat), std::cos(lat));
  EXPECT_EQ(r.xx, 1.0);
  EXPECT_EQ(r.xy, 0.0);
  EXPECT_EQ(r.yx, 0.0);
  EXPECT_EQ(r.yy, 1.0);
}

TEST(JonesMath, RotationIsOrthogonalAndComposesWithDiagonalBeam) {
  for (const double psi : {-3.0, -1.0, 0.0, 0.4, 2.5}) {
    const auto r = astro::parallactic_rotation(psi);
    // R R^T = I, det R = 1.
    EXPECT_NEAR(r.xx * r.xx + r.xy * r.xy, 1.0, 1e-15);
    EXPECT_NEAR(r.yx * r.yx + r.yy * r.yy, 1.0, 1e-15);
    EXPECT_NEAR(r.xx * r.yx + r.xy * r.yy, 0.0, 1e-15);
    EXPECT_NEAR(r.xx * r.yy - r.xy * r.yx, 1.0, 1e-15);
    // diag(gx, gy) R equals the general matrix product.
    const double gx = 0.8, gy = 0.3;
    const Jones<double> j = diagonal_times_rotation(gx, gy, r);
    const Jones<double> ref = jones_diagonal<double>({gx, 0.0}, {gy, 0.0}) * rotation_jones(r);
    EXPECT_EQ(j, ref);
    EXPECT_EQ(jones_times_rotation(jones_diagonal<double>({gx, 0.0}, {gy, 0.0}), r), ref);
  }
}

TEST(JonesMath, Normalisation) {
  EXPECT_DOUBLE_EQ(normalisation_scalar(Complex<double>{0.3, -0.4}), 2.0);  // 1 / |b0|
  const Jones<double> b0 = jones_diagonal<double>({0.6, 0.0}, {0.8, 0.0});
  // 1 / sqrt((0.36 + 0.64) / 2)
  EXPECT_DOUBLE_EQ(normalisation_matrix(b0), std::sqrt(2.0));
  EXPECT_EQ(normalisation_scalar(Complex<double>{0.0, 0.0}), 1.0);  // zero: left alone
  EXPECT_EQ(normalisation_matrix(jones_zero<double>()), 1.0);
  EXPECT_DOUBLE_EQ(scalar_from_feeds(0.6, 0.8), std::sqrt(0.5));
}

// A cable a quarter, a half and a whole wavelength too long delays the phase by pi/2, pi and
// 2 pi: exp(i 2 pi dL / lambda) = i, -1, 1 (docs/station_beams.md).
TEST(JonesMath, CablePhase) {
  const double f = 100e6, lambda = 299792458.0 / f;
  const Complex<double> quarter = cable_phase<double>(lambda / 4, f);
  EXPECT_NEAR(quarter.re, 0.0, 1e-15);
  EXPECT_NEAR(quarter.im, 1.0, 1e-15);
  const Complex<double> half = cable_phase<double>(lambda / 2, f);
  EXPECT_NEAR(half.re, -1.0, 1e-15);
  EXPECT_NEAR(half.im, 0.0, 1e-15);
  const Complex<float> whole = cable_phase<float>(lambda, f);
  EXPECT_NEAR(whole.re, 1.0f, 1e-7f);
  EXPECT_NEAR(whole.im, 0.0f, 1e-7f);
  const Complex<double> none = cable_phase<double>(0.0, f);
  EXPECT_EQ(none.re, 1.0);
  EXPECT_EQ(none.im, 0.0);
}

TEST(JonesMath, FloatInstantiationAgreesWithDouble) {
  const GaussianFeed<float> gf = gaussian_elliptical(0.05f, 0.02f, 0.3f);
  const GaussianFeed<double> gd = gaussian_elliptical(0.05, 0.02, 0.3);
  EXPECT_NEAR(gaussian_value(gf, 0.01f, -0.012f), gaussian_value(gd, 0.01, -0.012), 1e-6);
}

}  // namespace
}  // namespace fringe::jones
