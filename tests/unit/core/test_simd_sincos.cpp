// simd_sincos.h against libm's sin and cos over the range the array factor uses.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fringe/core/simd_sincos.h"

namespace {

TEST(SimdSincos, MatchesLibmToRounding) {
  std::mt19937_64 rng(5);
  double worst = 0.0;
  for (double range : {1.0, 10.0, 1e3, 1e5, fringe::kSimdSincosMaxArg}) {
    std::uniform_real_distribution<double> d(-range, range);
    for (int i = 0; i < 200000; ++i) {
      const double x = d(rng);
      double s = 0, c = 0;
      fringe::simd_sincos(x, s, c);
      worst = std::max({worst, std::abs(s - std::sin(x)), std::abs(c - std::cos(x))});
    }
  }
  EXPECT_LT(worst, 2.3e-16);  // one unit in the last place of 1.0
}

TEST(SimdSincos, QuadrantBoundariesAndSigns) {
  const double pi = 3.14159265358979323846;
  for (int k = -8; k <= 8; ++k) {
    for (double off : {-1e-9, 0.0, 1e-9, 0.3, -0.7}) {
      const double x = k * pi / 2 + off;
      double s = 0, c = 0;
      fringe::simd_sincos(x, s, c);
      EXPECT_NEAR(s, std::sin(x), 2.3e-16) << x;
      EXPECT_NEAR(c, std::cos(x), 2.3e-16) << x;
    }
  }
}

// The same values from a vectorised loop (the form the array factor uses).
TEST(SimdSincos, VectorLoopEqualsScalarCalls) {
  std::vector<double> x(1000), s(1000), c(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = -500.0 + 1.0137 * double(i);
#pragma omp simd
  for (std::size_t i = 0; i < x.size(); ++i) fringe::simd_sincos(x[i], s[i], c[i]);
  for (std::size_t i = 0; i < x.size(); ++i) {
    double s1 = 0, c1 = 0;
    fringe::simd_sincos(x[i], s1, c1);
    EXPECT_NEAR(s[i], s1, 1e-16);
    EXPECT_NEAR(c[i], c1, 1e-16);
  }
}

}  // namespace
