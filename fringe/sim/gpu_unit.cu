// GpuUnit (gpu_unit.h): device buffers, one stream, the aperture-array evaluator and the
// predict evaluator of one GPU; host work is limited to forming the unit's inputs.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_cuda.h"
#include "fringe/jones/aperture_array_plans.h"
#include "fringe/jones/station_jones_cuda.h"
#include "fringe/predict/predict_cuda.h"
#include "fringe/sim/gpu_unit.h"

namespace fringe::sim {
namespace {

// A device buffer that grows (never shrinks) to the size asked for.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* ensure(std::size_t n) {
    if (n > capacity_) {
      if (data_) FRINGE_CUDA_CHECK(cudaFree(data_));
      data_ = nullptr;
      FRINGE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T)));
      capacity_ = n;
    }
    return data_;
  }
  T* upload(const T* host, std::size_t n, cudaStream_t stream) {
    T* d = ensure(std::max<std::size_t>(n, 1));
    if (n > 0) {
      FRINGE_CUDA_CHECK(cudaMemcpyAsync(d, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
    }
    return d;
  }
  T* data() const { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

using DeviceScope = CudaDeviceGuard;

}  // namespace

std::vector<int> usable_gpus(const std::vector<int>& requested) {
  const std::vector<GpuInfo> gpus = cuda_devices();
  if (requested.empty()) {
    std::vector<int> all;
    for (const auto& g : gpus) all.push_back(g.index);
    return all;
  }
  for (int id : requested) {
    const bool found =
        std::any_of(gpus.begin(), gpus.end(), [&](const GpuInfo& g) { return g.index == id; });
    if (!found) {
      throw Error::in_setting("simulator/cuda_device_ids", std::to_string(id),
                              "no such CUDA device: " + std::to_string(gpus.size()) +
                                  " GPU(s) are visible (indices from 0)");
    }
  }
  return requested;
}

std::size_t gpu_free_bytes(int device) {
  CudaDeviceGuard guard(device);
  std::size_t free = 0, total = 0;
  FRINGE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

template <typename T>
struct GpuUnit<T>::Impl {
  int device;
  jones::StationBeamConfig beam;
  std::size_t num_stations;
  bool full;
  std::vector<double> cable_x, cable_y;
  cudaStream_t stream = nullptr;
  predict::PredictCuda<T> predictor;
  std::optional<jones::AaBeamCuda<T>> aa;

  std::size_t ns = 0;
  std::vector<double> ra_host, dec_host, sin_dec_host, cos_dec_host;
  DeviceBuffer<double> ra, sin_dec, cos_dec, l, m, n, u, v, w, tx, ty;
  DeviceBuffer<T> ga, gb, gc, si, sq, su, sv;
  DeviceBuffer<Jones<T>> jones_full;
  DeviceBuffer<Complex<T>> jones_scalar, px, py, cross, autos;
  DeviceBuffer<jones::StationBeamParams<double>> params;

  // Aperture-array plans depend on the time and frequency only, not on the sky chunk: the
  // plans of the last few (time, frequency) are kept (a unit's chunks cycle through times).
  struct CachedPlans {
    int time_index;
    double freq_hz, gast_rad;
    std::vector<jones::AaStationPlan> plans;
  };
  std::vector<CachedPlans> plan_cache;  // newest last, at most kPlanCache entries
  static constexpr std::size_t kPlanCache = 16;

  const std::vector<jones::AaStationPlan>& plans_for(const jones::StationJonesInput& in) {
    for (const auto& c : plan_cache) {
      if (c.time_index == in.time_index && c.freq_hz == in.freq_hz && c.gast_rad == in.gast_rad)
        return c.plans;
    }
    if (plan_cache.size() == kPlanCache) plan_cache.erase(plan_cache.begin());
    plan_cache.push_back(
        {in.time_index, in.freq_hz, in.gast_rad, jones::aperture_array_plans(beam, in)});
    return plan_cache.back().plans;
  }
  std::size_t cross_values = 0, auto_values = 0;

  Impl(int dev, const jones::StationBeamConfig& b, std::size_t nst, bool is_full,
       std::vector<double> cx, std::vector<double> cy)
      : device(dev),
        beam(b),
        num_stations(nst),
        full(is_full),
        cable_x(std::move(cx)),
        cable_y(std::move(cy)),
        predictor(dev) {
    DeviceScope scope(dev);  // the stream belongs to this unit's GPU
    FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if (beam.station_type == jones::StationType::ApertureArray) aa.emplace(dev);
  }
  ~Impl() {
    if (stream) {
      cudaSetDevice(device);
      cudaStreamDestroy(stream);
    }
  }

  // Jones evaluated on the host (non-uniform aperture-array stations), then uploaded.
  std::size_t host_jones(const jones::StationJonesInput& in) {
    if (full) {
      std::vector<Jones<T>> h(num_stations * ns);
      const std::size_t off = jones::evaluate_station_jones_full<T>(beam, in, h);
      jones_full.upload(h.data(), h.size(), stream);
      return off;
    }
    std::vector<Complex<T>> h(num_stations * ns);
    const std::size_t off = jones::evaluate_station_jones_scalar<T>(beam, in, h);
    jones_scalar.upload(h.data(), h.size(), stream);
    return off;
  }
};

template <typename T>
GpuUnit<T>::GpuUnit(int device, const jones::StationBeamConfig& beam, std::size_t num_stations,
                    predict::Polarisation pol, std::vector<double> cable_x,
                    std::vector<double> cable_y)
    : impl_(std::make_unique<Impl>(device, beam, num_stations, pol == predict::Polarisation::Full,
                                   std::move(cable_x), std::move(cable_y))) {}

template <typename T>
GpuUnit<T>::~GpuUnit() = default;
template <typename T>
GpuUnit<T>::GpuUnit(GpuUnit&&) noexcept = default;
template <typename T>
GpuUnit<T>& GpuUnit<T>::operator=(GpuUnit&&) noexcept = default;

template <typename T>
int GpuUnit<T>::device() const {
  return impl_->device;
}

template <typename T>
void GpuUnit<T>::begin(std::span<const double> ra, std::span<const double> dec,
                       std::span<const double> l, std::span<const double> m,
                       std::span<const double> n, std::span<const T> ga, std::span<const T> gb,
                       std::span<const T> gc, std::size_t cross_values, std::size_t auto_values) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  d.ns = ra.size();
  d.ra_host.assign(ra.begin(), ra.end());
  d.dec_host.assign(dec.begin(), dec.end());
  d.sin_dec_host.resize(d.ns);
  d.cos_dec_host.resize(d.ns);
  for (std::size_t s = 0; s < d.ns; ++s) {
    d.sin_dec_host[s] = std::sin(dec[s]);
    d.cos_dec_host[s] = std::cos(dec[s]);
  }
  d.ra.upload(ra.data(), d.ns, d.stream);
  d.sin_dec.upload(d.sin_dec_host.data(), d.ns, d.stream);
  d.cos_dec.upload(d.cos_dec_host.data(), d.ns, d.stream);
  d.l.upload(l.data(), d.ns, d.stream);
  d.m.upload(m.data(), d.ns, d.stream);
  d.n.upload(n.data(), d.ns, d.stream);
  d.ga.upload(ga.data(), d.ns, d.stream);
  d.gb.upload(gb.data(), d.ns, d.stream);
  d.gc.upload(gc.data(), d.ns, d.stream);
  d.cross_values = cross_values;
  d.auto_values = auto_values;
  for (auto [buf, count] : {std::pair{&d.cross, cross_values}, {&d.autos, auto_values}}) {
    Complex<T>* p = buf->ensure(std::max<std::size_t>(count, 1));
    if (count > 0) {
      FRINGE_CUDA_CHECK(cudaMemsetAsync(p, 0, count * sizeof(Complex<T>), d.stream));
    }
  }
}

template <typename T>
std::size_t GpuUnit<T>::jones(const jones::StationJonesInput& in_host) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  jones::StationJonesInput in = in_host;
  in.ra = d.ra_host;
  in.dec = d.dec_host;
  if (d.ns == 0) return 0;
  const std::size_t total = d.num_stations * d.ns;
  std::size_t off = 0;
  if (d.beam.station_type == jones::StationType::ApertureArray) {
    const std::vector<jones::AaStationPlan>& plans = d.plans_for(in);
    const bool uniform = std::all_of(plans.begin(), plans.end(),
                                     [](const jones::AaStationPlan& p) { return p.uniform; });
    if (!uniform || d.beam.allow_station_beam_duplication) {
      off = d.host_jones(in);  // the CPU path handles these (documented in gpu_unit.h)
    } else {
      for (const auto& p : plans) off += p.beam_off ? 1 : 0;
      d.aa->set_plans(plans);
      const jones::AaDeviceSources src{d.ra.data(), d.sin_dec.data(), d.cos_dec.data(), d.ns};
      // The evaluator runs on its own stream: make it wait for this unit's uploads first.
      FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
      if (d.full) {
        d.aa->evaluate_full(src, in.parallactic, d.jones_full.ensure(total));
      } else {
        d.aa->evaluate_scalar(src, d.jones_scalar.ensure(total));
      }
      d.aa->synchronize();
    }
  } else {
    std::vector<std::size_t> below;
    const std::vector<jones::StationBeamParams<double>> params =
        jones::station_params(d.beam, in, below);
    off = below.size();
    d.params.upload(params.data(), params.size(), d.stream);
    const jones::DeviceSourceDirections src{d.ra.data(), d.sin_dec.data(), d.cos_dec.data(), d.ns};
    if (d.full) {
      jones::station_jones_full_cuda<T>(d.params.data(), d.num_stations, src,
                                        d.jones_full.ensure(total), d.stream);
    } else {
      jones::station_jones_scalar_cuda<T>(d.params.data(), d.num_stations, src,
                                          d.jones_scalar.ensure(total), d.stream);
    }
  }
  if (!d.cable_x.empty()) {  // station cable phases exp(i 2 pi dL / lambda), oskar-compat 4.2
    const double k = 2.0 * 3.14159265358979323846 * in.freq_hz / 299792458.0;
    std::vector<Complex<T>> hx(d.num_stations), hy(d.num_stations);
    for (std::size_t p = 0; p < d.num_stations; ++p) {
      hx[p] = {T(std::cos(k * d.cable_x[p])), T(std::sin(k * d.cable_x[p]))};
      hy[p] = {T(std::cos(k * d.cable_y[p])), T(std::sin(k * d.cable_y[p]))};
    }
    Complex<T>* px = d.px.upload(hx.data(), hx.size(), d.stream);
    Complex<T>* py = d.py.upload(hy.data(), hy.size(), d.stream);
    if (d.full) {
      jones::station_row_phases_cuda<T>(d.jones_full.data(), d.num_stations, d.ns, px, py,
                                        d.stream);
    } else {
      jones::station_row_phases_cuda<T>(d.jones_scalar.data(), d.num_stations, d.ns, px, d.stream);
    }
    // The host vectors must outlive the copies.
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  }
  return off;
}

template <typename T>
void GpuUnit<T>::predict(const predict::PredictInput<T>& in, std::size_t cross_offset,
                         std::size_t auto_offset) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  if (d.ns == 0) return;
  predict::DevicePredictInput<T> g;
  static_cast<predict::PredictInput<T>&>(g) = in;
  auto& s = g.sources;
  s.count = d.ns;
  s.stokes_i = d.si.upload(in.sources.stokes_i, d.ns, d.stream);
  s.stokes_q = in.sources.stokes_q ? d.sq.upload(in.sources.stokes_q, d.ns, d.stream) : nullptr;
  s.stokes_u = in.sources.stokes_u ? d.su.upload(in.sources.stokes_u, d.ns, d.stream) : nullptr;
  s.stokes_v = in.sources.stokes_v ? d.sv.upload(in.sources.stokes_v, d.ns, d.stream) : nullptr;
  s.l = d.l.data();
  s.m = d.m.data();
  s.n = d.n.data();
  s.gauss_a = d.ga.data();
  s.gauss_b = d.gb.data();
  s.gauss_c = d.gc.data();
  auto& st = g.stations;
  st.u = d.u.upload(in.stations.u, d.num_stations, d.stream);
  st.v = d.v.upload(in.stations.v, d.num_stations, d.stream);
  st.w = d.w.upload(in.stations.w, d.num_stations, d.stream);
  st.jones = d.full ? d.jones_full.data() : nullptr;
  st.jones_scalar = d.full ? nullptr : d.jones_scalar.data();
  if (in.time_smearing.tau_s > 0) {
    g.time_smearing.station_x = d.tx.upload(in.time_smearing.station_x, d.num_stations, d.stream);
    g.time_smearing.station_y = d.ty.upload(in.time_smearing.station_y, d.num_stations, d.stream);
  }
  predict::DevicePredictOutput<T> out;
  if (d.cross_values > 0) out.cross = d.cross.data() + cross_offset;
  if (d.auto_values > 0) out.autos = d.autos.data() + auto_offset;
  d.predictor.run(g, out, d.stream);
  // The host flux and UVW arrays are reused for the next channel: wait for the copies.
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
}

template <typename T>
void GpuUnit<T>::end(Complex<T>* cross, Complex<T>* autos) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  if (cross && d.cross_values > 0) {
    FRINGE_CUDA_CHECK(cudaMemcpyAsync(cross, d.cross.data(), d.cross_values * sizeof(Complex<T>),
                                      cudaMemcpyDeviceToHost, d.stream));
  }
  if (autos && d.auto_values > 0) {
    FRINGE_CUDA_CHECK(cudaMemcpyAsync(autos, d.autos.data(), d.auto_values * sizeof(Complex<T>),
                                      cudaMemcpyDeviceToHost, d.stream));
  }
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  d.predictor.synchronize();
}

template class GpuUnit<float>;
template class GpuUnit<double>;

}  // namespace fringe::sim
