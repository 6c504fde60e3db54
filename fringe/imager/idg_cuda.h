// The CUDA back end of Image-Domain Gridding (Veenboer 2021, chapter 4): gridder and
// degridder kernels with one thread block per subgrid (idg_cuda_kernels.cuh): the gridder's
// threads own 8 pixels each, the degridder's 8 channels of a row; visibilities, row terms and
// pixel coordinates staged in shared memory; hardware sincos (__sincosf) in single precision,
// where evenly spaced channels let each phasor be stepped from channel to channel instead;
// accurate sincos in double. cuFFT batched subgrid FFTs; an atomic adder and a splitter on a
// grid kept in GPU memory, or, when the grid does not fit there (the hybrid scheme), subgrids
// copied to the host and added/split there. Batches of subgrids (largest first within a batch)
// alternate between two CUDA streams, so a batch's copies (and, in the hybrid scheme, its
// adding on the host) overlap the other batch's kernels. The grid FFT uses cuFFT when the
// grid fits on the GPU. The visibilities of a call are copied to the GPU whole.
// Only built with the CUDA back end (FRINGE_HAVE_CUDA); errors are fringe::Error naming the
// CUDA call or kernel.
#pragma once

#include <memory>

#include "fringe/imager/idg.h"

namespace fringe::imager {

// Seconds spent in each step by the last grid() or degrid() call (CUDA events). With two
// streams the steps of one batch overlap those of the other (and a step's events then also
// count the time it waited for the other stream's kernels), so the parts can add up to more
// than `compute`; with num_streams = 1 they are exact and add up to it.
struct CudaIdgTimings {
  double kernel = 0.0;     // gridder or degridder kernel
  double fft = 0.0;        // batched subgrid FFTs
  double adder = 0.0;      // adder or splitter (device grid)
  double compute = 0.0;    // all batches on the GPU: kernels, FFTs, adder/splitter (overlapped)
  double transfer = 0.0;   // host <-> device copies (visibilities, grid, host-grid subgrids)
  double total = 0.0;      // the whole call (wall clock)
  bool host_grid = false;  // the hybrid scheme was used
};

// Gridder kernels (single precision; double always runs 0), selectable for benchmarking
// (docs/imager.md, "CUDA kernels"): 0 the 4M form (8 pixels per thread, 4 blocks per SM);
// 1 the same at 3 blocks per SM (up to 168 registers, no spill); 2 the 3M form of the complex
// multiply-adds (idg_cuda_gridder_3m.cuh; 8 pixels per thread, 3 blocks per SM); 3 the 3M form
// with 4 pixels per thread (4 blocks per SM); 4 variant 3 with the channel recurrence's phasor
// step in the 3M form too (16 instead of 17 FP32 instructions per visibility-pixel; evenly
// spaced channels only, else as 3; the default: fastest on an H200, 2026-11-23, roofline
// 0.723); 5 variant 4 unrolled over 4 channels instead of 2.
constexpr int kNumGridderVariants = 6;
// Degridder kernels (single precision with at least 8 channels per subgrid; otherwise 0):
// 0 the 4M form; 1 the 3M form (8 channels per thread, 3 blocks per SM); 2 variant 1 with the
// phasor step in the 3M form (evenly spaced channels only, else as 1; the default: 0.677 of
// the roofline on an H200 against 0.675 for 1).
constexpr int kNumDegridderVariants = 3;

struct CudaIdgOptions {
  int device = 0;
  bool force_host_grid = false;  // the hybrid scheme even when the grid fits on the GPU
  int max_subgrids_per_batch = 4096;
  int num_streams = 2;                // 1: batches one after another (exact per-step timings)
  CudaIdgTimings* timings = nullptr;  // filled by every call when set
  int gridder_variant = 4;            // 0 .. kNumGridderVariants - 1 (see above)
  int degridder_variant = 2;          // 0 .. kNumDegridderVariants - 1 (see above)
};

template <typename T>
std::unique_ptr<IdgBackend<T>> make_cuda_backend(int device);
template <typename T>
std::unique_ptr<IdgBackend<T>> make_cuda_backend(const CudaIdgOptions& options);

}  // namespace fringe::imager
