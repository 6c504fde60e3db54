// The CUDA gridder and degridder of the FFT imager (conv_grid_cuda.h; design and measurements
// in docs/gpu_gridding.md). Every call: a prepare kernel turns (u, v, weight, values) into
// (centre cell, kernel offsets, weighted values), counts gridded and outside visibilities and
// sums the norm; Tiled and Gather then bucket the visibilities by grid tile (counting sort);
// then the gridding kernel of the chosen formulation runs. All on one stream.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/core/gpu_buffer.cuh"
#include "fringe/imager/conv_cell.h"
#include "fringe/imager/conv_grid_cuda.h"

namespace fringe::imager {

namespace {

constexpr int kThreads = 256;    // threads per block of every kernel here
constexpr int kGatherTile = 32;  // Gather: 32 x 32 cells, 4 per thread (256 threads)
constexpr int kMaxPols = 4;

// A prepared visibility: centre cell (x = column u, y = row v) and kernel offsets (z = u,
// w = v) in oversampled samples; x < 0: not gridded (weight 0 or outside).
using Prep = int4;

template <typename T>
__device__ __forceinline__ T ktab(const T* __restrict__ table, int i) {
  return __ldg(table + (i < 0 ? -i : i));
}

__device__ __forceinline__ Complex<float> ld_complex(const Complex<float>* p) {
  const float2 v = __ldg(reinterpret_cast<const float2*>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ Complex<double> ld_complex(const Complex<double>* p) {
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}

// grid cell += (re, im) atomically: one vector atomic (sm_90's float2 atomicAdd on global
// memory) in single precision, two scalar FP64 atomics in double.
__device__ __forceinline__ void atomic_add_complex(Complex<float>* p, float re, float im) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  atomicAdd(reinterpret_cast<float2*>(p), make_float2(re, im));
#else
  atomicAdd(&p->re, re);
  atomicAdd(&p->im, im);
#endif
}
__device__ __forceinline__ void atomic_add_complex(Complex<double>* p, double re, double im) {
  atomicAdd(&p->re, re);
  atomicAdd(&p->im, im);
}

// Cells, offsets, weighted values (weight in T times the value, as the CPU), counts
// (counts[0] gridded, counts[1] outside) and norm += weight x (sum of kernel samples used),
// the sum of the 2-D samples factorised as (sum over u) x (sum over v), in double. With
// weight == nullptr (degridding) every visibility counts as weight 1 and wvis is not written.
template <typename T>
__global__ void prepare_kernel(std::size_t n, int np, const double* __restrict__ uu,
                               const double* __restrict__ vv, const Complex<T>* __restrict__ vis,
                               float* weight, double cell_rad, int grid_size, int s, int os,
                               const double* __restrict__ table_d, Prep* __restrict__ prep,
                               Complex<T>* __restrict__ wvis, unsigned long long* counts,
                               double* norm) {
  unsigned long long gridded = 0, outside = 0;
  double nrm = 0.0;
  const std::size_t stride = gridDim.x * static_cast<std::size_t>(blockDim.x);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    Prep e = make_int4(-1, -1, 0, 0);
    const float w = weight ? weight[i] : 1.0f;
    if (w > 0.0f) {
      const ConvCell c = conv_cell<T>(uu[i], vv[i], cell_rad, grid_size, s, os);
      if (!c.inside) {
        ++outside;
        if (weight) weight[i] = 0.0f;
      } else {
        ++gridded;
        e = make_int4(c.gu, c.gv, c.off_u, c.off_v);
        double su = 0.0, sv = 0.0;
        for (int j = -s; j <= s; ++j) {
          su += table_d[::abs(c.off_u + j * os)];
          sv += table_d[::abs(c.off_v + j * os)];
        }
        nrm += static_cast<double>(w) * su * sv;
      }
    }
    prep[i] = e;
    if (wvis != nullptr) {
      const T wt = static_cast<T>(w);
      for (int p = 0; p < np; ++p) {
        const Complex<T> x = vis[i * np + p];
        wvis[i * np + p] = e.x >= 0 ? Complex<T>{wt * x.re, wt * x.im} : Complex<T>{T(0), T(0)};
      }
    }
  }
  // One atomic per block and total (a per-warp atomic on the same three addresses was the
  // bottleneck of this kernel for 16 M visibilities).
  for (int o = 16; o > 0; o /= 2) {
    gridded += __shfl_down_sync(0xffffffffu, gridded, o);
    outside += __shfl_down_sync(0xffffffffu, outside, o);
    nrm += __shfl_down_sync(0xffffffffu, nrm, o);
  }
  __shared__ unsigned long long s_gridded[kThreads / 32], s_outside[kThreads / 32];
  __shared__ double s_norm[kThreads / 32];
  const int warp = threadIdx.x / 32;
  if ((threadIdx.x & 31) == 0) {
    s_gridded[warp] = gridded;
    s_outside[warp] = outside;
    s_norm[warp] = nrm;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 1; k < static_cast<int>(blockDim.x) / 32; ++k) {
      gridded += s_gridded[k];
      outside += s_outside[k];
      nrm += s_norm[k];
    }
    if (gridded) atomicAdd(&counts[0], gridded);
    if (outside) atomicAdd(&counts[1], outside);
    if (nrm != 0.0) atomicAdd(norm, nrm);
  }
}

// The tiles (ts x ts cells, ntx per row) that visibility e's support touches.
struct TileRange {
  int x0 = 0, y0 = 0, w = 0, count = 0;
};
__device__ __forceinline__ TileRange tile_range(Prep e, int s, int ts) {
  TileRange r;
  if (e.x < 0) return r;
  r.x0 = (e.x - s) / ts;
  r.y0 = (e.y - s) / ts;
  r.w = (e.x + s) / ts - r.x0 + 1;
  r.count = r.w * ((e.y + s) / ts - r.y0 + 1);
  return r;
}

// Counting sort, pass 1: entries per tile. Lanes of a warp that add to the same tile are
// merged first (__match_any_sync), so a crowded tile costs one atomic per warp, not per lane.
// Launched with a multiple of 32 threads and no early exit (every lane takes part).
__global__ void count_tiles_kernel(std::size_t n, const Prep* __restrict__ prep, int s, int ts,
                                   int ntx, unsigned* count) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const TileRange r = tile_range(i < n ? prep[i] : make_int4(-1, -1, 0, 0), s, ts);
  const int max_count = static_cast<int>(__reduce_max_sync(0xffffffffu, r.count));
  for (int it = 0; it < max_count; ++it) {
    const int key = it < r.count ? (r.y0 + it / r.w) * ntx + r.x0 + it % r.w : -1;
    const unsigned peers = __match_any_sync(0xffffffffu, key);
    if (key >= 0 && lane == __ffs(peers) - 1) atomicAdd(&count[key], __popc(peers));
  }
}

// Pass 3 (after the scan): each (visibility, tile) pair written at its tile's offset plus a
// slot from the tile's cursor; the order inside a tile is arbitrary.
__global__ void fill_tiles_kernel(std::size_t n, const Prep* __restrict__ prep, int s, int ts,
                                  int ntx, const unsigned* __restrict__ offset, unsigned* cursor,
                                  int2* __restrict__ entries) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const TileRange r = tile_range(i < n ? prep[i] : make_int4(-1, -1, 0, 0), s, ts);
  const int max_count = static_cast<int>(__reduce_max_sync(0xffffffffu, r.count));
  for (int it = 0; it < max_count; ++it) {
    const int key = it < r.count ? (r.y0 + it / r.w) * ntx + r.x0 + it % r.w : -1;
    const unsigned peers = __match_any_sync(0xffffffffu, key);
    const int leader = __ffs(peers) - 1;
    unsigned base = 0;
    if (key >= 0 && lane == leader) base = atomicAdd(&cursor[key], __popc(peers));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (key >= 0) {
      const unsigned rank = __popc(peers & ((1u << lane) - 1u));
      entries[offset[key] + base + rank] = make_int2(static_cast<int>(i), key);
    }
  }
}

// Scatter: a group of g lanes per visibility, lane = kernel column, loop over rows; global
// atomics (RED) for every cell and polarisation.
template <typename T, int NP>
__global__ void grid_scatter_kernel(std::size_t n, const Prep* __restrict__ prep,
                                    const Complex<T>* __restrict__ wvis,
                                    const T* __restrict__ table, int s, int os, int g,
                                    int grid_size, Complex<T>* grid) {
  const int lane = threadIdx.x % g;
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  const std::size_t ngroups = gridDim.x * static_cast<std::size_t>(blockDim.x) / g;
  for (std::size_t vi = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / g;
       vi < n; vi += ngroups) {
    const Prep p = prep[vi];
    if (p.x < 0) continue;
    Complex<T> v[NP];
    for (int q = 0; q < NP; ++q) v[q] = ld_complex(wvis + vi * NP + q);
    for (int du = -s + lane; du <= s; du += g) {
      const T cu = ktab(table, p.z + du * os);
      for (int dv = -s; dv <= s; ++dv) {
        const T c = cu * ktab(table, p.w + dv * os);
        Complex<T>* cell = grid + static_cast<std::size_t>(p.y + dv) * grid_size + (p.x + du);
        for (int q = 0; q < NP; ++q) atomic_add_complex(cell + q * plane, v[q].re * c, v[q].im * c);
      }
    }
  }
}

// Adds a block's tile patch (shared memory, [NP][re, im][ts x ts]) to the grid, non-zero cells
// only (a sparse tile costs what it holds), and zeroes it. Between two __syncthreads.
template <typename T, int NP>
__device__ void flush_patch(T* patch, int ts, int x0, int y0, int grid_size, Complex<T>* grid) {
  const int cells = ts * ts;
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  for (int i = threadIdx.x; i < cells; i += blockDim.x) {
    for (int q = 0; q < NP; ++q) {
      const T re = patch[2 * q * cells + i];
      const T im = patch[(2 * q + 1) * cells + i];
      if (re != T(0) || im != T(0)) {
        atomic_add_complex(
            grid + q * plane + static_cast<std::size_t>(y0 + i / ts) * grid_size + (x0 + i % ts),
            re, im);
        patch[2 * q * cells + i] = T(0);
        patch[(2 * q + 1) * cells + i] = T(0);
      }
    }
  }
}

// Tiled: block b takes entries [b chunk, (b + 1) chunk) of the tile-sorted list; for each run
// of one tile in it, groups of g lanes add their visibilities' support (clipped to the tile)
// into the shared patch with shared-memory atomics, then the patch is flushed once.
template <typename T, int NP>
__global__ void grid_tiled_kernel(const int2* __restrict__ entries, unsigned total, unsigned chunk,
                                  const unsigned* __restrict__ offset,
                                  const Prep* __restrict__ prep,
                                  const Complex<T>* __restrict__ wvis, const T* __restrict__ table,
                                  int s, int os, int ts, int ntx, int g, int grid_size,
                                  Complex<T>* grid) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* patch = reinterpret_cast<T*>(smem_raw);
  const int cells = ts * ts;
  for (int i = threadIdx.x; i < 2 * NP * cells; i += blockDim.x) patch[i] = T(0);
  __syncthreads();
  const unsigned begin = blockIdx.x * chunk;
  const unsigned end = min(total, begin + chunk);
  const int lane = threadIdx.x % g;
  const int group = threadIdx.x / g;
  const int ngroups = blockDim.x / g;
  for (unsigned seg = begin; seg < end;) {
    const int tile = entries[seg].y;
    const unsigned seg_end = min(end, offset[tile + 1]);
    const int x0 = (tile % ntx) * ts;
    const int y0 = (tile / ntx) * ts;
    for (unsigned e = seg + group; e < seg_end; e += ngroups) {
      const int vi = entries[e].x;
      const Prep p = prep[vi];
      Complex<T> v[NP];
      for (int q = 0; q < NP; ++q) v[q] = ld_complex(wvis + static_cast<std::size_t>(vi) * NP + q);
      const int xb = min(p.x + s, x0 + ts - 1);
      const int ya = max(p.y - s, y0), yb = min(p.y + s, y0 + ts - 1);
      for (int x = max(p.x - s, x0) + lane; x <= xb; x += g) {
        const T cu = ktab(table, p.z + (x - p.x) * os);
        for (int y = ya; y <= yb; ++y) {
          const T c = cu * ktab(table, p.w + (y - p.y) * os);
          const int cell = (y - y0) * ts + (x - x0);
          for (int q = 0; q < NP; ++q) {
            atomicAdd(&patch[2 * q * cells + cell], v[q].re * c);
            atomicAdd(&patch[(2 * q + 1) * cells + cell], v[q].im * c);
          }
        }
      }
    }
    __syncthreads();
    flush_patch<T, NP>(patch, ts, x0, y0, grid_size, grid);
    __syncthreads();
    seg = seg_end;
  }
}

// Gather: as Tiled (32 x 32 tiles), but thread t owns column t % 32 and rows t / 32 + 8 k
// (k = 0..3) of the tile in registers and every thread visits every visibility of the run:
// no atomics until the flush. Pays when most of a tile lies in each visibility's support.
template <typename T, int NP>
__global__ void __launch_bounds__(kThreads)
    grid_gather_kernel(const int2* __restrict__ entries, unsigned total, unsigned chunk,
                       const unsigned* __restrict__ offset, const Prep* __restrict__ prep,
                       const Complex<T>* __restrict__ wvis, const T* __restrict__ table, int s,
                       int os, int ntx, int grid_size, Complex<T>* grid) {
  constexpr int ts = kGatherTile;
  const int tx = threadIdx.x & 31;
  const int ty = threadIdx.x >> 5;
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  const unsigned begin = blockIdx.x * chunk;
  const unsigned end = min(total, begin + chunk);
  for (unsigned seg = begin; seg < end;) {
    const int tile = entries[seg].y;
    const unsigned seg_end = min(end, offset[tile + 1]);
    const int x0 = (tile % ntx) * ts;
    const int y0 = (tile / ntx) * ts;
    Complex<T> acc[4][NP];
    for (int k = 0; k < 4; ++k)
      for (int q = 0; q < NP; ++q) acc[k][q] = {T(0), T(0)};
    for (unsigned e = seg; e < seg_end; ++e) {
      const int vi = entries[e].x;
      const Prep p = prep[vi];
      const int du = x0 + tx - p.x;
      if (du < -s || du > s) continue;
      const T cu = ktab(table, p.z + du * os);
      Complex<T> v[NP];
      for (int q = 0; q < NP; ++q) v[q] = ld_complex(wvis + static_cast<std::size_t>(vi) * NP + q);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int dv = y0 + ty + 8 * k - p.y;
        if (dv < -s || dv > s) continue;
        const T c = cu * ktab(table, p.w + dv * os);
        for (int q = 0; q < NP; ++q) {
          acc[k][q].re += v[q].re * c;
          acc[k][q].im += v[q].im * c;
        }
      }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int gx = x0 + tx, gy = y0 + ty + 8 * k;
      for (int q = 0; q < NP; ++q) {
        if (acc[k][q].re != T(0) || acc[k][q].im != T(0)) {
          atomic_add_complex(grid + q * plane + static_cast<std::size_t>(gy) * grid_size + gx,
                             acc[k][q].re, acc[k][q].im);
        }
      }
    }
    seg = seg_end;
  }
}

// Degridding: a group of g lanes per visibility (lane = kernel column, loop over rows, grid
// read through the read-only cache), then a shuffle reduction over the group. The loop bound
// is uniform over each warp so that every lane takes part in the shuffles.
template <typename T, int NP>
__global__ void degrid_kernel(std::size_t n, const Prep* __restrict__ prep,
                              const T* __restrict__ table, int s, int os, int g, int grid_size,
                              const Complex<T>* __restrict__ grid, Complex<T>* __restrict__ out) {
  const int lane = threadIdx.x % g;
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  const int groups_per_warp = 32 / g;
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t num_warps = gridDim.x * static_cast<std::size_t>(blockDim.x) / 32;
  for (std::size_t base = warp * groups_per_warp; base < n; base += num_warps * groups_per_warp) {
    const std::size_t vi = base + (threadIdx.x & 31) / g;
    Complex<T> acc[NP];
    for (int q = 0; q < NP; ++q) acc[q] = {T(0), T(0)};
    const Prep p = vi < n ? prep[vi] : make_int4(-1, -1, 0, 0);
    if (p.x >= 0) {
      for (int du = -s + lane; du <= s; du += g) {
        const T cu = ktab(table, p.z + du * os);
        for (int dv = -s; dv <= s; ++dv) {
          const T c = cu * ktab(table, p.w + dv * os);
          const std::size_t cell = static_cast<std::size_t>(p.y + dv) * grid_size + (p.x + du);
          for (int q = 0; q < NP; ++q) {
            const Complex<T> x = ld_complex(grid + q * plane + cell);
            acc[q].re += x.re * c;
            acc[q].im += x.im * c;
          }
        }
      }
    }
    for (int o = g / 2; o > 0; o /= 2) {
      for (int q = 0; q < NP; ++q) {
        acc[q].re += __shfl_xor_sync(0xffffffffu, acc[q].re, o);
        acc[q].im += __shfl_xor_sync(0xffffffffu, acc[q].im, o);
      }
    }
    if (vi < n && lane == 0)
      for (int q = 0; q < NP; ++q) out[vi * NP + q] = acc[q];
  }
}

// Lanes per visibility: the power of two >= the support's width (at most `limit` cells, the
// tile side for Tiled), capped at a warp.
int group_size(int width) {
  int g = 1;
  while (g < width && g < 32) g *= 2;
  return g;
}

unsigned blocks_for(std::size_t threads, int num_sms) {
  const std::size_t b = (threads + kThreads - 1) / kThreads;
  const std::size_t cap = static_cast<std::size_t>(num_sms) * 64;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(b, cap)));
}

double elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0.0f;
  FRINGE_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return 1e-3 * ms;
}

}  // namespace

const char* to_string(ConvGridMethod m) {
  switch (m) {
    case ConvGridMethod::Auto:
      return "auto";
    case ConvGridMethod::Scatter:
      return "scatter";
    case ConvGridMethod::Tiled:
      return "tiled";
    case ConvGridMethod::Gather:
      return "gather";
  }
  return "?";
}

ConvGridMethod auto_grid_method(int support, int num_pols, bool double_precision) {
  // H200, 4096^2 grid, MS-ordered tracks (benchmarks/RESULTS.md, "Convolutional gridding"):
  // float scatter (one float2 atomic per cell) wins for one polarisation up to 9 x 9; the
  // shared-memory tiles win above that and for several polarisations or double (no FP64 vector
  // atomic); the register gather wins from 33 x 33 (support 16) up.
  if (support >= 16) return ConvGridMethod::Gather;
  if (!double_precision && num_pols == 1 && support <= 4) return ConvGridMethod::Scatter;
  return ConvGridMethod::Tiled;
}

int default_tile_size(int support, int num_pols, bool double_precision) {
  // 64 only paid for single precision, one polarisation, supports 4 to 12 (one 32 KiB patch).
  return !double_precision && num_pols == 1 && support >= 4 && support <= 12 ? 64 : 32;
}

template <typename T>
struct ConvGridCuda<T>::Impl {
  ConvKernel1d k;
  int grid_size = 0;
  int np = 1;
  ConvCudaOptions opt;
  int num_sms = 1;
  std::size_t max_smem = 48 * 1024;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev[5] = {};
  GpuBuffer<T> table;
  GpuBuffer<double> table_d;
  GpuBuffer<Complex<T>> grid;
  GpuBuffer<Prep> prep;
  GpuBuffer<Complex<T>> wvis;
  GpuBuffer<unsigned long long> counts;
  GpuBuffer<double> norm;
  GpuBuffer<unsigned> tile_count, tile_offset, cursor;
  GpuBuffer<int2> entries;
  GpuBuffer<unsigned char> scan_temp;
  GpuBuffer<double> d_uu, d_vv;
  GpuBuffer<Complex<T>> d_vis;
  GpuBuffer<float> d_weight;
  ConvCudaTimings t;
  ConvGridMethod used = ConvGridMethod::Auto;

  std::size_t plane() const { return static_cast<std::size_t>(grid_size) * grid_size; }

  void check_view(std::size_t num_vis, int num_pols, const char* what) const {
    (void)num_vis;
    if (num_pols != np)
      throw Error(std::string("ConvGridCuda::") + what + ": the visibilities have " +
                  std::to_string(num_pols) + " polarisations, the grid " + std::to_string(np));
  }

  template <int NP>
  void launch_grid(ConvGridMethod m, std::size_t n, double cell_rad, int s, int os);
  GridTotals grid_device(const ConvVisView<T>& v, double cell_rad);
  std::size_t degrid_device(const ConvDegridView<T>& v, double cell_rad);
};

template <typename T>
ConvGridCuda<T>::ConvGridCuda(const ConvKernel1d& k, int grid_size, int num_pols,
                              const ConvCudaOptions& opt)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  if (k.support < 0 || k.oversample < 1 ||
      k.values.size() < static_cast<std::size_t>(k.oversample) * (k.support + 1))
    throw Error("ConvGridCuda: kernel table of " + std::to_string(k.values.size()) +
                " samples, expected oversample x (support + 1) = " +
                std::to_string(static_cast<long long>(k.oversample) * (k.support + 1)));
  if (num_pols < 1 || num_pols > kMaxPols)
    throw Error("ConvGridCuda: num_pols " + std::to_string(num_pols) + ", expected 1 to 4");
  if (grid_size < 1 || grid_size > 65536)
    throw Error("ConvGridCuda: grid_size " + std::to_string(grid_size) + ", expected 1 to 65536");
  d.k = k;
  d.grid_size = grid_size;
  d.np = num_pols;
  d.opt = opt;
  CudaDeviceGuard guard(opt.device);
  cudaDeviceProp prop{};
  FRINGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, opt.device));
  d.num_sms = prop.multiProcessorCount;
  d.max_smem = prop.sharedMemPerBlockOptin;
  FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
  for (cudaEvent_t& e : d.ev) FRINGE_CUDA_CHECK(cudaEventCreate(&e));
  std::vector<T> tab(k.values.begin(), k.values.end());
  d.table.upload(tab.data(), tab.size(), d.stream);
  d.table_d.upload(k.values.data(), k.values.size(), d.stream);
  d.grid.zero(num_pols * d.plane(), d.stream);
  d.counts.reserve(2);
  d.norm.reserve(1);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
}

template <typename T>
ConvGridCuda<T>::~ConvGridCuda() {
  if (!impl_) return;
  int prev = 0;
  cudaGetDevice(&prev);
  cudaSetDevice(impl_->opt.device);
  if (impl_->stream) cudaStreamSynchronize(impl_->stream);
  for (cudaEvent_t e : impl_->ev)
    if (e) cudaEventDestroy(e);
  if (impl_->stream) cudaStreamDestroy(impl_->stream);
  // Buffers are freed by their destructors, on this device.
  impl_.reset();
  cudaSetDevice(prev);
}

template <typename T>
template <int NP>
void ConvGridCuda<T>::Impl::launch_grid(ConvGridMethod m, std::size_t n, double cell_rad, int s,
                                        int os) {
  (void)cell_rad;
  const int width = 2 * s + 1;
  if (m == ConvGridMethod::Scatter) {
    const int g = group_size(width);
    FRINGE_CUDA_CHECK(cudaEventRecord(ev[2], stream));
    grid_scatter_kernel<T, NP><<<blocks_for(n * g, num_sms), kThreads, 0, stream>>>(
        n, prep.data(), wvis.data(), table.data(), s, os, g, grid_size, grid.data());
    FRINGE_CUDA_CHECK_KERNEL("grid_scatter_kernel");
    FRINGE_CUDA_CHECK(cudaEventRecord(ev[3], stream));
    return;
  }
  // Tile side: Gather 32; Tiled 32, or 64 for wide kernels where the patch fits.
  int ts = kGatherTile;
  if (m == ConvGridMethod::Tiled) {
    ts = opt.tile_size > 0 ? std::clamp(opt.tile_size, 8, 128)
                           : default_tile_size(s, NP, sizeof(T) == sizeof(double));
    while (ts > 8 && static_cast<std::size_t>(ts) * ts * 2 * NP * sizeof(T) > max_smem) ts /= 2;
  }
  const int ntx = (grid_size + ts - 1) / ts;
  const std::size_t num_tiles = static_cast<std::size_t>(ntx) * ntx;
  tile_count.zero(num_tiles + 1, stream);
  cursor.zero(num_tiles, stream);
  tile_offset.reserve(num_tiles + 1);
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  count_tiles_kernel<<<blocks, kThreads, 0, stream>>>(n, prep.data(), s, ts, ntx,
                                                      tile_count.data());
  FRINGE_CUDA_CHECK_KERNEL("count_tiles_kernel");
  std::size_t temp_bytes = 0;
  FRINGE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, tile_count.data(),
                                                  tile_offset.data(), num_tiles + 1, stream));
  scan_temp.reserve(temp_bytes);
  FRINGE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), temp_bytes, tile_count.data(),
                                                  tile_offset.data(), num_tiles + 1, stream));
  unsigned total = 0;
  FRINGE_CUDA_CHECK(cudaMemcpyAsync(&total, tile_offset.data() + num_tiles, sizeof(unsigned),
                                    cudaMemcpyDeviceToHost, stream));
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  entries.reserve(total);
  fill_tiles_kernel<<<blocks, kThreads, 0, stream>>>(n, prep.data(), s, ts, ntx, tile_offset.data(),
                                                     cursor.data(), entries.data());
  FRINGE_CUDA_CHECK_KERNEL("fill_tiles_kernel");
  FRINGE_CUDA_CHECK(cudaEventRecord(ev[2], stream));
  if (total == 0) {
    FRINGE_CUDA_CHECK(cudaEventRecord(ev[3], stream));
    return;
  }
  // Entries per block: about 64 K cell updates each (clipped support <= ts x ts cells).
  const int clipped = std::min(width, ts);
  const unsigned chunk =
      static_cast<unsigned>(std::max(32, 65536 / std::max(1, clipped * clipped)));
  const unsigned nblocks = (total + chunk - 1) / chunk;
  if (m == ConvGridMethod::Tiled) {
    const int g = group_size(clipped);
    const std::size_t smem = static_cast<std::size_t>(ts) * ts * 2 * NP * sizeof(T);
    if (smem > 48 * 1024)
      FRINGE_CUDA_CHECK(cudaFuncSetAttribute(grid_tiled_kernel<T, NP>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
    grid_tiled_kernel<T, NP><<<nblocks, kThreads, smem, stream>>>(
        entries.data(), total, chunk, tile_offset.data(), prep.data(), wvis.data(), table.data(), s,
        os, ts, ntx, g, grid_size, grid.data());
    FRINGE_CUDA_CHECK_KERNEL("grid_tiled_kernel");
  } else {
    grid_gather_kernel<T, NP><<<nblocks, kThreads, 0, stream>>>(
        entries.data(), total, chunk, tile_offset.data(), prep.data(), wvis.data(), table.data(), s,
        os, ntx, grid_size, grid.data());
    FRINGE_CUDA_CHECK_KERNEL("grid_gather_kernel");
  }
  FRINGE_CUDA_CHECK(cudaEventRecord(ev[3], stream));
}

template <typename T>
GridTotals ConvGridCuda<T>::Impl::grid_device(const ConvVisView<T>& v, double cell_rad) {
  check_view(v.num_vis, v.num_pols, "grid");
  const int s = k.support, os = k.oversample;
  ConvGridMethod m = opt.method == ConvGridMethod::Auto
                         ? auto_grid_method(s, np, sizeof(T) == sizeof(double))
                         : opt.method;
  used = m;
  GridTotals totals;
  t.prepare = t.sort = t.kernel = 0.0;
  // Batches keep the (visibility, tile) pairs' count and offsets within 32 bits.
  const std::size_t tiles_per_vis =
      static_cast<std::size_t>((2 * s + 1) / 8 + 2) * static_cast<std::size_t>((2 * s + 1) / 8 + 2);
  const std::size_t batch = std::max<std::size_t>(
      1, std::min<std::size_t>(std::size_t{1} << 26, (std::size_t{1} << 31) / tiles_per_vis));
  for (std::size_t b0 = 0; b0 < v.num_vis; b0 += batch) {
    const std::size_t n = std::min(batch, v.num_vis - b0);
    prep.reserve(n);
    wvis.reserve(n * np);
    counts.zero(2, stream);
    norm.zero(1, stream);
    FRINGE_CUDA_CHECK(cudaEventRecord(ev[0], stream));
    prepare_kernel<T><<<blocks_for(n, num_sms), kThreads, 0, stream>>>(
        n, np, v.uu + b0, v.vv + b0, v.vis + b0 * np, v.weight + b0, cell_rad, grid_size, s, os,
        table_d.data(), prep.data(), wvis.data(), counts.data(), norm.data());
    FRINGE_CUDA_CHECK_KERNEL("prepare_kernel");
    FRINGE_CUDA_CHECK(cudaEventRecord(ev[1], stream));
    switch (np) {
      case 1:
        launch_grid<1>(m, n, cell_rad, s, os);
        break;
      case 2:
        launch_grid<2>(m, n, cell_rad, s, os);
        break;
      case 3:
        launch_grid<3>(m, n, cell_rad, s, os);
        break;
      default:
        launch_grid<4>(m, n, cell_rad, s, os);
        break;
    }
    unsigned long long c[2] = {0, 0};
    double nrm = 0.0;
    counts.download(c, 2, stream);
    norm.download(&nrm, 1, stream);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    totals.gridded += c[0];
    totals.outside += c[1];
    totals.norm += nrm;
    t.prepare += elapsed(ev[0], ev[1]);
    t.sort += m == ConvGridMethod::Scatter ? 0.0 : elapsed(ev[1], ev[2]);
    t.kernel += elapsed(ev[2], ev[3]);
  }
  t.total = t.prepare + t.sort + t.kernel;
  return totals;
}

template <typename T>
std::size_t ConvGridCuda<T>::Impl::degrid_device(const ConvDegridView<T>& v, double cell_rad) {
  check_view(v.num_vis, v.num_pols, "degrid");
  const int s = k.support, os = k.oversample;
  const std::size_t n = v.num_vis;
  t.prepare = t.sort = t.kernel = 0.0;
  if (n == 0) {
    t.total = 0.0;
    return 0;
  }
  prep.reserve(n);
  counts.zero(2, stream);
  norm.zero(1, stream);
  FRINGE_CUDA_CHECK(cudaEventRecord(ev[0], stream));
  prepare_kernel<T><<<blocks_for(n, num_sms), kThreads, 0, stream>>>(
      n, np, v.uu, v.vv, nullptr, nullptr, cell_rad, grid_size, s, os, table_d.data(), prep.data(),
      nullptr, counts.data(), norm.data());
  FRINGE_CUDA_CHECK_KERNEL("prepare_kernel");
  FRINGE_CUDA_CHECK(cudaEventRecord(ev[1], stream));
  const int g = group_size(2 * s + 1);
  const unsigned blocks = blocks_for(n * g, num_sms);
  switch (np) {
    case 1:
      degrid_kernel<T, 1><<<blocks, kThreads, 0, stream>>>(n, prep.data(), table.data(), s, os, g,
                                                           grid_size, grid.data(), v.vis);
      break;
    case 2:
      degrid_kernel<T, 2><<<blocks, kThreads, 0, stream>>>(n, prep.data(), table.data(), s, os, g,
                                                           grid_size, grid.data(), v.vis);
      break;
    case 3:
      degrid_kernel<T, 3><<<blocks, kThreads, 0, stream>>>(n, prep.data(), table.data(), s, os, g,
                                                           grid_size, grid.data(), v.vis);
      break;
    default:
      degrid_kernel<T, 4><<<blocks, kThreads, 0, stream>>>(n, prep.data(), table.data(), s, os, g,
                                                           grid_size, grid.data(), v.vis);
      break;
  }
  FRINGE_CUDA_CHECK_KERNEL("degrid_kernel");
  FRINGE_CUDA_CHECK(cudaEventRecord(ev[3], stream));
  unsigned long long c[2] = {0, 0};
  counts.download(c, 2, stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  t.prepare = elapsed(ev[0], ev[1]);
  t.kernel = elapsed(ev[1], ev[3]);
  t.total = t.prepare + t.kernel;
  return static_cast<std::size_t>(c[1]);
}

template <typename T>
GridTotals ConvGridCuda<T>::grid_device(const ConvVisView<T>& v, double cell_rad) {
  CudaDeviceGuard guard(impl_->opt.device);
  return impl_->grid_device(v, cell_rad);
}

template <typename T>
GridTotals ConvGridCuda<T>::grid(const ConvVisView<T>& v, double cell_rad) {
  Impl& d = *impl_;
  d.check_view(v.num_vis, v.num_pols, "grid");
  CudaDeviceGuard guard(d.opt.device);
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = v.num_vis;
  ConvVisView<T> dv = v;
  dv.uu = d.d_uu.upload(v.uu, n, d.stream);
  dv.vv = d.d_vv.upload(v.vv, n, d.stream);
  dv.ww = nullptr;
  dv.vis = d.d_vis.upload(v.vis, n * d.np, d.stream);
  dv.weight = d.d_weight.upload(v.weight, n, d.stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  const double transfer =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const GridTotals totals = d.grid_device(dv, cell_rad);
  if (totals.outside > 0) {
    d.d_weight.download(v.weight, n, d.stream);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  }
  d.t.transfer = transfer;
  d.t.total += transfer;
  return totals;
}

template <typename T>
std::size_t ConvGridCuda<T>::degrid_device(const ConvDegridView<T>& v, double cell_rad) {
  CudaDeviceGuard guard(impl_->opt.device);
  return impl_->degrid_device(v, cell_rad);
}

template <typename T>
std::size_t ConvGridCuda<T>::degrid(const ConvDegridView<T>& v, double cell_rad) {
  Impl& d = *impl_;
  d.check_view(v.num_vis, v.num_pols, "degrid");
  CudaDeviceGuard guard(d.opt.device);
  const std::size_t n = v.num_vis;
  ConvDegridView<T> dv = v;
  dv.uu = d.d_uu.upload(v.uu, n, d.stream);
  dv.vv = d.d_vv.upload(v.vv, n, d.stream);
  dv.vis = d.d_vis.reserve(n * d.np);
  const std::size_t outside = d.degrid_device(dv, cell_rad);
  d.d_vis.download(v.vis, n * d.np, d.stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  return outside;
}

template <typename T>
void ConvGridCuda<T>::zero_grid() {
  CudaDeviceGuard guard(impl_->opt.device);
  impl_->grid.zero(impl_->np * impl_->plane(), impl_->stream);
}

template <typename T>
void ConvGridCuda<T>::upload_grid(const Complex<T>* host) {
  CudaDeviceGuard guard(impl_->opt.device);
  impl_->grid.upload(host, impl_->np * impl_->plane(), impl_->stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
}

template <typename T>
void ConvGridCuda<T>::add_grid_to_host(Complex<T>* host) const {
  const Impl& d = *impl_;
  CudaDeviceGuard guard(d.opt.device);
  const std::size_t total = d.np * d.plane();
  std::vector<Complex<T>> tmp(total);
  d.grid.download(tmp.data(), total, d.stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  for (std::size_t i = 0; i < total; ++i) {
    host[i].re += tmp[i].re;
    host[i].im += tmp[i].im;
  }
}

template <typename T>
Complex<T>* ConvGridCuda<T>::device_grid() {
  return impl_->grid.data();
}

template <typename T>
void* ConvGridCuda<T>::stream() const {
  return impl_->stream;
}

template <typename T>
const ConvCudaTimings& ConvGridCuda<T>::timings() const {
  return impl_->t;
}

template <typename T>
ConvGridMethod ConvGridCuda<T>::method_used() const {
  return impl_->used;
}

template <typename T>
GridTotals grid_simple_cuda(const ConvKernel1d& k, const ConvVisView<T>& v, double cell_rad,
                            int grid_size, Complex<T>* grid, int device) {
  ConvCudaOptions opt;
  opt.device = device;
  ConvGridCuda<T> g(k, grid_size, v.num_pols, opt);
  const GridTotals totals = g.grid(v, cell_rad);
  g.add_grid_to_host(grid);
  return totals;
}

template <typename T>
std::size_t degrid_simple_cuda(const ConvKernel1d& k, const ConvDegridView<T>& v, double cell_rad,
                               int grid_size, const Complex<T>* grid, int device) {
  ConvCudaOptions opt;
  opt.device = device;
  ConvGridCuda<T> g(k, grid_size, v.num_pols, opt);
  g.upload_grid(grid);
  return g.degrid(v, cell_rad);
}

template class ConvGridCuda<float>;
template class ConvGridCuda<double>;
template GridTotals grid_simple_cuda<float>(const ConvKernel1d&, const ConvVisView<float>&, double,
                                            int, Complex<float>*, int);
template GridTotals grid_simple_cuda<double>(const ConvKernel1d&, const ConvVisView<double>&,
                                             double, int, Complex<double>*, int);
template std::size_t degrid_simple_cuda<float>(const ConvKernel1d&, const ConvDegridView<float>&,
                                               double, int, const Complex<float>*, int);
template std::size_t degrid_simple_cuda<double>(const ConvKernel1d&, const ConvDegridView<double>&,
                                                double, int, const Complex<double>*, int);

}  // namespace fringe::imager
