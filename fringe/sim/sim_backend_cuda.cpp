// The CUDA back end of the interferometer pipeline (sim_backend.h): one GpuUnit (gpu_unit.h)
// per GPU, one worker each. The horizon clip, fluxes and predict of a unit run on its GPU and
// add into that GPU's copy of the block; the host forms the station-level inputs (station
// UVW, beam plans). Compiled only with the CUDA back end.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fringe/core/device.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/timer.h"
#include "fringe/sim/gpu_unit.h"
#include "fringe/sim/sim_backend.h"

namespace fringe::sim {
namespace {

using Timed = ScopedStage;

// What every GPU unit of a run shares.
GpuSimSetup gpu_setup(const SimulationConfig& config, const SimStations& stations,
                      predict::Polarisation pol) {
  GpuSimSetup setup;
  setup.beam = config.beam;
  setup.num_stations = stations.count;
  setup.pol = pol;
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
  setup.drift_scan = config.observation.mode == astro::ObservationMode::DriftScan;
  setup.centre_lon = stations.centre.lon;
  setup.centre_lat = stations.centre.lat;
  setup.flux_min = config.common_flux_filter.flux_min;
  setup.flux_max = config.common_flux_filter.flux_max;
  setup.write_cross = config.write_cross;
  setup.write_autos = config.write_autos;
  return setup;
}

template <typename T>
class CudaSimBackend final : public SimBackend<T> {
 public:
  // Starts one unit per GPU, set up concurrently (each creates its stream and buffers on its
  // GPU) while the pipeline creates the Measurement Set; finish_setup waits for them.
  CudaSimBackend(const std::vector<int>& gpus, SimInputs<T>& inputs)
      : in_(inputs), units_(gpus.size()), scratch_(gpus.size()) {
    setup_ = gpu_setup(inputs.config, inputs.stations, inputs.pol);
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      setups_.push_back(std::async(std::launch::async, [this, i, id = gpus[i]] {
        units_[i] = std::make_unique<GpuUnit<T>>(id, setup_);
      }));
    }
  }

  int num_workers() const override { return int(units_.size()); }
  void finish_setup() override {
    Timed timed(in_.context.timers, "GPU setup");  // what the MS creation did not hide
    for (auto& f : setups_) f.get();
    setups_.clear();
  }
  void reuse_block(vis::VisBlock<T>&) override {}  // finish_block overwrites it whole
  void begin_block(const vis::VisBlock<T>& block) override {
    for (auto& unit : units_) unit->begin_block(block.num_times(), block.num_channels());
  }
  void run_unit(vis::VisBlock<T>& block, std::size_t t, std::size_t k, int worker) override {
    // The host work of a unit (plans) may use this GPU's share of the cores.
    omp_set_num_threads(std::max(1, cpu_thread_count() / num_workers()));
    const SimChunk& chunk = in_.chunks[k];
    GpuUnit<T>& gpu = *units_[std::size_t(worker)];
    UnitScratch<T>& ws = scratch_[std::size_t(worker)];
    const double gast = in_.gast_of(block, t);
    in_.true_station_uvw(gast, ws);
    std::size_t ns = 0;
    {
      Timed timed(in_.context.timers, "horizon clip");
      ns = gpu.begin_unit({k, &chunk.sky, chunk.a, chunk.b, chunk.c}, gast, ws.u, ws.v, ws.w);
    }
    if (ns == 0) return;
    const bool jones_per_channel =
        jones::depends_on_frequency(in_.config.beam) || in_.stations.tec_screen.has_value();
    const int time_index = block.start_time_index + int(t);
    Timer corr_timer;
    for (int c = 0; c < block.num_channels(); ++c) {
      interrupt::throw_if_requested();
      const double freq = block.frequency_hz(c);
      if (c == 0 || jones_per_channel) {
        Timed timed(in_.context.timers, "jones");
        jones::StationJonesInput jin = in_.jones_input(ws, gast, freq, time_index);
        jin.ra = gpu.kept_ra();
        jin.dec = gpu.kept_dec();
        in_.record_below(gpu.jones(jin));
        if (in_.stations.tec_screen) apply_ionosphere(gpu, ws, gast, freq, time_index);
      }
      corr_timer.resume();
      gpu.predict(in_.predict_input(ws, gast, freq), int(t), c);
      corr_timer.stop();
    }
    corr_timer.resume();
    gpu.synchronize();  // the predict kernels run asynchronously: their time is counted here
    corr_timer.stop();
    if (in_.context.timers) in_.context.timers->add("correlate", corr_timer.seconds());
  }
  // Sums the GPUs' copies of the block on the first GPU, adds the noise there, and copies the
  // result into the host block.
  void finish_block(vis::VisBlock<T>& block, const vis::NoiseTable* noise) override {
    Timed timed(in_.context.timers, "block reduction");
    std::vector<GpuUnit<T>*> others;
    for (std::size_t i = 1; i < units_.size(); ++i) others.push_back(units_[i].get());
    std::optional<GpuBlockNoise> gn;
    if (noise) gn = block_noise(block, *noise);
    units_[0]->finish_block(others, gn ? &*gn : nullptr,
                            block.has_cross() ? block.cross_data().data() : nullptr,
                            block.has_autos() ? block.auto_data().data() : nullptr);
  }

 private:
  // The ionospheric screen Z on the GPU (jones/tec_screen_cuda.h): J -> J Z.
  void apply_ionosphere(GpuUnit<T>& gpu, UnitScratch<T>& ws, double gast, double freq,
                        int time_index) {
    const jones::TecScreen& screen = *in_.stations.tec_screen;
    const astro::ObservationConfig& o = in_.config.observation;
    const int plane = screen.plane_index(time_index, o.start_mjd_utc, o.interval_sec());
    in_.tec_geometry(gast, gpu.kept_ra(), gpu.kept_dec(), ws);
    gpu.tec_screen(ws.tec_plane_view(screen, plane), plane, ws.tec_geometry, freq);
  }

  // The noise of the block: its RMS per channel and station (vis/noise.h).
  GpuBlockNoise block_noise(const vis::VisBlock<T>& block, const vis::NoiseTable& noise) const {
    const SimulationConfig& config = in_.config;
    const std::size_t num_stations = in_.stations.count;
    GpuBlockNoise gn;
    gn.seed = config.noise.seed;
    gn.start_time = block.start_time_index;
    gn.start_channel = block.start_channel_index;
    gn.channel_bandwidth_hz = config.channel_bandwidth_hz;
    gn.time_average_sec = config.time_average_sec;
    noise.validate(num_stations);
    for (int c = 0; c < block.num_channels(); ++c) {
      for (std::size_t p = 0; p < num_stations; ++p) {
        gn.sigma.push_back(noise.sigma(p, block.frequency_hz(c)));
      }
    }
    return gn;
  }

  SimInputs<T>& in_;
  GpuSimSetup setup_;
  std::vector<std::unique_ptr<GpuUnit<T>>> units_;  // one per GPU
  std::vector<UnitScratch<T>> scratch_;             // host arrays, one per GPU
  // Declared last: destroyed first, so a set-up still running finishes before its unit goes.
  std::vector<std::future<void>> setups_;
};

}  // namespace

template <typename T>
std::unique_ptr<SimBackend<T>> make_cuda_sim_backend(const std::vector<int>& gpus,
                                                     SimInputs<T>& inputs) {
  return std::make_unique<CudaSimBackend<T>>(gpus, inputs);
}

template std::unique_ptr<SimBackend<float>> make_cuda_sim_backend(const std::vector<int>&,
                                                                  SimInputs<float>&);
template std::unique_ptr<SimBackend<double>> make_cuda_sim_backend(const std::vector<int>&,
                                                                   SimInputs<double>&);

// Out of GPU memory is never silent: the chunk shrinks to what the smallest GPU holds (with
// half of its free memory as the budget), with a warning. The block's device copies come
// first; a block that does not fit is an error naming the fields that size it.
std::size_t cuda_chunk_sources(const SimulationConfig& config, std::size_t num_stations,
                               const std::vector<int>& gpus, Logger* logger) {
  std::size_t per_chunk = std::max<std::size_t>(1, config.max_sources_per_chunk);
  const bool full = config.pol_mode == PolarisationMode::Full;
  const std::size_t block_values =
      std::size_t(config.times_per_block()) * std::size_t(config.channels_per_block()) *
      (predict::num_baselines(num_stations) + num_stations) * (full ? 4 : 1);
  const std::size_t block_bytes = gpu_block_bytes(block_values, config.precision);
  for (int g : gpus) {
    const std::size_t free = gpu_free_bytes(g);
    if (block_bytes > free / 2) {
      throw Error::in_field(
          "SimulationConfig.max_times_per_block", std::to_string(config.times_per_block()),
          "a block of " + std::to_string(config.times_per_block()) + " times x " +
              std::to_string(config.channels_per_block()) + " channels needs " +
              std::to_string(block_bytes >> 20) + " MiB on GPU " + std::to_string(g) +
              ", more than half of its free " + std::to_string(free >> 20) +
              " MiB: lower it (or SimulationConfig.max_channels_per_block)");
    }
    const std::size_t fit =
        gpu_max_chunk_sources((free - block_bytes) / 2, num_stations, config.precision, full);
    if (fit < per_chunk) {
      log_warning(logger, "SimulationConfig.max_sources_per_chunk = " + std::to_string(per_chunk) +
                              " does not fit in GPU " + std::to_string(g) +
                              "'s free memory: using chunks of " + std::to_string(fit) +
                              " sources");
      per_chunk = fit;
    }
  }
  return per_chunk;
}

}  // namespace fringe::sim
