#include "fringe/core/philox.h"

#include "fringe/core/philox_math.h"

namespace fringe {

std::array<std::uint32_t, 4> philox4x32(std::array<std::uint32_t, 4> counter,
                                        std::array<std::uint32_t, 2> key) {
  const PhiloxWords r =
      philox4x32_words(counter[0], counter[1], counter[2], counter[3], key[0], key[1]);
  return {r.w[0], r.w[1], r.w[2], r.w[3]};
}

std::array<double, 4> philox_normals(std::uint64_t seed, std::uint32_t c0, std::uint32_t c1,
                                     std::uint32_t c2, std::uint32_t c3) {
  std::array<double, 4> z{};
  philox_normals4(seed, c0, c1, c2, c3, z.data());
  return z;
}

}  // namespace fringe
