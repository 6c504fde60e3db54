// gpu_max_chunk_sources and gpu_block_bytes (gpu_unit.h): the memory arithmetic of one GPU.
#include <algorithm>
#include <cstddef>

#include "fringe/sim/gpu_unit.h"

namespace fringe::sim {

std::size_t gpu_max_chunk_sources(std::size_t budget_bytes, std::size_t num_stations,
                                  Precision precision, bool full_pol) {
  const std::size_t real = precision == Precision::Double ? 8 : 4;
  const std::size_t jones = (full_pol ? 8 : 2) * real;  // Jones<T> or Complex<T>
  // Scratch of the predict (station terms), reserved whole; the rest per source: the kept
  // sources (positions, shapes, fluxes, index: about 120 bytes) and up to four cached chunks
  // (positions, geometry, shapes, clip flags, spectrum view and its values: about 350 bytes).
  constexpr std::size_t kPredictScratch = std::size_t(512) << 20;
  constexpr std::size_t kPerSourceArrays = 1536;
  if (budget_bytes <= kPredictScratch) return 1;
  const std::size_t per_source = num_stations * jones + kPerSourceArrays;
  return std::max<std::size_t>(1, (budget_bytes - kPredictScratch) / per_source);
}

std::size_t gpu_block_bytes(std::size_t values, Precision precision) {
  const std::size_t complex_bytes = precision == Precision::Double ? 16 : 8;
  return 2 * values * complex_bytes;  // this GPU's copy + the reduction's receive buffer
}

}  // namespace fringe::sim
