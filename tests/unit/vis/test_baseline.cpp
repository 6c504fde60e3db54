// Baseline numbering against OSKAR's documented formula and order (docs/conventions.md, "Baselines
// and their order"): (0,1), (0,2), ..., (1,2), ... and b = i (N - 1) - (i - 1) i / 2 + j - i - 1.
#include <gtest/gtest.h>

#include "fringe/vis/baseline.h"

namespace fringe::vis {
namespace {

TEST(Baseline, CountIsPairs) {
  EXPECT_EQ(num_baselines(0), 0u);
  EXPECT_EQ(num_baselines(1), 0u);
  EXPECT_EQ(num_baselines(2), 1u);
  EXPECT_EQ(num_baselines(27), 351u);    // VLA reference MS: 351 rows per dump
  EXPECT_EQ(num_baselines(128), 8128u);  // MWA reference MS: 8128 rows per dump
}

TEST(Baseline, OrderIsLexicographicPairs) {
  for (std::size_t n : {2u, 3u, 5u, 27u}) {
    std::size_t expected = 0;
    for (std::size_t p = 0; p < n; ++p) {
      for (std::size_t q = p + 1; q < n; ++q) {
        EXPECT_EQ(baseline_index(n, p, q), expected) << n << " " << p << " " << q;
        const auto pq = baseline_stations(n, expected);
        EXPECT_EQ(pq.first, p);
        EXPECT_EQ(pq.second, q);
        ++expected;
      }
    }
    EXPECT_EQ(expected, num_baselines(n));
  }
}

TEST(Baseline, MatchesOskarFormula) {
  const long n = 10;
  for (long i = 0; i < n; ++i) {
    for (long j = i + 1; j < n; ++j) {
      const long b = i * (n - 1) - (i - 1) * i / 2 + j - i - 1;
      EXPECT_EQ(baseline_index(std::size_t(n), std::size_t(i), std::size_t(j)), std::size_t(b));
    }
  }
}

TEST(Baseline, Constexpr) {
  static_assert(baseline_index(3, 0, 1) == 0);
  static_assert(baseline_index(3, 0, 2) == 1);
  static_assert(baseline_index(3, 1, 2) == 2);
  static_assert(baseline_stations(4, 5).first == 2 && baseline_stations(4, 5).second == 3);
}

}  // namespace
}  // namespace fringe::vis
