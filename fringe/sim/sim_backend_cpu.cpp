// The CPU back end of the interferometer pipeline (sim_backend.h): per unit, the horizon clip,
// then per channel the Stokes fluxes, station Jones E R and the direct predict into the
// worker's buffer, added into the block in chunk order.
#include <omp.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "fringe/core/interrupt.h"
#include "fringe/core/timer.h"
#include "fringe/jones/jones_math.h"
#include "fringe/jones/tec_screen.h"
#include "fringe/sim/sim_backend.h"

namespace fringe::sim {
namespace {

using Timed = ScopedStage;

// Ordered hand-over of unit results into a block: unit (t, k) adds its buffer into time
// slice t only after chunk k - 1 of the same time has, so the summation order is fixed.
class OrderedCommit {
 public:
  explicit OrderedCommit(std::size_t num_times) : next_(num_times, 0) {}
  template <typename F>
  void commit(std::size_t t, std::size_t k, F&& add) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return aborted_ || next_[t] == k; });
    if (aborted_) throw UnitAborted();
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

template <typename T>
class CpuSimBackend final : public SimBackend<T> {
 public:
  CpuSimBackend(int num_threads, SimInputs<T>& inputs)
      : in_(inputs), config_(inputs.config), st_(inputs.stations), scratch_(num_threads) {}

  int num_workers() const override { return int(scratch_.size()); }
  void reuse_block(vis::VisBlock<T>& block) override { block.clear_data(); }
  void begin_block(const vis::VisBlock<T>& block) override {
    commit_.emplace(std::size_t(block.num_times()));
  }
  void run_unit(vis::VisBlock<T>& block, std::size_t t, std::size_t k, int worker) override {
    omp_set_num_threads(1);  // the parallelism comes from the units
    UnitScratch<T>& ws = scratch_[std::size_t(worker)];
    predict_unit(block, t, k, ws);
    commit_->commit(t, k, [&] { add_unit(block, t, ws); });
  }
  void abort_block() override {
    if (commit_) commit_->abort();
  }
  void finish_block(vis::VisBlock<T>& block, const vis::NoiseTable* noise) override {
    if (!noise) return;
    Timed timed(in_.context.timers, "noise");
    vis::add_system_noise(
        block, *noise,
        {config_.noise.seed, config_.channel_bandwidth_hz, config_.time_average_sec});
  }

 private:
  // The visibilities of unit (t, k) into ws.cross and ws.autos.
  void predict_unit(const vis::VisBlock<T>& block, std::size_t t, std::size_t k,
                    UnitScratch<T>& ws) {
    const SimChunk& chunk = in_.chunks[k];
    const int nc = block.num_channels();
    const double gast = in_.gast_of(block, t);
    ws.cross.assign(config_.write_cross ? std::size_t(nc) * in_.nbl * in_.npol : 0, {T(0), T(0)});
    ws.autos.assign(config_.write_autos ? std::size_t(nc) * st_.count * in_.npol : 0, {T(0), T(0)});

    // Horizon clip (above the horizon of any station).
    {
      Timed timed(in_.context.timers, "horizon clip");
      if (config_.apply_horizon_clip) {
        ws.index = jones::above_horizon_indices(st_.sites, gast, chunk.sky.ra, chunk.sky.dec);
      } else {
        ws.index.resize(chunk.sky.size());
        for (std::size_t i = 0; i < ws.index.size(); ++i) ws.index[i] = i;
      }
      gather(chunk, ws);
      if (in_.drift_scan) in_.drift_directions(gast, ws);  // l, m, n move with the sky
    }
    const std::size_t ns = ws.index.size();
    if (ns == 0) return;

    Timer corr_timer;
    corr_timer.start();
    in_.true_station_uvw(gast, ws);
    corr_timer.stop();

    const bool full = in_.pol == predict::Polarisation::Full;
    const bool jones_per_channel =
        jones::depends_on_frequency(config_.beam) || st_.tec_screen.has_value();
    const int time_index = block.start_time_index + int(t);
    for (int c = 0; c < nc; ++c) {
      interrupt::throw_if_requested();  // a unit of a large sky chunk may take seconds
      const double freq = block.frequency_hz(c);
      if (c == 0 || jones_per_channel) {
        Timed timed(in_.context.timers, "jones");
        evaluate_jones(ws, gast, freq, full, time_index);
      }
      corr_timer.resume();
      fluxes(chunk, freq, ws);
      const predict::PredictInput<T> pin = in_.predict_input(ws, gast, freq);
      predict::PredictOutput<T> out;
      if (config_.write_cross) out.cross = ws.cross.data() + std::size_t(c) * in_.nbl * in_.npol;
      if (config_.write_autos) {
        out.autos = ws.autos.data() + std::size_t(c) * st_.count * in_.npol;
      }
      predict::predict_direct_cpu(pin, out);
      corr_timer.stop();
    }
    if (in_.context.timers) in_.context.timers->add("correlate", corr_timer.seconds());
  }

  // Positions and shapes of the kept sources.
  void gather(const SimChunk& chunk, UnitScratch<T>& ws) const {
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
  void fluxes(const SimChunk& chunk, double freq, UnitScratch<T>& ws) const {
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

  void evaluate_jones(UnitScratch<T>& ws, double gast, double freq, bool full, int time_index) {
    const jones::StationJonesInput jin = in_.jones_input(ws, gast, freq, time_index);
    const std::size_t n = st_.count * ws.index.size();
    std::size_t below = 0;
    if (full) {
      ws.jones.resize(n);
      below = jones::evaluate_station_jones_full<T>(config_.beam, jin, ws.jones, nullptr);
    } else {
      ws.jones_scalar.resize(n);
      below = jones::evaluate_station_jones_scalar<T>(config_.beam, jin, ws.jones_scalar, nullptr);
    }
    if (st_.has_cable_errors) apply_cable_errors(ws, freq, full);
    if (st_.tec_screen) apply_ionosphere(ws, gast, freq, full, time_index);
    in_.record_below(below);
  }

  // The ionospheric screen Z (jones/tec_screen.h): J -> J Z, after the beam (OSKAR's order).
  void apply_ionosphere(UnitScratch<T>& ws, double gast, double freq, bool full,
                        int time_index) const {
    const jones::TecScreen& screen = *st_.tec_screen;
    const astro::ObservationConfig& o = config_.observation;
    const int plane = screen.plane_index(time_index, o.start_mjd_utc, o.interval_sec());
    in_.tec_geometry(gast, ws.ra, ws.dec, ws);
    const jones::TecPoints points = ws.tec_geometry.points();
    const jones::TecPlaneView<T>& view = ws.tec_plane_view(screen, plane);
    if (full) {
      jones::apply_tec_screen<T>(view, points, freq, std::span<Jones<T>>(ws.jones));
    } else {
      jones::apply_tec_screen<T>(view, points, freq, std::span<Complex<T>>(ws.jones_scalar));
    }
  }

  // Station cable length errors: J -> C J with C = diag(exp(i 2 pi dLx / lambda),
  // exp(i 2 pi dLy / lambda)) (docs/conventions.md, "Phase sign and the measurement equation");
  // Scalar mode uses the X term.
  void apply_cable_errors(UnitScratch<T>& ws, double freq, bool full) const {
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
  void add_unit(vis::VisBlock<T>& block, std::size_t t, const UnitScratch<T>& ws) const {
    if (ws.index.empty()) return;
    const int nc = block.num_channels();
    if (config_.write_cross) {
      Complex<T>* dst = &block.cross(int(t), 0, 0, 0);
      const std::size_t n = std::size_t(nc) * in_.nbl * in_.npol;
      for (std::size_t i = 0; i < n; ++i) dst[i] += ws.cross[i];
    }
    if (config_.write_autos) {
      Complex<T>* dst = &block.autos(int(t), 0, 0, 0);
      const std::size_t n = std::size_t(nc) * st_.count * in_.npol;
      for (std::size_t i = 0; i < n; ++i) dst[i] += ws.autos[i];
    }
  }

  SimInputs<T>& in_;
  const SimulationConfig& config_;
  const SimStations& st_;
  std::vector<UnitScratch<T>> scratch_;  // one per worker
  std::optional<OrderedCommit> commit_;  // of the current block
};

}  // namespace

template <typename T>
std::unique_ptr<SimBackend<T>> make_cpu_sim_backend(int num_threads, SimInputs<T>& inputs) {
  return std::make_unique<CpuSimBackend<T>>(std::max(1, num_threads), inputs);
}

template std::unique_ptr<SimBackend<float>> make_cpu_sim_backend(int, SimInputs<float>&);
template std::unique_ptr<SimBackend<double>> make_cpu_sim_backend(int, SimInputs<double>&);

}  // namespace fringe::sim
