// CUDA back end of StEFCal (stefcal_cuda.h): one persistent cooperative kernel for a batch of
// scalar problems in the A, B form of SDP Memo 091.
#include <cooperative_groups.h>

#include <string>
#include <vector>

#include "fringe/calibrate/stefcal_cuda.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/error.h"

namespace cg = cooperative_groups;

namespace fringe::calibrate {

namespace {

constexpr int kBlockThreads = 256;
constexpr int kWarpsPerBlock = kBlockThreads / 32;

// Per-problem decision of an even iteration (phase 2 -> phase 3).
enum : int { kContinue = 0, kConverged = 1, kStalled = 2, kIdle = 3, kNoData = 4, kLast = 5 };

// Loads of a complex value: through the read-only cache (A: constant for the whole kernel)
// or through L2 only (gains: rewritten every iteration, so L1 could be stale).
__device__ __forceinline__ Complex<float> ldg_c(const Complex<float>* p) {
  const float2 v = __ldg(reinterpret_cast<const float2*>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ Complex<double> ldg_c(const Complex<double>* p) {
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ Complex<float> ldcg_c(const Complex<float>* p) {
  const float2 v = __ldcg(reinterpret_cast<const float2*>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ Complex<double> ldcg_c(const Complex<double>* p) {
  const double2 v = __ldcg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}

template <typename T>
struct BatchArgs {
  int num_problems;
  int n;
  const Complex<T>* a;  // [problem][p][q]
  const T* b;           // [problem][p][q]
  Complex<T>* buf0;     // gains, two buffers [problem][p]
  Complex<T>* buf1;
  Complex<T>* out;  // solution [problem][p]
  double* norms;    // [problem][2]: ||g_new - g||^2, ||g_new||^2 of the current even iteration
  int* decision;    // [problem]
  int* done;        // [problem] 1 once stopped
  int* running;     // problems not stopped
  StefcalMonitor* monitors;  // [problem]
  SolveStatus* status;       // [problem]
  double tolerance;
  int max_iterations;
  int stall_checks;
  int warps_per_row;  // 1, 2, 4 or 8
};

template <typename T>
__global__ void __launch_bounds__(kBlockThreads) stefcal_batch_kernel(BatchArgs<T> args) {
  cg::grid_group grid = cg::this_grid();
  const int n = args.n;
  const long long total = static_cast<long long>(args.num_problems) * n;
  const int lane = threadIdx.x & 31;
  const int warp_in_block = threadIdx.x >> 5;
  // Teams of warps_per_row warps (1, 2, 4 or 8) share one receptor's row.
  const int team_threads = 32 * args.warps_per_row;
  const int teams_per_block = kWarpsPerBlock / args.warps_per_row;
  const int team = warp_in_block / args.warps_per_row;
  const int team_lane = threadIdx.x % team_threads;
  __shared__ StefcalSums<T> partial[kWarpsPerBlock];
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long num_threads = static_cast<long long>(gridDim.x) * blockDim.x;
  Complex<T>* cur = args.buf0;
  Complex<T>* nxt = args.buf1;

  for (int it = 1; it <= args.max_iterations; ++it) {
    const bool even = (it % 2) == 0;
    // Phase 1: a team of warps_per_row warps per receptor (problem k, receptor p) sums
    // A_pq g_q and B_pq |g_q|^2 over q (lanes stride over q; warp shuffles, then shared
    // memory across the team's warps); g_p = num / den. Every block runs the same number of
    // rounds, so the block barrier is uniform.
    for (long long base = static_cast<long long>(blockIdx.x) * teams_per_block; base < total;
         base += static_cast<long long>(gridDim.x) * teams_per_block) {
      const long long w = base + team;
      const int k = static_cast<int>(w < total ? w / n : 0);
      const bool active = w < total && !__ldcg(args.done + k);
      StefcalSums<T> s{{T(0), T(0)}, T(0)};
      if (active) {
        const std::size_t row = static_cast<std::size_t>(w) * n;
        const Complex<T>* g = cur + static_cast<std::size_t>(k) * n;
#pragma unroll 4
        for (int q = team_lane; q < n; q += team_threads) {
          stefcal_accumulate(s, ldg_c(args.a + row + q), __ldg(args.b + row + q), ldcg_c(g + q));
        }
      }
      for (int off = 16; off > 0; off >>= 1) {
        s.num.re += __shfl_down_sync(0xffffffffu, s.num.re, off);
        s.num.im += __shfl_down_sync(0xffffffffu, s.num.im, off);
        s.den += __shfl_down_sync(0xffffffffu, s.den, off);
      }
      if (args.warps_per_row > 1) {
        if (lane == 0) partial[warp_in_block] = s;
        __syncthreads();
        if (team_lane == 0) {
          for (int j = 1; j < args.warps_per_row; ++j) {
            const StefcalSums<T>& o = partial[warp_in_block + j];
            s.num += o.num;
            s.den += o.den;
          }
        }
        __syncthreads();
      }
      if (active && team_lane == 0) {
        const Complex<T> gn = stefcal_gain(s);
        nxt[w] = gn;
        if (even) {
          const Complex<T> old = ldcg_c(cur + w);
          atomicAdd(args.norms + 2 * k, double(abs2(gn - old)));
          atomicAdd(args.norms + 2 * k + 1, double(abs2(gn)));
        }
      }
    }
    grid.sync();
    if (!even) {
      Complex<T>* t = cur;  // g[i] is the next input (no averaging after odd iterations)
      cur = nxt;
      nxt = t;
      continue;
    }
    // Phase 2: one thread per problem decides (the same test as the CPU, stefcal_math.h).
    for (long long k = tid; k < args.num_problems; k += num_threads) {
      if (args.done[k]) {
        args.decision[k] = kIdle;
        continue;
      }
      // Through L2: the sums were made by atomics of other SMs (L1 may hold an old line).
      const double diff2 = __ldcg(args.norms + 2 * k), norm2 = __ldcg(args.norms + 2 * k + 1);
      args.norms[2 * k] = args.norms[2 * k + 1] = 0.0;
      SolveStatus& st = args.status[k];
      st.iterations = it;
      int d = kContinue;
      if (!(norm2 > 0)) {
        d = kNoData;
        st.state = SolveState::NoData;
      } else {
        st.last_change = stefcal_relative_change(diff2, norm2);
        const int verdict =
            stefcal_check(args.monitors[k], st.last_change, args.tolerance, args.stall_checks);
        if (verdict == 1) {
          d = kConverged;
          st.state = SolveState::Converged;
        } else if (verdict == 2) {
          d = kStalled;
          st.state = SolveState::Stalled;
        } else if (it == args.max_iterations) {
          d = kLast;
          st.state = SolveState::MaxIterations;
        }
      }
      args.decision[k] = d;
      if (d != kContinue) {
        args.done[k] = 1;
        atomicSub(args.running, 1);
      }
    }
    grid.sync();
    // Phase 3: average (g[i] + g[i-1]) / 2 into the next input, or keep g[i] as the solution.
    for (long long i = tid; i < total; i += num_threads) {
      const int d = __ldcg(args.decision + i / n);
      if (d == kContinue) {
        cur[i] = stefcal_average(ldcg_c(nxt + i), ldcg_c(cur + i));
      } else if (d != kIdle) {
        args.out[i] = ldcg_c(nxt + i);
      }
    }
    grid.sync();
    if (*static_cast<volatile int*>(args.running) == 0) break;
  }
  // Problems still running after an odd last iteration: the solution is that update.
  for (long long i = tid; i < total; i += num_threads) {
    const long long k = i / n;
    if (!__ldcg(args.done + k)) {
      args.out[i] = ldcg_c(cur + i);
      if (i % n == 0) {
        args.status[k].iterations = args.max_iterations;
        args.status[k].state = SolveState::MaxIterations;
      }
    }
  }
}

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
  DeviceBuffer<Complex<T>> a, buf0, buf1, out;
  DeviceBuffer<T> b;
  DeviceBuffer<double> norms;
  DeviceBuffer<int> decision, done, running;
  DeviceBuffer<StefcalMonitor> monitors;
  DeviceBuffer<SolveStatus> status;
  cudaStream_t stream = nullptr;
};

template <typename T>
StefcalCuda<T>::StefcalCuda(int device, int num_problems, int n, int warps_per_row)
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
  m.out.allocate(ng);
  m.norms.allocate(2 * std::size_t(num_problems));
  m.decision.allocate(num_problems);
  m.done.allocate(num_problems);
  m.running.allocate(1);
  m.monitors.allocate(num_problems);
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
  m.blocks = int(std::max<long long>(1, std::min<long long>(wanted, (long long)per_sm * sms)));
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
  FRINGE_CUDA_CHECK(cudaMemsetAsync(m.done.ptr, 0, m.done.count * sizeof(int), m.stream));
  const std::vector<StefcalMonitor> monitors(std::size_t(m.num_problems));
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
  BatchArgs<T> args{m.num_problems,
                    m.n,
                    m.a.ptr,
                    m.b.ptr,
                    m.buf0.ptr,
                    m.buf1.ptr,
                    m.out.ptr,
                    m.norms.ptr,
                    m.decision.ptr,
                    m.done.ptr,
                    m.running.ptr,
                    m.monitors.ptr,
                    m.status.ptr,
                    options.tolerance,
                    options.max_iterations,
                    options.stall_checks};
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
