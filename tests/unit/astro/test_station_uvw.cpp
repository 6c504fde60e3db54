// Station (u, v, w): analytic cases, geometry and the array wrapper.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/astro/station_uvw.h"
#include "fringe/astro/station_uvw_math.h"
#include "fringe/core/error.h"

namespace fa = fringe::astro;

namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;
}  // namespace

TEST(StationUvw, StationAtArrayCentreIsZero) {
  double u = 1, v = 1, w = 1;
  fa::station_uvw(0.0, 0.0, 0.0, 1.234, -0.5, u, v, w);
  EXPECT_EQ(u, 0.0);
  EXPECT_EQ(v, 0.0);
  EXPECT_EQ(w, 0.0);
  std::vector<double> x{0.0, 10.0}, y{0.0, 20.0}, z{0.0, -5.0}, uu(2), vv(2), ww(2);
  fa::station_uvw(x, y, z, 0.3, -0.9, 4.1, uu, vv, ww);
  EXPECT_EQ(uu[0], 0.0);
  EXPECT_EQ(vv[0], 0.0);
  EXPECT_EQ(ww[0], 0.0);
}

// Geometry without the formula: the phase centre direction in ECEF has longitude RA - GAST and
// latitude dec0; w is the offset's component along it, u along the local East of that
// direction on the sky and v along its North (Thompson, Moran & Swenson, sec. 4.1).
TEST(StationUvw, MatchesProjectionOntoSkyAxes) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> ang(-kPi, kPi), dec_d(-kPi / 2, kPi / 2),
      off(-5000.0, 5000.0);
  for (int i = 0; i < 2000; ++i) {
    const double ra0 = ang(rng), dec0 = dec_d(rng), gast = ang(rng);
    const double x = off(rng), y = off(rng), z = off(rng);
    const double lon_s = ra0 - gast;
    const fa::Vec3 s{std::cos(dec0) * std::cos(lon_s), std::cos(dec0) * std::sin(lon_s),
                     std::sin(dec0)};
    const fa::Vec3 east{-std::sin(lon_s), std::cos(lon_s), 0.0};
    const fa::Vec3 north{-std::sin(dec0) * std::cos(lon_s), -std::sin(dec0) * std::sin(lon_s),
                         std::cos(dec0)};
    double u, v, w;
    fa::station_uvw(x, y, z, gast - ra0, dec0, u, v, w);
    EXPECT_NEAR(u, x * east.x + y * east.y + z * east.z, 1e-9);
    EXPECT_NEAR(v, x * north.x + y * north.y + z * north.z, 1e-9);
    EXPECT_NEAR(w, x * s.x + y * s.y + z * s.z, 1e-9);
  }
}

// OSKAR's three-line station (u, v, w) formula (docs/conventions.md, "Coordinates and
// (u, v, w)"), written out literally.
TEST(StationUvw, MatchesOskarFormulaLiterally) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> ang(-7.0, 7.0), off(-3e5, 3e5);
  for (int i = 0; i < 2000; ++i) {
    const double h0 = ang(rng), d0 = ang(rng) / 4.5, x = off(rng), y = off(rng), z = off(rng);
    const double su = x * std::sin(h0) + y * std::cos(h0);
    const double sv =
        -std::sin(d0) * std::cos(h0) * x + std::sin(d0) * std::sin(h0) * y + std::cos(d0) * z;
    const double sw =
        std::cos(d0) * std::cos(h0) * x - std::cos(d0) * std::sin(h0) * y + std::sin(d0) * z;
    double u, v, w;
    fa::station_uvw(x, y, z, h0, d0, u, v, w);
    EXPECT_NEAR(u, su, 1e-12 * 3e5);
    EXPECT_NEAR(v, sv, 1e-12 * 3e5);
    EXPECT_NEAR(w, sw, 1e-12 * 3e5);
    // |uvw| = |xyz| (a rotation).
    EXPECT_NEAR(std::sqrt(u * u + v * v + w * w), std::sqrt(x * x + y * y + z * z), 1e-9);
  }
}

// With the phase centre at the zenith of the array centre (RA0 = LST, dec0 = geodetic latitude),
// the (u, v, w) of a station are its ENU offsets: baselines keep their length and lie in the
// (u, v) plane when the stations are on the local horizontal plane.
TEST(StationUvw, ZenithPhaseCentreGivesEnu) {
  const std::vector<fa::Geodetic> sites = {{116.7644482 * kDeg, -26.82472208 * kDeg, 377.8},
                                           {6.869837 * kDeg, 52.915122 * kDeg, 15.0},
                                           {-107.6184 * kDeg, 34.0784 * kDeg, 2124.0},
                                           {0.0, 0.0, 0.0},
                                           {21.443 * kDeg, -30.7128 * kDeg, 1086.6}};
  const std::vector<fa::Vec3> enu = {{0, 0, 0},
                                     {1500.0, -300.0, 0.0},
                                     {-25.0, 900.0, 0.0},
                                     {-8000.0, -6000.0, 0.0},
                                     {120.0, 45.0, 2.5}};
  for (const fa::Geodetic& centre : sites) {
    for (double gast : {0.0, 1.0, 4.0, 6.2}) {
      const fa::Vec3 c = fa::geodetic_to_ecef(centre);
      std::vector<double> x, y, z;
      for (const fa::Vec3& e : enu) {
        const fa::Vec3 p = fa::enu_to_ecef(e, centre);
        x.push_back(p.x - c.x);
        y.push_back(p.y - c.y);
        z.push_back(p.z - c.z);
      }
      const std::size_t n = enu.size();
      std::vector<double> u(n), v(n), w(n);
      fa::station_uvw(x, y, z, gast + centre.lon, centre.lat, gast, u, v, w);
      for (std::size_t i = 0; i < n; ++i) {
        EXPECT_NEAR(u[i], enu[i].x, 1e-8);
        EXPECT_NEAR(v[i], enu[i].y, 1e-8);
        EXPECT_NEAR(w[i], enu[i].z, 1e-8);
        for (std::size_t j = i + 1; j < n; ++j) {
          const double bu = u[i] - u[j], bv = v[i] - v[j], bw = w[i] - w[j];
          const double bx = x[i] - x[j], by = y[i] - y[j], bz = z[i] - z[j];
          EXPECT_NEAR(std::sqrt(bu * bu + bv * bv + bw * bw),
                      std::sqrt(bx * bx + by * by + bz * bz), 1e-8);
          if (enu[i].z == 0.0 && enu[j].z == 0.0) {
            EXPECT_NEAR(bw, 0.0, 1e-8);
            EXPECT_NEAR(std::hypot(bu, bv), std::sqrt(bx * bx + by * by + bz * bz), 1e-8);
          }
        }
      }
    }
  }
}

TEST(StationUvw, SinglePrecisionTemplate) {
  float u, v, w;
  fa::station_uvw(100.0f, -50.0f, 20.0f, 0.7f, -0.4f, u, v, w);
  double ud, vd, wd;
  fa::station_uvw(100.0, -50.0, 20.0, 0.7, -0.4, ud, vd, wd);
  EXPECT_NEAR(u, ud, 1e-4);
  EXPECT_NEAR(v, vd, 1e-4);
  EXPECT_NEAR(w, wd, 1e-4);
}

TEST(StationUvw, ArrayFormMatchesScalarAndChecksSizes) {
  std::vector<double> x{1.0, -200.0, 3e4}, y{2.0, 50.0, -1e4}, z{3.0, 0.5, 7e3};
  std::vector<double> u(3), v(3), w(3);
  const double ra0 = 0.4, dec0 = -0.6, gast = 2.9;
  fa::station_uvw(x, y, z, ra0, dec0, gast, u, v, w);
  for (int i = 0; i < 3; ++i) {
    double su, sv, sw;
    fa::station_uvw(x[i], y[i], z[i], gast - ra0, dec0, su, sv, sw);
    EXPECT_NEAR(u[i], su, 1e-10);
    EXPECT_NEAR(v[i], sv, 1e-10);
    EXPECT_NEAR(w[i], sw, 1e-10);
  }
  std::vector<double> short_w(2);
  EXPECT_THROW(fa::station_uvw(x, y, z, ra0, dec0, gast, u, v, short_w), fringe::Error);
}
