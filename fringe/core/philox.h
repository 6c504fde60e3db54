// Counter-based random numbers: Philox-4x32-10 (Salmon, Moraes, Dror & Shaw 2011, "Parallel
// random numbers: as easy as 1, 2, 3", SC'11; the Random123 library's constants). A draw is
// a pure function of a 128-bit counter and a 64-bit key, so results do not depend on threads,
// blocks, chunks or call order: callers key by the seed and count by where the number is used
// (time, channel, baseline, station, element, ...).
#pragma once

#include <array>
#include <cstdint>

namespace fringe {

// Philox-4x32 with 10 rounds: four 32-bit words from counter under key (matches Random123's
// published known-answer vectors).
std::array<std::uint32_t, 4> philox4x32(std::array<std::uint32_t, 4> counter,
                                        std::array<std::uint32_t, 2> key);

// Four independent standard normal deviates N(0, 1) for counter (c0, c1, c2, c3) under the
// 64-bit seed (key = low word, high word): Box-Muller on the two pairs of Philox words, each
// word mapped to a uniform in (0, 1) as (x + 0.5) / 2^32.
std::array<double, 4> philox_normals(std::uint64_t seed, std::uint32_t c0, std::uint32_t c1,
                                     std::uint32_t c2, std::uint32_t c3);

}  // namespace fringe
