// Host emulation of the CUDA StEFCal kernel (fringe/calibrate/stefcal_cuda_kernels.cuh), for
// scalar and full-Jones gains: the same kernel template compiled by the host compiler and run with
// one std::thread per CUDA thread, every block at once (std::barrier for __syncthreads and for the
// cooperative grid barrier, an exchange buffer per warp for shuffles, std::atomic_ref for atomics),
// with the argument block that stefcal_cuda.cu builds, reading the rows of A and B from global
// memory or (shared rows) from a per-block buffer standing in for the dynamic shared memory,
// sized as stefcal_cuda.cu sizes it. It checks the kernel's indexing, teams,
// phases and decisions on machines without a GPU; nothing about timing or the memory model of a
// real GPU. The CUDA qualifiers are empty for a host compiler (cuda_runtime.h, crt/host_defines.h);
// __launch_bounds__ is not, so it is dropped here first.
#define __launch_bounds__(...)

#include "stefcal_cuda_emulation.h"

#include <cuda_runtime.h>

#include <atomic>
#include <barrier>
#include <memory>
#include <thread>
#include <vector>

#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/error.h"

// Built-in variables of the emulated thread.
thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;

namespace emu {

struct Warp {
  double value[2][32] = {};
  std::barrier<> barrier{32};
};

// 16 bytes, 16-aligned: the unit of the dynamic shared memory (aligned as on the GPU).
struct alignas(16) SharedChunk {
  unsigned char bytes[16];
};

struct Block {
  Block(unsigned threads, std::size_t dynamic_bytes)
      : barrier(static_cast<std::ptrdiff_t>(threads)), dynamic((dynamic_bytes + 15) / 16) {
    for (unsigned w = 0; w < threads / 32; ++w) warps.push_back(std::make_unique<Warp>());
  }
  std::barrier<> barrier;
  std::vector<std::unique_ptr<Warp>> warps;
  alignas(64) unsigned char shared[8 * 128] = {};  // 8 warps x FullJonesSums<double>
  std::vector<SharedChunk> dynamic;                // the dynamic shared memory
};

thread_local Block* block = nullptr;
// Loads through the read-only cache (__ldg): the kernel makes them only for A and B.
std::atomic<long long> ldg_count{0};
thread_local std::barrier<>* grid_barrier = nullptr;
thread_local unsigned shuffle_phase = 0;

}  // namespace emu

void __syncthreads() { emu::block->barrier.arrive_and_wait(); }

// Every lane writes its value, then reads lane + delta (its own value past lane 31), as the
// hardware's __shfl_down_sync with a full mask.
template <typename T>
T __shfl_down_sync(unsigned /*mask*/, T v, int delta) {
  emu::Warp& w = *emu::block->warps[threadIdx.x / 32];
  const unsigned lane = threadIdx.x % 32, ph = emu::shuffle_phase;
  emu::shuffle_phase ^= 1u;
  w.value[ph][lane] = static_cast<double>(v);
  w.barrier.arrive_and_wait();
  const unsigned src = lane + static_cast<unsigned>(delta);
  return src < 32 ? static_cast<T>(w.value[ph][src]) : v;
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
double atomicAdd(double* p, double v) { return std::atomic_ref<double>(*p).fetch_add(v); }
int atomicSub(int* p, int v) { return std::atomic_ref<int>(*p).fetch_sub(v); }

namespace fringe::calibrate::cuda_detail {

constexpr int kBlockThreads = 256;
constexpr int kWarpsPerBlock = kBlockThreads / 32;

void stefcal_grid_sync() { emu::grid_barrier->arrive_and_wait(); }

template <typename S>
S* stefcal_block_shared() {
  static_assert(sizeof(S) * kWarpsPerBlock <= sizeof(emu::Block::shared));
  return reinterpret_cast<S*>(emu::block->shared);
}

unsigned char* stefcal_dynamic_shared() {
  return reinterpret_cast<unsigned char*>(emu::block->dynamic.data());
}

}  // namespace fringe::calibrate::cuda_detail

#include "fringe/calibrate/stefcal_cuda_kernels.cuh"

namespace fringe::calibrate::test {

namespace {

// The kernel of gain type P on `blocks` emulated blocks, with the argument block that
// stefcal_cuda.cu builds (filled field by field, as there); shared_rows: the shared-rows
// kernel stefcal_cuda.cu picks (one problem: gains staged too) with the dynamic shared memory
// it gives it.
template <typename P>
void run_emulated(int num_problems, int n, const typename P::AValue* a, const typename P::BValue* b,
                  typename P::Gain* gains, SolveStatus* status, const SolverOptions& options,
                  int warps_per_row, int blocks, bool shared_rows) {
  using namespace cuda_detail;
  using Gain = typename P::Gain;
  const std::size_t ng = std::size_t(n) * num_problems;
  std::vector<Gain> buf0(gains, gains + ng), buf1(ng), buf2(ng), out(ng);
  std::vector<double> norms(4 * std::size_t(num_problems), 0.0);
  std::vector<int> stop_iteration(num_problems, 0);
  int running = num_problems;
  std::vector<StefcalMonitor> monitors(2 * std::size_t(num_problems));
  std::vector<SolveStatus> st(num_problems);
  BatchArgs<P> args{};
  args.num_problems = num_problems;
  args.n = n;
  args.a = a;
  args.b = b;
  args.buf[0] = buf0.data();
  args.buf[1] = buf1.data();
  args.buf[2] = buf2.data();
  args.out = out.data();
  args.norms = norms.data();
  args.monitors = monitors.data();
  args.stop_iteration = stop_iteration.data();
  args.running = &running;
  args.status = st.data();
  args.tolerance = options.tolerance;
  args.max_iterations = options.max_iterations;
  args.stall_checks = options.stall_checks;
  args.warps_per_row = warps_per_row;
  const RowSource source = !shared_rows        ? RowSource::Global
                           : num_problems == 1 ? RowSource::SharedStaged
                                               : RowSource::Shared;
  const long long rows = shared_rows ? stefcal_shared_rows(static_cast<long long>(ng), blocks,
                                                           kWarpsPerBlock / warps_per_row)
                                     : 0;
  args.shared_rows = static_cast<int>(rows);
  const auto bytes = static_cast<std::size_t>(stefcal_shared_bytes<P>(source, rows, n));
  std::barrier<> grid(static_cast<std::ptrdiff_t>(blocks) * kBlockThreads);
  std::vector<std::unique_ptr<emu::Block>> block_state;
  for (int bk = 0; bk < blocks; ++bk) {
    block_state.push_back(std::make_unique<emu::Block>(kBlockThreads, bytes));
  }
  emu::ldg_count = 0;
  const auto kernel = stefcal_batch_kernel(static_cast<P*>(nullptr), source);
  std::vector<std::thread> pool;
  for (int bk = 0; bk < blocks; ++bk) {
    for (int t = 0; t < kBlockThreads; ++t) {
      pool.emplace_back([&, bk, t] {
        threadIdx = {unsigned(t), 0, 0};
        blockIdx = {unsigned(bk), 0, 0};
        blockDim = dim3(kBlockThreads);
        gridDim = dim3(unsigned(blocks));
        emu::block = block_state[bk].get();
        emu::grid_barrier = &grid;
        emu::shuffle_phase = 0;
        kernel(args);
      });
    }
  }
  for (auto& th : pool) th.join();
  std::copy(out.begin(), out.end(), gains);
  std::copy(st.begin(), st.end(), status);
}

}  // namespace

long long last_emulated_row_loads() { return emu::ldg_count.load(); }

template <typename T>
void solve_scalar_batch_emulated(int num_problems, int n, const Complex<T>* a, const T* b,
                                 Complex<T>* gains, SolveStatus* status,
                                 const SolverOptions& options, int warps_per_row, int blocks,
                                 bool shared_rows) {
  run_emulated<cuda_detail::ScalarGains<T>>(num_problems, n, a, b, gains, status, options,
                                            warps_per_row, blocks, shared_rows);
}

template <typename T>
void solve_full_jones_batch_emulated(int num_problems, int n, const Complex<T>* a,
                                     const Complex<T>* b, Jones<T>* gains, SolveStatus* status,
                                     const SolverOptions& options, int warps_per_row, int blocks,
                                     bool shared_rows) {
  run_emulated<cuda_detail::FullJonesGains<T>>(num_problems, n, a, b, gains, status, options,
                                               warps_per_row, blocks, shared_rows);
}

template void solve_scalar_batch_emulated<float>(int, int, const Complex<float>*, const float*,
                                                 Complex<float>*, SolveStatus*,
                                                 const SolverOptions&, int, int, bool);
template void solve_scalar_batch_emulated<double>(int, int, const Complex<double>*, const double*,
                                                  Complex<double>*, SolveStatus*,
                                                  const SolverOptions&, int, int, bool);
template void solve_full_jones_batch_emulated<double>(int, int, const Complex<double>*,
                                                      const Complex<double>*, Jones<double>*,
                                                      SolveStatus*, const SolverOptions&, int, int,
                                                      bool);

}  // namespace fringe::calibrate::test
