// GpuUnit (gpu_unit.h): one GPU's device buffers, stream, chunk cache, aperture-array and
// predict evaluators; the pipeline's own kernels are in gpu_sim_kernels.cu.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/core/gpu_buffer.cuh"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_cuda.h"
#include "fringe/jones/aperture_array_plans.h"
#include "fringe/jones/jones_math.h"
#include "fringe/jones/station_jones_cuda.h"
#include "fringe/jones/tec_screen_cuda.h"
#include "fringe/predict/predict_cuda.h"
#include "fringe/sim/gpu_sim_kernels.cuh"
#include "fringe/sim/gpu_unit.h"
#include "fringe/sky/spectrum.h"

namespace fringe::sim {
namespace {

using DeviceScope = CudaDeviceGuard;

// A sky chunk resident on one GPU: positions, geometry, Gaussian coefficients and the spectra
// (views into one pool of values).
struct DeviceChunk {
  std::size_t id = 0, size = 0;
  bool has_gaussians = false;  // any non-zero Gaussian coefficient (else the point kernels)
  std::uint64_t last_used = 0;
  GpuBuffer<double> ra, dec, sin_dec, cos_dec, l, m, n, ga, gb, gc, pool;
  GpuBuffer<sky::SpectrumView<double>> spectra;
  std::vector<double> pool_host;
  std::vector<sky::SpectrumView<double>> spectra_host;

  void upload(const GpuChunk& c, double ra0, double dec0, cudaStream_t stream) {
    const sky::SkyModel& s = *c.sky;
    id = c.id;
    size = s.size();
    if (c.ga.size() != size || c.gb.size() != size || c.gc.size() != size) {
      throw Error("GPU unit: chunk " + std::to_string(c.id) + " has " + std::to_string(size) +
                  " sources but " + std::to_string(c.ga.size()) + " Gaussian coefficients");
    }
    ra.upload(s.ra.data(), size, stream);
    dec.upload(s.dec.data(), size, stream);
    gpu::source_geometry(size, ra.data(), dec.data(), ra0, dec0, sin_dec.reserve(size),
                         cos_dec.reserve(size), l.reserve(size), m.reserve(size), n.reserve(size),
                         stream);
    auto nonzero = [](std::span<const double> v) {
      return std::any_of(v.begin(), v.end(), [](double x) { return x != 0.0; });
    };
    has_gaussians = nonzero(c.ga) || nonzero(c.gb) || nonzero(c.gc);
    ga.upload(c.ga.data(), size, stream);
    gb.upload(c.gb.data(), size, stream);
    gc.upload(c.gc.data(), size, stream);
    // Spectra: every array a view points to is copied into one pool; the pointers are pool
    // offsets until the pool's device address is known.
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // the host staging vectors are reused
    pool_host.clear();
    spectra_host.resize(size);
    std::vector<std::ptrdiff_t> offsets(size * 9);
    auto put = [&](const double* p, int count) -> std::ptrdiff_t {
      if (!p || count <= 0) return -1;
      const auto off = std::ptrdiff_t(pool_host.size());
      pool_host.insert(pool_host.end(), p, p + count);
      return off;
    };
    for (std::size_t i = 0; i < size; ++i) {
      const sky::SpectrumView<double> v = sky::spectrum_view(s, i);
      std::ptrdiff_t* o = &offsets[9 * i];
      o[0] = put(v.i, v.num_i);
      o[1] = put(v.q, v.num_q);
      o[2] = put(v.u, v.num_u);
      o[3] = put(v.v, v.num_v);
      o[4] = put(v.ref_freq, v.num_ref_freq);
      o[5] = put(v.spix, v.num_spix);
      o[6] = put(v.pol_frac, v.num_pol_frac);
      o[7] = put(v.pol_angle, v.num_pol_angle);
      o[8] = put(v.line_width, v.num_line_width);
      spectra_host[i] = v;
    }
    const double* d = pool.upload(pool_host.data(), pool_host.size(), stream);
    for (std::size_t i = 0; i < size; ++i) {
      const std::ptrdiff_t* o = &offsets[9 * i];
      auto at = [&](std::ptrdiff_t off) { return off < 0 ? nullptr : d + off; };
      sky::SpectrumView<double>& v = spectra_host[i];
      v.i = at(o[0]);
      v.q = at(o[1]);
      v.u = at(o[2]);
      v.v = at(o[3]);
      v.ref_freq = at(o[4]);
      v.spix = at(o[5]);
      v.pol_frac = at(o[6]);
      v.pol_angle = at(o[7]);
      v.line_width = at(o[8]);
    }
    spectra.upload(spectra_host.data(), size, stream);
  }
};

}  // namespace

std::size_t gpu_free_bytes(int device) {
  CudaDeviceGuard guard(device);
  std::size_t free = 0, total = 0;
  FRINGE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

template <typename T>
struct GpuUnit<T>::Impl {
  int device;
  GpuSimSetup setup;
  bool full;
  std::size_t num_baselines;
  int npol;
  cudaStream_t stream = nullptr;
  predict::PredictCuda<T> predictor;
  std::optional<jones::AaBeamCuda<T>> aa;

  // Run constants on the device.
  GpuBuffer<double> sin_lat, cos_lat, lst, tx, ty, u, v, w, sigma;
  std::vector<double> lon_host, lst_host;
  GpuBuffer<int> p_of_b, q_of_b;
  bool have_baseline_pairs = false;

  // Chunks kept on this GPU, least recently used evicted first.
  static constexpr std::size_t kChunkCache = 4;
  std::vector<std::unique_ptr<DeviceChunk>> chunks;
  std::uint64_t use_counter = 0;
  DeviceChunk* current = nullptr;

  // The unit's kept sources.
  std::size_t ns = 0;
  GpuBuffer<int> flags, positions, kept, count;
  GpuBuffer<char> scan_scratch;
  GpuBuffer<double> kra, kdec, ksin, kcos, kl, km, kn;
  GpuBuffer<T> kga, kgb, kgc, si, sq, su, sv;
  std::vector<double> ra_host, dec_host;

  // Station Jones of the unit.
  GpuBuffer<Jones<T>> jones_full;
  GpuBuffer<Complex<T>> jones_scalar, px, py;
  GpuBuffer<jones::StationBeamParams<double>> params;
  // The TEC screen plane on the device (its plane index; -1: none yet), station (u, v).
  GpuBuffer<T> tec_plane;
  int tec_plane_id = -1;
  GpuBuffer<double> tec_u, tec_v, tec_l, tec_m, tec_b;

  // This GPU's copy of the block and the reduction's receive buffer.
  int num_times = 0, num_channels = 0;
  std::size_t cross_values = 0, auto_values = 0;
  GpuBuffer<Complex<T>> cross, autos, receive;

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
        {in.time_index, in.freq_hz, in.gast_rad, jones::aperture_array_plans(setup.beam, in)});
    return plan_cache.back().plans;
  }

  Impl(int dev, GpuSimSetup s)
      : device(dev),
        setup(std::move(s)),
        full(setup.pol == predict::Polarisation::Full),
        num_baselines(predict::num_baselines(setup.num_stations)),
        npol(predict::num_pols(setup.pol)),
        predictor(dev) {
    DeviceScope scope(dev);  // the stream and buffers belong to this unit's GPU
    FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if (setup.beam.station_type == jones::StationType::ApertureArray) aa.emplace(dev);
    std::vector<double> sl, cl;
    for (const auto& site : setup.sites) {
      sl.push_back(std::sin(site.lat));
      cl.push_back(std::cos(site.lat));
      lon_host.push_back(site.lon);
    }
    sin_lat.upload(sl.data(), sl.size(), stream);
    cos_lat.upload(cl.data(), cl.size(), stream);
    if (!setup.station_x.empty()) {
      tx.upload(setup.station_x.data(), setup.station_x.size(), stream);
      ty.upload(setup.station_y.data(), setup.station_y.size(), stream);
    }
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // sl, cl are freed at return
  }
  ~Impl() {
    if (stream) {
      cudaSetDevice(device);
      cudaStreamDestroy(stream);
    }
  }

  DeviceChunk& chunk_for(const GpuChunk& c) {
    ++use_counter;
    for (auto& dc : chunks) {
      if (dc->id == c.id) {
        dc->last_used = use_counter;
        return *dc;
      }
    }
    if (chunks.size() < kChunkCache) {
      chunks.push_back(std::make_unique<DeviceChunk>());
    } else {
      std::sort(chunks.begin(), chunks.end(),
                [](const auto& a, const auto& b) { return a->last_used > b->last_used; });
    }
    DeviceChunk& dc = *chunks.back();  // the new slot, or the least recently used
    dc.upload(c, setup.phase_centre_ra, setup.phase_centre_dec, stream);
    dc.last_used = use_counter;
    return dc;
  }

  // Jones evaluated on the host (non-uniform aperture-array stations), then uploaded.
  std::size_t host_jones(const jones::StationJonesInput& in) {
    const std::size_t n = setup.num_stations * ns;
    std::size_t off = 0;
    if (full) {
      std::vector<Jones<T>> h(n);
      off = jones::evaluate_station_jones_full<T>(setup.beam, in, h);
      jones_full.upload(h.data(), h.size(), stream);
    } else {
      std::vector<Complex<T>> h(n);
      off = jones::evaluate_station_jones_scalar<T>(setup.beam, in, h);
      jones_scalar.upload(h.data(), h.size(), stream);
    }
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));  // h is freed at return
    return off;
  }

  void ensure_baseline_pairs() {
    if (have_baseline_pairs) return;
    std::vector<int> p, q;
    for (std::size_t a = 0; a < setup.num_stations; ++a) {
      for (std::size_t b = a + 1; b < setup.num_stations; ++b) {
        p.push_back(int(a));
        q.push_back(int(b));
      }
    }
    p_of_b.upload(p.data(), p.size(), stream);
    q_of_b.upload(q.data(), q.size(), stream);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    have_baseline_pairs = true;
  }

  // Waits for everything this unit enqueued (its stream and the evaluators').
  void synchronize() {
    DeviceScope scope(device);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream));
    predictor.synchronize();
    if (aa) aa->synchronize();
  }
};

template <typename T>
GpuUnit<T>::GpuUnit(int device, GpuSimSetup setup)
    : impl_(std::make_unique<Impl>(device, std::move(setup))) {}

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
void GpuUnit<T>::begin_block(int num_times, int num_channels) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  d.num_times = num_times;
  d.num_channels = num_channels;
  const std::size_t tc = std::size_t(num_times) * std::size_t(num_channels);
  d.cross_values = d.setup.write_cross ? tc * d.num_baselines * std::size_t(d.npol) : 0;
  d.auto_values = d.setup.write_autos ? tc * d.setup.num_stations * std::size_t(d.npol) : 0;
  d.cross.zero(d.cross_values, d.stream);
  d.autos.zero(d.auto_values, d.stream);
}

template <typename T>
std::size_t GpuUnit<T>::begin_unit(const GpuChunk& chunk, double gast_rad,
                                   std::span<const double> u, std::span<const double> v,
                                   std::span<const double> w) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  DeviceChunk& c = d.chunk_for(chunk);
  d.current = &c;
  const std::size_t n = c.size;
  // Horizon clip on the GPU: flags, then the kept indices in order.
  std::size_t num_sites = 0;
  if (d.setup.horizon_clip) {
    num_sites = d.lon_host.size();
    d.lst_host.resize(num_sites);
    for (std::size_t i = 0; i < num_sites; ++i) d.lst_host[i] = gast_rad + d.lon_host[i];
    d.lst.upload(d.lst_host.data(), num_sites, d.stream);
  }
  gpu::horizon_flags(n, c.ra.data(), c.sin_dec.data(), c.cos_dec.data(), num_sites,
                     d.sin_lat.data(), d.cos_lat.data(), d.lst.data(), d.flags.reserve(n),
                     d.stream);
  const std::size_t scratch = gpu::compact_scratch_bytes(n);
  gpu::compact_indices(n, d.flags.data(), d.positions.reserve(n), d.scan_scratch.reserve(scratch),
                       scratch, d.kept.reserve(n), d.count.reserve(1), d.stream);
  int kept_count = 0;
  d.count.download(&kept_count, 1, d.stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  d.ns = std::size_t(kept_count);
  const std::size_t ns = d.ns;
  const gpu::ChunkArrays src{c.ra.data(), c.dec.data(), c.sin_dec.data(), c.cos_dec.data(),
                             c.l.data(),  c.m.data(),   c.n.data(),       c.ga.data(),
                             c.gb.data(), c.gc.data(),  c.spectra.data()};
  const gpu::KeptArrays<T> dst{d.kra.reserve(ns),  d.kdec.reserve(ns), d.ksin.reserve(ns),
                               d.kcos.reserve(ns), d.kl.reserve(ns),   d.km.reserve(ns),
                               d.kn.reserve(ns),   d.kga.reserve(ns),  d.kgb.reserve(ns),
                               d.kgc.reserve(ns)};
  gpu::gather_sources<T>(ns, d.kept.data(), src, dst, d.stream);
  if (d.setup.drift_scan) {
    // The sky drifts past the zenith phase centre: (l, m, n) of this time (SimInputs).
    gpu::drift_directions(ns, d.kra.data(), d.kdec.data(), gast_rad + d.setup.centre_lon,
                          d.setup.centre_lat, d.kl.data(), d.km.data(), d.kn.data(), d.stream);
  }
  // Host copies of the kept directions (host-side Jones inputs: beam plans, non-uniform
  // aperture arrays) and the stations' (u, v, w) of this time.
  d.ra_host.resize(ns);
  d.dec_host.resize(ns);
  d.kra.download(d.ra_host.data(), ns, d.stream);
  d.kdec.download(d.dec_host.data(), ns, d.stream);
  d.u.upload(u.data(), u.size(), d.stream);
  d.v.upload(v.data(), v.size(), d.stream);
  d.w.upload(w.data(), w.size(), d.stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
  return ns;
}

template <typename T>
std::span<const double> GpuUnit<T>::kept_ra() const {
  return impl_->ra_host;
}
template <typename T>
std::span<const double> GpuUnit<T>::kept_dec() const {
  return impl_->dec_host;
}

template <typename T>
void GpuUnit<T>::tec_screen(const jones::TecPlaneView<T>& plane, int plane_id,
                            const jones::TecGeometry& geometry, double freq_hz) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  if (d.ns == 0) return;
  const std::size_t pixels = std::size_t(plane.nx) * std::size_t(plane.ny);
  if (plane_id != d.tec_plane_id) {
    d.tec_plane.upload(plane.tec, pixels, d.stream);
    d.tec_plane_id = plane_id;
  }
  jones::TecPlaneView<T> dev = plane;
  dev.tec = d.tec_plane.data();
  jones::TecPoints points = geometry.points();
  d.tec_u.upload(geometry.u.data(), geometry.u.size(), d.stream);
  d.tec_v.upload(geometry.v.data(), geometry.v.size(), d.stream);
  d.tec_l.upload(geometry.l.data(), geometry.l.size(), d.stream);
  d.tec_m.upload(geometry.m.data(), geometry.m.size(), d.stream);
  points.u = d.tec_u.data();
  points.v = d.tec_v.data();
  points.l = d.tec_l.data();
  points.m = d.tec_m.data();
  if (!geometry.b_los.empty()) {
    d.tec_b.upload(geometry.b_los.data(), geometry.b_los.size(), d.stream);
    points.b_los = d.tec_b.data();
  }
  const T inv_freq = T(1.0 / freq_hz);
  if (d.full) {
    jones::apply_tec_screen_cuda<T>(dev, points, inv_freq, d.jones_full.data(), d.stream);
  } else {
    jones::apply_tec_screen_cuda<T>(dev, points, inv_freq, d.jones_scalar.data(), d.stream);
  }
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));  // the host arrays may change at return
}

template <typename T>
std::size_t GpuUnit<T>::jones(const jones::StationJonesInput& in_host) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  jones::StationJonesInput in = in_host;
  in.ra = d.ra_host;
  in.dec = d.dec_host;
  if (d.ns == 0) return 0;
  const std::size_t total = d.setup.num_stations * d.ns;
  std::size_t off = 0;
  if (d.setup.beam.station_type == jones::StationType::ApertureArray) {
    const std::vector<jones::AaStationPlan>& plans = d.plans_for(in);
    const bool uniform = std::all_of(plans.begin(), plans.end(),
                                     [](const jones::AaStationPlan& p) { return p.uniform; });
    if (!uniform || d.setup.beam.allow_station_beam_duplication) {
      off = d.host_jones(in);  // the CPU path handles these (documented in docs/simulation.md)
    } else {
      for (const auto& p : plans) off += p.beam_off ? 1 : 0;
      d.aa->set_plans(plans);
      const jones::AaDeviceSources src{d.kra.data(), d.ksin.data(), d.kcos.data(), d.ns};
      // The evaluator runs on its own stream: make it wait for this unit's work first.
      FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
      if (d.full) {
        d.aa->evaluate_full(src, in.parallactic, d.jones_full.reserve(total));
      } else {
        d.aa->evaluate_scalar(src, d.jones_scalar.reserve(total));
      }
      d.aa->synchronize();
    }
  } else {
    std::vector<std::size_t> below;
    const std::vector<jones::StationBeamParams<double>> params =
        jones::station_params(d.setup.beam, in, below);
    off = below.size();
    d.params.upload(params.data(), params.size(), d.stream);
    const jones::DeviceSourceDirections src{d.kra.data(), d.ksin.data(), d.kcos.data(), d.ns};
    if (d.full) {
      jones::station_jones_full_cuda<T>(d.params.data(), d.setup.num_stations, src,
                                        d.jones_full.reserve(total), d.stream);
    } else {
      jones::station_jones_scalar_cuda<T>(d.params.data(), d.setup.num_stations, src,
                                          d.jones_scalar.reserve(total), d.stream);
    }
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));  // params is freed at return
  }
  if (!d.setup.cable_x.empty()) {  // station cable phases exp(i 2 pi dL / lambda)
    const std::size_t np = d.setup.num_stations;
    std::vector<Complex<T>> hx(np), hy(np);
    for (std::size_t p = 0; p < np; ++p) {
      hx[p] = jones::cable_phase<T>(d.setup.cable_x[p], in.freq_hz);
      hy[p] = jones::cable_phase<T>(d.setup.cable_y[p], in.freq_hz);
    }
    Complex<T>* px = d.px.upload(hx.data(), hx.size(), d.stream);
    Complex<T>* py = d.py.upload(hy.data(), hy.size(), d.stream);
    if (d.full) {
      jones::station_row_phases_cuda<T>(d.jones_full.data(), np, d.ns, px, py, d.stream);
    } else {
      jones::station_row_phases_cuda<T>(d.jones_scalar.data(), np, d.ns, px, d.stream);
    }
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));  // hx, hy are freed at return
  }
  return off;
}

template <typename T>
void GpuUnit<T>::predict(const predict::PredictInput<T>& in, int t, int c) {
  Impl& d = *impl_;
  DeviceScope scope(d.device);
  if (d.ns == 0) return;
  if (t < 0 || t >= d.num_times || c < 0 || c >= d.num_channels) {
    throw Error("GPU unit: time " + std::to_string(t) + ", channel " + std::to_string(c) +
                " outside the block of " + std::to_string(d.num_times) + " x " +
                std::to_string(d.num_channels));
  }
  const std::size_t ns = d.ns;
  T* si = d.si.reserve(ns);
  T* sq = d.full ? d.sq.reserve(ns) : nullptr;
  T* su = d.full ? d.su.reserve(ns) : nullptr;
  T* sv = d.full ? d.sv.reserve(ns) : nullptr;
  gpu::source_fluxes<T>(ns, d.kept.data(), d.current->spectra.data(), in.frequency_hz,
                        d.setup.flux_min, d.setup.flux_max, si, sq, su, sv, d.stream);
  predict::DevicePredictInput<T> g;
  static_cast<predict::PredictInput<T>&>(g) = in;
  auto& s = g.sources;
  s.count = ns;
  s.stokes_i = si;
  s.stokes_q = sq;
  s.stokes_u = su;
  s.stokes_v = sv;
  s.l = d.kl.data();
  s.m = d.km.data();
  s.n = d.kn.data();
  // The predict picks its Gaussian kernels when the coefficients are given: only for chunks
  // that hold Gaussian sources (points-only chunks run the cheaper point kernels, as the
  // CPU predict decides from the values).
  const bool gauss = d.current->has_gaussians;
  s.gauss_a = gauss ? d.kga.data() : nullptr;
  s.gauss_b = gauss ? d.kgb.data() : nullptr;
  s.gauss_c = gauss ? d.kgc.data() : nullptr;
  auto& st = g.stations;
  st.count = d.setup.num_stations;
  st.u = d.u.data();
  st.v = d.v.data();
  st.w = d.w.data();
  st.jones = d.full ? d.jones_full.data() : nullptr;
  st.jones_scalar = d.full ? nullptr : d.jones_scalar.data();
  if (in.time_smearing.tau_s > 0) {
    if (d.setup.station_x.empty()) throw Error("GPU unit: time smearing without station x, y");
    g.time_smearing.station_x = d.tx.data();
    g.time_smearing.station_y = d.ty.data();
  }
  const std::size_t slice = std::size_t(t) * std::size_t(d.num_channels) + std::size_t(c);
  predict::DevicePredictOutput<T> out;
  if (d.cross_values > 0) out.cross = d.cross.data() + slice * d.num_baselines * d.npol;
  if (d.auto_values > 0) out.autos = d.autos.data() + slice * d.setup.num_stations * d.npol;
  d.predictor.run(g, out, d.stream);
}

template <typename T>
void GpuUnit<T>::synchronize() {
  impl_->synchronize();
}

template <typename T>
void GpuUnit<T>::finish_block(std::span<GpuUnit<T>* const> others, const GpuBlockNoise* noise,
                              Complex<T>* cross, Complex<T>* autos) {
  Impl& d = *impl_;
  d.synchronize();
  for (GpuUnit<T>* o : others) {
    Impl& od = *o->impl_;
    od.synchronize();
    if (od.cross_values != d.cross_values || od.auto_values != d.auto_values) {
      throw Error("GPU block reduction: the GPUs' copies of the block differ in size");
    }
  }
  DeviceScope scope(d.device);
  // Sum of the copies (device to device; through the host where there is no peer path).
  for (GpuUnit<T>* o : others) {
    Impl& od = *o->impl_;
    for (auto [mine, theirs, count] :
         {std::tuple{&d.cross, &od.cross, d.cross_values}, {&d.autos, &od.autos, d.auto_values}}) {
      if (count == 0) continue;
      Complex<T>* recv = d.receive.reserve(count);
      FRINGE_CUDA_CHECK(cudaMemcpyPeerAsync(recv, d.device, theirs->data(), od.device,
                                            count * sizeof(Complex<T>), d.stream));
      gpu::add_values<T>(count, mine->data(), recv, d.stream);
    }
  }
  if (noise) {
    if (noise->sigma.size() != std::size_t(d.num_channels) * d.setup.num_stations) {
      throw Error("GPU block noise: " + std::to_string(noise->sigma.size()) +
                  " RMS values; expected channels x stations");
    }
    d.ensure_baseline_pairs();
    gpu::NoiseArgs a{};
    a.seed = noise->seed;
    a.num_times = d.num_times;
    a.num_channels = d.num_channels;
    a.start_time = noise->start_time;
    a.start_channel = noise->start_channel;
    a.num_stations = d.setup.num_stations;
    a.num_baselines = d.num_baselines;
    a.full = d.full;
    a.sigma = d.sigma.upload(noise->sigma.data(), noise->sigma.size(), d.stream);
    a.p_of_b = d.p_of_b.data();
    a.q_of_b = d.q_of_b.data();
    a.channel_bandwidth_hz = noise->channel_bandwidth_hz;
    a.time_average_sec = noise->time_average_sec;
    gpu::add_noise<T>(a, d.cross_values ? d.cross.data() : nullptr,
                      d.auto_values ? d.autos.data() : nullptr, d.stream);
  }
  if (cross) d.cross.download(cross, d.cross_values, d.stream);
  if (autos) d.autos.download(autos, d.auto_values, d.stream);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(d.stream));
}

template class GpuUnit<float>;
template class GpuUnit<double>;

}  // namespace fringe::sim
