#include "fringe/beam_pattern/beam_pattern.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fringe/astro/time.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_plans.h"
#include "fringe/jones/numerical_patterns.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/jones/aperture_array_cuda.h"
#endif
#include "fringe/beam_pattern/beam_pattern_grid.h"
#include "fringe/beam_pattern/beam_pattern_output.h"
#include "fringe/beam_pattern/beam_pattern_products.h"
#include "fringe/jones/pointing_file.h"
#include "fringe/jones/station_jones.h"
#include "fringe/jones/tec_screen.h"
#include "fringe/jones/tec_screen_geometry.h"
#include "fringe/telescope/element_errors.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::beam_pattern {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Sets the OpenMP thread count of the calling thread; restores it on exit.
class OmpThreads {
 public:
  explicit OmpThreads(int n) : previous_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~OmpThreads() { omp_set_num_threads(previous_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int previous_;
};

using Timed = ScopedStage;

// Averaging modes of the power products.
enum Mode { kSeparate = 0, kAverageAll = 1, kAverageAxis = 2, kNumModes = 3 };

Mode mode_of(const BeamProduct& p) {
  if (!p.time_average && !p.channel_average) return kSeparate;
  if (p.time_average && p.channel_average) return kAverageAll;
  return kAverageAxis;
}

// The selected stations and what their beams need besides the config.
struct StationSet {
  std::vector<astro::Geodetic> sites;                       // per selected station
  std::optional<jones::ApertureArrayModel> aperture_array;  // Aperture array stations
  std::optional<jones::PointingOverrides> pointing;         // config.pointing_file
  std::optional<jones::TecScreen> tec_screen;               // config.ionosphere
  jones::TecStations tec_stations;  // the selected stations under the screen
  int gpu = -1;  // CUDA device for aperture-array beams in the Equatorial frame (-1: CPU)
};

// The GPU of a run (beam_pattern.h): the CUDA evaluator takes aperture-array stations and
// RA/Dec directions, so other station types and the Horizon frame run on the CPU (one
// warning when GPUs were asked for); else at most one GPU of config.devices (choose_gpus).
int select_gpu(const BeamPatternConfig& config, Logger* logger) {
  if (!config.devices.use_gpus) return -1;
  if (config.beam.station_type != jones::StationType::ApertureArray ||
      config.frame != BeamFrame::Equatorial) {
    log_warning(logger,
                "DeviceRequest.use_gpus is true but the station beams run on the CPU (the GPU "
                "path needs aperture-array stations and the Equatorial frame)");
    return -1;
  }
  const std::vector<int> gpus = choose_gpus(config.devices, 1, "beam pattern", logger);
  return gpus.empty() ? -1 : gpus.front();
}

// Products grouped by what they are computed from: (source, station slot or -1, test source,
// averaging mode) -> product indices.
using GroupKey = std::tuple<int, int, int, int>;

template <typename T>
class Runner {
 public:
  Runner(const BeamPatternConfig& config, const BeamGrid& grid, const StationSet& stations,
         const std::vector<std::size_t>& ids, const std::vector<BeamProduct>& products,
         std::vector<std::unique_ptr<ProductWriter>>& writers, const BeamPatternContext& context)
      : c_(config),
        grid_(grid),
        stations_(stations),
        sites_(stations.sites),
        ids_(ids),
        products_(products),
        writers_(writers),
        ctx_(context),
        full_(config.pol_mode == PolarisationMode::Full),
        equatorial_(config.frame == BeamFrame::Equatorial),
        // OSKAR zeroes every station type's beam below the horizon but the isotropic one's,
        // which stays 1 (oskar_station_beam.c); the Horizon frame has no such pixel.
        blank_below_horizon_(equatorial_ &&
                             config.beam.station_type != jones::StationType::Isotropic),
        // OSKAR's isotropic beam is the identity at every pixel, even one outside the image
        // circle (no direction): it is set without looking at the directions.
        isotropic_(config.beam.station_type == jones::StationType::Isotropic),
        nst_(ids.size()) {
    pointing_ = jones::default_pointing(config.observation.mode == ObservationMode::DriftScan,
                                        config.observation.phase_centre_ra,
                                        config.observation.phase_centre_dec);
    for (std::size_t i = 0; i < products.size(); ++i) {
      const BeamProduct& p = products[i];
      const int src = int(p.source);
      groups_[{src, p.station_slot, p.test_source, mode_of(p)}].push_back(i);
      if (p.source == ProductSource::Voltage) continue;
      need_[src] = true;
      mode_on_[mode_of(p)] = true;
      if (std::find(test_sources_.begin(), test_sources_.end(), p.test_source) ==
          test_sources_.end()) {
        test_sources_.push_back(p.test_source);
      }
    }
    std::sort(test_sources_.begin(), test_sources_.end());
    for (int ts : {0, 1}) brightness_[ts] = test_source_brightness(config.test_source, ts);
  }

  ~Runner() {
    if (ctx_.timers) ctx_.timers->add("products", products_timer_.seconds());
  }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  std::size_t beams_below_horizon() const { return below_; }
  bool any_nonzero() const { return any_nonzero_; }

  // All times and channels of pixels [first, first + n).
  void run_chunk(std::size_t first, std::size_t n, ProgressCounter& progress) {
    first_ = first;
    n_ = n;
    {
      Timed timed(ctx_.timers, "coordinates");
      vidx_.clear();
      vlon_.clear();
      vlat_.clear();
      valid_.assign(n, 0);
      for (std::size_t i = 0; i < n; ++i) {
        if (!grid_.valid(first + i)) continue;
        valid_[i] = 1;
        vidx_.push_back(i);
        vlon_.push_back(grid_.lon[first + i]);
        vlat_.push_back(grid_.lat[first + i]);
      }
    }
    e_.assign(nst_ * n, isotropic_ ? jones_identity<double>() : jones_zero<double>());
    for (auto& per_mode : acc_) per_mode.clear();
    have_e_ = false;

    const ObservationConfig& o = c_.observation;
    const bool time_inner = c_.average_axis == AverageAxis::Time;
    const int num_outer = time_inner ? o.num_channels : o.num_time_steps;
    const int num_inner = time_inner ? o.num_time_steps : o.num_channels;
    for (int outer = 0; outer < num_outer; ++outer) {
      for (int inner = 0; inner < num_inner; ++inner) {
        const int t = time_inner ? inner : outer;
        const int ch = time_inner ? outer : inner;
        interrupt::throw_if_requested();  // SIGINT/SIGTERM: stop within one evaluation
        evaluate(t, ch);
        compute_products(t, ch);
        progress.advance();
      }
      // The single-axis average of this outer index is complete.
      if (mode_on_[kAverageAxis]) {
        flush(kAverageAxis, time_inner ? 0 : outer, time_inner ? outer : 0, num_inner);
      }
    }
    if (mode_on_[kAverageAll]) flush(kAverageAll, 0, 0, num_outer * num_inner);
  }

 private:
  // Output checks (docs/reliability/sim.md): a non-finite response at a valid pixel fails the
  // run naming the station, pixel, time and channel (the inputs are range-checked, so it
  // is a bug or an absurd telescope model); all-zero responses are reported at the end.
  void check_response(const Jones<double>& j, std::size_t slot, std::size_t pixel, int t, int ch) {
    const double v[] = {j.a.re, j.a.im, j.b.re, j.b.im, j.c.re, j.c.im, j.d.re, j.d.im};
    for (double x : v) {
      if (!std::isfinite(x)) {
        throw Error("the beam of station " + std::to_string(ids_[slot]) + " is not finite (" +
                    std::to_string(x) + ") at pixel " + std::to_string(pixel) + ", time index " +
                    std::to_string(t) + ", channel " + std::to_string(ch) +
                    ": check the telescope model and the beam settings for absurd values; no "
                    "output file was written");
      }
      if (x != 0.0) any_nonzero_ = true;
    }
  }

  // J of every selected station at the chunk's valid pixels -> e_ (double, chunk-indexed).
  void evaluate(int t, int ch) {
    const ObservationConfig& o = c_.observation;
    if (vidx_.empty()) return;
    const bool same_time = have_e_ && t == e_time_;
    if (same_time && !jones::depends_on_frequency(c_.beam) &&
        c_.beam.station_type != jones::StationType::ApertureArray && !stations_.tec_screen) {
      return;  // the beam does not change with frequency: reuse
    }
    Timed timed(ctx_.timers, "station beams");
    const double gast = astro::gast_rad(o.time_centre_mjd(t));
    jones::StationJonesInput in;
    in.stations = sites_;
    in.station_ids = ids_;
    in.pointing = pointing_;
    in.gast_rad = gast;
    in.freq_hz = o.channel_frequency_hz(ch);
    in.ra = vlon_;
    in.dec = vlat_;
    in.time_index = t;
    in.aperture_array = stations_.aperture_array ? &*stations_.aperture_array : nullptr;
    in.pointing_overrides = stations_.pointing ? &*stations_.pointing : nullptr;
    in.source_frame = equatorial_ ? jones::DirectionFrame::RaDec : jones::DirectionFrame::AzEl;
    in.parallactic = false;  // OSKAR's beam patterns: E alone, no parallactic rotation
    const std::size_t nv = vidx_.size();
    std::size_t below = 0;
    const bool on_gpu = evaluate_gpu(in, below);
    if (!on_gpu && full_) {
      jbuf_.resize(nst_ * nv);
      below = jones::evaluate_station_jones_full<T>(c_.beam, in, jbuf_, nullptr);
    } else if (!on_gpu) {
      sbuf_.resize(nst_ * nv);
      below = jones::evaluate_station_jones_scalar<T>(c_.beam, in, sbuf_, nullptr);
    }
    if (stations_.tec_screen) apply_ionosphere(t, gast, in.freq_hz);
    below_ = std::max(below_, below);
    mask_.resize(nv);
    for (std::size_t s = 0; s < nst_; ++s) {
      if (blank_below_horizon_) {
        jones::horizon_mask(std::span<const astro::Geodetic>(&sites_[s], 1), gast, vlon_, vlat_,
                            mask_);
      }
      Jones<double>* e = e_.data() + s * n_;
      for (std::size_t v = 0; v < nv; ++v) {
        Jones<double> j =
            full_ ? jones_cast<double>(jbuf_[s * nv + v])
                  : jones_diagonal<double>(complex_cast<double>(sbuf_[s * nv + v]), {0.0, 0.0});
        if (blank_below_horizon_ && !mask_[v]) j = jones_zero<double>();  // below the horizon
        check_response(j, s, first_ + vidx_[v], t, ch);
        e[vidx_[v]] = j;
      }
    }
    have_e_ = true;
    e_time_ = t;
  }

  // The TEC screen Z at the valid pixels (docs/ionosphere.md, "Beam patterns"): J -> J Z on
  // the host after the beams (from the CPU or the GPU), at OSKAR's plane of time index t.
  void apply_ionosphere(int t, double gast, double freq_hz) {
    const ObservationConfig& o = c_.observation;
    const jones::TecScreen& screen = *stations_.tec_screen;
    const int plane = screen.plane_index(t, o.start_mjd_utc, o.interval_sec());
    if (plane != tec_plane_) {
      tec_view_ = jones::tec_plane_view<T>(screen, plane, tec_values_);
      tec_plane_ = plane;
    }
    jones::TecPointsInput in;
    in.frame = o.mode == ObservationMode::DriftScan ? jones::TecFrame::Horizon
                                                    : jones::TecFrame::PhaseCentre;
    in.gast_rad = gast;
    in.ra0 = o.phase_centre_ra;
    in.dec0 = o.phase_centre_dec;
    in.lon = vlon_;
    in.lat = vlat_;
    in.points_azel = !equatorial_;
    jones::tec_geometry(stations_.tec_stations, in, tec_geometry_);
    const jones::TecPoints points = tec_geometry_.points();
    if (full_) {
      jones::apply_tec_screen<T>(tec_view_, points, freq_hz, std::span<Jones<T>>(jbuf_));
    } else {
      jones::apply_tec_screen<T>(tec_view_, points, freq_hz, std::span<Complex<T>>(sbuf_));
    }
  }

  // Aperture-array beams of uniform stations on the run's GPU (aperture_array_cuda.h); false
  // when the CPU must evaluate them (no GPU, non-uniform stations, beam duplication).
  bool evaluate_gpu([[maybe_unused]] const jones::StationJonesInput& in,
                    [[maybe_unused]] std::size_t& below) {
#ifdef FRINGE_HAVE_CUDA
    if (stations_.gpu < 0 || c_.beam.allow_station_beam_duplication) return false;
    const std::vector<jones::AaStationPlan> plans = jones::aperture_array_plans(c_.beam, in);
    for (const auto& p : plans) {
      if (!p.uniform) return false;
      below += p.beam_off ? 1 : 0;
    }
    if (full_) {
      jbuf_.resize(nst_ * vidx_.size());
      jones::aa_station_jones_cuda<T>(plans, in.ra, in.dec, in.parallactic, jbuf_, stations_.gpu);
    } else {
      sbuf_.resize(nst_ * vidx_.size());
      jones::aa_station_scalar_cuda<T>(plans, in.ra, in.dec, sbuf_, stations_.gpu);
    }
    return true;
#else
    return false;
#endif
  }

  void compute_products(int t, int ch) {
    products_timer_.resume();
    for (std::size_t s = 0; s < nst_ && c_.separate; ++s) {
      write_voltage(s, t, ch);
    }
    const auto n = static_cast<std::ptrdiff_t>(n_);
    for (int ts : test_sources_) {
      const Jones<double> b = brightness_[ts];
      if (need_[int(ProductSource::AutoPower)]) {
        for (std::size_t s = 0; s < nst_; ++s) {
          power_.resize(n_);
          const Jones<double>* e = e_.data() + s * n_;
#pragma omp parallel for schedule(static)
          for (std::ptrdiff_t i = 0; i < n; ++i) {
            const Jones<double>& j = e[i];
            power_[std::size_t(i)] = full_ ? jones_mul_h(j * b, j)
                                           : jones_diagonal<double>({abs2(j.a), 0.0}, {0.0, 0.0});
          }
          emit(int(ProductSource::AutoPower), int(s), ts, t, ch);
        }
      }
      if (need_[int(ProductSource::CrossPower)]) {
        power_.resize(n_);
        const double norm = 2.0 / (double(nst_) * double(nst_ - 1));
        const std::size_t nst = nst_;
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t i = 0; i < n; ++i) {
          // sum_{p<q} J_p B J_q^H = sum_p J_p B R_p^H with R_p = sum_{q>p} J_q.
          Jones<double> r = jones_zero<double>(), x = jones_zero<double>();
          for (std::size_t p = nst; p-- > 0;) {
            const Jones<double>& j = e_[p * n_ + std::size_t(i)];
            if (full_) {
              x += jones_mul_h(j * b, r);
            } else {
              x.a += j.a * conj(r.a);
            }
            r += j;
          }
          power_[std::size_t(i)] = x * norm;
        }
        emit(int(ProductSource::CrossPower), -1, ts, t, ch);
      }
    }
    products_timer_.stop();
  }

  void write_voltage(std::size_t s, int t, int ch) {
    const auto it = groups_.find({int(ProductSource::Voltage), int(s), -1, kSeparate});
    if (it == groups_.end()) return;
    const Jones<double>* e = e_.data() + s * n_;
    for (std::size_t k : it->second) {
      const BeamProduct& p = products_[k];
      fill_values(p, std::span<const Jones<double>>(e, n_), true, 1.0);
      write(k, t, ch);
    }
  }

  // Power data in power_: written (separate) and added into the averages.
  void emit(int src, int slot, int ts, int t, int ch) {
    if (mode_on_[kSeparate]) {
      const auto it = groups_.find({src, slot, ts, kSeparate});
      if (it != groups_.end()) {
        for (std::size_t k : it->second) {
          fill_values(products_[k], power_, false, 1.0);
          write(k, t, ch);
        }
      }
    }
    for (int mode : {kAverageAll, kAverageAxis}) {
      if (!mode_on_[mode] || groups_.find({src, slot, ts, mode}) == groups_.end()) continue;
      std::vector<Jones<double>>& acc = acc_[mode][{src, slot, ts}];
      if (acc.empty()) acc.assign(n_, jones_zero<double>());
      for (std::size_t i = 0; i < n_; ++i) acc[i] += power_[i];
    }
  }

  // Writes the averages of `mode` (count terms) at output (t, ch) and clears them.
  void flush(int mode, int t, int ch, int count) {
    products_timer_.resume();
    for (auto& [key, acc] : acc_[mode]) {
      const auto [src, slot, ts] = key;
      const auto it = groups_.find({src, slot, ts, mode});
      if (it == groups_.end() || acc.empty()) continue;
      for (std::size_t k : it->second) {
        fill_values(products_[k], acc, false, 1.0 / double(count));
        write(k, t, ch);
      }
      std::fill(acc.begin(), acc.end(), jones_zero<double>());
    }
    products_timer_.stop();
  }

  // The values of product p from per-pixel matrices d (voltage: J; power: P or X) x scale.
  void fill_values(const BeamProduct& p, std::span<const Jones<double>> d, bool voltage,
                   double scale) {
    const auto nv = std::size_t(p.num_values(full_));
    values_.resize(n_ * nv);
    for (std::size_t i = 0; i < n_; ++i) {
      double* out = values_.data() + i * nv;
      if (!valid_[i] && !isotropic_) {
        std::fill(out, out + nv, kNaN);
        continue;
      }
      const Jones<double> m = d[i] * scale;
      if (p.value == ProductValue::Complex) {
        const Complex<double> z[4] = {m.a, m.b, m.c, m.d};
        for (std::size_t k = 0; k < nv / 2; ++k) {
          out[2 * k] = z[k].re;
          out[2 * k + 1] = z[k].im;
        }
      } else if (voltage) {
        out[0] = complex_value(jones_element(m, full_ ? p.component : 0), p.value);
      } else {
        out[0] = complex_value(power_stokes(m, p.component, full_), p.value);
      }
    }
  }

  // Writes values_ to product k; the time counts as "write", not "products".
  void write(std::size_t k, int t, int ch) {
    const bool computing = products_timer_.running();
    products_timer_.stop();
    {
      Timed timed(ctx_.timers, "write");
      writers_[k]->write(t, ch, first_, values_);
    }
    if (computing) products_timer_.resume();
  }

  const BeamPatternConfig& c_;
  const BeamGrid& grid_;
  const StationSet& stations_;
  const std::vector<astro::Geodetic>& sites_;
  const std::vector<std::size_t>& ids_;
  const std::vector<BeamProduct>& products_;
  std::vector<std::unique_ptr<ProductWriter>>& writers_;
  const BeamPatternContext& ctx_;
  bool full_, equatorial_, blank_below_horizon_, isotropic_;
  std::size_t nst_;
  jones::BeamPointing pointing_;
  std::map<GroupKey, std::vector<std::size_t>> groups_;
  bool need_[3] = {false, false, false};
  bool mode_on_[kNumModes] = {false, false, false};
  std::vector<int> test_sources_;
  Jones<double> brightness_[2];

  // Chunk state.
  std::size_t first_ = 0, n_ = 0;
  std::vector<std::size_t> vidx_;
  std::vector<double> vlon_, vlat_;
  std::vector<std::uint8_t> valid_, mask_;
  std::vector<Jones<T>> jbuf_;
  std::vector<Complex<T>> sbuf_;
  // The TEC screen plane in use (tec_plane_: its index, -1 none) and the pierce points.
  int tec_plane_ = -1;
  std::vector<T> tec_values_;
  jones::TecPlaneView<T> tec_view_;
  jones::TecGeometry tec_geometry_;
  std::vector<Jones<double>> e_;  // [station slot][pixel of the chunk]
  bool have_e_ = false;
  int e_time_ = -1;
  std::vector<Jones<double>> power_;
  std::map<std::tuple<int, int, int>, std::vector<Jones<double>>> acc_[kNumModes];
  std::vector<double> values_;
  std::size_t below_ = 0;
  bool any_nonzero_ = false;
  Timer products_timer_;  // excludes the writes
};

struct RunTotals {
  std::size_t beams_below_horizon = 0;
  bool any_nonzero = false;
};

template <typename T>
RunTotals run_all(const BeamPatternConfig& config, const BeamGrid& grid, const StationSet& stations,
                  const std::vector<std::size_t>& ids, const std::vector<BeamProduct>& products,
                  std::vector<std::unique_ptr<ProductWriter>>& writers,
                  const BeamPatternContext& context, std::size_t num_chunks) {
  Runner<T> runner(config, grid, stations, ids, products, writers, context);
  const ObservationConfig& o = config.observation;
  ProgressCounter progress(
      context.progress, "beam pattern",
      num_chunks * std::size_t(o.num_time_steps) * std::size_t(o.num_channels));
  const std::size_t chunk = config.max_pixels_per_chunk;
  for (std::size_t first = 0; first < grid.size(); first += chunk) {
    runner.run_chunk(first, std::min(chunk, grid.size() - first), progress);
  }
  return {runner.beams_below_horizon(), runner.any_nonzero()};
}

}  // namespace

std::vector<std::size_t> selected_stations(const BeamPatternConfig& config,
                                           const telescope::TelescopeModel& telescope) {
  const std::size_t n = telescope.num_stations();
  std::vector<std::size_t> ids;
  if (config.all_stations) {
    for (std::size_t s = 0; s < n; ++s) ids.push_back(s);
    if (ids.empty()) {
      throw Error::in_field("BeamPatternConfig.all_stations", "true",
                            "the telescope model '" + telescope.directory + "' has no stations");
    }
    if (config.outputs.any_cross_power() && ids.size() < 2) {
      throw Error::in_field("BeamPatternConfig.all_stations", "true",
                            "cross-power outputs need at least two stations; the telescope "
                            "model '" +
                                telescope.directory + "' has one");
    }
    return ids;
  }
  for (std::size_t id : config.station_ids) {
    if (id >= n) {
      std::string list;
      for (std::size_t i : config.station_ids)
        list += (list.empty() ? "" : ",") + std::to_string(i);
      throw Error::in_field("BeamPatternConfig.station_ids", list,
                            "station " + std::to_string(id) + " is not in the telescope model '" +
                                telescope.directory + "' (" + std::to_string(n) +
                                " stations, indices 0.." + std::to_string(n - 1) + ")");
    }
    ids.push_back(id);
  }
  return ids;
}

telescope::TelescopeModel load_beam_pattern_telescope(const BeamPatternConfig& config,
                                                      Logger* logger) {
  return telescope::load_telescope_model(config.telescope_directory, logger);
}

BeamPatternResult run_beam_pattern(const BeamPatternConfig& config,
                                   const telescope::TelescopeModel& telescope_in,
                                   const BeamPatternContext& context) {
  BeamPatternResult result;
  jones::validate(config.beam);
  // Element error overrides change the model (telescope/element_errors.h): work on a copy.
  std::optional<telescope::TelescopeModel> perturbed;
  if (config.element_errors.any()) {
    perturbed = telescope_in;
    telescope::apply_element_errors(*perturbed, config.element_errors);
  }
  const telescope::TelescopeModel& telescope = perturbed ? *perturbed : telescope_in;
  jones::check_numerical_patterns(config.beam, telescope);
  result.station_ids = selected_stations(config, telescope);
  StationSet stations;
  for (std::size_t id : result.station_ids)
    stations.sites.push_back(telescope.stations[id].geodetic);
  if (config.beam.station_type == jones::StationType::ApertureArray) {
    stations.aperture_array.emplace(telescope, config.beam.aperture_array);
  }
  if (!config.pointing_file.empty()) {
    stations.pointing = jones::load_pointing_file(config.pointing_file, telescope);
  }
  stations.gpu = select_gpu(config, context.logger);
  if (stations.gpu >= 0 && stations.aperture_array) {
    // Stations the GPU back end cannot take: the CPU evaluates the beams (docs/station_beams.md).
    const std::vector<std::size_t> general = stations.aperture_array->general_stations();
    const bool selected = std::any_of(general.begin(), general.end(), [&](std::size_t p) {
      return std::find(result.station_ids.begin(), result.station_ids.end(), p) !=
             result.station_ids.end();
    });
    if (selected) log_info(context.logger, stations.aperture_array->general_stations_note());
  }
  if (config.ionosphere.enable) {
    // OSKAR gives every station station 0's position with allow_station_beam_duplication.
    std::vector<astro::Geodetic> sites;
    std::vector<astro::Vec3> offsets;
    for (std::size_t id : result.station_ids) {
      const std::size_t k = config.beam.allow_station_beam_duplication ? 0 : id;
      sites.push_back(telescope.stations[k].geodetic);
      offsets.push_back(telescope.stations[k].true_offset_ecef);
    }
    stations.tec_screen.emplace(config.ionosphere);
    stations.tec_stations =
        jones::tec_stations(sites, offsets, false, config.pol_mode == PolarisationMode::Full,
                            config.observation.start_mjd_utc);
  }

  BeamGrid grid;
  {
    Timed timed(context.timers, "coordinates");
    const ObservationConfig& o = config.observation;
    grid = config.coordinates == BeamCoordinates::Image
               ? make_image_grid(config.frame, config.image, o.phase_centre_ra, o.phase_centre_dec)
               : read_sky_model_grid(config.sky_model_file, config.frame, context.logger);
  }
  result.num_pixels = grid.size();
  result.num_chunks = (grid.size() + config.max_pixels_per_chunk - 1) / config.max_pixels_per_chunk;
  const int threads = config.devices.num_devices;
  result.num_threads = threads > 0 ? threads : std::max(1, cpu_thread_count());

  const std::vector<BeamProduct> products = plan_products(config, result.station_ids);
  if (products.empty()) throw Error("sim_beam_pattern: no output product is selected");

  OutputContext out;
  out.config = &config;
  out.grid = &grid;
  out.station_ids = result.station_ids;
  out.history = context.settings_lines;
  out.application = context.application;
  out.keep_open = products.size() <= 256;  // else reopen per write (open-file limits)
  std::vector<std::unique_ptr<ProductWriter>> writers;
  {
    Timed timed(context.timers, "write");
    for (const BeamProduct& p : products) writers.push_back(open_product_writer(p, out));
  }

  RunTotals totals;
  {
    OmpThreads threads(result.num_threads);
    totals = config.precision == Precision::Single
                 ? run_all<float>(config, grid, stations, result.station_ids, products, writers,
                                  context, result.num_chunks)
                 : run_all<double>(config, grid, stations, result.station_ids, products, writers,
                                   context, result.num_chunks);
  }
  result.stations_with_beam_below_horizon = totals.beams_below_horizon;
  if (!totals.any_nonzero) {
    // Every beam value is zero: every pixel below every station's horizon at every time, or
    // the beam direction below the horizon (docs/reliability/sim.md).
    const std::string message =
        "every station beam value is zero: " +
        std::string(totals.beams_below_horizon > 0
                        ? "the beam direction was below the horizon of the stations"
                        : "every pixel or position is below the horizon of every station at "
                          "every time") +
        " (check ObservationConfig.start_mjd_utc, ObservationConfig.phase_centre_ra, "
        "ObservationConfig.phase_centre_dec and the telescope's "
        "location)";
    if (context.strict) throw Error(message + " (an error under --strict); no file was written");
    log_warning(context.logger, "****************************************************************");
    log_warning(context.logger, message);
    log_warning(context.logger, "****************************************************************");
  }
  interrupt::throw_if_requested();
  if (result.stations_with_beam_below_horizon > 0) {
    log_warning(context.logger, "the beam direction was below the horizon of up to " +
                                    std::to_string(result.stations_with_beam_below_horizon) +
                                    " station(s) at some times: their beams were 0 then");
  }
  {
    Timed timed(context.timers, "write");
    for (std::size_t k = 0; k < writers.size(); ++k) {
      writers[k]->finish();
      result.files.push_back(products[k].path);
    }
  }
  return result;
}

}  // namespace fringe::beam_pattern
