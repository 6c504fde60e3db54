// CUDA back end of StEFCal (stefcal_cuda.h): one persistent cooperative kernel for a batch of
// scalar problems in the A, B form of SDP Memo 091, or of full-Jones problems in the 4x4 form
// of stefcal_math.h (the kernel, one template for both: stefcal_cuda_kernels.cuh).
#include <cooperative_groups.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fringe/calibrate/stefcal_cuda.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/error.h"
#include "fringe/core/gpu_buffer.cuh"

namespace fringe::calibrate::cuda_detail {

constexpr int kBlockThreads = 256;
constexpr int kWarpsPerBlock = kBlockThreads / 32;

__device__ __forceinline__ void stefcal_grid_sync() { cooperative_groups::this_grid().sync(); }

template <typename S>
__device__ __forceinline__ S* stefcal_block_shared() {
  __shared__ S partial[kWarpsPerBlock];
  return partial;
}

__device__ __forceinline__ unsigned char* stefcal_dynamic_shared() {
  extern __shared__ __align__(16) unsigned char stefcal_rows[];
  return stefcal_rows;
}

}  // namespace fringe::calibrate::cuda_detail

#include "fringe/calibrate/stefcal_cuda_kernels.cuh"

namespace fringe::calibrate {

// Named (not anonymous): StefcalCuda<T>::Impl, declared in the header, derives from BatchSolver.
namespace cuda_detail {

// The solver of one gain type P (ScalarGains<T> or FullJonesGains<T>): device buffers, the
// launch configuration (rows of A and B in shared memory or not) and the cooperative launch.
template <typename P>
struct BatchSolver {
  using Gain = typename P::Gain;
  using AValue = typename P::AValue;
  using BValue = typename P::BValue;
  int device = 0;
  int num_problems = 0;
  int n = 0;
  int blocks = 0;
  int warps_per_row = 1;
  RowSource source = RowSource::Global;  // where the rows of A and B are read from
  int shared_rows = 0;                   // row slots per block in shared memory
  std::size_t shared_bytes = 0;          // dynamic shared memory per block
  std::size_t nn = 0;                    // values of A (and of B): n^2 x terms per problem
  std::size_t ng = 0;                    // gains: n per problem
  // On `device` (allocated after cudaSetDevice); sizes: a, b nn; buf0..2, out ng; norms
  // 4 per problem; stop_iteration, status 1 and monitors 2 per problem; running 1.
  GpuBuffer<AValue> a;
  GpuBuffer<BValue> b;
  GpuBuffer<Gain> buf0, buf1, buf2, out;
  GpuBuffer<double> norms;
  GpuBuffer<int> stop_iteration, running;
  GpuBuffer<StefcalMonitor> monitors;
  GpuBuffer<SolveStatus> status;
  cudaStream_t stream = nullptr;

  BatchSolver(const char* what, int device_, int num_problems_, int n_, int warps_per_row_,
              int blocks_per_sm, bool allow_shared_rows) {
    if (num_problems_ < 1 || n_ < 1) {
      throw Error(std::string(what) + ": bad batch " + std::to_string(num_problems_) + " x " +
                  std::to_string(n_));
    }
    device = device_;
    num_problems = num_problems_;
    n = n_;
    FRINGE_CUDA_CHECK(cudaSetDevice(device));
    int coop = 0;
    FRINGE_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
    if (!coop) {
      throw Error(std::string(what) + ": GPU " + std::to_string(device) +
                  " lacks cooperative launch");
    }
    nn = std::size_t(n) * n * num_problems * P::kTerms;
    const std::size_t need = nn * (sizeof(AValue) + sizeof(BValue));
    std::size_t free_bytes = 0, total_bytes = 0;
    FRINGE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need > free_bytes) {
      throw Error(std::string(what) + ": " + std::to_string(num_problems) + " problems of " +
                  std::to_string(n) + " receptors need " + std::to_string(need >> 20) +
                  " MiB of GPU memory, " + std::to_string(free_bytes >> 20) + " MiB free");
    }
    a.reserve(nn);
    b.reserve(nn);
    ng = std::size_t(n) * num_problems;
    buf0.reserve(ng);
    buf1.reserve(ng);
    buf2.reserve(ng);
    out.reserve(ng);
    norms.reserve(4 * std::size_t(num_problems));
    stop_iteration.reserve(num_problems);
    running.reserve(1);
    monitors.reserve(2 * std::size_t(num_problems));
    status.reserve(num_problems);
    FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    // Warps per receptor row: given, or (auto) the smallest of 1, 2, 4, 8 with which the rows
    // of the batch occupy about a quarter of the GPU's resident threads (more loads in flight for a
    // few problems; one warp per station, as memo 091, for large batches), at most n / 32.
    int per_sm = 0, sms = 0, threads_per_sm = 0;
    FRINGE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, stefcal_batch_kernel(static_cast<P*>(nullptr), RowSource::Global), kBlockThreads,
        0));
    FRINGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    FRINGE_CUDA_CHECK(
        cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    int wpr = warps_per_row_;
    if (wpr == 0) {
      // A quarter (it was half until the rows moved to shared memory): one 1000-station problem
      // on an H200 took 2.04 ms (float) and 2.34 ms (double) with 8 warps per row, 1.87 and
      // 2.00 ms with 4 (bench_stefcal --case single --warps-per-row 4, 2026-11-23).
      const double target = 0.25 * double(sms) * threads_per_sm;
      wpr = 1;
      while (wpr < kWarpsPerBlock && 32.0 * wpr * double(ng) < target && 32 * 2 * wpr <= n) {
        wpr *= 2;
      }
    }
    if (wpr != 1 && wpr != 2 && wpr != 4 && wpr != 8) {
      throw Error(std::string(what) + ": warps per row " + std::to_string(wpr) +
                  " (expected 1, 2, 4 or 8)");
    }
    warps_per_row = wpr;
    if (per_sm < 1) {
      throw Error(std::string(what) + ": the kernel cannot be resident on GPU " +
                  std::to_string(device));
    }
    // As many blocks as give every row a team, no more than the device holds at once
    // (cooperative launch).
    const long long teams_per_block = kWarpsPerBlock / wpr;
    const long long wanted = (static_cast<long long>(ng) + teams_per_block - 1) / teams_per_block;
    const long long per_sm_used = blocks_per_sm > 0 ? std::min(blocks_per_sm, per_sm) : per_sm;
    blocks = int(std::max<long long>(1, std::min<long long>(wanted, per_sm_used * sms)));
    if (allow_shared_rows) choose_shared_rows(teams_per_block, wanted, blocks_per_sm, sms);
  }

  // The shared-rows kernel when the rows each block owns fit in its shared memory with all
  // blocks resident (cooperative launch); one problem: preferably the kernel that also stages
  // the gains (n more gains per block). Otherwise (large batches) the rows stay in global
  // memory.
  void choose_shared_rows(long long teams_per_block, long long wanted, int blocks_per_sm, int sms) {
    if (num_problems == 1 &&
        try_shared_rows(RowSource::SharedStaged, teams_per_block, wanted, blocks_per_sm, sms)) {
      return;
    }
    try_shared_rows(RowSource::Shared, teams_per_block, wanted, blocks_per_sm, sms);
  }

  // From the most blocks per SM (as the global-memory kernel) down, the first count whose
  // rows fit (fewer blocks hold more rows each, but the rows an SM holds stay about the same
  // while the per-block overhead shrinks). True (and the launch set up) when one does.
  bool try_shared_rows(RowSource candidate, long long teams_per_block, long long wanted,
                       int blocks_per_sm, int sms) {
    const auto kernel = stefcal_batch_kernel(static_cast<P*>(nullptr), candidate);
    cudaFuncAttributes attr{};
    FRINGE_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    int optin = 0;
    FRINGE_CUDA_CHECK(
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const long long max_dynamic = static_cast<long long>(optin) - attr.sharedSizeBytes;
    if (max_dynamic <= 0) return false;
    FRINGE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(max_dynamic)));
    FRINGE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared));
    int per_sm = 0;
    FRINGE_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockThreads, 0));
    const int cap = blocks_per_sm > 0 ? std::min(blocks_per_sm, per_sm) : per_sm;
    const long long rows_total = static_cast<long long>(n) * num_problems;
    for (int per = cap; per >= 1; --per) {
      const long long nb = std::max<long long>(1, std::min<long long>(wanted, 1LL * per * sms));
      const long long rows = stefcal_shared_rows(rows_total, nb, teams_per_block);
      const long long bytes = stefcal_shared_bytes<P>(candidate, rows, n);
      if (bytes > max_dynamic) return false;  // fewer blocks need more per block
      int fit = 0;
      FRINGE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &fit, kernel, kBlockThreads, static_cast<std::size_t>(bytes)));
      if (1LL * fit * sms >= nb) {
        blocks = static_cast<int>(nb);
        source = candidate;
        shared_rows = static_cast<int>(rows);
        shared_bytes = static_cast<std::size_t>(bytes);
        return true;
      }
    }
    return false;
  }
  ~BatchSolver() {
    if (stream) cudaStreamDestroy(stream);
  }

  // Synchronous: the host arrays may change as soon as this returns.
  void upload(const AValue* a_host, const BValue* b_host) {
    FRINGE_CUDA_CHECK(cudaSetDevice(device));
    a.upload(a_host, nn, stream);
    b.upload(b_host, nn, stream);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  double solve(const Gain* gains0, const SolverOptions& options, const char* what) {
    if (options.max_iterations < 1) throw Error(std::string(what) + ": max_iterations < 1");
    FRINGE_CUDA_CHECK(cudaSetDevice(device));
    buf0.upload(gains0, ng, stream);
    norms.zero(4 * std::size_t(num_problems), stream);
    stop_iteration.zero(num_problems, stream);
    const std::vector<StefcalMonitor> monitors0(2 * std::size_t(num_problems));
    const std::vector<SolveStatus> status0(static_cast<std::size_t>(num_problems));
    monitors.upload(monitors0.data(), monitors0.size(), stream);
    status.upload(status0.data(), status0.size(), stream);
    const int running0 = num_problems;
    running.upload(&running0, 1, stream);
    BatchArgs<P> args{};
    args.num_problems = num_problems;
    args.n = n;
    args.a = a.data();
    args.b = b.data();
    args.buf[0] = buf0.data();
    args.buf[1] = buf1.data();
    args.buf[2] = buf2.data();
    args.out = out.data();
    args.norms = norms.data();
    args.monitors = monitors.data();
    args.stop_iteration = stop_iteration.data();
    args.running = running.data();
    args.status = status.data();
    args.tolerance = options.tolerance;
    args.max_iterations = options.max_iterations;
    args.stall_checks = options.stall_checks;
    args.warps_per_row = warps_per_row;
    args.shared_rows = shared_rows;
    void* params[] = {&args};
    cudaEvent_t start, stop;
    FRINGE_CUDA_CHECK(cudaEventCreate(&start));
    FRINGE_CUDA_CHECK(cudaEventCreate(&stop));
    FRINGE_CUDA_CHECK(cudaEventRecord(start, stream));
    const auto kernel = stefcal_batch_kernel(static_cast<P*>(nullptr), source);
    FRINGE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(blocks),
                                                  dim3(kBlockThreads), params, shared_bytes,
                                                  stream));
    FRINGE_CUDA_CHECK_KERNEL("stefcal_batch_kernel");
    FRINGE_CUDA_CHECK(cudaEventRecord(stop, stream));
    FRINGE_CUDA_CHECK_KERNEL_SYNC("stefcal_batch_kernel", stream);
    float ms = 0;
    FRINGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms * 1e-3;
  }

  // Synchronous: the host arrays hold the results when this returns.
  void download(Gain* gains, SolveStatus* status_host) const {
    FRINGE_CUDA_CHECK(cudaSetDevice(device));
    out.download(gains, ng, stream);
    status.download(status_host, num_problems, stream);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
};

}  // namespace cuda_detail

using namespace cuda_detail;

template <typename T>
struct StefcalCuda<T>::Impl : BatchSolver<ScalarGains<T>> {
  using BatchSolver<ScalarGains<T>>::BatchSolver;
};

template <typename T>
StefcalCuda<T>::StefcalCuda(int device, int num_problems, int n, int warps_per_row,
                            int blocks_per_sm, bool shared_rows)
    : impl_(std::make_unique<Impl>("StefcalCuda", device, num_problems, n, warps_per_row,
                                   blocks_per_sm, shared_rows)) {}

template <typename T>
StefcalCuda<T>::~StefcalCuda() = default;

template <typename T>
void StefcalCuda<T>::upload(const Complex<T>* a, const T* b) {
  impl_->upload(a, b);
}

template <typename T>
double StefcalCuda<T>::solve(const Complex<T>* gains0, const SolverOptions& options) {
  return impl_->solve(gains0, options, "StefcalCuda");
}

template <typename T>
void StefcalCuda<T>::download(Complex<T>* gains, SolveStatus* status) const {
  impl_->download(gains, status);
}

template <typename T>
int StefcalCuda<T>::num_problems() const {
  return impl_->num_problems;
}
template <typename T>
int StefcalCuda<T>::n() const {
  return impl_->n;
}
template <typename T>
int StefcalCuda<T>::grid_blocks() const {
  return impl_->blocks;
}
template <typename T>
int StefcalCuda<T>::warps_per_row() const {
  return impl_->warps_per_row;
}
template <typename T>
bool StefcalCuda<T>::rows_in_shared() const {
  return impl_->source != RowSource::Global;
}
template <typename T>
std::size_t StefcalCuda<T>::shared_bytes_per_block() const {
  return impl_->shared_bytes;
}

template <typename T>
struct StefcalCudaFullJones<T>::Impl : BatchSolver<FullJonesGains<T>> {
  using BatchSolver<FullJonesGains<T>>::BatchSolver;
};

template <typename T>
StefcalCudaFullJones<T>::StefcalCudaFullJones(int device, int num_problems, int n,
                                              int warps_per_row, int blocks_per_sm,
                                              bool shared_rows)
    : impl_(std::make_unique<Impl>("StefcalCudaFullJones", device, num_problems, n, warps_per_row,
                                   blocks_per_sm, shared_rows)) {}

template <typename T>
StefcalCudaFullJones<T>::~StefcalCudaFullJones() = default;

template <typename T>
void StefcalCudaFullJones<T>::upload(const Complex<T>* a, const Complex<T>* b) {
  impl_->upload(a, b);
}

template <typename T>
double StefcalCudaFullJones<T>::solve(const Jones<T>* gains0, const SolverOptions& options) {
  return impl_->solve(gains0, options, "StefcalCudaFullJones");
}

template <typename T>
void StefcalCudaFullJones<T>::download(Jones<T>* gains, SolveStatus* status) const {
  impl_->download(gains, status);
}

template <typename T>
int StefcalCudaFullJones<T>::num_problems() const {
  return impl_->num_problems;
}
template <typename T>
int StefcalCudaFullJones<T>::n() const {
  return impl_->n;
}
template <typename T>
int StefcalCudaFullJones<T>::grid_blocks() const {
  return impl_->blocks;
}
template <typename T>
int StefcalCudaFullJones<T>::warps_per_row() const {
  return impl_->warps_per_row;
}
template <typename T>
bool StefcalCudaFullJones<T>::rows_in_shared() const {
  return impl_->source != RowSource::Global;
}
template <typename T>
std::size_t StefcalCudaFullJones<T>::shared_bytes_per_block() const {
  return impl_->shared_bytes;
}

template <typename T>
void solve_scalar_batch_cuda(int device, int num_problems, int n, const Complex<T>* a, const T* b,
                             Complex<T>* gains, SolveStatus* status, const SolverOptions& options) {
  if (num_problems == 0 || n == 0) return;
  StefcalCuda<T> solver(device, num_problems, n);
  solver.upload(a, b);
  solver.solve(gains, options);
  solver.download(gains, status);
}

template <typename T>
void solve_full_jones_batch_cuda(int device, int num_problems, int n, const Complex<T>* a,
                                 const Complex<T>* b, Jones<T>* gains, SolveStatus* status,
                                 const SolverOptions& options) {
  if (num_problems == 0 || n == 0) return;
  StefcalCudaFullJones<T> solver(device, num_problems, n);
  solver.upload(a, b);
  solver.solve(gains, options);
  solver.download(gains, status);
}

template class StefcalCuda<float>;
template class StefcalCuda<double>;
template class StefcalCudaFullJones<float>;
template class StefcalCudaFullJones<double>;
template void solve_full_jones_batch_cuda<float>(int, int, int, const Complex<float>*,
                                                 const Complex<float>*, Jones<float>*, SolveStatus*,
                                                 const SolverOptions&);
template void solve_full_jones_batch_cuda<double>(int, int, int, const Complex<double>*,
                                                  const Complex<double>*, Jones<double>*,
                                                  SolveStatus*, const SolverOptions&);
template void solve_scalar_batch_cuda<float>(int, int, int, const Complex<float>*, const float*,
                                             Complex<float>*, SolveStatus*, const SolverOptions&);
template void solve_scalar_batch_cuda<double>(int, int, int, const Complex<double>*, const double*,
                                              Complex<double>*, SolveStatus*, const SolverOptions&);

}  // namespace fringe::calibrate
