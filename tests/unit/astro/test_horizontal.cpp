// Az/el, ENU direction cosines and parallactic angle against ERFA and geometry.
#include <erfa.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/astro/horizontal.h"
#include "fringe/astro/horizontal_math.h"
#include "fringe/astro/parallactic_math.h"
#include "fringe/core/error.h"

namespace fa = fringe::astro;

namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;
double angle_diff(double a, double b) { return std::remainder(a - b, 2.0 * kPi); }
}  // namespace

TEST(Horizontal, AzElMatchesErfaHd2ae) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> ha(-kPi, kPi), lat(-kPi / 2, kPi / 2);
  for (int i = 0; i < 20000; ++i) {
    const double h = ha(rng), d = lat(rng), phi = lat(rng);
    double az, el, e_az, e_el;
    fa::hadec_to_azel(h, d, phi, az, el);
    eraHd2ae(h, d, phi, &e_az, &e_el);
    ASSERT_GE(az, 0.0);
    ASSERT_LT(az, 2 * kPi);
    ASSERT_NEAR(el, e_el, 1e-13);
    if (std::abs(e_el) < kPi / 2 - 1e-6) {  // azimuth undefined at the zenith / nadir
      ASSERT_NEAR(angle_diff(az, e_az), 0.0, 1e-12) << h << ' ' << d << ' ' << phi;
    }
  }
}

TEST(Horizontal, EnuIsUnitAndConsistentWithAzEl) {
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> ha(-kPi, kPi), lat(-kPi / 2, kPi / 2);
  for (int i = 0; i < 5000; ++i) {
    const double h = ha(rng), d = lat(rng), phi = lat(rng);
    double e, n, u, e_az, e_el;
    fa::hadec_to_enu(h, d, phi, e, n, u);
    eraHd2ae(h, d, phi, &e_az, &e_el);
    EXPECT_NEAR(e * e + n * n + u * u, 1.0, 1e-14);
    EXPECT_NEAR(u, std::sin(e_el), 1e-13);
    EXPECT_NEAR(e, std::cos(e_el) * std::sin(e_az), 1e-13);
    EXPECT_NEAR(n, std::cos(e_el) * std::cos(e_az), 1e-13);
  }
}

// The ENU direction of a source equals the ECEF unit vector of its direction (longitude
// RA - GAST, latitude dec, since RA/Dec are taken as apparent in an Earth frame rotated by GAST)
// rotated into the station's ENU frame by geodesy.h: an independent path through other code.
TEST(Horizontal, RadecToEnuMatchesGeodesyRotation) {
  const fa::Geodetic st{116.7644482 * kDeg, -26.82472208 * kDeg, 377.8};
  for (double gast : {0.1, 2.0, 5.5}) {
    for (double ra : {0.0, 1.0, 3.0, 5.0}) {
      for (double dec : {-80.0, -30.0, 0.0, 20.0, 60.0}) {
        const double d = dec * kDeg, lon_s = ra - gast;
        const fa::Vec3 s{std::cos(d) * std::cos(lon_s), std::cos(d) * std::sin(lon_s), std::sin(d)};
        const fa::Vec3 want = fa::ecef_offset_to_enu(s, st.lon, st.lat);
        const fa::Vec3 got = fa::radec_to_enu(ra, d, gast, st.lon, st.lat);
        EXPECT_NEAR(got.x, want.x, 1e-14);
        EXPECT_NEAR(got.y, want.y, 1e-14);
        EXPECT_NEAR(got.z, want.z, 1e-14);
      }
    }
  }
}

TEST(Horizontal, ZenithAndPole) {
  const double lon = 0.3, lat = 0.9, gast = 1.7;
  // A source at RA = LST, Dec = lat is at the zenith.
  const fa::Vec3 z = fa::radec_to_enu(gast + lon, lat, gast, lon, lat);
  EXPECT_NEAR(z.x, 0.0, 1e-15);
  EXPECT_NEAR(z.y, 0.0, 1e-15);
  EXPECT_NEAR(z.z, 1.0, 1e-15);
  EXPECT_NEAR(fa::radec_to_azel(gast + lon, lat, gast, lon, lat).el, kPi / 2, 1e-7);
  // The North celestial pole is due North at elevation = latitude, whatever the RA.
  for (double ra : {0.0, 2.0, 4.0}) {
    const fa::AzEl p = fa::radec_to_azel(ra, kPi / 2, gast, lon, lat);
    EXPECT_NEAR(angle_diff(p.az, 0.0), 0.0, 1e-12);
    EXPECT_NEAR(p.el, lat, 1e-12);
  }
  // A source on the meridian south of the zenith has az = 180 deg (northern site).
  const fa::AzEl s = fa::radec_to_azel(gast + lon, lat - 0.5, gast, lon, lat);
  EXPECT_NEAR(s.az, kPi, 1e-12);
  EXPECT_NEAR(s.el, kPi / 2 - 0.5, 1e-12);
  // Rising in the East: hour angle -90 deg at the equator, dec 0 -> az 90 deg, el 0.
  const fa::AzEl r = fa::radec_to_azel(gast + 0.0 + kPi / 2, 0.0, gast, 0.0, 0.0);
  EXPECT_NEAR(r.az, kPi / 2, 1e-12);
  EXPECT_NEAR(r.el, 0.0, 1e-12);
}

TEST(Horizontal, ParallacticAngleMatchesErfaHd2pa) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> ha(-kPi, kPi), lat(-kPi / 2 + 1e-3, kPi / 2 - 1e-3);
  for (int i = 0; i < 20000; ++i) {
    const double h = ha(rng), d = lat(rng), phi = lat(rng);
    ASSERT_NEAR(angle_diff(fa::hadec_to_parallactic_angle(h, d, phi), eraHd2pa(h, d, phi)), 0.0,
                1e-12);
  }
  // Host wrapper: H = GAST + lon - RA.
  const double ra = 1.2, dec = -0.7, gast = 4.4, lon = 2.04, lat0 = -0.468;
  EXPECT_NEAR(fa::parallactic_angle(ra, dec, gast, lon, lat0), eraHd2pa(gast + lon - ra, dec, lat0),
              1e-12);
  // On the meridian south of the zenith the angle is 0; east of it, negative.
  EXPECT_NEAR(fa::hadec_to_parallactic_angle(0.0, 0.2, 0.8), 0.0, 1e-15);
  EXPECT_LT(fa::hadec_to_parallactic_angle(-0.5, 0.2, 0.8), 0.0);
}

TEST(Horizontal, ParallacticRotationIsARotationByPsi) {
  for (double psi : {-2.5, -0.3, 0.0, 0.7, 3.0}) {
    const fa::Rotation2<double> r = fa::parallactic_rotation(psi);
    EXPECT_DOUBLE_EQ(r.xx, std::cos(psi));
    EXPECT_DOUBLE_EQ(r.xy, -std::sin(psi));
    EXPECT_DOUBLE_EQ(r.yx, std::sin(psi));
    EXPECT_DOUBLE_EQ(r.yy, std::cos(psi));
    EXPECT_NEAR(r.xx * r.yy - r.xy * r.yx, 1.0, 1e-15);
  }
  const fa::Rotation2<float> rf = fa::parallactic_rotation(0.5f);
  EXPECT_NEAR(rf.yx, std::sin(0.5), 1e-7);
}

TEST(Horizontal, ArrayFormsAndHourAngle) {
  const std::vector<double> ra{0.1, 2.0, 4.5}, dec{-1.0, 0.0, 0.9};
  std::vector<double> x(3), y(3), z(3), psi(3);
  const double gast = 3.3, lon = -1.1, lat = 0.6;
  fa::radec_to_enu(ra, dec, gast, lon, lat, x, y, z);
  fa::parallactic_angles(ra, dec, gast, lon, lat, psi);
  for (int i = 0; i < 3; ++i) {
    const fa::Vec3 s = fa::radec_to_enu(ra[i], dec[i], gast, lon, lat);
    EXPECT_DOUBLE_EQ(x[i], s.x);
    EXPECT_DOUBLE_EQ(y[i], s.y);
    EXPECT_DOUBLE_EQ(z[i], s.z);
    EXPECT_DOUBLE_EQ(psi[i], fa::parallactic_angle(ra[i], dec[i], gast, lon, lat));
  }
  std::vector<double> two(2);
  EXPECT_THROW(fa::radec_to_enu(ra, dec, gast, lon, lat, x, y, two), fringe::Error);
  EXPECT_THROW(fa::parallactic_angles(ra, dec, gast, lon, lat, two), fringe::Error);
  const double h = fa::local_hour_angle(0.2, 6.0, 0.5);
  EXPECT_GE(h, -kPi);
  EXPECT_LT(h, kPi);
  EXPECT_NEAR(angle_diff(h, 6.0 + 0.5 - 0.2), 0.0, 1e-15);
}
