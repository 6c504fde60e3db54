// Station beams as arrays and the beam-pattern pipeline (beam.h).
#include "fringe/api/beam.h"

#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "fringe/app/beam_pattern_settings.h"
#include "fringe/astro/direction.h"
#include "fringe/astro/time.h"
#include "fringe/beam_pattern/beam_pattern_products.h"
#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/numerical_patterns.h"
#include "fringe/jones/station_jones.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/jones/aperture_array_cuda.h"
#include "fringe/jones/aperture_array_plans.h"
#endif

namespace fringe::api {
namespace {

// Aperture-array beams on the GPU (as beam_pattern's evaluate_gpu): false when the CPU must
// evaluate them (no GPU chosen, not an aperture array, Az/El directions, beam duplication, a
// station the CUDA back end cannot take).
bool station_beams_gpu([[maybe_unused]] const StationBeamRequest& r,
                       [[maybe_unused]] const jones::StationJonesInput& in,
                       [[maybe_unused]] int gpu, [[maybe_unused]] StationBeams& out) {
#ifdef FRINGE_HAVE_CUDA
  if (gpu < 0 || !in.aperture_array || r.horizon_frame || r.beam.allow_station_beam_duplication)
    return false;
  const std::vector<jones::AaStationPlan> plans = jones::aperture_array_plans(r.beam, in);
  std::size_t below = 0;
  for (const auto& p : plans) {
    if (!p.uniform) return false;
    below += p.beam_off ? 1 : 0;
  }
  if (out.full) {
    out.jones.resize(out.num_stations * out.num_directions);
    jones::aa_station_jones_cuda<double>(plans, in.ra, in.dec, in.parallactic, out.jones, gpu);
  } else {
    out.scalar.resize(out.num_stations * out.num_directions);
    jones::aa_station_scalar_cuda<double>(plans, in.ra, in.dec, out.scalar, gpu);
  }
  out.stations_below_horizon = below;
  out.device = "GPU " + std::to_string(gpu);
  return true;
#else
  return false;
#endif
}

}  // namespace

StationBeams station_beams(const Telescope& telescope, const StationBeamRequest& r,
                           std::span<const double> lon, std::span<const double> lat, Logger* log) {
  if (lon.size() != lat.size())
    throw Error("station_beams: " + std::to_string(lon.size()) +
                " longitudes (RA or azimuth) but " + std::to_string(lat.size()) +
                " latitudes (Dec or elevation)");
  if (!(r.freq_hz > 0) || !std::isfinite(r.freq_hz))
    throw Error("station_beams: frequency " + std::to_string(r.freq_hz) + " Hz: expected > 0");
  if (!std::isfinite(r.time_mjd_utc))
    throw Error("station_beams: the time (MJD UTC) must be finite");
  if (r.horizon_frame && r.parallactic)
    throw Error(
        "station_beams: the parallactic rotation needs RA/Dec directions, not the "
        "horizon frame");
  if (telescope.num_stations() == 0) throw Error("station_beams: the telescope has no stations");
  jones::validate(r.beam);
  jones::check_numerical_patterns(r.beam, telescope);
  StationBeams out;
  out.station_ids = r.station_ids;
  if (out.station_ids.empty())
    for (std::size_t p = 0; p < telescope.num_stations(); ++p) out.station_ids.push_back(p);
  std::vector<astro::Geodetic> sites;
  for (std::size_t id : out.station_ids) {
    if (id >= telescope.num_stations())
      throw Error("station_beams: station " + std::to_string(id) + " but the telescope has " +
                  std::to_string(telescope.num_stations()) + " stations");
    sites.push_back(telescope.stations[id].geodetic);
  }
  std::optional<jones::ApertureArrayModel> aa;
  if (r.beam.station_type == jones::StationType::ApertureArray)
    aa.emplace(telescope, r.beam.aperture_array);
  jones::StationJonesInput in;
  in.stations = sites;
  in.station_ids = out.station_ids;
  in.pointing =
      jones::default_pointing(r.drift_scan, r.phase_centre_ra_rad, r.phase_centre_dec_rad);
  in.gast_rad = astro::gast_rad(r.time_mjd_utc);
  in.freq_hz = r.freq_hz;
  in.ra = lon;
  in.dec = lat;
  in.aperture_array = aa ? &*aa : nullptr;
  in.time_index = r.time_index;
  in.source_frame = r.horizon_frame ? jones::DirectionFrame::AzEl : jones::DirectionFrame::RaDec;
  in.parallactic = r.parallactic;
  out.num_stations = sites.size();
  out.num_directions = lon.size();
  out.full = r.full_polarisation;
  const std::vector<int> gpus = choose_gpus(r.devices, 1, "station beams", log);
  if (station_beams_gpu(r, in, gpus.empty() ? -1 : gpus.front(), out)) return out;
  if (out.full) {
    out.jones.resize(out.num_stations * out.num_directions);
    out.stations_below_horizon =
        jones::evaluate_station_jones_full<double>(r.beam, in, out.jones, log);
  } else {
    out.scalar.resize(out.num_stations * out.num_directions);
    out.stations_below_horizon =
        jones::evaluate_station_jones_scalar<double>(r.beam, in, out.scalar, log);
  }
  return out;
}

void lm_to_radec(double ra0, double dec0, std::span<const double> l, std::span<const double> m,
                 std::span<double> ra, std::span<double> dec) {
  if (l.size() != m.size() || ra.size() != l.size() || dec.size() != l.size())
    throw Error("lm_to_radec: l, m, ra and dec must have the same length");
  for (std::size_t i = 0; i < l.size(); ++i)
    astro::lm_to_radec(l[i], m[i], ra0, dec0, ra[i], dec[i]);
}

BeamPatternConfig beam_pattern_config(const SettingsTree& settings) {
  if (settings.app() != "sim_beam_pattern")
    throw Error("beam_pattern_config: the settings are for " + settings.app() +
                ", not sim_beam_pattern");
  return app::beam_pattern_config(settings.settings());
}

namespace {

std::filesystem::path make_temp_dir() {
  std::string templ = (std::filesystem::temp_directory_path() / "fringe-beam-XXXXXX").string();
  if (!::mkdtemp(templ.data()))
    throw Error("beam pattern: cannot create a temporary folder under " +
                std::filesystem::temp_directory_path().string());
  return templ;
}

}  // namespace

BeamPatternProducts run_beam_pattern(const BeamPatternConfig& config, const Telescope* telescope,
                                     Logger* log) {
  BeamPatternConfig cfg = config;
  std::filesystem::path temp;
  if (cfg.root_path.empty()) {
    temp = make_temp_dir();
    cfg.root_path = (temp / "beam").string();
    cfg.root_path_as_given = cfg.root_path;
  }
  struct RemoveTemp {  // the temporary folder is ours: removed on every way out
    std::filesystem::path dir;
    ~RemoveTemp() {
      std::error_code ec;
      if (!dir.empty()) std::filesystem::remove_all(dir, ec);
    }
  } remove_temp{temp};
  std::optional<Telescope> loaded;
  if (!telescope) {
    if (cfg.telescope_directory.empty())
      throw Error("beam pattern: no telescope: pass a Telescope or set the telescope folder");
    loaded = beam_pattern::load_beam_pattern_telescope(cfg, log);
    telescope = &*loaded;
  }
  const std::vector<std::size_t> ids = beam_pattern::selected_stations(cfg, *telescope);
  const std::vector<beam_pattern::BeamProduct> products = beam_pattern::plan_products(cfg, ids);
  if (products.empty()) throw Error("beam pattern: no output product selected");
  std::vector<std::string> inputs;
  for (const std::string& p : {cfg.telescope_directory, cfg.sky_model_file, cfg.pointing_file})
    if (!p.empty()) inputs.push_back(p);
  check_outputs(app::beam_pattern_outputs(products, cfg.root_path, cfg.keep_log_file), inputs);
  beam_pattern::BeamPatternContext context;
  context.logger = log;
  context.application = "fringe (Python/C++ API)";
  BeamPatternProducts out;
  out.result = beam_pattern::run_beam_pattern(cfg, *telescope, context);
  const std::string root_name = std::filesystem::path(cfg.root_path).filename().string();
  for (const auto& p : products) {
    if (p.format != beam_pattern::ProductFormat::Fits) continue;
    std::string name = std::filesystem::path(p.path).stem().string();
    if (name.rfind(root_name + "_", 0) == 0) name = name.substr(root_name.size() + 1);
    out.names.push_back(name);
    out.images.push_back(read_fits_image(p.path));
  }
  if (!temp.empty()) out.result.files.clear();  // removed with the folder
  return out;
}

}  // namespace fringe::api
