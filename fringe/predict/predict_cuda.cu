// Host side of the CUDA direct predict (predict_cuda.h): mode dispatch, scratch and source
// chunks, launches (kernels in predict_cuda_kernels.cuh; design in docs/gpu_predict.md).
//
// Per run(): [time smearing] time_coefficients_kernel; per source chunk (sized so the
// per-(station, source) terms fit max_scratch_bytes): station_terms_kernel, then cross_kernel
// adding the chunk's sums into the output; [autos] autos_kernel over all sources.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <span>
#include <string>
#include <utility>

#include "fringe/core/array.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/predict/predict_cuda.h"
#include "fringe/predict/predict_cuda_kernels.cuh"

namespace fringe::predict {
namespace {

using namespace cuda_detail;

using DeviceGuard = CudaDeviceGuard;

// Calls f.template operator()<Mode<T, full, gauss, bw, time>>() for run-time switches.
template <typename T, bool... B, class F>
void dispatch(F& f) {
  f.template operator()<Mode<T, B...>>();
}
template <typename T, bool... B, class F, class... Rest>
void dispatch(F& f, bool first, Rest... rest) {
  if (first)
    dispatch<T, B..., true>(f, rest...);
  else
    dispatch<T, B..., false>(f, rest...);
}

template <class M>
std::string kernel_name(const char* kernel) {
  std::string s = kernel;
  s += sizeof(typename M::Real) == sizeof(float) ? "<float, " : "<double, ";
  s += M::full ? "full, " : "scalar, ";
  s += M::gauss ? "gaussian" : "point";
  if (M::bw) s += ", bandwidth smearing";
  if (M::time) s += ", time smearing";
  return s + ">";
}

// The kernel mode of an input: Full, Gaussian (pointers given), bandwidth and time smearing.
template <typename T>
struct Switches {
  bool full, gauss, bw, time;
};

template <typename T>
Switches<T> switches(const PredictInput<T>& in) {
  return {in.polarisation == Polarisation::Full, in.sources.gauss_a != nullptr,
          bandwidth_smearing_scale(in.channel_bandwidth_hz, in.frequency_hz) > 0,
          in.time_smearing.tau_s > 0};
}

}  // namespace

template <typename T>
struct PredictCuda<T>::Impl {
  int device = 0;
  std::size_t max_scratch = kDefaultMaxScratchBytes;
  Array<unsigned char> scratch;
  cudaEvent_t done = nullptr;  // recorded at the end of each run()
  cudaStream_t last = nullptr;
  bool pending = false;

  explicit Impl(int d) : device(d) {
    DeviceGuard guard(device);
    FRINGE_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  }
  ~Impl() {
    if (done) {
      DeviceGuard guard(device);
      if (pending) cudaEventSynchronize(done);  // the scratch is freed after this body
      cudaEventDestroy(done);
    }
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // Scratch of at least `bytes`; an older, smaller buffer is freed only once the work that
  // reads it has finished.
  unsigned char* reserve(std::size_t bytes) {
    if (scratch.size() < bytes) {
      if (pending) FRINGE_CUDA_CHECK(cudaEventSynchronize(done));
      scratch = Array<unsigned char>();
      scratch = Array<unsigned char>(bytes, MemoryLocation::gpu(device));
    }
    return scratch.data();
  }

  template <class M>
  void cross(const PredictInput<T>& in, Complex<T>* out, cudaStream_t stream) {
    const std::size_t ns = in.stations.count, S = in.sources.count;
    const std::size_t cap = chunk_capacity<M>(ns, S, max_scratch);
    RunPlan<M> plan = make_run_plan<M>(in, out, reserve(scratch_layout<M>(ns, cap).bytes), cap);
    if (plan.block_tiles > INT_MAX)
      throw Error("predict_direct_cuda: too many stations for one launch");
    if constexpr (M::time) {
      time_coefficients_kernel<<<(plan.num_stations + 127) / 128, 128, 0, stream>>>(plan.time);
      FRINGE_CUDA_CHECK_KERNEL("time_coefficients_kernel");
    }
    constexpr std::size_t smem = cross_shared_bytes<M>();
    FRINGE_CUDA_CHECK(cudaFuncSetAttribute(
        cross_kernel<M>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    for (std::size_t begin = 0; begin < S; begin += cap) {
      plan.set_chunk(begin, std::min(cap, S - begin));
      const unsigned gx =
          static_cast<unsigned>((plan.terms.fill + kTermsThreads - 1) / kTermsThreads);
      constexpr int kMaxGridY = 65535;
      for (int p0 = 0; p0 < plan.num_stations; p0 += kMaxGridY) {
        plan.terms.station_offset = p0;
        const dim3 grid(gx, static_cast<unsigned>(std::min(kMaxGridY, plan.num_stations - p0)));
        station_terms_kernel<M><<<grid, kTermsThreads, 0, stream>>>(plan.terms);
        FRINGE_CUDA_CHECK_KERNEL(kernel_name<M>("station_terms_kernel"));
      }
      cross_kernel<M>
          <<<static_cast<unsigned>(plan.block_tiles), M::threads, smem, stream>>>(plan.cross);
      FRINGE_CUDA_CHECK_KERNEL(kernel_name<M>("cross_kernel"));
    }
  }
};

template <typename T>
PredictCuda<T>::PredictCuda(int device) : impl_(std::make_unique<Impl>(device)) {}
template <typename T>
PredictCuda<T>::~PredictCuda() = default;
template <typename T>
PredictCuda<T>::PredictCuda(PredictCuda&&) noexcept = default;
template <typename T>
PredictCuda<T>& PredictCuda<T>::operator=(PredictCuda&&) noexcept = default;

template <typename T>
void PredictCuda<T>::run(const DevicePredictInput<T>& in, const DevicePredictOutput<T>& out,
                         CUstream_st* stream) {
  validate<T>(in, out);
  const std::size_t ns = in.stations.count;
  if (in.sources.count == 0 || ns == 0) return;
  if (ns > (std::size_t(1) << 24)) throw Error("predict_direct_cuda: more than 2^24 stations");
  Impl& im = *impl_;
  DeviceGuard guard(im.device);
  if (im.pending && im.last != stream) FRINGE_CUDA_CHECK(cudaStreamWaitEvent(stream, im.done, 0));
  const Switches<T> sw = switches<T>(in);
  if (out.cross && ns >= 2) {
    auto f = [&]<class M>() { im.template cross<M>(in, out.cross, stream); };
    dispatch<T>(f, sw.full, sw.gauss, sw.bw, sw.time);
  }
  if (out.autos) {
    const AutoArgs<T> aa = make_auto_args<T>(in, out.autos);
    if (sw.full) {
      autos_kernel<T, true><<<static_cast<unsigned>(ns), kAutoThreads, 0, stream>>>(aa);
      FRINGE_CUDA_CHECK_KERNEL(sizeof(T) == sizeof(float) ? "autos_kernel<float, full>"
                                                          : "autos_kernel<double, full>");
    } else {
      autos_kernel<T, false><<<static_cast<unsigned>(ns), kAutoThreads, 0, stream>>>(aa);
      FRINGE_CUDA_CHECK_KERNEL(sizeof(T) == sizeof(float) ? "autos_kernel<float, scalar>"
                                                          : "autos_kernel<double, scalar>");
    }
  }
  FRINGE_CUDA_CHECK(cudaEventRecord(im.done, stream));
  im.last = stream;
  im.pending = true;
}

template <typename T>
void PredictCuda<T>::synchronize() {
  if (!impl_->pending) return;
  DeviceGuard guard(impl_->device);
  FRINGE_CUDA_CHECK_KERNEL_SYNC("predict_direct_cuda kernels", impl_->last);
}

template <typename T>
void PredictCuda<T>::set_max_scratch_bytes(std::size_t bytes) {
  impl_->max_scratch = bytes;
}

template <typename T>
std::size_t PredictCuda<T>::chunk_sources(const PredictInput<T>& in) const {
  const Switches<T> sw = switches<T>(in);
  std::size_t c = 0;
  auto f = [&]<class M>() {
    c = chunk_capacity<M>(in.stations.count, in.sources.count, impl_->max_scratch);
  };
  dispatch<T>(f, sw.full, sw.gauss, sw.bw, sw.time);
  return std::min(c, in.sources.count);
}

template <typename T>
int PredictCuda<T>::device() const {
  return impl_->device;
}

// ---------------------------------------------------------------------------------------------
// Host in, host out.
namespace {

template <typename U>
Array<U> upload(const U* p, std::size_t n, int device) {
  if (!p || n == 0) return {};
  return Array<U>::from_host(std::span<const U>(p, n), MemoryLocation::gpu(device));
}
template <typename U>
const U* ptr(const Array<U>& a) {
  return a.empty() ? nullptr : a.data();
}

class Stream {
 public:
  Stream() { FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

}  // namespace

template <typename T>
void predict_direct_cuda(const PredictInput<T>& in, const PredictOutput<T>& out, int device,
                         std::size_t max_scratch_bytes) {
  validate(in, out);
  const auto& src = in.sources;
  const auto& sta = in.stations;
  const std::size_t S = src.count, N = sta.count;
  if (S == 0 || N == 0) return;
  DeviceGuard guard(device);
  const Array<T> si = upload(src.stokes_i, S, device), sq = upload(src.stokes_q, S, device),
                 su = upload(src.stokes_u, S, device), sv = upload(src.stokes_v, S, device);
  const Array<double> l = upload(src.l, S, device), m = upload(src.m, S, device),
                      n = upload(src.n, S, device);
  const Array<T> ga = upload(src.gauss_a, S, device), gb = upload(src.gauss_b, S, device),
                 gc = upload(src.gauss_c, S, device);
  const Array<double> u = upload(sta.u, N, device), v = upload(sta.v, N, device),
                      w = upload(sta.w, N, device);
  const bool full = in.polarisation == Polarisation::Full;
  const Array<Jones<T>> jones = upload(full ? sta.jones : nullptr, N * S, device);
  const Array<Complex<T>> js = upload(full ? nullptr : sta.jones_scalar, N * S, device);
  const bool time = in.time_smearing.tau_s > 0;
  const Array<double> tx = upload(time ? in.time_smearing.station_x : nullptr, N, device);
  const Array<double> ty = upload(time ? in.time_smearing.station_y : nullptr, N, device);
  const std::size_t np = num_pols(in.polarisation);
  Array<Complex<T>> cross = upload(out.cross, num_baselines(N) * np, device);
  Array<Complex<T>> autos = upload(out.autos, N * np, device);

  DevicePredictInput<T> din;
  static_cast<PredictInput<T>&>(din) = in;
  din.sources = {S,      ptr(si), ptr(sq), ptr(su), ptr(sv), ptr(l),
                 ptr(m), ptr(n),  ptr(ga), ptr(gb), ptr(gc)};
  din.stations = {N, ptr(u), ptr(v), ptr(w), ptr(jones), ptr(js)};
  din.time_smearing.station_x = ptr(tx);
  din.time_smearing.station_y = ptr(ty);
  DevicePredictOutput<T> dout;
  dout.cross = cross.empty() ? nullptr : cross.data();
  dout.autos = autos.empty() ? nullptr : autos.data();

  PredictCuda<T> eval(device);
  if (max_scratch_bytes > 0) eval.set_max_scratch_bytes(max_scratch_bytes);
  const Stream stream;
  eval.run(din, dout, stream.get());
  eval.synchronize();
  if (out.cross && !cross.empty())
    copy_bytes(out.cross, MemoryLocation::host(), cross.data(), cross.location(), cross.bytes());
  if (out.autos && !autos.empty())
    copy_bytes(out.autos, MemoryLocation::host(), autos.data(), autos.location(), autos.bytes());
}

template class PredictCuda<float>;
template class PredictCuda<double>;
template void predict_direct_cuda(const PredictInput<float>&, const PredictOutput<float>&, int,
                                  std::size_t);
template void predict_direct_cuda(const PredictInput<double>&, const PredictOutput<double>&, int,
                                  std::size_t);

}  // namespace fringe::predict
