#include "fringe/sim/simulation_config.h"

#include <algorithm>
#include <numbers>
#include <string>

#include "fringe/core/error.h"
#include "fringe/sim/settings_to_config.h"

namespace fringe::sim {
namespace {

using settings::Settings;
constexpr double kDeg = std::numbers::pi / 180.0;

jones::StationType station_type(const Settings& s) {
  const std::string key = "telescope/station_type";
  const std::string v = s.get_option(key);
  if (v == "Aperture array") return jones::StationType::ApertureArray;
  if (v == "Isotropic beam") return jones::StationType::Isotropic;
  if (v == "Gaussian beam") return jones::StationType::Gaussian;
  if (v == "VLA (PBCOR)") return jones::StationType::VlaPbcor;
  throw Error::in_setting(key, v, "expected a station type of the schema");
}

// IntRangeExt with the word "auto": 0 for auto.
int int_or_auto(const Settings& s, const std::string& key) {
  if (s.is_word(key, "auto")) return 0;
  const int v = s.get_int(key);
  if (v < 0) throw Error::in_setting(key, s.get(key), "expected an integer >= 0 or 'auto'");
  return v;
}

}  // namespace

int SimulationConfig::channels_per_block() const {
  const int n = observation.num_channels;
  return max_channels_per_block > 0 ? std::min(max_channels_per_block, n) : std::min(n, 8);
}

int SimulationConfig::times_per_block() const {
  return std::max(1, std::min(max_times_per_block, observation.num_time_steps));
}

jones::StationBeamConfig station_beam_config(const Settings& s) {
  jones::StationBeamConfig b;
  b.station_type = station_type(s);
  b.normalise_at_phase_centre = s.get_bool("telescope/normalise_beams_at_phase_centre");
  const std::string g = "telescope/gaussian_beam/";
  b.gaussian.elliptical = s.get_bool(g + "elliptical");
  b.gaussian.ref_freq_hz = s.get_double(g + "ref_freq_hz");
  b.gaussian.fwhm_rad = s.get_double(g + "fwhm_deg") * kDeg;
  for (const char* feed : {"x", "y"}) {
    jones::GaussianEllipse& e = feed[0] == 'x' ? b.gaussian.x : b.gaussian.y;
    const std::string f = g + feed;
    e.fwhm_major_rad = s.get_double(f + "_fwhm_major_deg") * kDeg;
    e.fwhm_minor_rad = s.get_double(f + "_fwhm_minor_deg") * kDeg;
    e.angle_rad = s.get_double(f + "_angle_deg") * kDeg;
  }
  jones::validate(b);  // errors name the telescope/... key; AA and VLA: "not supported yet"
  return b;
}

SimulationConfig simulation_config(const Settings& s) {
  SimulationConfig c;
  c.precision = s.get_bool("simulator/double_precision") ? Precision::Double : Precision::Single;
  c.use_gpus = s.get_bool("simulator/use_gpus");
  c.num_threads = int_or_auto(s, "simulator/num_devices");
  c.max_sources_per_chunk = static_cast<std::size_t>(s.get_int("simulator/max_sources_per_chunk"));

  c.observation = observation_config(s);
  if (c.observation.mode == ObservationMode::DriftScan) {
    throw Error::in_setting("observation/mode", "Drift scan", "is not supported yet");
  }

  const sky::SkyConfig sky = sky_config(s);
  c.common_flux_filter = sky.common_flux_filter;
  c.apply_horizon_clip = sky.advanced.apply_horizon_clip;
  c.zero_failed_gaussians = sky.advanced.zero_failed_gaussians;

  const TelescopeConfig t = telescope_config(s);
  c.telescope_directory = t.input_directory;
  c.pol_mode = t.pol_mode == "Scalar" ? PolarisationMode::Scalar : PolarisationMode::Full;
  c.beam = station_beam_config(s);

  const std::string i = "interferometer/";
  c.channel_bandwidth_hz = s.get_double(i + "channel_bandwidth_hz");
  c.time_average_sec = s.get_double(i + "time_average_sec");
  {
    const std::string key = i + "max_time_samples_per_block";
    c.max_times_per_block = s.get_int(key);
    if (c.max_times_per_block < 1) {
      throw Error::in_setting(key, s.get(key), "expected at least 1 time sample per block");
    }
  }
  c.max_channels_per_block = int_or_auto(s, i + "max_channels_per_block");
  {
    const std::string v = s.get_option(i + "correlation_type");
    c.write_cross = v != "Auto-correlations";
    c.write_autos = v != "Cross-correlations";
  }
  c.casa_phase_convention = s.get_bool(i + "use_casa_phase_convention");
  if (!s.is_word(i + "uv_filter_min", "min")) c.uv_filter_min = s.get_double(i + "uv_filter_min");
  if (!s.is_word(i + "uv_filter_max", "max")) c.uv_filter_max = s.get_double(i + "uv_filter_max");
  if (c.uv_filter_min > c.uv_filter_max) {
    throw Error::in_setting(
        i + "uv_filter_min", s.get(i + "uv_filter_min"),
        "expected a value <= interferometer/uv_filter_max (" + s.get(i + "uv_filter_max") + ")");
  }
  c.uv_filter_in_wavelengths = s.get_option(i + "uv_filter_units") == "Wavelengths";

  c.noise.enable = s.get_bool(i + "noise/enable");
  if (c.noise.enable) {
    throw Error::in_setting(i + "noise/enable", s.get(i + "noise/enable"),
                            "system noise is not supported yet");
  }

  c.ms_path = s.get(i + "ms_filename").empty() ? std::string() : s.get_path(i + "ms_filename");
  if (c.ms_path.empty()) {
    throw Error::in_setting(i + "ms_filename", "",
                            "expected an output Measurement Set name (the only output "
                            "supported so far)");
  }
  c.force_polarised_ms = s.get_bool(i + "force_polarised_ms");
  if (!s.is_word(i + "ms_dish_diameter", "default")) {
    c.ms_dish_diameter_m = s.get_double(i + "ms_dish_diameter");
  }
  return c;
}

}  // namespace fringe::sim
