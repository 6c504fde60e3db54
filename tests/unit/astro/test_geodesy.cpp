// ERFA_WGS84 geodetic <-> ECEF <-> ENU against ERFA and geometric identities.
#include <erfa.h>
#include <erfam.h>
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <numbers>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/core/error.h"

namespace fa = fringe::astro;

namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;

double dist(const fa::Vec3& a, const fa::Vec3& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                   (a.z - b.z) * (a.z - b.z));
}
double dot(const fa::Vec3& a, const fa::Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Latitudes including the poles, the equator and points a hair away from the poles.
std::vector<double> test_latitudes() {
  std::vector<double> lats;
  for (int i = -90; i <= 90; i += 5) lats.push_back(i * kDeg);
  for (double eps : {1e-12, 1e-9, 1e-6, 1e-3}) {
    lats.push_back(kPi / 2 - eps);
    lats.push_back(-kPi / 2 + eps);
  }
  lats.push_back(-26.82 * kDeg);  // SKA-Low
  lats.push_back(52.9 * kDeg);    // LOFAR
  return lats;
}
const std::vector<double> kHeights = {-1000.0, -12.5, 0.0, 0.37, 330.104, 1000.0, 5000.0, 10000.0};
}  // namespace

TEST(Geodesy, GeodeticToEcefMatchesErfaGd2gc) {
  double max_diff = 0.0;
  for (double lat : test_latitudes()) {
    for (int lon_deg = -180; lon_deg <= 180; lon_deg += 15) {
      for (double h : kHeights) {
        const fa::Geodetic g{lon_deg * kDeg + 0.123, lat, h};
        double xyz[3];
        ASSERT_EQ(eraGd2gc(ERFA_WGS84, g.lon, g.lat, g.height, xyz), 0);
        max_diff = std::max(max_diff, dist(fa::geodetic_to_ecef(g), {xyz[0], xyz[1], xyz[2]}));
      }
    }
  }
  std::cout << "max |ECEF - eraGd2gc| = " << max_diff << " m\n";
  // Same closed formula; differences are rounding (1 ulp of 6.4e6 m is 9.3e-10 m). Ours is
  // evaluated in long double and rounded once, ERFA's in double (a few ulp).
  EXPECT_LT(max_diff, 3e-9);
}

TEST(Geodesy, EcefToGeodeticMatchesErfaGc2gd) {
  double max_dlat = 0.0, max_dh = 0.0;
  for (double lat : test_latitudes()) {
    for (int lon_deg = -175; lon_deg <= 180; lon_deg += 35) {
      for (double h : kHeights) {
        double xyz[3];
        ASSERT_EQ(eraGd2gc(ERFA_WGS84, lon_deg * kDeg, lat, h, xyz), 0);
        double e_lon, e_lat, e_h;
        ASSERT_EQ(eraGc2gd(ERFA_WGS84, xyz, &e_lon, &e_lat, &e_h), 0);
        const fa::Geodetic g = fa::ecef_to_geodetic({xyz[0], xyz[1], xyz[2]});
        max_dlat = std::max(max_dlat, std::abs(g.lat - e_lat));
        max_dh = std::max(max_dh, std::abs(g.height - e_h));
        if (std::abs(lat) < kPi / 2 - 1e-6) {
          ASSERT_NEAR(std::remainder(g.lon - e_lon, 2 * kPi), 0.0, 1e-15);
        }
      }
    }
  }
  std::cout << "max |lat - eraGc2gd| = " << max_dlat << " rad, |h| = " << max_dh << " m\n";
  EXPECT_LT(max_dlat, 1e-15);
  // ERFA's height is computed in double from differences of ~6.4e6 m quantities (a few ulp of
  // 9.3e-10 m); ours in long double (see the round-trip test, which stays below 1e-9 m).
  EXPECT_LT(max_dh, 5e-9);
}

// geodetic -> ECEF -> geodetic: the returned point must be the same place. The error is
// measured in metres along the surface (lat and lon errors times the radii of curvature) and
// in height. The floor is the rounding of the intermediate ECEF coordinates themselves:
// half an ulp of 6.4e6 m is 4.7e-10 m per coordinate (both directions are evaluated in long
// double, so the error is that rounding and little else; in plain double it was ~3e-9 m).
TEST(Geodesy, GeodeticEcefRoundTrip) {
  constexpr double kA = 6378137.0;
  double max_err = 0.0;
  int n = 0;
  for (double lat : test_latitudes()) {
    for (int lon_deg = -180; lon_deg < 180; lon_deg += 5) {
      for (double h : kHeights) {
        const fa::Geodetic g{lon_deg * kDeg + 1e-3, lat, h};
        const fa::Geodetic back = fa::ecef_to_geodetic(fa::geodetic_to_ecef(g));
        const double r_par = (kA + h) * std::cos(lat);  // radius of the parallel (approx.)
        const double e_lat = std::abs(back.lat - g.lat) * (kA + h);
        const double e_lon = std::abs(std::remainder(back.lon - g.lon, 2 * kPi)) * r_par;
        const double e_h = std::abs(back.height - g.height);
        const double err = std::max({e_lat, e_lon, e_h});
        max_err = std::max(max_err, err);
        ++n;
      }
    }
  }
  std::cout << "geodetic round trip: max error " << max_err << " m over " << n << " points\n";
  EXPECT_LT(max_err, 1e-9);
}

// The ENU axes at a point are the derivatives of the geodetic -> ECEF map: Up is the ellipsoid
// normal (d/dh), North points along d/dlat, East along d/dlon. Checked by finite differences.
TEST(Geodesy, EnuAxesAreGeodeticDirections) {
  for (double lat : {-89.0, -45.0, -26.8, 0.0, 30.0, 52.9, 89.0}) {
    for (double lon : {-170.0, -60.0, 0.0, 6.9, 116.7}) {
      const fa::Geodetic g{lon * kDeg, lat * kDeg, 100.0};
      const fa::Vec3 p = fa::geodetic_to_ecef(g);
      const fa::Vec3 up = fa::geodetic_to_ecef({g.lon, g.lat, g.height + 1.0});
      const fa::Vec3 north = fa::geodetic_to_ecef({g.lon, g.lat + 1e-7, g.height});
      const fa::Vec3 east = fa::geodetic_to_ecef({g.lon + 1e-7, g.lat, g.height});
      auto unit = [&](const fa::Vec3& q) {
        const double d = dist(q, p);
        return fa::Vec3{(q.x - p.x) / d, (q.y - p.y) / d, (q.z - p.z) / d};
      };
      const fa::Vec3 e_axis = fa::enu_to_ecef_offset({1, 0, 0}, g.lon, g.lat);
      const fa::Vec3 n_axis = fa::enu_to_ecef_offset({0, 1, 0}, g.lon, g.lat);
      const fa::Vec3 u_axis = fa::enu_to_ecef_offset({0, 0, 1}, g.lon, g.lat);
      EXPECT_NEAR(dot(u_axis, unit(up)), 1.0, 1e-12);
      EXPECT_NEAR(dot(n_axis, unit(north)), 1.0, 1e-12);
      EXPECT_NEAR(dot(e_axis, unit(east)), 1.0, 1e-12);
      // Orthonormal, right-handed (E x N = U).
      EXPECT_NEAR(dot(e_axis, n_axis), 0.0, 1e-15);
      EXPECT_NEAR(dot(e_axis, u_axis), 0.0, 1e-15);
      EXPECT_NEAR(e_axis.y * n_axis.z - e_axis.z * n_axis.y, u_axis.x, 1e-15);
      EXPECT_NEAR(e_axis.z * n_axis.x - e_axis.x * n_axis.z, u_axis.y, 1e-15);
      EXPECT_NEAR(e_axis.x * n_axis.y - e_axis.y * n_axis.x, u_axis.z, 1e-15);
    }
  }
}

TEST(Geodesy, EnuRoundTripsAndOffsets) {
  const fa::Geodetic ref{116.7644482 * kDeg, -26.82472208 * kDeg, 377.8};
  const fa::Vec3 enu{1234.5, -876.25, 3.5};
  const fa::Vec3 back =
      fa::ecef_offset_to_enu(fa::enu_to_ecef_offset(enu, ref.lon, ref.lat), ref.lon, ref.lat);
  EXPECT_NEAR(dist(back, enu), 0.0, 1e-11);
  // Absolute: the reference itself is the ENU origin; 100 m straight up is (0, 0, 100).
  EXPECT_NEAR(dist(fa::ecef_to_enu(fa::geodetic_to_ecef(ref), ref), {0, 0, 0}), 0.0, 1e-9);
  const fa::Vec3 up = fa::geodetic_to_ecef({ref.lon, ref.lat, ref.height + 100.0});
  EXPECT_NEAR(dist(fa::ecef_to_enu(up, ref), {0, 0, 100.0}), 0.0, 1e-8);
  EXPECT_NEAR(dist(fa::ecef_to_enu(fa::enu_to_ecef(enu, ref), ref), enu), 0.0, 1e-8);
  // A point 1 km east along the ENU plane is 1 km from the reference and ~0.078 m below the
  // ellipsoid's surface there (curvature: d^2 / (2 N) with N ~ 6.38e6 m).
  const fa::Geodetic east = fa::ecef_to_geodetic(fa::enu_to_ecef({1000.0, 0, 0}, ref));
  EXPECT_NEAR(east.height - ref.height, 1000.0 * 1000.0 / (2 * 6.38e6), 2e-3);
}

TEST(Geodesy, RejectsNonTerrestrialEcef) {
  EXPECT_THROW(fa::ecef_to_geodetic({0, 0, 0}), fringe::Error);
  EXPECT_THROW(fa::ecef_to_geodetic({6378.137, 0, 0}), fringe::Error);  // km by mistake
  EXPECT_THROW(fa::ecef_to_geodetic({std::nan(""), 0, 0}), fringe::Error);
  EXPECT_THROW(fa::ecef_to_geodetic({1e9, 0, 0}), fringe::Error);
  // A point at the pole has lon 0 and lat +-pi/2.
  const fa::Geodetic np = fa::ecef_to_geodetic({0, 0, 6378137.0 * (1 - 1 / 298.257223563) + 10.0});
  EXPECT_NEAR(np.lat, kPi / 2, 1e-15);
  EXPECT_NEAR(np.height, 10.0, 1e-8);
}
