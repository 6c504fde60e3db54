#include "fringe/sim/interferometer.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fringe/astro/direction.h"
#include "fringe/astro/station_uvw.h"
#include "fringe/astro/time.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/precision.h"
#include "fringe/core/thread_pool.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/jones_math.h"
#include "fringe/jones/pointing_file.h"
#include "fringe/jones/station_jones.h"
#include "fringe/predict/predict.h"
#include "fringe/sim/block_plan.h"
#include "fringe/sim/corruption_gains.h"
#include "fringe/sim/gpu_unit.h"
#include "fringe/sim/vis_check.h"
#include "fringe/sky/gaussian.h"
#include "fringe/sky/spectrum.h"
#include "fringe/vis/noise.h"
#include "fringe/vis/vis_block.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::sim {
namespace {

// A sky chunk with what every work unit needs, computed once.
struct Chunk {
  sky::SkyModel sky;
  std::vector<double> l, m, n;  // direction cosines about the phase centre
  std::vector<double> a, b, c;  // Gaussian coefficients (0 for points)
};

// Station geometry and beam models, computed once.
struct Stations {
  std::size_t count = 0;
  std::vector<double> true_x, true_y, true_z;  // offset ECEF, m (simulation)
  std::vector<double> meas_x, meas_y, meas_z;  // offset ECEF, m (written UVW)
  std::vector<astro::Geodetic> sites;          // each station's own lon/lat/height
  std::vector<double> cable_x, cable_y;        // station cable length errors, m
  bool has_cable_errors = false;
  std::optional<jones::ApertureArrayModel> aperture_array;  // Aperture array stations
  std::optional<jones::PointingOverrides> pointing;         // observation/pointing_file
};

Stations make_stations(const telescope::TelescopeModel& tel) {
  Stations s;
  s.count = tel.num_stations();
  for (const auto& st : tel.stations) {
    s.true_x.push_back(st.true_offset_ecef.x);
    s.true_y.push_back(st.true_offset_ecef.y);
    s.true_z.push_back(st.true_offset_ecef.z);
    s.meas_x.push_back(st.measured_offset_ecef.x);
    s.meas_y.push_back(st.measured_offset_ecef.y);
    s.meas_z.push_back(st.measured_offset_ecef.z);
    s.cable_x.push_back(st.cable_length_error_x);
    s.cable_y.push_back(st.cable_length_error_y);
    s.has_cable_errors =
        s.has_cable_errors || st.cable_length_error_x != 0.0 || st.cable_length_error_y != 0.0;
  }
  s.sites = jones::station_sites(tel);
  return s;
}

vis::VisMeta make_meta(const SimulationConfig& config, const telescope::TelescopeModel& tel,
                       const RunContext& context) {
  const ObservationConfig& o = config.observation;
  vis::VisMeta m;
  m.telescope_name = config.telescope_name;
  for (const auto& st : tel.stations) {
    m.station_names.push_back(st.name);
    m.station_ecef_m.push_back({st.true_ecef.x, st.true_ecef.y, st.true_ecef.z});
  }
  m.array_centre_ecef_m = {tel.centre_ecef.x, tel.centre_ecef.y, tel.centre_ecef.z};
  m.dish_diameter_m = config.ms_dish_diameter_m;
  m.phase_centre_ra_rad = o.phase_centre_ra;
  m.phase_centre_dec_rad = o.phase_centre_dec;
  m.num_channels = o.num_channels;
  m.start_frequency_hz = o.start_frequency_hz;
  m.frequency_inc_hz = o.frequency_inc_hz;
  m.channel_bandwidth_hz = config.channel_bandwidth_hz;
  m.num_times = o.num_time_steps;
  m.start_time_mjd_utc = o.start_mjd_utc;
  m.time_inc_sec = o.interval_sec();
  m.time_average_sec = config.time_average_sec;
  m.pol_mode =
      config.pol_mode == PolarisationMode::Full ? vis::PolMode::Full : vis::PolMode::Scalar;
  m.write_autocorrelations = config.write_autos;
  m.write_crosscorrelations = config.write_cross;
  m.casa_phase_convention = config.casa_phase_convention;
  m.force_polarised = config.force_polarised_ms;
  m.application = context.application;
  m.settings_lines = context.settings_lines;
  return m;
}

// True when a value the simulation uses from the sky model is NaN or Inf (then non-finite
// output is passed on with a warning: docs/reliability/sim.md).
bool sky_has_non_finite(const sky::SkyModel& sky) {
  for (const auto* column : {&sky.ra, &sky.dec, &sky.I, &sky.Q, &sky.U, &sky.V, &sky.ref_freq,
                             &sky.fwhm_major, &sky.fwhm_minor, &sky.position_angle}) {
    for (double v : *column) {
      if (!std::isfinite(v)) return true;
    }
  }
  return false;
}

// Thrown to the units that wait for a unit that failed.
struct Aborted : Error {
  Aborted() : Error("simulation aborted") {}
};

// Ordered hand-over of unit results into a block: unit (t, k) adds its buffer into time
// slice t only after chunk k - 1 of the same time has, so the summation order is fixed.
class OrderedCommit {
 public:
  explicit OrderedCommit(std::size_t num_times) : next_(num_times, 0) {}
  template <typename F>
  void commit(std::size_t t, std::size_t k, F&& add) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return aborted_ || next_[t] == k; });
    if (aborted_) throw Aborted();
    lock.unlock();
    add();  // only this unit may touch slice t now
    lock.lock();
    ++next_[t];
    cv_.notify_all();
  }
  void abort() {
    std::lock_guard lock(mutex_);
    aborted_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::size_t> next_;
  bool aborted_ = false;
};

// Per-thread scratch arrays, reused across units.
template <typename T>
struct Workspace {
  std::vector<double> u, v, w;
  std::vector<std::size_t> index;
  std::vector<double> ra, dec, l, m, n;
  std::vector<T> ga, gb, gc;
  std::vector<T> si, sq, su, sv;
  std::vector<Jones<T>> jones;
  std::vector<Complex<T>> jones_scalar;
  std::vector<Complex<T>> cross, autos;  // [channel][baseline|station][pol] of one time
  // Fluxes of the whole chunk at each channel frequency; they do not depend on time, so the
  // units of one chunk (consecutive on a thread: units are chunk-major) share them.
  const Chunk* flux_chunk = nullptr;
  std::vector<double> flux_freqs;
  std::vector<sky::StokesColumns> flux_cache;
#ifdef FRINGE_HAVE_CUDA
  std::unique_ptr<GpuUnit<T>> gpu;  // this thread's GPU (nullptr: the CPU computes)
#endif
};

using Timed = ScopedStage;

template <typename T>
class Pipeline {
 public:
  Pipeline(const SimulationConfig& config, const std::vector<Chunk>& chunks,
           const Stations& stations, const RunContext& context)
      : config_(config), chunks_(chunks), st_(stations), ctx_(context) {
    pol_ = config.pol_mode == PolarisationMode::Full ? predict::Polarisation::Full
                                                     : predict::Polarisation::Scalar;
    npol_ = predict::num_pols(pol_);
    nbl_ = predict::num_baselines(st_.count);
    pointing_ = jones::default_pointing(false, config.observation.phase_centre_ra,
                                        config.observation.phase_centre_dec);
  }

  // Computes the data of `block` (its axes already set), with system noise when `noise` is
  // given.
  void compute_block(vis::VisBlock<T>& block, ThreadPool& pool, ProgressCounter& progress,
                     std::vector<Workspace<T>>& spaces, const vis::NoiseTable* noise) {
    const std::size_t nt = std::size_t(block.num_times());
    const std::size_t nk = chunks_.size();
    const bool on_gpus = gpu_of(spaces[0]) != nullptr;
#ifdef FRINGE_HAVE_CUDA
    if (on_gpus) {
      for (auto& ws : spaces) ws.gpu->begin_block(block.num_times(), block.num_channels());
    }
#endif
    // CPU: unit (t, k) adds into the block in chunk order (OrderedCommit), so the sums do not
    // depend on the threads. GPU: each GPU adds into its own device copy of the block; the
    // copies are summed at the end (finish_gpu_block).
    OrderedCommit commit(nt);
    // Units chunk-major, so consecutive units belong to different times and rarely wait.
    std::mutex error_mutex;
    std::exception_ptr first_error;  // the failure itself, not a waiter's Aborted
    try {
      pool.run(nt * nk, [&](std::size_t item, int thread) {
        const std::size_t k = item / nt, t = item % nt;
        try {
          interrupt::throw_if_requested();  // SIGINT/SIGTERM: stop within a unit's time
          // CPU: the parallelism comes from the units. GPU: the host work of a unit (plans)
          // may use this GPU's share of the cores.
          Workspace<T>& ws = spaces[std::size_t(thread)];
          omp_set_num_threads(gpu_of(ws) ? std::max(1, cpu_thread_count() / pool.size()) : 1);
          if (on_gpus) {
            run_unit_gpu(block, t, k, ws);
          } else {
            run_unit(block, t, k, ws);
            commit.commit(t, k, [&] { add_unit(block, t, ws); });
          }
          progress.advance();
        } catch (const Aborted&) {
          throw;
        } catch (...) {
          {
            std::lock_guard lock(error_mutex);
            if (!first_error) first_error = std::current_exception();
          }
          commit.abort();
          throw;
        }
      });
    } catch (...) {
      if (first_error) std::rethrow_exception(first_error);
      throw;
    }
    if (on_gpus) {
      finish_gpu_block(block, spaces, noise);
    } else if (noise) {  // after the block's sky visibilities are complete (docs/conventions.md)
      Timed timed(ctx_.timers, "noise");
      vis::add_system_noise(
          block, *noise,
          {config_.noise.seed, config_.channel_bandwidth_hz, config_.time_average_sec});
    }
  }

  std::size_t beams_below_horizon() const { return below_.load(); }

 private:
  void run_unit(const vis::VisBlock<T>& block, std::size_t t, std::size_t k, Workspace<T>& ws) {
    const Chunk& chunk = chunks_[k];
    const int nc = block.num_channels();
    const double gast = gast_of(block, t);
    ws.cross.assign(config_.write_cross ? std::size_t(nc) * nbl_ * npol_ : 0, {T(0), T(0)});
    ws.autos.assign(config_.write_autos ? std::size_t(nc) * st_.count * npol_ : 0, {T(0), T(0)});

    // Horizon clip (above the horizon of any station).
    {
      Timed timed(ctx_.timers, "horizon clip");
      if (config_.apply_horizon_clip) {
        ws.index = jones::above_horizon_indices(st_.sites, gast, chunk.sky.ra, chunk.sky.dec);
      } else {
        ws.index.resize(chunk.sky.size());
        for (std::size_t i = 0; i < ws.index.size(); ++i) ws.index[i] = i;
      }
      gather(chunk, ws);
    }
    const std::size_t ns = ws.index.size();
    if (ns == 0) return;

    Timer corr_timer;
    corr_timer.start();
    true_station_uvw(gast, ws);
    corr_timer.stop();

    const bool full = pol_ == predict::Polarisation::Full;
    const bool jones_per_channel = jones::depends_on_frequency(config_.beam);
    const int time_index = block.start_time_index + int(t);
    for (int c = 0; c < nc; ++c) {
      interrupt::throw_if_requested();  // a unit of a large sky chunk may take seconds
      const double freq = block.frequency_hz(c);
      if (c == 0 || jones_per_channel) {
        Timed timed(ctx_.timers, "jones");
        evaluate_jones(ws, gast, freq, full, time_index);
      }
      corr_timer.resume();
      fluxes(chunk, freq, ws);
      const predict::PredictInput<T> in = predict_input(ws, gast, freq);
      predict::PredictOutput<T> out;
      if (config_.write_cross) out.cross = ws.cross.data() + std::size_t(c) * nbl_ * npol_;
      if (config_.write_autos) out.autos = ws.autos.data() + std::size_t(c) * st_.count * npol_;
      predict::predict_direct_cpu(in, out);
      corr_timer.stop();
    }
    if (ctx_.timers) ctx_.timers->add("correlate", corr_timer.seconds());
  }

  // One unit on this thread's GPU: the horizon clip, fluxes and predict run there and add
  // into the GPU's copy of the block (gpu_unit.h); the host forms station-level inputs.
  void run_unit_gpu([[maybe_unused]] const vis::VisBlock<T>& block, [[maybe_unused]] std::size_t t,
                    [[maybe_unused]] std::size_t k, [[maybe_unused]] Workspace<T>& ws) {
#ifdef FRINGE_HAVE_CUDA
    const Chunk& chunk = chunks_[k];
    GpuUnit<T>& gpu = *ws.gpu;
    const double gast = gast_of(block, t);
    true_station_uvw(gast, ws);
    std::size_t ns = 0;
    {
      Timed timed(ctx_.timers, "horizon clip");
      ns = gpu.begin_unit({k, &chunk.sky, chunk.a, chunk.b, chunk.c}, gast, ws.u, ws.v, ws.w);
    }
    if (ns == 0) return;
    const bool jones_per_channel = jones::depends_on_frequency(config_.beam);
    const int time_index = block.start_time_index + int(t);
    Timer corr_timer;
    for (int c = 0; c < block.num_channels(); ++c) {
      interrupt::throw_if_requested();
      const double freq = block.frequency_hz(c);
      if (c == 0 || jones_per_channel) {
        Timed timed(ctx_.timers, "jones");
        jones::StationJonesInput in = jones_input(ws, gast, freq, time_index);
        in.ra = gpu.kept_ra();
        in.dec = gpu.kept_dec();
        record_below(gpu.jones(in));
      }
      corr_timer.resume();
      gpu.predict(predict_input(ws, gast, freq), int(t), c);
      corr_timer.stop();
    }
    corr_timer.resume();
    gpu.synchronize();  // the predict kernels run asynchronously: their time is counted here
    corr_timer.stop();
    if (ctx_.timers) ctx_.timers->add("correlate", corr_timer.seconds());
#endif
  }

  // Sums the GPUs' copies of the block on the first GPU, adds the noise there, and copies the
  // result into the host block.
  void finish_gpu_block([[maybe_unused]] vis::VisBlock<T>& block,
                        [[maybe_unused]] std::vector<Workspace<T>>& spaces,
                        [[maybe_unused]] const vis::NoiseTable* noise) {
#ifdef FRINGE_HAVE_CUDA
    Timed timed(ctx_.timers, "block reduction");
    std::vector<GpuUnit<T>*> others;
    for (std::size_t i = 1; i < spaces.size(); ++i) others.push_back(spaces[i].gpu.get());
    std::optional<GpuBlockNoise> gn;
    if (noise) {
      gn.emplace();
      gn->seed = config_.noise.seed;
      gn->start_time = block.start_time_index;
      gn->start_channel = block.start_channel_index;
      gn->channel_bandwidth_hz = config_.channel_bandwidth_hz;
      gn->time_average_sec = config_.time_average_sec;
      noise->validate(st_.count);
      for (int c = 0; c < block.num_channels(); ++c) {
        for (std::size_t p = 0; p < st_.count; ++p) {
          gn->sigma.push_back(noise->sigma(p, block.frequency_hz(c)));
        }
      }
    }
    spaces[0].gpu->finish_block(others, gn ? &*gn : nullptr,
                                block.has_cross() ? block.cross_data().data() : nullptr,
                                block.has_autos() ? block.auto_data().data() : nullptr);
#endif
  }

  // GAST (rad) at the centre of time t of the block.
  double gast_of(const vis::VisBlock<T>& block, std::size_t t) const {
    return astro::gast_rad(config_.observation.time_centre_mjd(block.start_time_index + int(t)));
  }

  // The stations' (u, v, w) (m) from their true positions at gast, into ws.u, ws.v, ws.w.
  void true_station_uvw(double gast, Workspace<T>& ws) const {
    const ObservationConfig& o = config_.observation;
    ws.u.resize(st_.count);
    ws.v.resize(st_.count);
    ws.w.resize(st_.count);
    astro::station_uvw(st_.true_x, st_.true_y, st_.true_z, o.phase_centre_ra, o.phase_centre_dec,
                       gast, ws.u, ws.v, ws.w);
  }

  // The predict input of one channel (host arrays of the workspace).
  predict::PredictInput<T> predict_input(const Workspace<T>& ws, double gast, double freq) const {
    const ObservationConfig& o = config_.observation;
    const bool full = pol_ == predict::Polarisation::Full;
    predict::PredictInput<T> in;
    in.polarisation = pol_;
    in.frequency_hz = freq;
    in.channel_bandwidth_hz = config_.channel_bandwidth_hz;
    auto& src = in.sources;
    src.count = ws.index.size();
    src.stokes_i = ws.si.data();
    if (full) {
      src.stokes_q = ws.sq.data();
      src.stokes_u = ws.su.data();
      src.stokes_v = ws.sv.data();
    }
    src.l = ws.l.data();
    src.m = ws.m.data();
    src.n = ws.n.data();
    src.gauss_a = ws.ga.data();
    src.gauss_b = ws.gb.data();
    src.gauss_c = ws.gc.data();
    in.stations.count = st_.count;
    in.stations.u = ws.u.data();
    in.stations.v = ws.v.data();
    in.stations.w = ws.w.data();
    if (full) {
      in.stations.jones = ws.jones.data();
    } else {
      in.stations.jones_scalar = ws.jones_scalar.data();
    }
    if (config_.time_average_sec > 0) {
      in.time_smearing.tau_s = config_.time_average_sec;
      in.time_smearing.gast = gast;
      in.time_smearing.ra0 = o.phase_centre_ra;
      in.time_smearing.dec0 = o.phase_centre_dec;
      in.time_smearing.station_x = st_.true_x.data();
      in.time_smearing.station_y = st_.true_y.data();
    }
    in.uv_filter.min = config_.uv_filter_min;
    in.uv_filter.max = config_.uv_filter_max;
    in.uv_filter.in_wavelengths = config_.uv_filter_in_wavelengths;
    return in;
  }

  static GpuUnit<T>* gpu_of([[maybe_unused]] Workspace<T>& ws) {
#ifdef FRINGE_HAVE_CUDA
    return ws.gpu.get();
#else
    return nullptr;
#endif
  }

  // The largest number of stations seen with their beam below the horizon.
  void record_below(std::size_t below) {
    std::size_t prev = below_.load();
    while (below > prev && !below_.compare_exchange_weak(prev, below)) {
    }
  }

  // Positions and shapes of the kept sources.
  void gather(const Chunk& chunk, Workspace<T>& ws) const {
    const std::size_t ns = ws.index.size();
    for (auto* v : {&ws.ra, &ws.dec, &ws.l, &ws.m, &ws.n}) v->resize(ns);
    for (auto* v : {&ws.ga, &ws.gb, &ws.gc}) v->resize(ns);
    for (std::size_t j = 0; j < ns; ++j) {
      const std::size_t i = ws.index[j];
      ws.ra[j] = chunk.sky.ra[i];
      ws.dec[j] = chunk.sky.dec[i];
      ws.l[j] = chunk.l[i];
      ws.m[j] = chunk.m[i];
      ws.n[j] = chunk.n[i];
      ws.ga[j] = T(chunk.a[i]);
      ws.gb[j] = T(chunk.b[i]);
      ws.gc[j] = T(chunk.c[i]);
    }
  }

  // Stokes of the kept sources at freq; sources outside the common flux filter get 0
  // (OSKAR zeroes their K, which removes them from crosses and autos alike).
  void fluxes(const Chunk& chunk, double freq, Workspace<T>& ws) const {
    if (ws.flux_chunk != &chunk) {
      ws.flux_chunk = &chunk;
      ws.flux_freqs.clear();
      ws.flux_cache.clear();
    }
    const auto it = std::find(ws.flux_freqs.begin(), ws.flux_freqs.end(), freq);
    if (it == ws.flux_freqs.end()) {
      // At most one block's channels are kept: memory stays chunk size x block channels.
      if (ws.flux_freqs.size() >= std::size_t(config_.channels_per_block())) {
        ws.flux_freqs.clear();
        ws.flux_cache.clear();
      }
      ws.flux_freqs.push_back(freq);
      ws.flux_cache.push_back(sky::evaluate_stokes(chunk.sky, freq));
    }
    const sky::StokesColumns& s = ws.flux_cache[std::size_t(
        std::find(ws.flux_freqs.begin(), ws.flux_freqs.end(), freq) - ws.flux_freqs.begin())];
    const std::size_t ns = ws.index.size();
    for (auto* v : {&ws.si, &ws.sq, &ws.su, &ws.sv}) v->resize(ns);
    const auto& f = config_.common_flux_filter;
    for (std::size_t j = 0; j < ns; ++j) {
      const std::size_t i = ws.index[j];
      const bool keep = s.I[i] > f.flux_min && s.I[i] <= f.flux_max;
      ws.si[j] = keep ? T(s.I[i]) : T(0);
      ws.sq[j] = keep ? T(s.Q[i]) : T(0);
      ws.su[j] = keep ? T(s.U[i]) : T(0);
      ws.sv[j] = keep ? T(s.V[i]) : T(0);
    }
  }

  jones::StationJonesInput jones_input(const Workspace<T>& ws, double gast, double freq,
                                       int time_index) const {
    jones::StationJonesInput in;
    in.stations = st_.sites;
    in.pointing = pointing_;
    in.gast_rad = gast;
    in.freq_hz = freq;
    in.ra = ws.ra;
    in.dec = ws.dec;
    in.aperture_array = st_.aperture_array ? &*st_.aperture_array : nullptr;
    in.pointing_overrides = st_.pointing ? &*st_.pointing : nullptr;
    in.time_index = time_index;
    return in;
  }

  void evaluate_jones(Workspace<T>& ws, double gast, double freq, bool full, int time_index) {
    const jones::StationJonesInput in = jones_input(ws, gast, freq, time_index);
    const std::size_t n = st_.count * ws.index.size();
    std::size_t below = 0;
    if (full) {
      ws.jones.resize(n);
      below = jones::evaluate_station_jones_full<T>(config_.beam, in, ws.jones, nullptr);
    } else {
      ws.jones_scalar.resize(n);
      below = jones::evaluate_station_jones_scalar<T>(config_.beam, in, ws.jones_scalar, nullptr);
    }
    if (st_.has_cable_errors) apply_cable_errors(ws, freq, full);
    record_below(below);
  }

  // Station cable length errors: J -> C J with C = diag(exp(i 2 pi dLx / lambda),
  // exp(i 2 pi dLy / lambda)) (docs/conventions.md, "Phase sign and the measurement equation");
  // Scalar mode uses the X term.
  void apply_cable_errors(Workspace<T>& ws, double freq, bool full) const {
    const std::size_t ns = ws.index.size();
    for (std::size_t p = 0; p < st_.count; ++p) {
      const Complex<T> cx = jones::cable_phase<T>(st_.cable_x[p], freq);
      const Complex<T> cy = jones::cable_phase<T>(st_.cable_y[p], freq);
      for (std::size_t s = 0; s < ns; ++s) {
        if (full) {
          Jones<T>& j = ws.jones[p * ns + s];
          j = {cx * j.a, cx * j.b, cy * j.c, cy * j.d};
        } else {
          ws.jones_scalar[p * ns + s] *= cx;
        }
      }
    }
  }

  // block slice t += the unit's buffers.
  void add_unit(vis::VisBlock<T>& block, std::size_t t, const Workspace<T>& ws) const {
    if (ws.index.empty()) return;
    const int nc = block.num_channels();
    if (config_.write_cross) {
      Complex<T>* dst = &block.cross(int(t), 0, 0, 0);
      const std::size_t n = std::size_t(nc) * nbl_ * npol_;
      for (std::size_t i = 0; i < n; ++i) dst[i] += ws.cross[i];
    }
    if (config_.write_autos) {
      Complex<T>* dst = &block.autos(int(t), 0, 0, 0);
      const std::size_t n = std::size_t(nc) * st_.count * npol_;
      for (std::size_t i = 0; i < n; ++i) dst[i] += ws.autos[i];
    }
  }

  const SimulationConfig& config_;
  const std::vector<Chunk>& chunks_;
  const Stations& st_;
  const RunContext& ctx_;
  predict::Polarisation pol_ = predict::Polarisation::Full;
  std::size_t npol_ = 4;
  std::size_t nbl_ = 0;
  jones::BeamPointing pointing_;
  std::atomic<std::size_t> below_{0};
};

// Baseline UVW (uvw_p - uvw_q) of every time of the block from MEASURED positions.
template <typename T>
void fill_uvw(vis::VisBlock<T>& block, const SimulationConfig& config, const Stations& st) {
  const ObservationConfig& o = config.observation;
  std::vector<double> u(st.count), v(st.count), w(st.count);
  for (int t = 0; t < block.num_times(); ++t) {
    const double gast = astro::gast_rad(o.time_centre_mjd(block.start_time_index + t));
    astro::station_uvw(st.meas_x, st.meas_y, st.meas_z, o.phase_centre_ra, o.phase_centre_dec, gast,
                       u, v, w);
    std::size_t b = 0;
    for (std::size_t p = 0; p < st.count; ++p) {
      for (std::size_t q = p + 1; q < st.count; ++q, ++b) {
        block.uvw(t, b) = {u[p] - u[q], v[p] - v[q], w[p] - w[q]};
      }
    }
  }
}

// Why a simulation's DATA may be all zero, for the warning (or the --strict error): the
// horizon (re-tested at up to 16 times across the observation), beams below the horizon,
// and the filters that were set.
std::string zero_output_reason(const SimulationConfig& config, const std::vector<Chunk>& chunks,
                               const Stations& st, std::size_t beams_below) {
  const ObservationConfig& o = config.observation;
  std::vector<std::string> why;
  if (config.apply_horizon_clip) {
    bool any_above = false;
    const int samples = std::min(o.num_time_steps, 16);
    for (int i = 0; i < samples && !any_above; ++i) {
      const int t = samples > 1 ? int(std::int64_t(i) * (o.num_time_steps - 1) / (samples - 1)) : 0;
      const double gast = astro::gast_rad(o.time_centre_mjd(t));
      for (const Chunk& c : chunks) {
        if (!jones::above_horizon_indices(st.sites, gast, c.sky.ra, c.sky.dec).empty()) {
          any_above = true;
          break;
        }
      }
    }
    if (!any_above) {
      why.push_back(
          "every source is below the horizon of every station during the observation (check "
          "observation/start_time_utc, observation/phase_centre_*, the sky positions and the "
          "telescope's location)");
    }
  }
  if (beams_below > 0) {
    why.push_back("the beam direction was below the horizon of up to " +
                  std::to_string(beams_below) + " station(s), whose beams were 0 then");
  }
  if (std::isfinite(config.common_flux_filter.flux_min) ||
      std::isfinite(config.common_flux_filter.flux_max)) {
    why.push_back(
        "sky/common_flux_filter/flux_min .. flux_max may remove every source at the "
        "channel frequencies");
  }
  if (config.uv_filter_min > 0 || std::isfinite(config.uv_filter_max)) {
    why.push_back("interferometer/uv_filter_min .. uv_filter_max may remove every baseline");
  }
  if (why.empty()) {
    why.push_back(
        "the source fluxes are zero at the observed frequencies (check the sky "
        "model's fluxes and spectra) or the station beams are zero towards them");
  }
  std::string text;
  for (const auto& w : why) text += (text.empty() ? "" : "; ") + w;
  return text;
}

template <typename T>
SimulationResult run(const SimulationConfig& config, const std::vector<int>& gpus,
                     const std::vector<Chunk>& chunks, const Stations& stations,
                     const vis::VisMeta& meta, const vis::NoiseTable* noise, bool input_non_finite,
                     const RunContext& context) {
  SimulationResult result;
  const BlockPlan plan =
      plan_blocks(config.observation.num_time_steps, config.observation.num_channels,
                  config.times_per_block(), config.channels_per_block());
  result.num_blocks = plan.blocks.size();
  result.num_chunks = chunks.size();
  result.num_threads = resolve_num_threads(config);
  result.gpus = gpus;
  if (!result.gpus.empty()) result.num_threads = int(result.gpus.size());
  for (const auto& b : plan.blocks)
    result.num_work_units += std::size_t(b.num_times) * chunks.size();

  ThreadPool pool(result.num_threads);
  std::vector<Workspace<T>> spaces(std::size_t(pool.size()));
#ifdef FRINGE_HAVE_CUDA
  // One unit per GPU, set up concurrently (each creates its stream and buffers on its GPU).
  GpuSimSetup setup;
  setup.beam = config.beam;
  setup.num_stations = stations.count;
  setup.pol = meta.pol_mode == vis::PolMode::Full ? predict::Polarisation::Full
                                                  : predict::Polarisation::Scalar;
  if (stations.has_cable_errors) {
    setup.cable_x = stations.cable_x;
    setup.cable_y = stations.cable_y;
  }
  setup.station_x = stations.true_x;
  setup.station_y = stations.true_y;
  setup.sites = stations.sites;
  setup.horizon_clip = config.apply_horizon_clip;
  setup.phase_centre_ra = config.observation.phase_centre_ra;
  setup.phase_centre_dec = config.observation.phase_centre_dec;
  setup.flux_min = config.common_flux_filter.flux_min;
  setup.flux_max = config.common_flux_filter.flux_max;
  setup.write_cross = config.write_cross;
  setup.write_autos = config.write_autos;
  // (The Measurement Set is created below while the GPUs set up: both take a few tenths of a
  // second at start-up.)
  std::vector<std::future<void>> setups;
  for (std::size_t i = 0; i < result.gpus.size(); ++i) {
    setups.push_back(std::async(std::launch::async, [&, i] {
      spaces[i].gpu = std::make_unique<GpuUnit<T>>(result.gpus[i], setup);
    }));
  }
#endif
  std::optional<Timed> create_timer(std::in_place, context.timers, "create MS");
  io::MsWriter writer(config.ms_path, meta, context.logger);
  result.ms_path = writer.path();
  create_timer.reset();
#ifdef FRINGE_HAVE_CUDA
  {
    Timed timed(context.timers, "GPU setup");  // what the MS creation did not hide
    for (auto& f : setups) f.get();
  }
#endif
  Pipeline<T> pipeline(config, chunks, stations, context);
  const OutputChecks checks(input_non_finite, context.strict, context.logger, [&] {
    return zero_output_reason(config, chunks, stations, pipeline.beams_below_horizon());
  });
  ProgressCounter progress(context.progress, "simulating", result.num_work_units);
  const vis::PolMode pol = meta.pol_mode;

  const GainCorruption corruption(config.corruption, meta);  // docs/calibration.md
  // The output scan of the blocks written so far (their writes run one after another);
  // declared before `pending`, whose destructor waits for a write that still uses it.
  VisScan scan;
  // The previous block's write; it hands the block back for reuse: allocating (and
  // zero-filling) a block of hundreds of MB for every block cost the GPUs tenths of a second.
  std::future<vis::VisBlock<T>> pending;
  std::optional<vis::VisBlock<T>> spare;
  for (const auto& b : plan.blocks) {
    interrupt::throw_if_requested();
    vis::VisBlock<T> block;
    if (spare && spare->num_times() == b.num_times && spare->num_channels() == b.num_channels) {
      block = std::move(*spare);
      // GPU: the block is overwritten whole (finish_gpu_block); CPU: units add into it.
      if (result.gpus.empty()) block.clear_data();
    } else {
      block = vis::VisBlock<T>(b.num_times, b.num_channels, int(stations.count), pol,
                               config.write_cross, config.write_autos);
    }
    spare.reset();
    block.set_axes(meta, b.start_time, b.start_channel);
    pipeline.compute_block(block, pool, progress, spaces, noise);
    fill_uvw(block, config, stations);
    auto model = corruption.apply(  // G (V + N) G^H; model V for MODEL_DATA (or nullopt)
        block, noise, {config.noise.seed, config.channel_bandwidth_hz, config.time_average_sec});
    if (pending.valid()) {
      Timed timed(context.timers, "write wait");  // the writer behind the GPUs
      spare = pending.get();
    }
    pending =
        std::async(std::launch::async, [&writer, &context, &scan, &checks, blk = std::move(block),
                                        mdl = std::move(model)]() mutable {
          {
            Timed timed(context.timers, "check");
            scan.merge(scan_block(blk, "DATA"));
            if (mdl) scan.merge(scan_block(*mdl, "MODEL_DATA"));
            checks.after_block(scan);  // throws before a non-finite block is written
          }
          Timed timed(context.timers, "write");
          writer.append_block(blk);
          if (mdl) writer.append_model_block(*mdl);
          return std::move(blk);
        });
  }
  if (pending.valid()) {
    Timed timed(context.timers, "write wait");
    pending.get();
  }
  result.stations_with_beam_below_horizon = pipeline.beams_below_horizon();
  if (result.stations_with_beam_below_horizon > 0) {
    log_warning(context.logger, "the beam direction was below the horizon of up to " +
                                    std::to_string(result.stations_with_beam_below_horizon) +
                                    " station(s) at some times: their station beams were 0 then");
  }
  checks.at_end(scan);  // all zero: a warning, or an error under --strict
  interrupt::throw_if_requested();
  // The true gains first: a failure there leaves no Measurement Set either.
  corruption.write_true_gains(writer.path(), context.logger);
  {
    Timed timed(context.timers, "write");
    if (context.run_log) writer.add_history(context.run_log(), "FRINGE_LOG");
    writer.finish();
  }
  result.num_rows = writer.num_rows();
  return result;
}

}  // namespace

int resolve_num_threads(const SimulationConfig& config) {
  const int n = config.devices.num_devices;
  return n > 0 ? n : std::max(1, cpu_thread_count());
}

SimulationResult simulate_interferometer(const SimulationConfig& config, sky::SkyModel sky,
                                         const telescope::TelescopeModel& telescope_in,
                                         const RunContext& context) {
  // Element error overrides change the model (telescope/element_errors.h): work on a copy.
  std::optional<telescope::TelescopeModel> perturbed;
  if (config.element_errors.any()) {
    perturbed = telescope_in;
    telescope::apply_element_errors(*perturbed, config.element_errors);
  }
  const telescope::TelescopeModel& telescope = perturbed ? *perturbed : telescope_in;
  if (sky.empty()) {
    throw Error(
        "the sky model is empty: no sources to simulate (check sky/... settings, the sky "
        "files and their filters); no Measurement Set was written");
  }
  if (telescope.num_stations() < 2 && config.write_cross && !config.write_autos) {
    throw Error("the telescope model '" + telescope.directory + "' has " +
                std::to_string(telescope.num_stations()) +
                " station(s): cross-correlations need at least 2");
  }
  jones::validate(config.beam);
  check_numerical_patterns(config.beam, telescope);
  const ObservationConfig& o = config.observation;

  // Gaussian shapes on the phase-centre tangent plane (once for the whole sky).
  sky::Diagnostics diagnostics;
  diagnostics.logger = context.logger;
  const sky::GaussianCoefficients g = sky::evaluate_gaussian_coefficients(
      sky, o.phase_centre_ra, o.phase_centre_dec, config.zero_failed_gaussians, diagnostics);

  std::vector<Chunk> chunks;
  std::vector<int> gpus;
  if (config.devices.use_gpus) {
    Timed timed(context.timers, "GPU discovery");  // CUDA start-up
    gpus =
        choose_gpus(config.devices, std::numeric_limits<int>::max(), "simulator", context.logger);
  }
  std::size_t per_chunk = std::max<std::size_t>(1, config.max_sources_per_chunk);
#ifdef FRINGE_HAVE_CUDA
  // Out of GPU memory is never silent: the chunk shrinks to what the smallest GPU holds (with
  // half of its free memory as the budget), with a warning.
  // The block's device copies come first; a block that does not fit is an error naming the
  // settings that size it.
  const std::size_t block_values =
      std::size_t(config.times_per_block()) * std::size_t(config.channels_per_block()) *
      (predict::num_baselines(telescope.num_stations()) + telescope.num_stations()) *
      (config.pol_mode == PolarisationMode::Full ? 4 : 1);
  const std::size_t block_bytes =
      gpu_block_bytes(block_values, config.precision == Precision::Double);
  for (int g : gpus) {
    const std::size_t free = gpu_free_bytes(g);
    if (block_bytes > free / 2) {
      throw Error::in_setting(
          "interferometer/max_time_samples_per_block", std::to_string(config.times_per_block()),
          "a block of " + std::to_string(config.times_per_block()) + " times x " +
              std::to_string(config.channels_per_block()) + " channels needs " +
              std::to_string(block_bytes >> 20) + " MiB on GPU " + std::to_string(g) +
              ", more than half of its free " + std::to_string(free >> 20) +
              " MiB: lower it (or interferometer/max_channels_per_block)");
    }
    const std::size_t fit = gpu_max_chunk_sources(
        (free - block_bytes) / 2, telescope.num_stations(), config.precision == Precision::Double,
        config.pol_mode == PolarisationMode::Full);
    if (fit < per_chunk) {
      log_warning(context.logger, "simulator/max_sources_per_chunk = " + std::to_string(per_chunk) +
                                      " does not fit in GPU " + std::to_string(g) +
                                      "'s free memory: using chunks of " + std::to_string(fit) +
                                      " sources");
      per_chunk = fit;
    }
  }
#endif
  for (std::size_t first = 0; first < sky.size(); first += per_chunk) {
    Chunk c;
    c.sky = sky.slice(first, per_chunk);
    const std::size_t n = c.sky.size();
    c.l.resize(n);
    c.m.resize(n);
    c.n.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      astro::radec_to_lmn(c.sky.ra[i], c.sky.dec[i], o.phase_centre_ra, o.phase_centre_dec, c.l[i],
                          c.m[i], c.n[i]);
    }
    c.a.assign(g.a.begin() + long(first), g.a.begin() + long(first + n));
    c.b.assign(g.b.begin() + long(first), g.b.begin() + long(first + n));
    c.c.assign(g.c.begin() + long(first), g.c.begin() + long(first + n));
    chunks.push_back(std::move(c));
  }

  Stations stations = make_stations(telescope);
  if (config.beam.station_type == jones::StationType::ApertureArray) {
    stations.aperture_array.emplace(telescope, config.beam.aperture_array);
  }
  if (!config.pointing_file.empty()) {
    stations.pointing = jones::load_pointing_file(config.pointing_file, telescope);
  }
  const vis::VisMeta meta = make_meta(config, telescope, context);
  std::optional<vis::NoiseTable> noise;
  if (config.noise.enable) noise = noise_table(config.noise, o, telescope);
  return dispatch_precision(config.precision, [&]<typename T>() {
    return run<T>(config, gpus, chunks, stations, meta, noise ? &*noise : nullptr,
                  sky_has_non_finite(sky), context);
  });
}

}  // namespace fringe::sim
