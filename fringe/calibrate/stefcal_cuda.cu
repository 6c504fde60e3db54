// CUDA back end of StEFCal (stefcal_cuda.h): one persistent cooperative kernel for a batch of
// scalar problems in the A, B form of SDP Memo 091 (the kernel: stefcal_cuda_kernels.cuh).
#include <cooperative_groups.h>

#include <string>
#include <vector>

#include "fringe/calibrate/stefcal_cuda.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/error.h"

namespace fringe::calibrate::cuda_detail {

constexpr int kBlockThreads = 256;
constexpr int kWarpsPerBlock = kBlockThreads / 32;

__device__ __forceinline__ void stefcal_grid_sync() { cooperative_groups::this_grid().sync(); }

template <typename T>
__device__ __forceinline__ StefcalSums<T>* stefcal_block_shared() {
  __shared__ StefcalSums<T> partial[kWarpsPerBlock];
  return partial;
}

}  // namespace fringe::calibrate::cuda_detail

#include "fringe/calibrate/stefcal_cuda_kernels.cuh"

namespace fringe::calibrate {

namespace {

using namespace cuda_detail;

template <typename T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  void allocate(std::size_t n) {
    count = n;
    if (n > 0) FRINGE_CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (ptr) cudaFree(ptr);
  }
};

}  // namespace

template <typename T>
struct StefcalCuda<T>::Impl {
  int device = 0;
  int num_problems = 0;
  int n = 0;
  int blocks = 0;
  int warps_per_row = 1;
  DeviceBuffer<Complex<T>> a, buf0, buf1, buf2, out;
  DeviceBuffer<T> b;
  DeviceBuffer<double> norms;
  DeviceBuffer<int> stop_iteration, running;
  DeviceBuffer<StefcalMonitor> monitors;
  DeviceBuffer<SolveStatus> status;
  cudaStream_t stream = nullptr;
};

template <typename T>
StefcalCuda<T>::StefcalCuda(int device, int num_problems, int n, int warps_per_row,
                            int blocks_per_sm)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  if (num_problems < 1 || n < 1) {
    throw Error("StefcalCuda: bad batch " + std::to_string(num_problems) + " x " +
                std::to_string(n));
  }
  m.device = device;
  m.num_problems = num_problems;
  m.n = n;
  FRINGE_CUDA_CHECK(cudaSetDevice(device));
  int coop = 0;
  FRINGE_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
  if (!coop)
    throw Error("StefcalCuda: GPU " + std::to_string(device) + " lacks cooperative launch");
  const std::size_t nn = std::size_t(n) * n * num_problems;
  const std::size_t need = nn * (sizeof(Complex<T>) + sizeof(T));
  std::size_t free_bytes = 0, total_bytes = 0;
  FRINGE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (need > free_bytes) {
    throw Error("StefcalCuda: " + std::to_string(num_problems) + " problems of " +
                std::to_string(n) + " receptors need " + std::to_string(need >> 20) +
                " MiB of GPU memory, " + std::to_string(free_bytes >> 20) + " MiB free");
  }
  m.a.allocate(nn);
  m.b.allocate(nn);
  const std::size_t ng = std::size_t(n) * num_problems;
  m.buf0.allocate(ng);
  m.buf1.allocate(ng);
  m.buf2.allocate(ng);
  m.out.allocate(ng);
  m.norms.allocate(4 * std::size_t(num_problems));
  m.stop_iteration.allocate(num_problems);
  m.running.allocate(1);
  m.monitors.allocate(2 * std::size_t(num_problems));
  m.status.allocate(num_problems);
  FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  // Warps per receptor row: given, or (auto) the smallest of 1, 2, 4, 8 with which the rows
  // of the batch occupy about half the GPU's resident threads (more loads in flight for a
  // few problems; one warp per station, as memo 091, for large batches), at most n / 32.
  int per_sm = 0, sms = 0, threads_per_sm = 0;
  FRINGE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stefcal_batch_kernel<T>,
                                                                  kBlockThreads, 0));
  FRINGE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  FRINGE_CUDA_CHECK(
      cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  if (warps_per_row == 0) {
    const double target = 0.5 * double(sms) * threads_per_sm;
    warps_per_row = 1;
    while (warps_per_row < kWarpsPerBlock && 32.0 * warps_per_row * double(ng) < target &&
           32 * 2 * warps_per_row <= n) {
      warps_per_row *= 2;
    }
  }
  if (warps_per_row != 1 && warps_per_row != 2 && warps_per_row != 4 && warps_per_row != 8) {
    throw Error("StefcalCuda: warps per row " + std::to_string(warps_per_row) +
                " (expected 1, 2, 4 or 8)");
  }
  m.warps_per_row = warps_per_row;
  // As many blocks as give every row a team, no more than the device holds at once
  // (cooperative launch).
  const long long teams_per_block = kWarpsPerBlock / warps_per_row;
  const long long wanted = (static_cast<long long>(ng) + teams_per_block - 1) / teams_per_block;
  const long long per_sm_used = blocks_per_sm > 0 ? std::min(blocks_per_sm, per_sm) : per_sm;
  m.blocks = int(std::max<long long>(1, std::min<long long>(wanted, per_sm_used * sms)));
  if (per_sm < 1)
    throw Error("StefcalCuda: the kernel cannot be resident on GPU " + std::to_string(device));
}

template <typename T>
StefcalCuda<T>::~StefcalCuda() {
  if (impl_ && impl_->stream) cudaStreamDestroy(impl_->stream);
}

template <typename T>
void StefcalCuda<T>::upload(const Complex<T>* a, const T* b) {
  Impl& m = *impl_;
  FRINGE_CUDA_CHECK(cudaSetDevice(m.device));
  FRINGE_CUDA_CHECK(cudaMemcpy(m.a.ptr, a, m.a.count * sizeof(Complex<T>), cudaMemcpyHostToDevice));
  FRINGE_CUDA_CHECK(cudaMemcpy(m.b.ptr, b, m.b.count * sizeof(T), cudaMemcpyHostToDevice));
}

template <typename T>
double StefcalCuda<T>::solve(const Complex<T>* gains0, const SolverOptions& options) {
  Impl& m = *impl_;
  if (options.max_iterations < 1) throw Error("StefcalCuda: max_iterations < 1");
  FRINGE_CUDA_CHECK(cudaSetDevice(m.device));
  const std::size_t ng = m.buf0.count;
  FRINGE_CUDA_CHECK(cudaMemcpyAsync(m.buf0.ptr, gains0, ng * sizeof(Complex<T>),
                                    cudaMemcpyHostToDevice, m.stream));
  FRINGE_CUDA_CHECK(cudaMemsetAsync(m.norms.ptr, 0, m.norms.count * sizeof(double), m.stream));
  FRINGE_CUDA_CHECK(
      cudaMemsetAsync(m.stop_iteration.ptr, 0, m.stop_iteration.count * sizeof(int), m.stream));
  const std::vector<StefcalMonitor> monitors(m.monitors.count);
  const std::vector<SolveStatus> status(std::size_t(m.num_problems));
  FRINGE_CUDA_CHECK(cudaMemcpyAsync(m.monitors.ptr, monitors.data(),
                                    monitors.size() * sizeof(StefcalMonitor),
                                    cudaMemcpyHostToDevice, m.stream));
  FRINGE_CUDA_CHECK(cudaMemcpyAsync(m.status.ptr, status.data(),
                                    status.size() * sizeof(SolveStatus), cudaMemcpyHostToDevice,
                                    m.stream));
  const int running = m.num_problems;
  FRINGE_CUDA_CHECK(
      cudaMemcpyAsync(m.running.ptr, &running, sizeof(int), cudaMemcpyHostToDevice, m.stream));
  BatchArgs<T> args{};
  args.num_problems = m.num_problems;
  args.n = m.n;
  args.a = m.a.ptr;
  args.b = m.b.ptr;
  args.buf[0] = m.buf0.ptr;
  args.buf[1] = m.buf1.ptr;
  args.buf[2] = m.buf2.ptr;
  args.out = m.out.ptr;
  args.norms = m.norms.ptr;
  args.monitors = m.monitors.ptr;
  args.stop_iteration = m.stop_iteration.ptr;
  args.running = m.running.ptr;
  args.status = m.status.ptr;
  args.tolerance = options.tolerance;
  args.max_iterations = options.max_iterations;
  args.stall_checks = options.stall_checks;
  args.warps_per_row = m.warps_per_row;
  void* params[] = {&args};
  cudaEvent_t start, stop;
  FRINGE_CUDA_CHECK(cudaEventCreate(&start));
  FRINGE_CUDA_CHECK(cudaEventCreate(&stop));
  FRINGE_CUDA_CHECK(cudaEventRecord(start, m.stream));
  FRINGE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(stefcal_batch_kernel<T>),
                                                dim3(m.blocks), dim3(kBlockThreads), params, 0,
                                                m.stream));
  FRINGE_CUDA_CHECK_KERNEL("stefcal_batch_kernel");
  FRINGE_CUDA_CHECK(cudaEventRecord(stop, m.stream));
  FRINGE_CUDA_CHECK_KERNEL_SYNC("stefcal_batch_kernel", m.stream);
  float ms = 0;
  FRINGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms * 1e-3;
}

template <typename T>
void StefcalCuda<T>::download(Complex<T>* gains, SolveStatus* status) const {
  const Impl& m = *impl_;
  FRINGE_CUDA_CHECK(cudaSetDevice(m.device));
  FRINGE_CUDA_CHECK(
      cudaMemcpy(gains, m.out.ptr, m.out.count * sizeof(Complex<T>), cudaMemcpyDeviceToHost));
  FRINGE_CUDA_CHECK(cudaMemcpy(status, m.status.ptr, m.status.count * sizeof(SolveStatus),
                               cudaMemcpyDeviceToHost));
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
void solve_scalar_batch_cuda(int device, int num_problems, int n, const Complex<T>* a, const T* b,
                             Complex<T>* gains, SolveStatus* status, const SolverOptions& options) {
  if (num_problems == 0 || n == 0) return;
  StefcalCuda<T> solver(device, num_problems, n);
  solver.upload(a, b);
  solver.solve(gains, options);
  solver.download(gains, status);
}

template class StefcalCuda<float>;
template class StefcalCuda<double>;
template void solve_scalar_batch_cuda<float>(int, int, int, const Complex<float>*, const float*,
                                             Complex<float>*, SolveStatus*, const SolverOptions&);
template void solve_scalar_batch_cuda<double>(int, int, int, const Complex<double>*, const double*,
                                              Complex<double>*, SolveStatus*, const SolverOptions&);

}  // namespace fringe::calibrate
