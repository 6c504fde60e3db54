// GPU half of bench_station_beam: sincos-bound micro-benchmarks and event-timed beam kernels.
//
// The sincos bound (docs/gpu_station_beam.md): every element-source term of the array factor
// needs one sin/cos pair of its own argument, so no evaluation can beat the GPU's sincos rate.
// The micro-kernels do nothing but that (plus the reduction the beam kernel does and two adds
// to keep the results live): in single precision the hardware sin/cos (MUFU, 16 results per
// clock per SM on Hopper: two per pair) sets the rate; in double the software sincospi.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "bench_gpu.h"
#include "fringe/core/array.h"
#include "fringe/core/cuda_check.h"
#include "fringe/jones/aperture_array_cuda.h"

namespace bench {
namespace {

constexpr int kBlock = 256;

__global__ void sincos_float_kernel(float* out, int iters, float dt) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float t = float(idx) * 1e-5f, as = 0.0f, ac = 0.0f;
#pragma unroll 8
  for (int i = 0; i < iters; ++i) {
    const float r = __fsub_rn(__fadd_rn(t, 12582912.0f), 12582912.0f);  // round to nearest
    float s, c;
    __sincosf(__fmul_rn(__fsub_rn(t, r), 6.28318530717958647692f), &s, &c);
    as += s;
    ac += c;
    t += dt;
  }
  out[idx] = as + ac;
}

__global__ void sincos_double_kernel(double* out, int iters, double dt, bool half_turns) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  double t = double(idx) * 1e-6, as = 0.0, ac = 0.0;
  if (half_turns) {
#pragma unroll 4
    for (int i = 0; i < iters; ++i) {
      double s, c;
      sincospi(t, &s, &c);
      as += s;
      ac += c;
      t += dt;
    }
  } else {
#pragma unroll 4
    for (int i = 0; i < iters; ++i) {
      double s, c;
      sincos(t, &s, &c);
      as += s;
      ac += c;
      t += dt;
    }
  }
  out[idx] = as + ac;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Events around work on a stream.
class EventTimer {
 public:
  EventTimer() {
    FRINGE_CUDA_CHECK(cudaEventCreate(&start_));
    FRINGE_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(cudaStream_t s) { FRINGE_CUDA_CHECK(cudaEventRecord(start_, s)); }
  double stop(cudaStream_t s) {
    FRINGE_CUDA_CHECK(cudaEventRecord(stop_, s));
    FRINGE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    FRINGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return 1e-3 * ms;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace

GpuDescription describe_gpu() {
  cudaDeviceProp prop{};
  FRINGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  FRINGE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  return {prop.name, prop.multiProcessorCount, clock_khz * 1e-6};
}

double sincos_rate(SincosKind kind, int repeats) {
  const GpuDescription gpu = describe_gpu();
  const int blocks = gpu.multiprocessors * 8;  // 2048 threads per SM
  const std::size_t threads = std::size_t(blocks) * kBlock;
  const int iters = kind == SincosKind::Float ? 4096 : 512;
  fringe::Array<double> out(threads, fringe::MemoryLocation::gpu(0));
  EventTimer timer;
  std::vector<double> times;
  for (int r = 0; r < repeats + 1; ++r) {  // the first launch warms up
    timer.start(nullptr);
    if (kind == SincosKind::Float) {
      sincos_float_kernel<<<blocks, kBlock>>>(reinterpret_cast<float*>(out.data()), iters,
                                              1.37e-3f);
      FRINGE_CUDA_CHECK_KERNEL("sincos_float_kernel");
    } else {
      sincos_double_kernel<<<blocks, kBlock>>>(out.data(), iters, 2.9e-3,
                                               kind == SincosKind::DoublePi);
      FRINGE_CUDA_CHECK_KERNEL("sincos_double_kernel");
    }
    const double t = timer.stop(nullptr);
    if (r > 0) times.push_back(t);
  }
  return double(threads) * iters / median(times);
}

template <typename T>
struct GpuBeam<T>::Impl {
  fringe::jones::AaBeamCuda<T> beam{0};
  fringe::Array<double> ra, sin_dec, cos_dec;
  fringe::Array<fringe::Jones<T>> out;  // also holds the scalar output (smaller)
  EventTimer timer;
};

template <typename T>
GpuBeam<T>::GpuBeam(std::span<const double> ra, std::span<const double> dec,
                    std::size_t max_stations)
    : impl_(std::make_unique<Impl>()) {
  const auto gpu = fringe::MemoryLocation::gpu(0);
  std::vector<double> sd(dec.size()), cd(dec.size());
  for (std::size_t i = 0; i < dec.size(); ++i) {
    sd[i] = std::sin(dec[i]);
    cd[i] = std::cos(dec[i]);
  }
  impl_->ra = fringe::Array<double>::from_host(ra, gpu);
  impl_->sin_dec = fringe::Array<double>::from_host(sd, gpu);
  impl_->cos_dec = fringe::Array<double>::from_host(cd, gpu);
  impl_->out = fringe::Array<fringe::Jones<T>>(max_stations * ra.size(), gpu);
}

template <typename T>
GpuBeam<T>::~GpuBeam() = default;

template <typename T>
double GpuBeam<T>::set_plans(std::span<const fringe::jones::AaStationPlan> plans) {
  const auto t0 = std::chrono::steady_clock::now();
  impl_->beam.set_plans(plans);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <typename T>
double GpuBeam<T>::evaluate(bool full, int sources_per_thread) {
  Impl& m = *impl_;
  m.beam.set_sources_per_thread(sources_per_thread);
  const fringe::jones::AaDeviceSources src{m.ra.data(), m.sin_dec.data(), m.cos_dec.data(),
                                           m.ra.size()};
  const auto stream = static_cast<cudaStream_t>(m.beam.cuda_stream());
  m.timer.start(stream);
  if (full)
    m.beam.evaluate_full(src, true, m.out.data());
  else
    m.beam.evaluate_scalar(src, reinterpret_cast<fringe::Complex<T>*>(m.out.data()));
  const double t = m.timer.stop(stream);
  m.beam.synchronize();
  return t;
}

template class GpuBeam<float>;
template class GpuBeam<double>;

}  // namespace bench
