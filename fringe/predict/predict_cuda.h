// CUDA back end of the direct predict (predict.h): the same sums as predict_direct_cpu, with the
// formulas of predict_math.h, for data that lives on one GPU. Design, launch geometry, register
// use and accuracy: docs/gpu_predict.md.
//
//   V_pq += sum_s (K_ps J_ps) B_s (K_qs J_qs)^H g_s s_bw s_t     (p < q; cross-correlations)
//   A_p  += sum_s J_ps B_s J_ps^H                                  (auto-correlations)
//
// Units and layouts exactly as predict.h (metres, Hz, s, rad, Jy; cross [baseline][pol] in the
// order (0,1), (0,2), ..., autos [station][pol]; Jones [station][source]).
//
// Two entry points:
//  - PredictCuda<T>::run: every array of the input and output is a DEVICE pointer on the
//    evaluator's GPU (DevicePredictInput / DevicePredictOutput: PredictInput / PredictOutput
//    whose arrays live on the GPU); the work is enqueued on the caller's stream and run()
//    returns without waiting. The evaluator owns scratch buffers (station terms of one source
//    chunk, about max_scratch_bytes) and is not thread safe: one per host thread.
//  - predict_direct_cuda: host arrays in, host arrays out (tests, small runs).
//
// Result: deterministic (no atomics; every baseline is summed by one warp in a fixed order);
// it depends on the source chunking (max_scratch_bytes) only through rounding. A source with
// Gaussian pointers given is evaluated by the Gaussian kernels even when a = b = c = 0 (factor
// exp(0) = 1 exactly, so the values equal the point-source kernels'; only slower).
//
// Accuracy (docs/gpu_predict.md): double agrees with predict_direct_cpu<double> to ~1e-14
// relative; float agrees with the double CPU result to within 2e-6 of the baseline's
// magnitude scale sum_s |J_p|_F |B_s|_F |J_q|_F (phases formed in double, range-reduced, then
// the float sincos; the tests check both bounds).
//
// Errors: validate() (predict.h) runs first; every CUDA call and launch is checked and a
// failure becomes fringe::Error naming the call or the kernel (core/cuda_check.h).
// Instantiated for float and double.
#pragma once

#include <cstddef>
#include <memory>

#include "fringe/predict/predict.h"

struct CUstream_st;  // cudaStream_t is CUstream_st* (driver_types.h): no CUDA header needed

namespace fringe::predict {

// PredictInput / PredictOutput whose arrays (sources, stations, Jones, time-smearing x/y,
// outputs) are device pointers on one GPU. Distinct types so a host input is not passed by
// mistake; the fields are the base's.
template <typename T>
struct DevicePredictInput : PredictInput<T> {};
template <typename T>
struct DevicePredictOutput : PredictOutput<T> {};

template <typename T>
class PredictCuda {
 public:
  // Default scratch budget: source chunks are sized so the per-(station, source) terms fit.
  static constexpr std::size_t kDefaultMaxScratchBytes = std::size_t(512) << 20;

  explicit PredictCuda(int device = 0);
  ~PredictCuda();
  PredictCuda(PredictCuda&&) noexcept;
  PredictCuda& operator=(PredictCuda&&) noexcept;
  PredictCuda(const PredictCuda&) = delete;
  PredictCuda& operator=(const PredictCuda&) = delete;

  // Enqueues the predict on `stream` (nullptr: the legacy default stream) and returns. Validates
  // the input first (host-side checks of the scalar fields and of null pointers only). The
  // output buffers are added into (+=). Work from an earlier run() on another stream is
  // waited for (on the device) before the scratch buffers are reused.
  void run(const DevicePredictInput<T>& in, const DevicePredictOutput<T>& out, CUstream_st* stream);

  // Waits for the last run() (its stream) and reports errors raised while the kernels ran.
  void synchronize();

  // Upper bound on the scratch memory (bytes); at least one tile of 32 sources per chunk is
  // used whatever the bound. Smaller values mean more, smaller source chunks.
  void set_max_scratch_bytes(std::size_t bytes);
  // Sources per chunk run() would use for this input (for logs and tests).
  std::size_t chunk_sources(const PredictInput<T>& in) const;
  int device() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Host in, host out: copies the input and the current output to GPU `device`, runs, and copies
// the output back (so it adds into out like predict_direct_cpu). max_scratch_bytes 0 = the
// default. Throws fringe::Error for invalid input or any CUDA failure (no GPU included).
template <typename T>
void predict_direct_cuda(const PredictInput<T>& in, const PredictOutput<T>& out, int device = 0,
                         std::size_t max_scratch_bytes = 0);

}  // namespace fringe::predict
