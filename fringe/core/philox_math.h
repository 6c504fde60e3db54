// Philox-4x32-10 and its normal deviates as host-and-device formulas (FRINGE_HD), so the CPU
// (core/philox.cpp) and the GPU (system noise in sim/gpu_sim_kernels.cu) draw the same numbers
// for the same counter. Salmon, Moraes, Dror & Shaw 2011, "Parallel random numbers: as easy as
// 1, 2, 3" (SC'11); the round multipliers and Weyl increments are Random123's.
#pragma once

#include <cmath>
#include <cstdint>

#include "fringe/core/hd.h"

namespace fringe {

struct PhiloxWords {
  std::uint32_t w[4];
};

// Ten Philox-4x32 rounds of counter (c0..c3) under key (k0, k1).
FRINGE_HD_INLINE PhiloxWords philox4x32_words(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2,
                                              std::uint32_t c3, std::uint32_t k0,
                                              std::uint32_t k1) {
  constexpr std::uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {  // the key schedule: bump the key before every round but the first
      k0 += kWeyl0;
      k1 += kWeyl1;
    }
    const std::uint64_t prod0 = std::uint64_t(kMul0) * c0;
    const std::uint64_t prod1 = std::uint64_t(kMul1) * c2;
    const auto hi0 = std::uint32_t(prod0 >> 32), lo0 = std::uint32_t(prod0);
    const auto hi1 = std::uint32_t(prod1 >> 32), lo1 = std::uint32_t(prod1);
    const std::uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  return {{c0, c1, c2, c3}};
}

// Four standard normal deviates: Box-Muller (1958) on the word pairs (0, 1) and (2, 3), each
// word mapped to a uniform in the open interval (0, 1) as (x + 0.5) / 2^32 so log() is finite.
FRINGE_HD_INLINE void philox_normals4(std::uint64_t seed, std::uint32_t c0, std::uint32_t c1,
                                      std::uint32_t c2, std::uint32_t c3, double z[4]) {
  using std::cos;
  using std::log;
  using std::sin;
  using std::sqrt;
  const PhiloxWords r =
      philox4x32_words(c0, c1, c2, c3, std::uint32_t(seed), std::uint32_t(seed >> 32));
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  constexpr double kInv2To32 = 1.0 / 4294967296.0;
  for (int pair = 0; pair < 2; ++pair) {
    const double u1 = (double(r.w[2 * pair]) + 0.5) * kInv2To32;
    const double u2 = (double(r.w[2 * pair + 1]) + 0.5) * kInv2To32;
    const double radius = sqrt(-2.0 * log(u1));
    const double angle = kTwoPi * u2;
    z[2 * pair] = radius * cos(angle);
    z[2 * pair + 1] = radius * sin(angle);
  }
}

}  // namespace fringe
