// Host side of the CUDA direct predict (predict_cuda.h): mode dispatch, scratch and source
// chunks, launches (kernels in predict_cuda_kernels.cuh; design in docs/gpu_predict.md).
//
// Per run_channels() (run() is a batch of one channel), per group of up to kMaxChannels
// channels: [time smearing] time_coefficients_kernel; per source chunk (sized so that the
// group's per-(channel, station, source) terms fit max_scratch_bytes): station_terms_kernel,
// then cross_kernel adding the chunk's sums into the outputs; [autos] autos_kernel over all
// sources. Each launch covers every channel of the group (a grid dimension).
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
void check_batch_channel(const PredictInput<T>& first, const PredictOutput<T>& first_out,
                         const PredictInput<T>& in, const PredictOutput<T>& out, std::size_t c) {
  const auto differs = [&](const char* what) {
    throw Error("predict_direct_cuda: channel " + std::to_string(c) + " of a channel batch has " +
                what + " other than channel 0's (a batch shares it)");
  };
  const auto& s0 = first.sources;
  const auto& s = in.sources;
  const auto& st0 = first.stations;
  const auto& st = in.stations;
  const auto& t0 = first.time_smearing;
  const auto& t = in.time_smearing;
  if (in.polarisation != first.polarisation) differs("a polarisation");
  if (s.count != s0.count) differs("a source count");
  if (s.l != s0.l || s.m != s0.m || s.n != s0.n) differs("source l, m, n arrays");
  if (s.gauss_a != s0.gauss_a || s.gauss_b != s0.gauss_b || s.gauss_c != s0.gauss_c)
    differs("Gaussian coefficient arrays");
  if (st.count != st0.count) differs("a station count");
  if (st.u != st0.u || st.v != st0.v || st.w != st0.w) differs("station u, v, w arrays");
  if (t.tau_s != t0.tau_s || t.gast != t0.gast || t.ra0 != t0.ra0 || t.dec0 != t0.dec0)
    differs("time smearing (tau_s, gast, ra0, dec0)");
  if (t.tau_s > 0 && (t.station_x != t0.station_x || t.station_y != t0.station_y))
    differs("time smearing station x, y arrays");
  if (in.uv_filter.min != first.uv_filter.min || in.uv_filter.max != first.uv_filter.max ||
      in.uv_filter.in_wavelengths != first.uv_filter.in_wavelengths)
    differs("a uv filter");
  if ((bandwidth_smearing_scale(in.channel_bandwidth_hz, in.frequency_hz) > 0) !=
      (bandwidth_smearing_scale(first.channel_bandwidth_hz, first.frequency_hz) > 0))
    differs("bandwidth smearing on or off");
  if ((out.cross != nullptr) != (first_out.cross != nullptr))
    differs("a cross output present or not");
  if ((out.autos != nullptr) != (first_out.autos != nullptr))
    differs("an autos output present or not");
}

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

  // Cross-correlations of one launch group; `budget`: scratch bytes per channel.
  template <class M>
  void cross(std::span<const DevicePredictInput<T>> in, std::span<const DevicePredictOutput<T>> out,
             std::size_t budget, cudaStream_t stream) {
    const std::size_t ns = in[0].stations.count, S = in[0].sources.count;
    const std::size_t cap = chunk_capacity<M>(ns, S, budget);
    const std::size_t bytes = group_scratch_bytes<M>(ns, cap, in.size());
    RunPlan<M> plan = make_run_plan<M>(in, out, reserve(bytes), cap);
    if (plan.block_tiles > INT_MAX)
      throw Error("predict_direct_cuda: too many stations for one launch");
    const unsigned nc = static_cast<unsigned>(plan.channels);
    cross_table_kernel<T><<<1, kMaxChannels, 0, stream>>>(plan.table);
    FRINGE_CUDA_CHECK_KERNEL("cross_table_kernel");
    if constexpr (M::time) {
      const dim3 grid((plan.num_stations + 127) / 128, nc);
      time_coefficients_kernel<<<grid, 128, 0, stream>>>(plan.time);
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
        const dim3 grid(gx, static_cast<unsigned>(std::min(kMaxGridY, plan.num_stations - p0)), nc);
        station_terms_kernel<M><<<grid, kTermsThreads, 0, stream>>>(plan.terms);
        FRINGE_CUDA_CHECK_KERNEL(kernel_name<M>("station_terms_kernel"));
      }
      const dim3 grid(static_cast<unsigned>(plan.block_tiles), nc);
      cross_kernel<M><<<grid, M::threads, smem, stream>>>(plan.cross);
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
  run_channels(std::span<const DevicePredictInput<T>>(&in, 1),
               std::span<const DevicePredictOutput<T>>(&out, 1), stream);
}

template <typename T>
void PredictCuda<T>::run_channels(std::span<const DevicePredictInput<T>> in,
                                  std::span<const DevicePredictOutput<T>> out,
                                  CUstream_st* stream) {
  if (in.size() != out.size()) {
    throw Error("predict_direct_cuda: " + std::to_string(in.size()) + " channel inputs but " +
                std::to_string(out.size()) + " outputs");
  }
  if (in.empty()) return;
  for (std::size_t c = 0; c < in.size(); ++c) {
    validate<T>(in[c], out[c]);
    check_batch_channel<T>(in[0], out[0], in[c], out[c], c);
  }
  const std::size_t ns = in[0].stations.count;
  if (in[0].sources.count == 0 || ns == 0) return;
  if (ns > (std::size_t(1) << 24)) throw Error("predict_direct_cuda: more than 2^24 stations");
  Impl& im = *impl_;
  DeviceGuard guard(im.device);
  if (im.pending && im.last != stream) FRINGE_CUDA_CHECK(cudaStreamWaitEvent(stream, im.done, 0));
  const Switches<T> sw = switches<T>(in[0]);
  std::size_t group = 1;
  auto size_group = [&]<class M>() { group = channel_group<M>(ns, in.size(), im.max_scratch); };
  dispatch<T>(size_group, sw.full, sw.gauss, sw.bw, sw.time);
  const std::size_t budget = im.max_scratch / group;  // per channel of a group
  for (std::size_t c0 = 0; c0 < in.size(); c0 += group) {
    const std::size_t n = std::min(group, in.size() - c0);
    const auto gi = in.subspan(c0, n);
    const auto go = out.subspan(c0, n);
    if (go[0].cross && ns >= 2) {
      auto f = [&]<class M>() { im.template cross<M>(gi, go, budget, stream); };
      dispatch<T>(f, sw.full, sw.gauss, sw.bw, sw.time);
    }
    if (go[0].autos) {
      const AutoArgs<T> aa = make_auto_args<T>(gi, go);
      const dim3 grid(static_cast<unsigned>(ns), static_cast<unsigned>(n));
      if (sw.full) {
        autos_kernel<T, true><<<grid, kAutoThreads, 0, stream>>>(aa);
        FRINGE_CUDA_CHECK_KERNEL(sizeof(T) == sizeof(float) ? "autos_kernel<float, full>"
                                                            : "autos_kernel<double, full>");
      } else {
        autos_kernel<T, false><<<grid, kAutoThreads, 0, stream>>>(aa);
        FRINGE_CUDA_CHECK_KERNEL(sizeof(T) == sizeof(float) ? "autos_kernel<float, scalar>"
                                                            : "autos_kernel<double, scalar>");
      }
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
std::size_t PredictCuda<T>::chunk_sources(const PredictInput<T>& in, std::size_t channels) const {
  const Switches<T> sw = switches<T>(in);
  std::size_t c = 0;
  auto f = [&]<class M>() {
    const std::size_t ns = in.stations.count;
    const std::size_t group = channel_group<M>(ns, channels, impl_->max_scratch);
    c = chunk_capacity<M>(ns, in.sources.count, impl_->max_scratch / group);
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

static_assert(PredictCuda<float>::kMaxChannels == cuda_detail::kMaxChannels);
template class PredictCuda<float>;
template class PredictCuda<double>;
template void check_batch_channel(const PredictInput<float>&, const PredictOutput<float>&,
                                  const PredictInput<float>&, const PredictOutput<float>&,
                                  std::size_t);
template void check_batch_channel(const PredictInput<double>&, const PredictOutput<double>&,
                                  const PredictInput<double>&, const PredictOutput<double>&,
                                  std::size_t);
template void predict_direct_cuda(const PredictInput<float>&, const PredictOutput<float>&, int,
                                  std::size_t);
template void predict_direct_cuda(const PredictInput<double>&, const PredictOutput<double>&, int,
                                  std::size_t);

}  // namespace fringe::predict
