#include "fringe/core/philox.h"

#include <cmath>

namespace fringe {
namespace {

// Philox-4x32 round multipliers and Weyl key increments (Salmon et al. 2011, Random123).
constexpr std::uint32_t kMul0 = 0xD2511F53u;
constexpr std::uint32_t kMul1 = 0xCD9E8D57u;
constexpr std::uint32_t kWeyl0 = 0x9E3779B9u;
constexpr std::uint32_t kWeyl1 = 0xBB67AE85u;
constexpr int kRounds = 10;
constexpr double kTwoPi = 6.283185307179586476925286766559;

// A 32-bit word as a uniform deviate in the open interval (0, 1), so log() stays finite.
double to_open_unit(std::uint32_t word) { return (double(word) + 0.5) * (1.0 / 4294967296.0); }

}  // namespace

std::array<std::uint32_t, 4> philox4x32(std::array<std::uint32_t, 4> counter,
                                        std::array<std::uint32_t, 2> key) {
  for (int round = 0; round < kRounds; ++round) {
    if (round > 0) {  // the key schedule: bump the key before every round but the first
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    const std::uint64_t prod0 = std::uint64_t(kMul0) * counter[0];
    const std::uint64_t prod1 = std::uint64_t(kMul1) * counter[2];
    const auto hi0 = std::uint32_t(prod0 >> 32);
    const auto lo0 = std::uint32_t(prod0);
    const auto hi1 = std::uint32_t(prod1 >> 32);
    const auto lo1 = std::uint32_t(prod1);
    counter = {hi1 ^ counter[1] ^ key[0], lo1, hi0 ^ counter[3] ^ key[1], lo0};
  }
  return counter;
}

std::array<double, 4> philox_normals(std::uint64_t seed, std::uint32_t c0, std::uint32_t c1,
                                     std::uint32_t c2, std::uint32_t c3) {
  const auto words = philox4x32({c0, c1, c2, c3}, {std::uint32_t(seed), std::uint32_t(seed >> 32)});
  std::array<double, 4> z{};
  for (int pair = 0; pair < 2; ++pair) {  // Box-Muller (1958) on words (0, 1) and (2, 3)
    const double radius = std::sqrt(-2.0 * std::log(to_open_unit(words[2 * pair])));
    const double angle = kTwoPi * to_open_unit(words[2 * pair + 1]);
    z[2 * pair] = radius * std::cos(angle);
    z[2 * pair + 1] = radius * std::sin(angle);
  }
  return z;
}

}  // namespace fringe
