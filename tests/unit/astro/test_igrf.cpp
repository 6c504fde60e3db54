// IGRF-14 geomagnetic field (fringe/astro/igrf.h) against OSKAR 2.13's field at 32 positions
// and years (tests/data/igrf, README.md there gives the commands), and the synthesis against
// closed forms of single Gauss coefficients.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/astro/igrf.h"
#include "fringe/astro/igrf_synthesis.h"
#include "fringe/core/error.h"

namespace fa = fringe::astro;
namespace ig = fringe::astro::igrf;

namespace {
constexpr double kPi = std::numbers::pi;
const std::string kData = std::string(FRINGE_SOURCE_DIR) + "/tests/data/igrf/oskar_field.txt";

struct OskarCase {
  double lat, lon, height, year;  // rad, rad, m, decimal year
  bool refused = false;           // OSKAR returned an error status (year out of range)
  double east = 0, north = 0, up = 0, total = 0;  // nT
};

std::vector<OskarCase> read_oskar_cases() {
  std::ifstream in(kData);
  EXPECT_TRUE(in.good()) << "cannot open " << kData;
  std::vector<OskarCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    // OSKAR prints a sentence before refusing a year; only lines of numbers are cases.
    if (line.empty() || line[0] == '#' || line[0] == 'T') continue;
    std::istringstream s(line);
    OskarCase c;
    std::string fifth;
    s >> c.lat >> c.lon >> c.height >> c.year >> fifth;
    EXPECT_FALSE(s.fail()) << kData << ": cannot read '" << line << "'";
    if (fifth == "ERROR") {
      c.refused = true;
    } else {
      c.east = std::stod(fifth);
      s >> c.north >> c.up >> c.total;
      EXPECT_FALSE(s.fail()) << kData << ": cannot read '" << line << "'";
    }
    cases.push_back(c);
  }
  return cases;
}
}  // namespace

TEST(Igrf, MatchesOskarField) {
  const std::vector<OskarCase> cases = read_oskar_cases();
  ASSERT_GE(cases.size(), 30u);
  double max_abs = 0, max_rel = 0;  // nT, and relative to OSKAR's total intensity
  int compared = 0;
  for (const OskarCase& c : cases) {
    if (c.refused) continue;
    const fa::GeomagneticField f = fa::igrf_field(c.lat, c.lon, c.height, c.year);
    const double ours[4] = {f.east_nT, f.north_nT, f.up_nT, f.total_nT};
    const double theirs[4] = {c.east, c.north, c.up, c.total};
    for (int k = 0; k < 4; ++k) {
      const double d = std::fabs(ours[k] - theirs[k]);
      max_abs = std::max(max_abs, d);
      max_rel = std::max(max_rel, d / c.total);
      // Both evaluate the same series in double precision: only rounding differs (measured
      // 6e-16 of |B|; a 1e-9 change of the degree factor alone would show as ~1e-8).
      EXPECT_LE(d, 1e-12 * c.total) << "component " << k << " at lat " << c.lat << " lon " << c.lon
                                    << " height " << c.height << " year " << c.year;
    }
    ++compared;
  }
  EXPECT_GE(compared, 30);
  std::cout << "IGRF vs OSKAR over " << compared << " cases: max |difference| " << max_abs
            << " nT, max relative to |B| " << max_rel << "\n";
}

TEST(Igrf, YearsOskarRefusesThrowNamingTheYear) {
  int refused = 0;
  for (const OskarCase& c : read_oskar_cases()) {
    if (!c.refused) continue;
    ++refused;
    EXPECT_THROW(fa::igrf_field(c.lat, c.lon, c.height, c.year), fringe::Error) << c.year;
  }
  EXPECT_EQ(refused, 2);
  try {
    fa::igrf_field(0.5, 0.5, 0.0, 1899.5);
    FAIL() << "no error for 1899.5";
  } catch (const fringe::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1899.5"), std::string::npos) << what;
    EXPECT_NE(what.find("1900.0 to 2035.0"), std::string::npos) << what;
  }
  EXPECT_THROW(fa::igrf_field(0.5, 0.5, 0.0, 2035.000001), fringe::Error);
  EXPECT_THROW(fa::igrf_field(0.5, 0.5, 0.0, std::nan("")), fringe::Error);
  EXPECT_THROW(ig::coefficients_at(1800.0), fringe::Error);
  EXPECT_THROW(fa::igrf_field(2.0, 0.5, 0.0, 2020.0), fringe::Error);  // |lat| > pi/2
  EXPECT_THROW(fa::igrf_field(0.5, std::nan(""), 0.0, 2020.0), fringe::Error);
  // The ends of the range are valid.
  EXPECT_GT(fa::igrf_field(0.5, 0.5, 0.0, 1900.0).total_nT, 20000.0);
  EXPECT_GT(fa::igrf_field(0.5, 0.5, 0.0, 2035.0).total_nT, 20000.0);
}

// Table values and the time interpolation, against the published IGRF-14 table (g(1,0) row:
// 1900.0 -31543, 2020.0 -29403.41, 2025.0 -29350.0, SV 12.6 nT/yr; g(11,0) 2000.0 2.7).
TEST(Igrf, CoefficientsInTime) {
  EXPECT_EQ(ig::coefficients_at(1900.0).g[1][0], -31543.0);
  EXPECT_EQ(ig::coefficients_at(1900.0).h[1][1], 5922.0);
  EXPECT_EQ(ig::coefficients_at(2020.0).g[1][0], -29403.41);
  EXPECT_NEAR(ig::coefficients_at(2022.5).g[1][0], 0.5 * (-29403.41 + -29350.0), 1e-9);
  EXPECT_NEAR(ig::coefficients_at(2030.0).g[1][0], -29350.0 + 5 * 12.6, 1e-9);
  EXPECT_NEAR(ig::coefficients_at(2035.0).g[1][0], -29350.0 + 10 * 12.6, 1e-9);
  // Degree 11-13 start at 2000.0: absent before 1995.0, growing linearly from 1995.0.
  EXPECT_EQ(ig::coefficients_at(1994.9).g[11][0], 0.0);
  EXPECT_NEAR(ig::coefficients_at(1997.5).g[11][0], 0.5 * 2.7, 1e-12);
  EXPECT_EQ(ig::coefficients_at(2000.0).g[11][0], 2.7);
}

// Single Gauss coefficients: the field of V = a (a/r)^(n+1) (g cos m phi + h sin m phi) P_n^m
// in closed form (B = -grad V; north = -B_theta, east = B_phi, down = -B_r), with the Schmidt
// P_1^0 = cos t, P_1^1 = sin t, P_2^0 = (3 cos^2 t - 1)/2, P_2^2 = (sqrt 3 / 2) sin^2 t.
TEST(Igrf, SynthesisOfSingleCoefficients) {
  const double a = ig::kReferenceRadiusKm;
  for (double r : {a, 2 * a}) {
    for (double t : {0.0, 0.3, kPi / 2, 2.0, kPi}) {
      for (double p : {0.0, 1.0, -2.5}) {
        const double q3 = std::pow(a / r, 3), q4 = std::pow(a / r, 4);
        const double ct = std::cos(t), st = std::sin(t);
        ig::GaussCoefficients c;
        c.g[1][0] = -30000;  // axial dipole
        ig::SphericalField f = ig::synthesise(c, r, t, p);
        EXPECT_NEAR(f.north, -30000 * -st * q3, 1e-9);
        EXPECT_NEAR(f.east, 0.0, 1e-9);
        EXPECT_NEAR(f.down, -2 * -30000 * ct * q3, 1e-9);
        c = {};
        c.g[1][1] = -1500;  // equatorial dipole, also tests the east limit on the axis
        c.h[1][1] = 4500;
        f = ig::synthesise(c, r, t, p);
        const double along = -1500 * std::cos(p) + 4500 * std::sin(p);
        EXPECT_NEAR(f.north, along * ct * q3, 1e-9);
        EXPECT_NEAR(f.east, (-1500 * std::sin(p) - 4500 * std::cos(p)) * q3, 1e-9);
        EXPECT_NEAR(f.down, -2 * along * st * q3, 1e-9);
        c = {};
        c.g[2][0] = -2500;  // axial quadrupole
        f = ig::synthesise(c, r, t, p);
        EXPECT_NEAR(f.north, -2500 * (-3 * ct * st) * q4, 1e-9);
        EXPECT_NEAR(f.down, -3 * -2500 * (1.5 * ct * ct - 0.5) * q4, 1e-9);
        c = {};
        c.g[2][2] = 1700;  // sectoral, checks the Schmidt normalisation of P_2^2
        f = ig::synthesise(c, r, t, p);
        const double k = std::sqrt(3.0) / 2;
        EXPECT_NEAR(f.north, 1700 * std::cos(2 * p) * 2 * k * st * ct * q4, 1e-9);
        EXPECT_NEAR(f.east, 1700 * 2 * std::sin(2 * p) * k * st * q4, 1e-9);
        EXPECT_NEAR(f.down, -3 * 1700 * std::cos(2 * p) * k * st * st * q4, 1e-9);
      }
    }
  }
}

TEST(Igrf, TotalIsTheMagnitude) {
  const fa::GeomagneticField f = fa::igrf_field(-0.4661, 2.0363, 377.8, 2024.0);
  EXPECT_NEAR(f.total_nT,
              std::sqrt(f.east_nT * f.east_nT + f.north_nT * f.north_nT + f.up_nT * f.up_nT), 1e-9);
}

// OSKAR's year of an MJD (oskar_interferometer_check_init.c): mjd / 365.25 + 1858.87945205;
// expected values computed with Python.
TEST(Igrf, DecimalYearFromMjd) {
  EXPECT_DOUBLE_EQ(fa::decimal_year_from_mjd(51544.5), 2000.0006019473306);
  EXPECT_DOUBLE_EQ(fa::decimal_year_from_mjd(60676.0), 2025.0012864100274);
  EXPECT_DOUBLE_EQ(fa::decimal_year_from_mjd(0.0), 1858.87945205);
}
