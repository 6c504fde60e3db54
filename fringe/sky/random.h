// Counter-based random numbers for the sky generators: value k of stream s under a seed is a
// pure function of (seed, stream, k), so results do not depend on threading or call order.
// The mixing function is SplitMix64's finaliser (Steele, Lea & Flood 2014) applied to a
// combination of the three integers; uniforms take the top 53 bits; normals use Box-Muller.
// This does not reproduce OSKAR's C rand() sequences (only their distributions).
#pragma once

#include <cmath>
#include <cstdint>

#include "fringe/core/constants.h"

namespace fringe::sky {

class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t stream) : seed_(seed), stream_(stream) {}

  static std::uint64_t mix(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t bits(std::uint64_t k) const {
    return mix(mix(mix(seed_) ^ (stream_ * 0xD1B54A32D192ED03ull)) ^ k);
  }
  // Uniform in [0, 1).
  double uniform(std::uint64_t k) const { return static_cast<double>(bits(k) >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1].
  double uniform_open0(std::uint64_t k) const { return 1.0 - uniform(k); }
  // Standard normal N(0, 1) (Box-Muller from draws 2k and 2k+1).
  double normal(std::uint64_t k) const {
    const double u1 = uniform_open0(2 * k), u2 = uniform(2 * k + 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
  }

 private:
  std::uint64_t seed_, stream_;
};

}  // namespace fringe::sky
