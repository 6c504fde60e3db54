#include "fringe/sim/settings_to_config.h"

#include <chrono>
#include <cstdint>
#include <numbers>
#include <string>

#include "fringe/core/error.h"
#include "fringe/sim/corruption_config.h"

namespace fringe::sim {
namespace {

using settings::Settings;
constexpr double kDeg = std::numbers::pi / 180.0;
constexpr double kArcsec = kDeg / 3600.0;

std::uint64_t seed(const Settings& s, const std::string& key) {
  if (s.is_word(key, "time")) {
    return static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  }
  return static_cast<std::uint64_t>(s.get_int(key));
}

std::uint64_t count(const Settings& s, const std::string& key) {
  const int n = s.get_int(key);
  if (n < 0) throw Error::in_setting(key, s.get(key), "expected a count >= 0");
  return static_cast<std::uint64_t>(n);
}

// DoubleRangeExt flux limits: the words min/max map to the range limits, which behave as
// -inf/+inf for the comparisons min < I <= max.
sky::FilterConfig filter(const Settings& s, const std::string& group) {
  sky::FilterConfig f;
  const std::string k = group + "/filter/";
  if (!s.is_word(k + "flux_min", "min")) f.flux_min = s.get_double(k + "flux_min");
  if (!s.is_word(k + "flux_max", "max")) f.flux_max = s.get_double(k + "flux_max");
  f.radius_inner_rad = s.get_double(k + "radius_inner_deg") * kDeg;
  f.radius_outer_rad = s.get_double(k + "radius_outer_deg") * kDeg;
  return f;
}

sky::ExtendedSourceConfig extended(const Settings& s, const std::string& group) {
  const std::string k = group + "/extended_sources/";
  sky::ExtendedSourceConfig e;
  e.fwhm_major_rad = s.get_double(k + "FWHM_major") * kArcsec;
  e.fwhm_minor_rad = s.get_double(k + "FWHM_minor") * kArcsec;
  e.position_angle_rad = s.get_double(k + "position_angle") * kDeg;
  return e;
}

sky::MapUnits map_units(const Settings& s, const std::string& key) {
  const std::string v = s.get_option(key);
  if (v == "Jy/beam") return sky::MapUnits::JyPerBeam;
  if (v == "Jy/pixel") return sky::MapUnits::JyPerPixel;
  if (v == "K") return sky::MapUnits::K;
  if (v == "mK") return sky::MapUnits::mK;
  throw Error::in_setting(key, v, "expected one of Jy/beam, Jy/pixel, K, mK");
}

double first(const Settings& s, const std::string& key) {
  const auto v = s.get_double_list(key);
  if (v.empty()) throw Error::in_setting(key, s.get(key), "expected at least one value");
  return v.front();
}

}  // namespace

std::vector<int> cuda_device_ids(const Settings& s) {
  std::vector<int> ids;
  if (!s.get_bool("simulator/use_gpus") || s.is_word("simulator/cuda_device_ids", "all"))
    return ids;
  for (int id : s.get_int_list("simulator/cuda_device_ids")) {
    if (id < 0) {
      throw Error::in_setting("simulator/cuda_device_ids", s.get("simulator/cuda_device_ids"),
                              "expected CUDA device indices >= 0 or 'all'");
    }
    ids.push_back(id);
  }
  return ids;
}

int int_or_auto(const Settings& s, const std::string& key) {
  if (s.is_word(key, "auto")) return 0;
  const int v = s.get_int(key);
  if (v < 0) throw Error::in_setting(key, s.get(key), "expected an integer >= 0 or 'auto'");
  return v;
}

ObservationConfig observation_config(const Settings& s) {
  ObservationConfig o;
  o.mode = s.get_option("observation/mode") == "Drift scan" ? ObservationMode::DriftScan
                                                            : ObservationMode::Tracking;
  o.phase_centre_ra = first(s, "observation/phase_centre_ra_deg") * kDeg;
  o.phase_centre_dec = first(s, "observation/phase_centre_dec_deg") * kDeg;
  o.start_frequency_hz = s.get_double("observation/start_frequency_hz");
  o.num_channels = s.get_int("observation/num_channels");
  o.frequency_inc_hz = s.get_double("observation/frequency_inc_hz");
  o.start_mjd_utc = s.get_double("observation/start_time_utc");
  o.start_time_text = s.get("observation/start_time_utc");
  o.length_sec = s.get_seconds("observation/length");
  o.num_time_steps = s.get_int("observation/num_time_steps");
  if (o.length_sec <= 0.0) {
    throw Error::in_setting("observation/length", s.get("observation/length"),
                            "expected an observation length > 0");
  }
  return o;
}

sky::SkyGeometry sky_geometry(const ObservationConfig& o) {
  sky::SkyGeometry g;
  g.phase_centre_ra = o.phase_centre_ra;
  g.phase_centre_dec = o.phase_centre_dec;
  g.drift_scan = o.mode == ObservationMode::DriftScan;
  return g;
}

sky::SkyConfig sky_config(const Settings& s) {
  sky::SkyConfig c;
  {
    const std::string g = "sky/oskar_sky_model";
    c.oskar_sky_model.file = s.get_path_list(g + "/file");
    c.oskar_sky_model.filter = filter(s, g);
    c.oskar_sky_model.extended_sources = extended(s, g);
  }
  {
    const std::string g = "sky/fits_image";
    auto& f = c.fits_image;
    f.file = s.get_path_list(g + "/file");
    f.filter = filter(s, g);
    f.default_map_units = map_units(s, g + "/default_map_units");
    f.spectral_index = s.get_double(g + "/spectral_index");
    f.min_peak_fraction = s.get_double(g + "/min_peak_fraction");
    f.min_abs_val = s.get_double(g + "/min_abs_val");
    f.override_map_units = s.get_bool(g + "/override_map_units");
  }
  {
    const std::string g = "sky/healpix_fits";
    auto& h = c.healpix_fits;
    h.file = s.get_path_list(g + "/file");
    h.filter = filter(s, g);
    h.extended_sources = extended(s, g);
    h.default_map_units = map_units(s, g + "/default_map_units");
    h.spectral_index = s.get_double(g + "/spectral_index");
    h.coord_sys = s.get_option(g + "/coord_sys") == "Equatorial" ? sky::CoordSys::Equatorial
                                                                 : sky::CoordSys::Galactic;
    h.min_peak_fraction = s.get_double(g + "/min_peak_fraction");
    h.min_abs_val = s.get_double(g + "/min_abs_val");
    h.override_map_units = s.get_bool(g + "/override_map_units");
    h.freq_hz = s.get_double(g + "/freq_hz");
  }
  {
    const std::string g = "sky/generator/random_power_law";
    auto& r = c.generator.random_power_law;
    r.num_sources = count(s, g + "/num_sources");
    r.flux_min = s.get_double(g + "/flux_min");
    r.flux_max = s.get_double(g + "/flux_max");
    r.seed = seed(s, g + "/seed");
    r.power = s.get_double(g + "/power");
    r.filter = filter(s, g);
    r.extended_sources = extended(s, g);
  }
  {
    const std::string g = "sky/generator/random_broken_power_law";
    auto& r = c.generator.random_broken_power_law;
    r.num_sources = count(s, g + "/num_sources");
    r.flux_min = s.get_double(g + "/flux_min");
    r.flux_max = s.get_double(g + "/flux_max");
    r.seed = seed(s, g + "/seed");
    r.power1 = s.get_double(g + "/power1");
    r.power2 = s.get_double(g + "/power2");
    r.threshold = s.get_double(g + "/threshold");
    r.filter = filter(s, g);
    r.extended_sources = extended(s, g);
  }
  {
    const std::string g = "sky/generator/grid";
    auto& r = c.generator.grid;
    r.side_length = count(s, g + "/side_length");
    r.fov_rad = s.get_double(g + "/fov_deg") * kDeg;
    r.mean_flux_jy = s.get_double(g + "/mean_flux_jy");
    r.std_flux_jy = s.get_double(g + "/std_flux_jy");
    r.seed = seed(s, g + "/seed");
    r.extended_sources = extended(s, g);
  }
  {
    const std::string g = "sky/generator/healpix";
    auto& r = c.generator.healpix;
    r.nside = count(s, g + "/nside");
    r.amplitude = s.get_double(g + "/amplitude");
    r.filter = filter(s, g);
    r.extended_sources = extended(s, g);
  }
  {
    const std::string g = "sky/spectral_index";
    auto& r = c.spectral_index;
    r.override = s.get_bool(g + "/override");
    r.ref_frequency_hz = s.get_double(g + "/ref_frequency_hz");
    r.mean = s.get_double(g + "/mean");
    r.std_dev = s.get_double(g + "/std_dev");
    r.seed = seed(s, g + "/seed");
  }
  {
    const std::string k = "sky/common_flux_filter/";
    if (!s.is_word(k + "flux_min", "min"))
      c.common_flux_filter.flux_min = s.get_double(k + "flux_min");
    if (!s.is_word(k + "flux_max", "max"))
      c.common_flux_filter.flux_max = s.get_double(k + "flux_max");
  }
  c.advanced.zero_failed_gaussians = s.get_bool("sky/advanced/zero_failed_gaussians");
  c.advanced.apply_horizon_clip = s.get_bool("sky/advanced/apply_horizon_clip");
  {
    const std::string k = "sky/output_text_file";
    auto& t = c.output_text_file;
    t.file = s.get_path(k);
    t.use_named_columns = s.get_bool(k + "/use_named_columns");
    t.use_ska_convention = s.get_bool(k + "/use_ska_convention");
    t.use_degrees = s.get_bool(k + "/use_degrees");
    t.write_format_wrapper = s.get_bool(k + "/write_format_wrapper");
    t.write_name = s.get_bool(k + "/write_name");
    t.write_quoted_vectors = s.get_bool(k + "/write_quoted_vectors");
    t.write_type = s.get_bool(k + "/write_type");
  }
  return c;
}

TelescopeConfig telescope_config(const Settings& s) {
  TelescopeConfig t;
  t.input_directory = s.get_path("telescope/input_directory");
  t.station_type = s.get_option("telescope/station_type");
  t.pol_mode = s.get_option("telescope/pol_mode");
  return t;
}

GainCorruptionConfig gain_corruption_config(const Settings& s) {
  const std::string k = "interferometer/gain_corruption/";
  GainCorruptionConfig c;
  if (!s.has(k + "enable")) return c;
  c.enable = s.get_bool(k + "enable");
  if (!c.enable) return c;
  c.seed = seed(s, k + "seed");
  c.amplitude_std = s.get_double(k + "amplitude_std");
  c.phase_std_rad = s.get_double(k + "phase_std_deg") * kDeg;
  const std::string tv = s.get_option(k + "time_variation");
  if (tv == "None") {
    c.time_variation = GainTimeVariation::None;
  } else if (tv == "Random walk") {
    c.time_variation = GainTimeVariation::RandomWalk;
  } else if (tv == "Gauss-Markov") {
    c.time_variation = GainTimeVariation::GaussMarkov;
  } else {
    throw Error::in_setting(k + "time_variation", tv, "expected None, Random walk or Gauss-Markov");
  }
  c.amplitude_time_std = s.get_double(k + "amplitude_time_std");
  c.phase_time_std_rad = s.get_double(k + "phase_time_std_deg") * kDeg;
  c.correlation_time_sec = s.get_double(k + "correlation_time_s");
  if (c.time_variation == GainTimeVariation::GaussMarkov && !(c.correlation_time_sec > 0)) {
    throw Error::in_setting(k + "correlation_time_s", s.get(k + "correlation_time_s"),
                            "expected a correlation time > 0 s for Gauss-Markov gains");
  }
  c.delay_std_sec = s.get_double(k + "delay_std_ns") * 1e-9;
  return c;
}

}  // namespace fringe::sim
