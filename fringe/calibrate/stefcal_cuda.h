// CUDA back end of StEFCal: many scalar problems (stefcal.h, A and B form of SDP Memo 091), or
// many full-Jones problems (2x2 gains; the 4x4 A, B form of stefcal_math.h), solved in one
// persistent cooperative kernel (one kernel template for both gain types). Each iteration: one warp
// per receptor p (of any problem; a team of 2, 4 or 8 warps when the batch is too small to fill the
// GPU) sums A_pq g_q and B_pq |g_q|^2 over q with its lanes (A and B read through the read-only
// cache, __ldg; the gains, which change every iteration, through L2, __ldcg) and writes g_p; then
// one grid-wide barrier per iteration. Even iterations add the per-problem norms (atomics); the
// next iteration makes the same convergence / stall test as the CPU (stefcal_math.h) in every team
// of the problem and reads the averaged gains (g[i] + g[i-1]) / 2 from two buffers, so averaging
// needs no barrier of its own. The whole iteration loop runs on the GPU: no host round trip per
// iteration. When the rows of A and B each block owns (blocks are persistent and own fixed
// rows) fit in its shared memory with every block resident, as for one or a few problems, the
// blocks copy them there once at the start and read them from shared memory in every iteration
// (only the gains then come from L2; with one problem each block also stages the iteration's
// gains in shared memory once per iteration); larger batches read them from global memory each
// iteration. Same arithmetic either way. Problems that have stopped idle until the last one stops.
// Results agree with solve_scalar (CPU) to rounding (sums in another order). Errors: every CUDA
// call and launch is checked (core/cuda_check.h); a device without cooperative launch support, or a
// batch too large for memory, raises fringe::Error.
#pragma once

#include <cstddef>
#include <memory>

#include "fringe/calibrate/stefcal.h"
#include "fringe/core/complex.h"
#include "fringe/core/jones.h"

namespace fringe::calibrate {

// Device-resident batch for repeated solves (benchmarks): upload A, B once, solve many times.
template <typename T>
class StefcalCuda {
 public:
  // warps_per_row: 1, 2, 4 or 8 warps share one receptor's sum over q; 0 = chosen from the
  // batch size and the GPU (one warp per receptor for large batches). blocks_per_sm: at most
  // this many blocks per multiprocessor (fewer blocks make the grid barrier cheaper, more
  // hide memory latency); 0 = as many as fit. shared_rows: keep the rows of A and B in shared
  // memory when they fit (false: always read them from global memory, for comparisons).
  StefcalCuda(int device, int num_problems, int n, int warps_per_row = 0, int blocks_per_sm = 0,
              bool shared_rows = true);
  ~StefcalCuda();
  StefcalCuda(const StefcalCuda&) = delete;
  StefcalCuda& operator=(const StefcalCuda&) = delete;

  // Host arrays: a[num_problems * n * n], b likewise.
  void upload(const Complex<T>* a, const T* b);
  // Starts from gains0[num_problems * n] (host), runs the solver, waits, and returns the
  // kernel time in seconds (CUDA events; excludes the copies of A and B).
  double solve(const Complex<T>* gains0, const SolverOptions& options);
  // Results of the last solve (host arrays of num_problems * n and num_problems).
  void download(Complex<T>* gains, SolveStatus* status) const;

  int num_problems() const;
  int n() const;
  int grid_blocks() const;                     // blocks of a launch
  int warps_per_row() const;                   // as chosen
  bool rows_in_shared() const;                 // rows of A and B read from shared memory
  std::size_t shared_bytes_per_block() const;  // their dynamic shared memory (0: global)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One call: copies in, solves, copies out (host arrays as solve_scalar_batch_cpu).
template <typename T>
void solve_scalar_batch_cuda(int device, int num_problems, int n, const Complex<T>* a, const T* b,
                             Complex<T>* gains, SolveStatus* status, const SolverOptions& options);

// Full-Jones batch: num_problems problems of n stations, A and B (stefcal_math.h: 16 complex
// values per (p, q) each) stored [problem][p][term][q] as build_full_jones_normal_equations
// (cal_data.h) writes them, gains one Jones matrix per station. Same kernel, launch rules,
// stopping rules and errors as StefcalCuda; per (p, q) and iteration it reads 2 x 16 complex
// values instead of one complex and one real, so memory is 32 n^2 complex values per problem.
template <typename T>
class StefcalCudaFullJones {
 public:
  StefcalCudaFullJones(int device, int num_problems, int n, int warps_per_row = 0,
                       int blocks_per_sm = 0, bool shared_rows = true);
  ~StefcalCudaFullJones();
  StefcalCudaFullJones(const StefcalCudaFullJones&) = delete;
  StefcalCudaFullJones& operator=(const StefcalCudaFullJones&) = delete;

  // Host arrays: a[num_problems * n * 16 * n], b likewise.
  void upload(const Complex<T>* a, const Complex<T>* b);
  // Starts from gains0[num_problems * n] (host); kernel time in seconds.
  double solve(const Jones<T>* gains0, const SolverOptions& options);
  void download(Jones<T>* gains, SolveStatus* status) const;

  int num_problems() const;
  int n() const;
  int grid_blocks() const;
  int warps_per_row() const;
  bool rows_in_shared() const;
  std::size_t shared_bytes_per_block() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One call: copies in, solves, copies out (gains in: starting point, out: solution).
template <typename T>
void solve_full_jones_batch_cuda(int device, int num_problems, int n, const Complex<T>* a,
                                 const Complex<T>* b, Jones<T>* gains, SolveStatus* status,
                                 const SolverOptions& options);

}  // namespace fringe::calibrate
