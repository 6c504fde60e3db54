// Galactic <-> equatorial (FK5 J2000) against published pole/centre positions and ERFA (ICRS).
#include <erfa.h>
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <numbers>
#include <random>
#include <vector>

#include "fringe/astro/galactic.h"
#include "fringe/core/error.h"

namespace fa = fringe::astro;

namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;
constexpr double kArcsec = kDeg / 3600.0;
}  // namespace

// J2000 (FK5) positions of the Galactic frame (Explanatory Supplement to the Astronomical
// Almanac, 1992, sec. 2.6; Murray 1989): North Galactic Pole RA 192.85948 deg, Dec +27.12825
// deg; Galactic centre (l = b = 0) RA 266.40500 deg, Dec -28.93617 deg; the North celestial pole
// is at l = 122.93192 deg, b = 27.12825 deg.
TEST(Galactic, PublishedFramePositions) {
  double ra, dec;
  fa::galactic_to_equatorial(1.234, kPi / 2, ra, dec);  // any l at b = 90 deg
  EXPECT_NEAR(ra / kDeg, 192.85948, 2e-5);
  EXPECT_NEAR(dec / kDeg, 27.12825, 2e-5);
  fa::galactic_to_equatorial(0.0, 0.0, ra, dec);
  EXPECT_NEAR(ra / kDeg, 266.40500, 2e-5);
  EXPECT_NEAR(dec / kDeg, -28.93617, 2e-5);
  double l, b;
  fa::equatorial_to_galactic(0.7, kPi / 2, l, b);
  EXPECT_NEAR(l / kDeg, 122.93192, 2e-5);
  EXPECT_NEAR(b / kDeg, 27.12825, 2e-5);
}

// ERFA's eraG2icrs uses the Hipparcos definition of the Galactic frame in the ICRS; ours is
// the FK5 J2000 one (as OSKAR's). They differ by the FK5 - ICRS frame offset (tens of mas).
TEST(Galactic, AgreesWithErfaIcrsWithinFrameOffset) {
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> lon(0.0, 2 * kPi), z(-1.0, 1.0);
  double max_sep = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const double l = lon(rng), b = std::asin(z(rng));
    double ra, dec, e_ra, e_dec;
    fa::galactic_to_equatorial(l, b, ra, dec);
    ASSERT_GE(ra, 0.0);
    ASSERT_LT(ra, 2 * kPi);
    eraG2icrs(l, b, &e_ra, &e_dec);
    max_sep = std::max(max_sep, eraSeps(ra, dec, e_ra, e_dec));
    double l2, b2, e_l, e_b;
    fa::equatorial_to_galactic(ra, dec, l2, b2);
    eraIcrs2g(ra, dec, &e_l, &e_b);
    max_sep = std::max(max_sep, eraSeps(l2, b2, e_l, e_b));
    // Round trip: the published matrix has 12 decimals, so M^T M = 1 only to ~1e-11.
    ASSERT_LT(eraSeps(l, b, l2, b2), 1e-10);
  }
  std::cout << "max FK5 vs ICRS (ERFA) Galactic separation: " << max_sep / kArcsec << " arcsec\n";
  EXPECT_LT(max_sep, 0.1 * kArcsec);
  EXPECT_GT(max_sep, 1e-4 * kArcsec);  // the frames are really different ones
}

TEST(Galactic, ArrayFormsAndSizes) {
  const std::vector<double> l{0.0, 1.0, 4.0}, b{0.0, -0.5, 1.2};
  std::vector<double> ra(3), dec(3);
  fa::galactic_to_equatorial(l, b, ra, dec);
  for (int i = 0; i < 3; ++i) {
    double r, d;
    fa::galactic_to_equatorial(l[i], b[i], r, d);
    EXPECT_DOUBLE_EQ(ra[i], r);
    EXPECT_DOUBLE_EQ(dec[i], d);
  }
  std::vector<double> back_l = ra, back_b = dec;  // in place
  fa::equatorial_to_galactic(back_l, back_b, back_l, back_b);
  for (int i = 0; i < 3; ++i) {
    EXPECT_LT(eraSeps(back_l[i], back_b[i], l[i], b[i]), 1e-10);
  }
  std::vector<double> two(2);
  EXPECT_THROW(fa::galactic_to_equatorial(l, b, ra, two), fringe::Error);
  EXPECT_THROW(fa::equatorial_to_galactic(l, b, two, dec), fringe::Error);
}
