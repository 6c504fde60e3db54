// gpu_max_chunk_sources (gpu_unit.h): the memory arithmetic of one GPU work unit.
#include <algorithm>
#include <cstddef>

#include "fringe/sim/gpu_unit.h"

namespace fringe::sim {

std::size_t gpu_max_chunk_sources(std::size_t budget_bytes, std::size_t num_stations,
                                  bool double_precision, bool full_pol) {
  const std::size_t real = double_precision ? 8 : 4;
  const std::size_t jones = (full_pol ? 8 : 2) * real;  // Jones<T> or Complex<T>
  // Scratch of the predict (station terms), reserved whole; the rest per source.
  constexpr std::size_t kPredictScratch = std::size_t(512) << 20;
  if (budget_bytes <= kPredictScratch) return 1;
  const std::size_t per_source = num_stations * jones + 12 * 8;
  return std::max<std::size_t>(1, (budget_bytes - kPredictScratch) / per_source);
}

}  // namespace fringe::sim
