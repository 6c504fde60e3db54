#include "fringe/app/settings_to_config.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "fringe/app/field_keys.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/telescope/element_errors.h"

namespace fringe::app {
namespace {

using astro::ObservationConfig;
using astro::ObservationMode;
using settings::Settings;
using sim::GainCorruptionConfig;
using sim::GainTimeVariation;
constexpr double kArcsec = kDegToRad / 3600.0;

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
  f.radius_inner_rad = s.get_double(k + "radius_inner_deg") * kDegToRad;
  f.radius_outer_rad = s.get_double(k + "radius_outer_deg") * kDegToRad;
  return f;
}

sky::ExtendedSourceConfig extended(const Settings& s, const std::string& group) {
  const std::string k = group + "/extended_sources/";
  sky::ExtendedSourceConfig e;
  e.fwhm_major_rad = s.get_double(k + "FWHM_major") * kArcsec;
  e.fwhm_minor_rad = s.get_double(k + "FWHM_minor") * kArcsec;
  e.position_angle_rad = s.get_double(k + "position_angle") * kDegToRad;
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

// "1e+300" for a message: the value as a number when the text is a word or a list.
std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Range checks of the settings -> config translation (docs/reliability/sim.md): a finite
// value in [lo, hi], else fringe::Error naming the key, the value and the range.
double in_range(const Settings& s, const std::string& key, double v, double lo, double hi,
                const std::string& what) {
  if (!(std::isfinite(v) && v >= lo && v <= hi)) {
    throw Error::in_setting(
        key, s.get(key),
        "expected " + what + " in [" + number(lo) + ", " + number(hi) + "], got " + number(v));
  }
  return v;
}

// Limits (docs/reliability/sim.md). Frequencies: 1 kHz .. 1 THz covers every radio telescope
// (the beams, smearing and noise formulas hold there; outside it values such as 1e-300 Hz
// or 1e300 Hz only produce Inf/NaN). Dates: 1900-01-01 .. 2200-01-01 (MJD 15020 .. 124593),
// where UTC, its leap seconds and the sidereal-time model (IAU 1982 GMST) are meaningful.
// Observation length: at most 100 years of seconds.
constexpr double kMinFrequencyHz = 1e3, kMaxFrequencyHz = 1e12;
constexpr double kMinMjd = 15020.0, kMaxMjd = 124593.0;
constexpr double kMaxLengthSec = 100 * 365.25 * kSecondsPerDay;
// Gain corruption: the log-amplitude standard deviation is at most 2 (a 4-sigma gain of
// e^8 = 3000 is already absurd; 1000 made exp() overflow to Inf), its per-step change at most
// 1; phases and delays need only be finite.
constexpr double kMaxLogAmplitudeStd = 2.0, kMaxLogAmplitudeStepStd = 1.0;

jones::StationType station_type(const Settings& s) {
  const std::string key = "telescope/station_type";
  const std::string v = s.get_option(key);
  if (v == "Aperture array") return jones::StationType::ApertureArray;
  if (v == "Isotropic beam") return jones::StationType::Isotropic;
  if (v == "Gaussian beam") return jones::StationType::Gaussian;
  if (v == "VLA (PBCOR)") return jones::StationType::VlaPbcor;
  throw Error::in_setting(key, v, "expected a station type of the schema");
}

}  // namespace

double double_in_range(const Settings& s, const std::string& key, double lo, double hi,
                       const std::string& what) {
  return in_range(s, key, s.get_double(key), lo, hi, what);
}

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
  const std::string k = "observation/";
  o.phase_centre_ra = in_range(s, k + "phase_centre_ra_deg", first(s, k + "phase_centre_ra_deg"),
                               -360.0, 360.0, "a right ascension in degrees") *
                      kDegToRad;
  o.phase_centre_dec = in_range(s, k + "phase_centre_dec_deg", first(s, k + "phase_centre_dec_deg"),
                                -90.0, 90.0, "a declination in degrees") *
                       kDegToRad;
  o.start_frequency_hz =
      in_range(s, k + "start_frequency_hz", s.get_double(k + "start_frequency_hz"), kMinFrequencyHz,
               kMaxFrequencyHz, "a frequency in Hz");
  o.num_channels = s.get_int(k + "num_channels");
  o.frequency_inc_hz = in_range(s, k + "frequency_inc_hz", s.get_double(k + "frequency_inc_hz"),
                                0.0, kMaxFrequencyHz, "a channel spacing in Hz");
  const double last = o.channel_frequency_hz(o.num_channels - 1);
  if (!(last <= kMaxFrequencyHz)) {
    throw Error::in_setting(k + "frequency_inc_hz", s.get(k + "frequency_inc_hz"),
                            "the last channel (" + std::to_string(o.num_channels) +
                                " channels) is at " + number(last) + " Hz, above the limit of " +
                                number(kMaxFrequencyHz) + " Hz");
  }
  o.start_mjd_utc = in_range(s, k + "start_time_utc", s.get_double(k + "start_time_utc"), kMinMjd,
                             kMaxMjd, "a start date from 1900-01-01 to 2200-01-01, as MJD");
  o.start_time_text = s.get(k + "start_time_utc");
  o.length_sec = s.get_seconds(k + "length");
  o.num_time_steps = s.get_int(k + "num_time_steps");
  if (!(o.length_sec > 0.0 && o.length_sec <= kMaxLengthSec)) {
    throw Error::in_setting(k + "length", s.get(k + "length"),
                            "expected an observation length > 0 s and <= 100 years, got " +
                                number(o.length_sec) + " s");
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
    r.fov_rad = s.get_double(g + "/fov_deg") * kDegToRad;
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
  c.amplitude_std = in_range(s, k + "amplitude_std", s.get_double(k + "amplitude_std"), 0.0,
                             kMaxLogAmplitudeStd, "a log-amplitude standard deviation");
  constexpr double kHuge = 1e30;  // "finite": phases wrap, so any finite size is meaningful
  c.phase_std_rad = in_range(s, k + "phase_std_deg", s.get_double(k + "phase_std_deg"), 0.0, kHuge,
                             "a phase standard deviation in degrees") *
                    kDegToRad;
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
  c.amplitude_time_std =
      in_range(s, k + "amplitude_time_std", s.get_double(k + "amplitude_time_std"), 0.0,
               kMaxLogAmplitudeStepStd, "a log-amplitude standard deviation per step");
  c.phase_time_std_rad =
      in_range(s, k + "phase_time_std_deg", s.get_double(k + "phase_time_std_deg"), 0.0, kHuge,
               "a phase standard deviation in degrees") *
      kDegToRad;
  c.correlation_time_sec = s.get_double(k + "correlation_time_s");
  if (c.time_variation == GainTimeVariation::GaussMarkov && !(c.correlation_time_sec > 0)) {
    throw Error::in_setting(k + "correlation_time_s", s.get(k + "correlation_time_s"),
                            "expected a correlation time > 0 s for Gauss-Markov gains");
  }
  c.delay_std_sec = in_range(s, k + "delay_std_ns", s.get_double(k + "delay_std_ns"), 0.0, 1e9,
                             "a delay standard deviation in ns") *
                    1e-9;
  return c;
}

std::uint64_t positive_seed(const Settings& s, const std::string& key) {
  if (s.is_word(key, "time")) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return std::max<std::uint64_t>(
        1, std::uint64_t(std::chrono::duration_cast<std::chrono::seconds>(now).count()));
  }
  const int v = s.get_int(key);
  if (v < 1) throw Error::in_setting(key, s.get(key), "expected a seed of at least 1 or 'time'");
  return std::uint64_t(v);
}

jones::StationBeamConfig station_beam_config(const Settings& s) {
  jones::StationBeamConfig b;
  b.station_type = station_type(s);
  b.normalise_at_phase_centre = s.get_bool("telescope/normalise_beams_at_phase_centre");
  const std::string g = "telescope/gaussian_beam/";
  b.gaussian.elliptical = s.get_bool(g + "elliptical");
  b.gaussian.ref_freq_hz = s.get_double(g + "ref_freq_hz");
  b.gaussian.fwhm_rad = s.get_double(g + "fwhm_deg") * kDegToRad;
  for (const char* feed : {"x", "y"}) {
    jones::GaussianEllipse& e = feed[0] == 'x' ? b.gaussian.x : b.gaussian.y;
    const std::string f = g + feed;
    e.fwhm_major_rad = s.get_double(f + "_fwhm_major_deg") * kDegToRad;
    e.fwhm_minor_rad = s.get_double(f + "_fwhm_minor_deg") * kDegToRad;
    e.angle_rad = s.get_double(f + "_angle_deg") * kDegToRad;
  }
  b.allow_station_beam_duplication = s.get_bool("telescope/allow_station_beam_duplication");
  const std::string a = "telescope/aperture_array/";
  auto& ap = b.aperture_array.array_pattern;
  ap.enable = s.get_bool(a + "array_pattern/enable");
  ap.normalise = s.get_bool(a + "array_pattern/normalise");
  ap.time_variable_seed = positive_seed(s, a + "array_pattern/element/seed_time_variable_errors");
  auto& ep = b.aperture_array.element_pattern;
  const std::string e = a + "element_pattern/";
  ep.enable_numerical = s.get_bool(e + "enable_numerical");
  if (!s.is_word(e + "max_order", "all")) ep.max_order = s.get_int(e + "max_order");
  ep.functional_type = s.get_option(e + "functional_type") == "Dipole"
                           ? jones::ElementFunctionalType::Dipole
                           : jones::ElementFunctionalType::Isotropic;
  ep.dipole_length = s.get_double(e + "dipole_length");
  ep.dipole_length_in_wavelengths = s.get_option(e + "dipole_length_units") == "Wavelengths";
  const std::string taper = s.get_option(e + "taper/type");
  ep.taper = taper == "Cosine"     ? jones::ElementTaper::Cosine
             : taper == "Gaussian" ? jones::ElementTaper::Gaussian
                                   : jones::ElementTaper::None;
  ep.taper_cosine_power = s.get_double(e + "taper/cosine_power");
  ep.taper_gaussian_fwhm_rad = s.get_double(e + "taper/gaussian_fwhm_deg") * kDegToRad;
  ep.normalise = s.get_bool(e + "normalise");
  ep.swap_xy = s.get_bool(e + "swap_xy");
  try {
    jones::validate(b);
  } catch (const Error& e) {
    throw with_keys(e, station_beam_field_keys());  // the library names fields
  }
  return b;
}

// Element errors (OSKAR's array_pattern/element keys). Limits (docs/reliability/sim.md): a
// gain factor of 1e3 or a standard deviation of 1e3 is already far outside any real array;
// beyond, products overflow to Inf. Phases and orientations: 1e5 deg; lengths: 1e4 m.
telescope::ElementErrorConfig element_error_config(const Settings& s) {
  const std::string k = "telescope/aperture_array/array_pattern/element/";
  constexpr double kMaxGain = 1e3, kMaxDeg = 1e5, kMaxMetres = 1e4;
  auto value = [&](const std::string& key, double lo, double hi, const std::string& what) {
    return double_in_range(s, k + key, lo, hi, what);
  };
  telescope::ElementErrorConfig c;
  c.position_error_xy_m = value("position_error_xy_m", 0.0, kMaxMetres, "a length (m)");
  c.seed_position_xy = positive_seed(s, k + "seed_position_xy_errors");
  for (int f = 0; f < 2; ++f) {
    const std::string x = f == 0 ? "x_" : "y_";
    const auto i = std::size_t(f);
    c.gain[i] = value(x + "gain", -kMaxGain, kMaxGain, "a gain factor");
    c.gain_error_fixed[i] = value(x + "gain_error_fixed", 0.0, kMaxGain, "a standard deviation");
    c.gain_error_time[i] = value(x + "gain_error_time", 0.0, kMaxGain, "a standard deviation");
    c.phase_error_fixed_rad[i] =
        value(x + "phase_error_fixed_deg", 0.0, kMaxDeg, "a standard deviation (deg)") * kDegToRad;
    c.phase_error_time_rad[i] =
        value(x + "phase_error_time_deg", 0.0, kMaxDeg, "a standard deviation (deg)") * kDegToRad;
    c.cable_length_error_m[i] =
        value(x + "cable_length_error_m", 0.0, kMaxMetres, "a standard deviation (m)");
    c.orientation_error_rad[i] =
        value(x + "orientation_error_deg", 0.0, kMaxDeg, "a standard deviation (deg)") * kDegToRad;
    std::string seed = k + "seed_";
    seed += x;
    c.seed_gain[i] = positive_seed(s, seed + "gain_errors");
    c.seed_phase[i] = positive_seed(s, seed + "phase_errors");
    c.seed_cable_length[i] = positive_seed(s, seed + "cable_length_errors");
    c.seed_orientation[i] = positive_seed(s, seed + "orientation_error");
  }
  return c;
}

jones::IonosphereConfig ionosphere_config(const settings::Settings& s) {
  jones::IonosphereConfig c;
  c.enable = s.get("telescope/ionosphere_screen_type") == "External";
  if (!c.enable) return c;
  const std::string k = "telescope/external_tec_screen/";
  c.fits_file = s.get(k + "input_fits_file").empty() ? "" : s.get_path(k + "input_fits_file");
  if (c.fits_file.empty()) {
    throw Error::in_setting(k + "input_fits_file", "",
                            "telescope/ionosphere_screen_type = External needs a TEC screen file");
  }
  c.height_m = s.get_double(k + "screen_height_km") * 1000.0;
  c.pixel_size_m =
      s.is_word(k + "screen_pixel_size_m", "file") ? 0.0 : s.get_double(k + "screen_pixel_size_m");
  c.time_interval_sec = s.is_word(k + "screen_time_interval_sec", "file")
                            ? -1.0
                            : s.get_double(k + "screen_time_interval_sec");
  c.isoplanatic = s.get_bool("telescope/isoplanatic_screen");
  return c;
}

}  // namespace fringe::app
