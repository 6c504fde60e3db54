// Direction cosines (l, m, n) about a phase centre: analytic cases, ERFA separations, round trip.
#include <erfa.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "fringe/astro/direction.h"

namespace fa = fringe::astro;

namespace {
constexpr double kPi = std::numbers::pi;
}

TEST(Direction, PhaseCentreIsZeroZeroOne) {
  for (double ra0 : {0.0, 1.0, 5.9}) {
    for (double dec0 : {-1.5, -0.5, 0.0, 0.7, kPi / 2}) {
      double l, m, n;
      fa::radec_to_lmn(ra0, dec0, ra0, dec0, l, m, n);
      EXPECT_NEAR(l, 0.0, 1e-16);
      EXPECT_NEAR(m, 0.0, 1e-16);
      EXPECT_NEAR(n, 1.0, 1e-16);
    }
  }
}

TEST(Direction, AnalyticOffsets) {
  const double d = 0.05;
  double l, m, n;
  // East along the equator: RA larger -> l > 0.
  fa::radec_to_lmn(1.0 + d, 0.0, 1.0, 0.0, l, m, n);
  EXPECT_NEAR(l, std::sin(d), 1e-15);
  EXPECT_NEAR(m, 0.0, 1e-15);
  // North along the meridian: m = sin(offset).
  fa::radec_to_lmn(2.0, -0.4 + d, 2.0, -0.4, l, m, n);
  EXPECT_NEAR(l, 0.0, 1e-15);
  EXPECT_NEAR(m, std::sin(d), 1e-15);
  EXPECT_NEAR(n, std::cos(d), 1e-15);
}

// n is the cosine of the angular distance from the phase centre (ERFA eraSeps), and
// l^2 + m^2 + n^2 = 1; lm_to_radec inverts radec_to_lmn on the visible hemisphere.
TEST(Direction, SeparationAndRoundTrip) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> ra_d(0.0, 2 * kPi), dec_d(-kPi / 2, kPi / 2);
  int visible = 0;
  for (int i = 0; i < 20000; ++i) {
    const double ra0 = ra_d(rng), dec0 = dec_d(rng), ra = ra_d(rng), dec = dec_d(rng);
    double l, m, n;
    fa::radec_to_lmn(ra, dec, ra0, dec0, l, m, n);
    ASSERT_NEAR(l * l + m * m + n * n, 1.0, 1e-14);
    ASSERT_NEAR(n, std::cos(eraSeps(ra, dec, ra0, dec0)), 1e-14);
    if (n <= 1e-3) continue;
    ++visible;
    double ra1, dec1;
    fa::lm_to_radec(l, m, ra0, dec0, ra1, dec1);
    ASSERT_LT(eraSeps(ra, dec, ra1, dec1), 1e-11) << ra << ' ' << dec << ' ' << ra0 << ' ' << dec0;
  }
  EXPECT_GT(visible, 8000);
}

TEST(Direction, SinglePrecision) {
  float l, m, n;
  fa::radec_to_lmn(1.05f, -0.45f, 1.0f, -0.5f, l, m, n);
  double ld, md, nd;
  fa::radec_to_lmn(1.05, -0.45, 1.0, -0.5, ld, md, nd);
  EXPECT_NEAR(l, ld, 1e-6);
  EXPECT_NEAR(m, md, 1e-6);
  EXPECT_NEAR(n, nd, 1e-6);
}
