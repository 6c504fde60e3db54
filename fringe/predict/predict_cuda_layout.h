// Private to the CUDA direct predict (predict_cuda.cu, predict_cuda_kernels.cuh): the compile-time
// shape of each kernel mode (rows of the scratch and shared-memory tiles, the block's station
// tile) and the scratch layout. Host and device code share it. Design: docs/gpu_predict.md.
#pragma once

#include <algorithm>
#include <cstddef>

#include "fringe/core/hd.h"

namespace fringe::predict::cuda_detail {

inline constexpr int kWarpSize = 32;
inline constexpr int kTileSources = 32;  // sources per shared-memory tile (one per lane)
inline constexpr int kStages = 2;        // cp.async pipeline depth (double buffering)
inline constexpr std::size_t kAlign = 256;

// Mode = (precision, polarisation, Gaussian, bandwidth smearing, time smearing). Each kernel
// instantiation compiles only the rows and terms its mode needs.
template <typename T, bool kFull, bool kGauss, bool kBw, bool kTime>
struct Mode {
  using Real = T;
  static constexpr bool full = kFull, gauss = kGauss, bw = kBw, time = kTime;
  static constexpr bool smear = kBw || kTime;
  static constexpr bool factor = kGauss || kBw || kTime;  // any per-(baseline, source) factor
  // Reals of a Jones term per (station, source): 8 (a, b, c, d re/im) or 2 (Scalar).
  static constexpr int jones_rows = kFull ? 8 : 2;
  // Double with smearing keeps each smearing argument per station too (x_p, exact to double
  // rounding), so a baseline's argument is x_p - x_q (one subtraction) instead of a dot product
  // of per-baseline constants with per-source rows. Single precision keeps the dot product: the
  // difference of two per-station arguments loses |x_p| / |x_pq| float ulps.
  static constexpr bool station_args = smear && sizeof(T) == sizeof(double);
  // Per smearing term and station: sin, cos (docs/conventions.md, "Smearing"), then x when
  // station_args.
  static constexpr int smear_rows = station_args ? 3 : 2;
  static constexpr int bw_row = jones_rows;
  static constexpr int time_row = jones_rows + (kBw ? smear_rows : 0);
  static constexpr int station_rows =
      jones_rows + (kBw ? smear_rows : 0) + (kTime ? smear_rows : 0);
  // Per-source rows: l, m, n - 1 (smearing without station_args), then Gaussian a, b, c.
  static constexpr bool source_lmn = smear && !station_args;
  static constexpr int gauss_row = source_lmn ? 3 : 0;
  static constexpr int source_rows = (source_lmn ? 3 : 0) + (kGauss ? 3 : 0);
  // Per-baseline constants (4-vectors): Gaussian (U^2, 2UV, V^2), bandwidth 2 pi dnu/(2 nu)
  // (U, V, W), time (du, dv, dw) of the baseline (the last two without station_args).
  static constexpr int gauss_const = 0;
  static constexpr int bw_const = kGauss ? 1 : 0;
  static constexpr int time_const = bw_const + (kBw && !station_args ? 1 : 0);
  static constexpr int num_consts = time_const + (kTime && !station_args ? 1 : 0);

  // The block tile: warps_p x warps_q warps, each owning a tile_p x tile_q sub-tile of
  // baselines (its lanes walk the sources); block_p x block_q stations per block. Global
  // (L2) traffic per source-baseline is (block_p + block_q) / (block_p block_q) station rows,
  // so larger tiles read less; the accumulators (tile_p tile_q jones_rows reals per lane) bound
  // them: double with a factor gets half the sub-tile so that it stays within 128 registers
  // without spills (docs/gpu_predict.md lists the compiler's register report).
  // Double Scalar with smearing (station_args: 8 station rows) arranges its 8 warps 4 x 2, so
  // that the two pipeline stages stay within 80 KiB (and the block reads 16 stations, not 20);
  // with a Gaussian too, its sub-tile is 2 x 2 (2 x 4 spilled).
  static constexpr bool wide = !(sizeof(T) == sizeof(double) && factor);
  static constexpr bool scalar_args = !kFull && station_args;
  static constexpr int tile_p = kFull ? 2 : (wide ? 4 : 2);
  static constexpr int tile_q = kFull ? (wide ? 2 : 1) : (scalar_args && kGauss ? 2 : 4);
  static constexpr int warps_p = scalar_args ? 4 : 2;
  static constexpr int warps_q = scalar_args ? 2 : 4;
  static constexpr int warps = warps_p * warps_q;
  static constexpr int threads = warps * kWarpSize;
  static constexpr int block_p = warps_p * tile_p;
  static constexpr int block_q = warps_q * tile_q;
  static constexpr int block_baselines = block_p * block_q;
  static constexpr int min_blocks = 2;  // per SM, for __launch_bounds__ (<= 128 registers)

  // One pipeline stage: p rows (K J B, smearing), q rows (K J, smearing), source rows.
  static constexpr int stage_rows = (block_p + block_q) * station_rows + source_rows;
  static constexpr int stage_reals = stage_rows * kTileSources;
  static constexpr int copy_reals = 16 / static_cast<int>(sizeof(T));  // per 16-byte cp.async
  static constexpr int copies_per_row = kTileSources / copy_reals;
};

// Block tiles: station groups [p0, p0 + block_p) x aligned chunks [q0, q0 + block_q) of the
// upper triangle p < q, enumerated group by group; every baseline falls in exactly one tile
// (tests/unit/predict/test_predict_gpu.cpp checks it).
struct BlockTile {
  int p0, q0;
};
FRINGE_HD_INLINE int tiles_in_group(int p0, int num_stations, int block_q) {
  const int chunks = (num_stations + block_q - 1) / block_q;
  return chunks - (p0 + 1) / block_q;
}
FRINGE_HD_INLINE long long num_block_tiles(int num_stations, int block_p, int block_q) {
  long long n = 0;
  for (int p0 = 0; p0 + 1 < num_stations; p0 += block_p)
    n += tiles_in_group(p0, num_stations, block_q);
  return n;
}
// Tile of block `block` (0 <= block < num_block_tiles): a walk over the groups (at most
// N / block_p steps, once per block).
FRINGE_HD_INLINE BlockTile block_tile(int block, int num_stations, int block_p, int block_q) {
  int rem = block, p0 = 0;
  for (;;) {
    const int n = tiles_in_group(p0, num_stations, block_q);
    if (rem < n) return {p0, ((p0 + 1) / block_q + rem) * block_q};
    rem -= n;
    p0 += block_p;
  }
}

inline constexpr std::size_t align_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

// Dynamic shared memory of the cross kernel: the pipeline stages, the row pointers of the
// stage copy, the per-baseline constants and flags.
template <class M>
constexpr std::size_t cross_shared_bytes() {
  using T = typename M::Real;
  const std::size_t stages = sizeof(T) * M::stage_reals * kStages;
  const std::size_t consts = sizeof(T) * 4 * M::num_consts * M::block_baselines;
  const std::size_t rows = sizeof(void*) * M::stage_rows;
  const std::size_t flags = sizeof(int) * M::block_baselines;
  return stages + consts + rows + flags;
}

// Scratch of one source chunk (capacity C sources, a multiple of kTileSources), in T:
//   station rows [N][station_rows][C]: K J (Full: a, b, c, d re/im; Scalar: re/im), then the
//     sines and cosines of the smearing terms;
//   p rows       [N][jones_rows][C]: (K J) B (Full) or (K J) I (Scalar);
//   source rows  [source_rows][C]: l, m, n - 1, Gaussian a, b, c (as T).
// Padding sources (chunk count <= s < C) hold zeros, so tiles need no bounds checks.
// Before them, [N] time-smearing coefficients (3 doubles each).
struct ScratchLayout {
  std::size_t capacity = 0;  // C
  std::size_t tcoef_offset = 0, station_offset = 0, p_offset = 0, source_offset = 0;
  std::size_t bytes = 0;
};

template <class M>
ScratchLayout scratch_layout(std::size_t num_stations, std::size_t capacity) {
  using T = typename M::Real;
  ScratchLayout s;
  s.capacity = capacity;
  s.tcoef_offset = 0;
  s.station_offset = align_up(num_stations * 3 * sizeof(double), kAlign);
  s.p_offset =
      s.station_offset + align_up(num_stations * M::station_rows * capacity * sizeof(T), kAlign);
  s.source_offset =
      s.p_offset + align_up(num_stations * M::jones_rows * capacity * sizeof(T), kAlign);
  s.bytes = s.source_offset + align_up(M::source_rows * capacity * sizeof(T), kAlign) + kAlign;
  return s;
}

// Bytes of scratch per source of a chunk (all stations).
template <class M>
constexpr std::size_t scratch_bytes_per_source(std::size_t num_stations) {
  using T = typename M::Real;
  return (num_stations * (M::station_rows + M::jones_rows) + M::source_rows) * sizeof(T);
}

// Sources per chunk: as many whole tiles as fit the scratch budget (bytes), at least one tile,
// at most all sources (rounded up to a tile).
template <class M>
std::size_t chunk_capacity(std::size_t num_stations, std::size_t num_sources, std::size_t budget) {
  const std::size_t fixed = scratch_layout<M>(num_stations, 0).bytes + 4 * kAlign;
  const std::size_t per_source = scratch_bytes_per_source<M>(num_stations);
  std::size_t c = budget > fixed ? (budget - fixed) / per_source : 0;
  c = c / kTileSources * kTileSources;
  return std::clamp<std::size_t>(c, kTileSources, align_up(num_sources, kTileSources));
}

}  // namespace fringe::predict::cuda_detail
