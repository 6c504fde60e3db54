// core/philox: Philox-4x32-10 against Random123's published known-answer vectors
// (kat_vectors: counter, key, expected output), and the normal deviates' statistics.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>

#include "fringe/core/philox.h"

namespace {

using Words = std::array<std::uint32_t, 4>;

TEST(Philox, KnownAnswerZero) {
  EXPECT_EQ(fringe::philox4x32({0, 0, 0, 0}, {0, 0}),
            (Words{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
}

TEST(Philox, KnownAnswerAllOnes) {
  const std::uint32_t f = 0xffffffffu;
  EXPECT_EQ(fringe::philox4x32({f, f, f, f}, {f, f}),
            (Words{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
}

TEST(Philox, KnownAnswerPiDigits) {
  EXPECT_EQ(fringe::philox4x32({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
                               {0xa4093822u, 0x299f31d0u}),
            (Words{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

TEST(Philox, NormalsArePureFunctionsOfSeedAndCounter) {
  const auto a = fringe::philox_normals(42, 1, 2, 3, 4);
  const auto b = fringe::philox_normals(42, 1, 2, 3, 4);
  EXPECT_EQ(a, b);
  // Every counter word and both halves of the 64-bit seed change the result.
  EXPECT_NE(a, fringe::philox_normals(43, 1, 2, 3, 4));
  EXPECT_NE(a, fringe::philox_normals(42 + (std::uint64_t(1) << 32), 1, 2, 3, 4));
  EXPECT_NE(a, fringe::philox_normals(42, 0, 2, 3, 4));
  EXPECT_NE(a, fringe::philox_normals(42, 1, 0, 3, 4));
  EXPECT_NE(a, fringe::philox_normals(42, 1, 2, 0, 4));
  EXPECT_NE(a, fringe::philox_normals(42, 1, 2, 3, 0));
  for (double z : a) EXPECT_TRUE(std::isfinite(z));
}

TEST(Philox, NormalsAreStandardNormal) {
  // N = 400000 deviates: the sample mean has standard deviation 1/sqrt(N) = 0.0016, the sample
  // variance sqrt(2/N) = 0.0022, the fraction within 1 sigma sqrt(p(1-p)/N) = 0.0007; the
  // bounds below are about 5 of those.
  constexpr std::uint32_t kCounters = 100000;
  double sum = 0, sum2 = 0, sum4 = 0, cross01 = 0, cross02 = 0;
  long within1 = 0, beyond3 = 0;
  for (std::uint32_t i = 0; i < kCounters; ++i) {
    const auto z = fringe::philox_normals(7, i, 0, 0, 0);
    for (double v : z) {
      sum += v;
      sum2 += v * v;
      sum4 += v * v * v * v;
      within1 += std::abs(v) < 1.0;
      beyond3 += std::abs(v) > 3.0;
    }
    cross01 += z[0] * z[1];  // the two values of one Box-Muller pair
    cross02 += z[0] * z[2];  // values from the two pairs
  }
  const double n = 4.0 * kCounters;
  const double mean = sum / n;
  const double var = sum2 / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.008);
  EXPECT_NEAR(var, 1.0, 0.012);
  EXPECT_NEAR(sum4 / n, 3.0, 0.05);  // kurtosis of a normal distribution
  EXPECT_NEAR(double(within1) / n, 0.682689, 0.0035);
  EXPECT_NEAR(double(beyond3) / n, 0.0026998, 0.0005);
  EXPECT_NEAR(cross01 / kCounters, 0.0, 0.016);  // uncorrelated (sd 1/sqrt(100000) = 0.003)
  EXPECT_NEAR(cross02 / kCounters, 0.0, 0.016);
}

TEST(Philox, NearbySeedsGiveUncorrelatedStreams) {
  constexpr std::uint32_t kCounters = 50000;
  double cross = 0;
  for (std::uint32_t i = 0; i < kCounters; ++i) {
    cross += fringe::philox_normals(1, i, 0, 0, 0)[0] * fringe::philox_normals(2, i, 0, 0, 0)[0];
  }
  EXPECT_NEAR(cross / kCounters, 0.0, 0.025);  // sd 0.0045
}

}  // namespace
