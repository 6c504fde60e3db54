// Host emulation of CUDA kernels for the unit tests: a kernel header (*.cuh) compiled by the host
// compiler runs on the CPU with one std::thread per CUDA thread, so the kernel's indexing,
// shared-memory staging, warp reductions and barriers are checked on machines without a GPU
// (against the CPU reference). It says nothing about timing, register limits or the memory model
// of a real GPU. Small launches only: every CUDA thread of a running block is a host thread.
//
// Include it first in the translation unit, before cuda_runtime.h and any kernel header. The
// CUDA qualifiers are empty for a host compiler (crt/host_defines.h) except two, set here first:
// __launch_bounds__ is dropped, and __shared__ is `static`, so that a kernel's __shared__ array
// is one object shared by the threads of the running block; that holds for emu::launch (one
// block at a time) only, and a kernel run by emu::launch_cooperative (every block at once)
// takes its fixed-size shared arrays from emu::block_array instead.
//
// Provides the built-in variables (threadIdx, blockIdx, blockDim, gridDim) and functions
// (__syncthreads, __shfl_xor_sync, __shfl_down_sync, __ldg, __ldcg, atomicAdd, atomicSub,
// __sincosf, min, max), the block's dynamic shared memory (emu::dynamic_shared), the grid
// barrier of a cooperative launch (emu::grid_sync) and the two launches. The kernel header's own
// hooks (how it reaches dynamic shared memory, a grid barrier) are one-line glue in each test.
// Compile with -Wno-unknown-pragmas: the kernels' `#pragma unroll` is nvcc's.
#pragma once

#define __shared__ static
#define __launch_bounds__(...)

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

// The kernels' unqualified min and max (CUDA's device overloads).
using std::max;
using std::min;

// Built-in variables of the emulated thread.
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;

namespace emu {

// Exchange slots of one warp for shuffles, double-buffered so that one barrier per shuffle
// suffices: a lane writes the other buffer next time and this one again only after every lane
// has passed the next shuffle's barrier, i.e. has read this one.
struct Warp {
  explicit Warp(unsigned lanes) : lanes(lanes), barrier(static_cast<std::ptrdiff_t>(lanes)) {}
  unsigned lanes;
  double value[2][32] = {};
  std::barrier<> barrier;
};

// The block's fixed-size shared arrays (emu::block_array), in bytes.
constexpr std::size_t kBlockArrayBytes = 1024;

// State of one block: its barrier, warps and shared memory.
struct Block {
  Block(unsigned threads, std::size_t dynamic_bytes)
      : barrier(static_cast<std::ptrdiff_t>(threads)),
        dynamic(std::max<std::size_t>((dynamic_bytes + sizeof(Unit) - 1) / sizeof(Unit), 1)) {
    for (unsigned w = 0; w < (threads + 31) / 32; ++w)
      warps.push_back(std::make_unique<Warp>(std::min(32u, threads - 32 * w)));
  }
  // 256 bytes, 256-aligned: the unit of the dynamic shared memory (at least as aligned as on
  // the GPU).
  struct alignas(256) Unit {
    unsigned char bytes[256];
  };
  std::barrier<> barrier;
  std::vector<std::unique_ptr<Warp>> warps;
  std::vector<Unit> dynamic;
  alignas(64) unsigned char array[kBlockArrayBytes] = {};
};

inline thread_local Block* block = nullptr;
inline thread_local unsigned shuffle_phase = 0;
inline thread_local std::barrier<>* grid_barrier = nullptr;
// Loads through the read-only cache (__ldg) since it was last set to 0.
inline std::atomic<long long> ldg_count{0};

// The running block's dynamic shared memory (extern __shared__ on the GPU).
inline unsigned char* dynamic_shared() {
  return reinterpret_cast<unsigned char*>(block->dynamic.data());
}

// The running block's S[N] (a kernel's __shared__ S[N] when blocks run at once); one such
// array per kernel.
template <typename S, std::size_t N>
S* block_array() {
  static_assert(sizeof(S) * N <= kBlockArrayBytes && alignof(S) <= 64);
  return reinterpret_cast<S*>(block->array);
}

// The grid-wide barrier of emu::launch_cooperative (cooperative_groups::this_grid().sync()).
inline void grid_sync() { grid_barrier->arrive_and_wait(); }

inline void enter(Block* b, unsigned thread, unsigned threads, dim3 grid) {
  threadIdx = {thread, 0, 0};
  blockDim = dim3(threads);
  gridDim = grid;
  block = b;
  shuffle_phase = 0;
}

// Runs body() (the kernel call) as grid x threads CUDA threads with shared_bytes of dynamic
// shared memory: `threads` host threads walk the blocks one after another, with a barrier
// between blocks, so a block's shared memory is the one buffer and __shared__ may be static.
template <class F>
void launch(dim3 grid, unsigned threads, std::size_t shared_bytes, const F& body) {
  Block b(threads, shared_bytes);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      enter(&b, t, threads, grid);
      for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
          for (unsigned bx = 0; bx < grid.x; ++bx) {
            blockIdx = {bx, by, bz};
            body();
            b.barrier.arrive_and_wait();
          }
    });
  }
  for (auto& th : pool) th.join();
}

// As launch, for a cooperative kernel: every block at once (blocks x threads host threads),
// each with its own shared memory, and emu::grid_sync as the grid barrier.
template <class F>
void launch_cooperative(unsigned blocks, unsigned threads, std::size_t shared_bytes,
                        const F& body) {
  std::barrier<> grid(static_cast<std::ptrdiff_t>(blocks) * threads);
  std::vector<std::unique_ptr<Block>> state;
  for (unsigned bk = 0; bk < blocks; ++bk)
    state.push_back(std::make_unique<Block>(threads, shared_bytes));
  std::vector<std::thread> pool;
  pool.reserve(std::size_t(blocks) * threads);
  for (unsigned bk = 0; bk < blocks; ++bk) {
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, bk, t] {
        enter(state[bk].get(), t, threads, dim3(blocks));
        blockIdx = {bk, 0, 0};
        grid_barrier = &grid;
        body();
      });
    }
  }
  for (auto& th : pool) th.join();
}

}  // namespace emu

inline void __syncthreads() { emu::block->barrier.arrive_and_wait(); }

// Shuffles: every lane of the warp writes its value, then reads its source lane's (all lanes
// take part, as the kernels' full masks require). Values pass as double: exact for the float,
// double and int the kernels shuffle.
namespace emu {
template <typename T, class Source>
T shuffle(T v, Source source) {
  Warp& w = *block->warps[threadIdx.x / 32];
  const unsigned lane = threadIdx.x % 32, ph = shuffle_phase;
  shuffle_phase ^= 1u;
  w.value[ph][lane] = static_cast<double>(v);
  w.barrier.arrive_and_wait();
  const unsigned src = source(lane);
  return src < w.lanes ? static_cast<T>(w.value[ph][src]) : v;
}
}  // namespace emu

template <typename T>
T __shfl_xor_sync(unsigned /*mask*/, T v, int lane_mask) {
  return emu::shuffle(v, [&](unsigned lane) { return lane ^ static_cast<unsigned>(lane_mask); });
}
// A source past the warp's last lane leaves the value as it is (as the hardware does).
template <typename T>
T __shfl_down_sync(unsigned /*mask*/, T v, unsigned delta) {
  return emu::shuffle(v, [&](unsigned lane) { return lane + delta; });
}

template <typename T>
T __ldg(const T* p) {
  emu::ldg_count.fetch_add(1, std::memory_order_relaxed);
  return *p;
}
template <typename T>
T __ldcg(const T* p) {
  return *p;
}

inline float atomicAdd(float* p, float v) { return std::atomic_ref<float>(*p).fetch_add(v); }
inline double atomicAdd(double* p, double v) { return std::atomic_ref<double>(*p).fetch_add(v); }
inline int atomicSub(int* p, int v) { return std::atomic_ref<int>(*p).fetch_sub(v); }

inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
