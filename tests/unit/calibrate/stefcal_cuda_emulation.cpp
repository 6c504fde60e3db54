// Host emulation of the CUDA StEFCal kernel (fringe/calibrate/stefcal_cuda_kernels.cuh), for
// scalar and full-Jones gains: the same kernel template compiled by the host compiler and run
// cooperatively, every block at once with one std::thread per CUDA thread
// (tests/support/cuda_emulation.h), with the argument block that stefcal_cuda.cu builds, reading
// the rows of A and B from global memory or (shared rows) from the emulated dynamic shared
// memory, sized as stefcal_cuda.cu sizes it. It checks the kernel's indexing, teams, phases and
// decisions on machines without a GPU.
#include "tests/support/cuda_emulation.h"

#include "stefcal_cuda_emulation.h"

#include <algorithm>
#include <vector>

#include "fringe/calibrate/stefcal_math.h"

// The kernel header's hooks (stefcal_cuda_kernels.cuh; stefcal_cuda.cu on the GPU).
namespace fringe::calibrate::cuda_detail {

constexpr int kBlockThreads = 256;
constexpr int kWarpsPerBlock = kBlockThreads / 32;

void stefcal_grid_sync() { emu::grid_sync(); }

template <typename S>
S* stefcal_block_shared() {
  return emu::block_array<S, kWarpsPerBlock>();
}

unsigned char* stefcal_dynamic_shared() { return emu::dynamic_shared(); }

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
  emu::ldg_count = 0;
  const auto kernel = stefcal_batch_kernel(static_cast<P*>(nullptr), source);
  emu::launch_cooperative(unsigned(blocks), kBlockThreads, bytes, [&] { kernel(args); });
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
