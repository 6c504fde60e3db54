// Non-finite input (docs/reliability/imager.md): one Inf visibility or a NaN UVW would make
// every pixel of a dirty image NaN (each visibility reaches every pixel through the FFT), so
// such values are dropped before weighting and gridding, counted, and reported by the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

struct NonFiniteCount {
  std::size_t visibilities = 0;  // usable (weight > 0) visibilities with a NaN/Inf value or weight
  std::size_t uvw_rows = 0;      // rows with a NaN/Inf UVW coordinate (all their channels dropped)
  std::size_t time_rows = 0;     // rows with a NaN/Inf TIME (dropped when reading)
  bool any() const { return visibilities + uvw_rows + time_rows > 0; }
};

// Drops from v, in place: every visibility whose value (any product) or weight is not
// finite, and every row whose UVW is not finite. A dropped visibility gets weight 0 and value
// 0, a dropped row UVW (0, 0, 0), so that no gridder, CPU or GPU, ever multiplies a NaN or Inf
// (0 x Inf is NaN). Visibilities already at weight 0 (flagged) are not counted. Returns the
// counts, added to `count`; bad_uvw_rows (when given) gets 1 for each row whose UVW was not
// finite, 0 for the others (prediction must not give those rows a weight again).
template <typename T>
void drop_non_finite(VisBuffer<T>& v, NonFiniteCount& count,
                     std::vector<std::uint8_t>* bad_uvw_rows = nullptr);

// "3 visibilities with a NaN/Inf value or weight, 1 row with a NaN/Inf UVW" (the non-zero
// parts), or "" when nothing was dropped.
std::string describe(const NonFiniteCount& count);

}  // namespace fringe::imager
