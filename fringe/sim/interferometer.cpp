#include "fringe/sim/interferometer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
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
#include "fringe/io/vis/vis_file.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/numerical_patterns.h"
#include "fringe/jones/pointing_file.h"
#include "fringe/jones/station_jones.h"
#include "fringe/predict/predict.h"
#include "fringe/sim/block_plan.h"
#include "fringe/sim/corruption_gains.h"
#include "fringe/sim/sim_backend.h"
#include "fringe/sim/station_gain_model.h"
#include "fringe/sim/vis_check.h"
#include "fringe/sky/gaussian.h"
#include "fringe/vis/noise.h"
#include "fringe/vis/vis_block.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::sim {
namespace {

using Timed = ScopedStage;

// Station geometry of the telescope, its aperture-array model and the pointing overrides.
SimStations make_stations(const SimulationConfig& config, const telescope::TelescopeModel& tel) {
  SimStations s;
  s.count = tel.num_stations();
  for (const auto& st : tel.stations) {
    s.true_x.push_back(st.true_offset_ecef.x);
    s.true_y.push_back(st.true_offset_ecef.y);
    s.true_z.push_back(st.true_offset_ecef.z);
    s.meas_x.push_back(st.measured_offset_ecef.x);
    s.meas_y.push_back(st.measured_offset_ecef.y);
    s.meas_z.push_back(st.measured_offset_ecef.z);
    s.true_e.push_back(st.true_enu.x);
    s.true_n.push_back(st.true_enu.y);
    s.true_u.push_back(st.true_enu.z);
    s.meas_e.push_back(st.measured_enu.x);
    s.meas_n.push_back(st.measured_enu.y);
    s.meas_u.push_back(st.measured_enu.z);
    s.cable_x.push_back(st.cable_length_error_x);
    s.cable_y.push_back(st.cable_length_error_y);
    s.has_cable_errors =
        s.has_cable_errors || st.cable_length_error_x != 0.0 || st.cable_length_error_y != 0.0;
  }
  s.sites = jones::station_sites(tel);
  s.centre = tel.centre;
  if (config.beam.station_type == jones::StationType::ApertureArray) {
    s.aperture_array.emplace(tel, config.beam.aperture_array);
  }
  if (!config.pointing_file.empty()) {
    s.pointing = jones::load_pointing_file(config.pointing_file, tel);
  }
  if (config.ionosphere.enable) {
    // docs/ionosphere.md: the screen in both of OSKAR's frames (tracking, drift scan), with
    // Faraday rotation from each station's IGRF field in Full mode.
    s.tec_screen.emplace(config.ionosphere);
    std::vector<astro::Vec3> offsets;
    for (const auto& st : tel.stations) offsets.push_back(st.true_offset_ecef);
    s.tec_stations = jones::tec_stations(
        s.sites, offsets, config.beam.allow_station_beam_duplication,
        config.pol_mode == PolarisationMode::Full, config.observation.start_mjd_utc);
  }
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
  // OSKAR 2.13's ANTENNA names: "s0003 (<station folder>)" ("s0003" with no station folder);
  // with allow_station_beam_duplication, "(copy of <folder>)" for a station whose folder is
  // another station's (OSKAR keeps its station type map only then). For aperture arrays also
  // the first element's feed angles (FEED) and the top-level element layout (PHASED_ARRAY,
  // read by EveryBeam).
  const bool aperture_array = config.beam.station_type == jones::StationType::ApertureArray;
  for (std::size_t i = 0; i < tel.stations.size(); ++i) {
    const int model_index = tel.stations[i].model_index;
    const telescope::StationModel& model = tel.model_of(i);
    char id[32];
    std::snprintf(id, sizeof id, "s%04zu", i);
    m.antenna_names.push_back(
        model.name.empty()
            ? std::string(id)
            : std::string(id) + " (" +
                  (config.beam.allow_station_beam_duplication && model_index != static_cast<int>(i)
                       ? "copy of "
                       : "") +
                  model.name + ")");
    const bool has_elements =
        aperture_array && !model.directory.empty() && model.num_elements() > 0;
    auto first_alpha = [&](telescope::Feed f) {
      const auto& angles = model.feed(f).feed_angle;
      return has_elements && !angles.empty() ? angles[0].alpha : 0.0;
    };
    m.feed_angles_rad.push_back({first_alpha(telescope::Feed::X), first_alpha(telescope::Feed::Y)});
    std::vector<std::array<double, 3>> elements;
    if (has_elements) {
      for (const auto& e : model.feed(telescope::Feed::X).true_enu)
        elements.push_back({e.x, e.y, e.z});
    }
    m.element_enu_m.push_back(std::move(elements));
  }
  m.dish_diameter_m = config.ms_dish_diameter_m;
  m.phase_centre_ra_rad = o.phase_centre_ra;
  m.phase_centre_dec_rad = o.phase_centre_dec;
  if (o.mode == ObservationMode::DriftScan) {
    // OSKAR 2.13 records a drift scan's phase centre as type 1 (azimuth, elevation) =
    // (0, 90 deg), the zenith, in the .vis header and the same two angles in the MS FIELD.
    m.phase_centre_type = 1;
    m.phase_centre_ra_rad = 0.0;
    m.phase_centre_dec_rad = kPi / 2;
  }
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

// The sky cut into chunks of at most per_chunk sources, with their direction cosines about the
// phase centre and their Gaussian coefficients.
std::vector<SimChunk> make_chunks(const sky::SkyModel& sky, const sky::GaussianCoefficients& g,
                                  std::size_t per_chunk, const ObservationConfig& o) {
  std::vector<SimChunk> chunks;
  for (std::size_t first = 0; first < sky.size(); first += per_chunk) {
    SimChunk c;
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
  return chunks;
}

// Computes the data of `block` (its axes already set) on the back end's workers, with system
// noise when `noise` is given. Units are chunk-major, so consecutive units belong to
// different times and rarely wait for each other.
template <typename T>
void compute_block(SimBackend<T>& backend, vis::VisBlock<T>& block, std::size_t num_chunks,
                   ThreadPool& pool, ProgressCounter& progress, const vis::NoiseTable* noise) {
  const std::size_t nt = std::size_t(block.num_times());
  backend.begin_block(block);
  std::mutex error_mutex;
  std::exception_ptr first_error;  // the failure itself, not a waiter's UnitAborted
  try {
    pool.run(nt * num_chunks, [&](std::size_t item, int worker) {
      const std::size_t k = item / nt, t = item % nt;
      try {
        interrupt::throw_if_requested();  // SIGINT/SIGTERM: stop within a unit's time
        backend.run_unit(block, t, k, worker);
        progress.advance();
      } catch (const UnitAborted&) {
        throw;
      } catch (...) {
        {
          std::lock_guard lock(error_mutex);
          if (!first_error) first_error = std::current_exception();
        }
        backend.abort_block();
        throw;
      }
    });
  } catch (...) {
    if (first_error) std::rethrow_exception(first_error);
    throw;
  }
  backend.finish_block(block, noise);
}

// Baseline UVW (uvw_p - uvw_q) of every time of the block from MEASURED positions (drift
// scan: their East, North, Up offsets, the (u, v, w) about the zenith, the same every time).
template <typename T>
void fill_uvw(vis::VisBlock<T>& block, const SimulationConfig& config, const SimStations& st) {
  const ObservationConfig& o = config.observation;
  std::vector<double> u(st.count), v(st.count), w(st.count);
  for (int t = 0; t < block.num_times(); ++t) {
    if (o.mode == ObservationMode::DriftScan) {
      u = st.meas_e;
      v = st.meas_n;
      w = st.meas_u;
    } else {
      const double gast = astro::gast_rad(o.time_centre_mjd(block.start_time_index + t));
      astro::station_uvw(st.meas_x, st.meas_y, st.meas_z, o.phase_centre_ra, o.phase_centre_dec,
                         gast, u, v, w);
    }
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
std::string zero_output_reason(const SimulationConfig& config, const std::vector<SimChunk>& chunks,
                               const SimStations& st, std::size_t beams_below) {
  const ObservationConfig& o = config.observation;
  std::vector<std::string> why;
  if (config.apply_horizon_clip) {
    bool any_above = false;
    const int samples = std::min(o.num_time_steps, 16);
    for (int i = 0; i < samples && !any_above; ++i) {
      const int t = samples > 1 ? int(std::int64_t(i) * (o.num_time_steps - 1) / (samples - 1)) : 0;
      const double gast = astro::gast_rad(o.time_centre_mjd(t));
      for (const SimChunk& c : chunks) {
        if (!jones::above_horizon_indices(st.sites, gast, c.sky.ra, c.sky.dec).empty()) {
          any_above = true;
          break;
        }
      }
    }
    if (!any_above && o.mode == ObservationMode::DriftScan) {
      // A drift scan has no RA/Dec phase centre to blame.
      why.push_back(
          "every source is below the horizon of every station during the drift scan (check "
          "ObservationConfig.start_mjd_utc, the sky positions and the telescope's location)");
    } else if (!any_above) {
      why.push_back(
          "every source is below the horizon of every station during the observation (check "
          "ObservationConfig.start_mjd_utc, ObservationConfig.phase_centre_ra, "
          "ObservationConfig.phase_centre_dec, the sky positions and the telescope's "
          "location)");
    }
  }
  if (beams_below > 0) {
    why.push_back("the beam direction was below the horizon of up to " +
                  std::to_string(beams_below) + " station(s), whose beams were 0 then");
  }
  if (std::isfinite(config.common_flux_filter.flux_min) ||
      std::isfinite(config.common_flux_filter.flux_max)) {
    why.push_back(
        "CommonFluxFilterConfig.flux_min .. CommonFluxFilterConfig.flux_max may remove every "
        "source at the channel frequencies");
  }
  if (config.uv_filter_min > 0 || std::isfinite(config.uv_filter_max)) {
    why.push_back(
        "SimulationConfig.uv_filter_min .. SimulationConfig.uv_filter_max may remove every "
        "baseline");
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

// The outputs of a run: a Measurement Set, an OSKAR .vis file, or both (at least one).
struct RunOutputs {
  std::optional<io::MsWriter> ms;
  std::optional<io::VisFileWriter> vis;
};

// The writer's thread: a block is checked and written (to the MS and/or the .vis file) while
// the next one computes (writes run one after another), then handed back for reuse:
// allocating (and zero-filling) a block of hundreds of MB for every block cost the GPUs
// tenths of a second.
template <typename T>
class BlockWriter {
 public:
  BlockWriter(RunOutputs& writer, const OutputChecks& checks, const RunContext& context,
              const vis::VisMeta& meta, std::size_t num_blocks)
      : writer_(writer), checks_(checks), context_(context), meta_(meta), num_blocks_(num_blocks) {}

  // A block of extent b: the one written last when it has the same shape, else a new one.
  vis::VisBlock<T> next_block(const BlockExtent& b, const vis::VisMeta& meta,
                              std::size_t num_stations, SimBackend<T>& backend) {
    vis::VisBlock<T> block;
    if (spare_ && spare_->num_times() == b.num_times && spare_->num_channels() == b.num_channels) {
      block = std::move(*spare_);
      backend.reuse_block(block);
    } else {
      block = vis::VisBlock<T>(b.num_times, b.num_channels, int(num_stations), meta.pol_mode,
                               meta.write_crosscorrelations, meta.write_autocorrelations);
    }
    spare_.reset();
    block.set_axes(meta, b.start_time, b.start_channel);
    return block;
  }

  // Waits for the previous write (its block becomes the spare), then writes `block` and
  // `model` (MODEL_DATA, when there is one) on the writer's thread.
  void write(vis::VisBlock<T> block, std::optional<vis::VisBlock<T>> model) {
    wait();
    pending_ = std::async(
        std::launch::async, [this, blk = std::move(block), mdl = std::move(model)]() mutable {
          {
            Timed timed(context_.timers, "check");
            scan_.merge(scan_block(blk, "DATA"));
            if (mdl) scan_.merge(scan_block(*mdl, "MODEL_DATA"));
            checks_.after_block(scan_);  // throws before a non-finite block is written
          }
          Timed timed(context_.timers, "write");
          if (writer_.ms) {
            writer_.ms->append_block(blk);
            if (mdl) writer_.ms->append_model_block(*mdl);
          }
          if (writer_.vis) writer_.vis->write_block(blk);
          if (context_.block_sink) {
            Timed sink_timed(context_.timers, "block sink");
            view_.block_index = blocks_written_;
            view_.num_blocks = num_blocks_;
            make_block_view(blk, meta_, view_);
            context_.block_sink(view_);
          }
          ++blocks_written_;
          return std::move(blk);
        });
  }

  // Waits for the last write (rethrowing its error) and frees the blocks.
  void finish() {
    wait();
    spare_.reset();
  }

  // The output scan of the blocks written so far.
  const VisScan& scan() const { return scan_; }

 private:
  void wait() {
    if (!pending_.valid()) return;
    Timed timed(context_.timers, "write wait");  // the writer behind the compute
    spare_ = pending_.get();
  }

  RunOutputs& writer_;
  const OutputChecks& checks_;
  const RunContext& context_;
  const vis::VisMeta& meta_;
  const std::size_t num_blocks_;
  std::size_t blocks_written_ = 0;  // on the writer's thread only
  BlockView view_;                  // reused from block to block unless the sink takes it
  // Declared before pending_, whose destructor waits for a write that still uses it.
  VisScan scan_;
  std::future<vis::VisBlock<T>> pending_;
  std::optional<vis::VisBlock<T>> spare_;
};

// What a run does after its last block: the warning for beams below the horizon, the output
// checks, the true gains, the run log into HISTORY (and the .vis file's run log), and the
// outputs closed and renamed into place.
void finish_run(RunOutputs& writer, const OutputChecks& checks, const VisScan& scan,
                const GainCorruption& corruption, const RunContext& context,
                SimulationResult& result) {
  if (result.stations_with_beam_below_horizon > 0) {
    log_warning(context.logger, "the beam direction was below the horizon of up to " +
                                    std::to_string(result.stations_with_beam_below_horizon) +
                                    " station(s) at some times: their station beams were 0 then");
  }
  checks.at_end(scan);  // all zero: a warning, or an error under --strict
  interrupt::throw_if_requested();
  // The true gains first: a failure there leaves no Measurement Set either (gain corruption
  // needs a Measurement Set: the app layer checks it).
  if (writer.ms) corruption.write_true_gains(writer.ms->path(), context.logger);
  Timed timed(context.timers, "write");
  const std::vector<std::string> log =
      context.run_log ? context.run_log() : std::vector<std::string>();
  if (writer.vis) {
    std::string text;  // OSKAR's run log is one text, a line per message
    for (const std::string& line : log) text += line + "\n";
    if (!text.empty()) writer.vis->write_run_log(text);
    writer.vis->commit();
  }
  if (writer.ms) {
    if (!log.empty()) writer.ms->add_history(log, "FRINGE_LOG");
    writer.ms->finish();
    result.num_rows = writer.ms->num_rows();
  }
}

// The .vis header of a run: OSKAR's header for its metadata, precision and block sizes.
io::VisFileHeader vis_header(const SimulationConfig& config, const vis::VisMeta& meta) {
  return io::vis_header_from_meta(meta, config.precision, int(config.times_per_block()),
                                  int(config.channels_per_block()));
}

template <typename T>
SimulationResult run(const SimulationConfig& config, const std::vector<int>& gpus,
                     const std::vector<SimChunk>& chunks, const SimStations& stations,
                     const vis::VisMeta& meta, const vis::NoiseTable* noise, bool input_non_finite,
                     const RunContext& context, const telescope::GainModel* telescope_gains) {
  SimulationResult result;
  const BlockPlan plan =
      plan_blocks(config.observation.num_time_steps, config.observation.num_channels,
                  config.times_per_block(), config.channels_per_block());
  result.num_blocks = plan.blocks.size();
  result.num_chunks = chunks.size();
  result.gpus = gpus;
  for (const auto& b : plan.blocks)
    result.num_work_units += std::size_t(b.num_times) * chunks.size();

  SimInputs<T> inputs(config, chunks, stations, context);
  // The GPUs set up while the Measurement Set is created: both take a few tenths of a second
  // at start-up.
  const std::unique_ptr<SimBackend<T>> backend = make_sim_backend<T>(gpus, inputs);
  result.num_threads = backend->num_workers();
  ThreadPool pool(result.num_threads);
  std::optional<Timed> create_timer(std::in_place, context.timers, "create MS");
  RunOutputs writer;
  if (!config.ms_path.empty()) {
    writer.ms.emplace(config.ms_path, meta, context.logger);
    result.ms_path = writer.ms->path();
  }
  if (!config.vis_path.empty()) {
    writer.vis.emplace(io::vis_output_target("SimulationConfig.vis_path", config.vis_path),
                       vis_header(config, meta));
    result.vis_path = config.vis_path;
  }
  if (!writer.ms && !writer.vis && !context.block_sink) {
    throw Error::in_field("SimulationConfig.ms_path", "",
                          "expected a Measurement Set or an OSKAR .vis file to write "
                          "(SimulationConfig.vis_path), or a block sink");
  }
  create_timer.reset();
  backend->finish_setup();

  const OutputChecks checks(input_non_finite, context.strict, context.logger, [&] {
    return zero_output_reason(config, chunks, stations, inputs.beams_below_horizon());
  });
  ProgressCounter progress(context.progress, "simulating", result.num_work_units);
  const GainCorruption corruption(config.corruption, meta);  // docs/calibration.md
  const vis::NoiseParams noise_params{config.noise.seed, config.channel_bandwidth_hz,
                                      config.time_average_sec};
  BlockWriter<T> blocks(writer, checks, context, meta, plan.blocks.size());
  if (telescope_gains) {
    const telescope::GainModel& g = *telescope_gains;
    log_info(context.logger, "Station gain model: " + g.path + " (" + std::to_string(g.num_times) +
                                 " times x " + std::to_string(g.num_channels) + " channels x " +
                                 std::to_string(g.num_stations) + " stations" +
                                 (g.y.empty() ? ", X gains for both feeds)" : ")"));
  }
  if (!gpus.empty() && stations.aperture_array) {
    // Stations the GPU back end cannot take: every station's Jones is evaluated on the CPU
    // and uploaded (docs/station_beams.md, docs/simulation.md).
    const std::string note = stations.aperture_array->general_stations_note();
    if (!note.empty()) log_info(context.logger, note);
  }
  for (const auto& b : plan.blocks) {
    interrupt::throw_if_requested();
    vis::VisBlock<T> block = blocks.next_block(b, meta, stations.count, *backend);
    if (telescope_gains) {
      // OSKAR's gain model acts on the station Jones matrices, before the system noise
      // (station_gain_model.h): the back end sums without noise, the gains and then the
      // noise are applied here, the same for the CPU and GPU back ends.
      compute_block(*backend, block, chunks.size(), pool, progress, nullptr);
      apply_station_gain_model(block, *telescope_gains, context.logger);
      if (noise) vis::add_system_noise(block, *noise, noise_params);
    } else {
      compute_block(*backend, block, chunks.size(), pool, progress, noise);
    }
    fill_uvw(block, config, stations);
    auto model = corruption.apply(block, noise, noise_params);  // G (V + N) G^H; model V or nullopt
    blocks.write(std::move(block), std::move(model));
  }
  blocks.finish();
  result.stations_with_beam_below_horizon = inputs.beams_below_horizon();
  finish_run(writer, checks, blocks.scan(), corruption, context, result);
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
        "the sky model is empty: no sources to simulate (check the sky files and their "
        "filters); no Measurement Set was written");
  }
  if (telescope.num_stations() < 2 && config.write_cross && !config.write_autos) {
    throw Error("the telescope model '" + telescope.directory + "' has " +
                std::to_string(telescope.num_stations()) +
                " station(s): cross-correlations need at least 2");
  }
  jones::validate(config.beam);
  jones::check_numerical_patterns(config.beam, telescope);
  const ObservationConfig& o = config.observation;

  // Gaussian shapes on the phase-centre tangent plane (once for the whole sky). A drift scan
  // has no RA/Dec phase centre: OSKAR 2.13 then forms them about RA = Dec = 0 and applies them
  // to the (East, North) baselines as they are; fringe does the same (docs/simulation.md).
  sky::Diagnostics diagnostics;
  diagnostics.logger = context.logger;
  const bool drift = o.mode == ObservationMode::DriftScan;
  const sky::GaussianCoefficients g = sky::evaluate_gaussian_coefficients(
      sky, drift ? 0.0 : o.phase_centre_ra, drift ? 0.0 : o.phase_centre_dec,
      config.zero_failed_gaussians, diagnostics);

  std::vector<int> gpus;
  if (config.devices.use_gpus) {
    Timed timed(context.timers, "GPU discovery");  // CUDA start-up
    gpus =
        choose_gpus(config.devices, std::numeric_limits<int>::max(), "simulator", context.logger);
  }
  const std::size_t per_chunk =
      sim_chunk_sources(config, telescope.num_stations(), gpus, context.logger);
  const std::vector<SimChunk> chunks = make_chunks(sky, g, per_chunk, o);
  const SimStations stations = make_stations(config, telescope);
  const vis::VisMeta meta = make_meta(config, telescope, context);
  std::optional<vis::NoiseTable> noise;
  if (config.noise.enable) noise = noise_table(config.noise, o, telescope);
  return dispatch_precision(config.precision, [&]<typename T>() {
    return run<T>(config, gpus, chunks, stations, meta, noise ? &*noise : nullptr,
                  sky_has_non_finite(sky), context,
                  telescope.gain_model ? &*telescope.gain_model : nullptr);
  });
}

}  // namespace fringe::sim
