#include "fringe/sim/simulation_config.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <numbers>
#include <sstream>
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

// Numbers of a text file: separated by white space or commas; '#' starts a comment.
std::vector<double> read_numbers(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open the noise data file '" + path + "'");
  std::vector<double> values;
  std::string line;
  for (long n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(w, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != w.size()) throw Error::in_file(path, n, "expected a number, got '" + w + "'");
      values.push_back(v);
    }
  }
  if (values.empty()) throw Error("the noise data file '" + path + "' holds no values");
  return values;
}

// Noise RMS limit (docs/reliability/sim.md): 1e9 Jy per visibility, far above any real
// system noise, and far below what overflows complex float DATA (3.4e38).
constexpr double kMaxNoiseRmsJy = 1e9;

std::uint64_t noise_seed(const Settings& s, const std::string& key) {
  if (s.is_word(key, "time")) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return std::max<std::uint64_t>(
        1, std::uint64_t(std::chrono::duration_cast<std::chrono::seconds>(now).count()));
  }
  const int v = s.get_int(key);
  if (v < 1) throw Error::in_setting(key, s.get(key), "expected a seed of at least 1 or 'time'");
  return std::uint64_t(v);
}

NoiseConfig noise_config(const Settings& s) {
  const std::string k = "interferometer/noise/";
  NoiseConfig n;
  n.enable = s.get_bool(k + "enable");
  if (!n.enable) return n;
  n.seed = noise_seed(s, k + "seed");
  const std::string f = s.get_option(k + "freq");
  if (f == "Telescope model") {
    n.freq = NoiseFreqSource::TelescopeModel;
  } else if (f == "Observation settings") {
    n.freq = NoiseFreqSource::ObservationSettings;
  } else if (f == "Data file") {
    n.freq = NoiseFreqSource::DataFile;
    if (s.get(k + "freq/file").empty()) {
      throw Error::in_setting(k + "freq/file", "", "expected a file of noise frequencies");
    }
    n.freq_file = s.get_path(k + "freq/file");
  } else if (f == "Range") {
    n.freq = NoiseFreqSource::Range;
    n.freq_number = s.get_int(k + "freq/number");
    if (n.freq_number < 1) {
      throw Error::in_setting(k + "freq/number", s.get(k + "freq/number"),
                              "expected at least 1 noise frequency");
    }
    n.freq_start_hz = s.get_double(k + "freq/start");
    n.freq_inc_hz = s.get_double(k + "freq/inc");
  } else {
    throw Error::in_setting(k + "freq", f, "expected a noise frequency option of the schema");
  }
  const std::string r = s.get_option(k + "rms");
  if (r == "Telescope model") {
    n.rms = NoiseRmsSource::TelescopeModel;
  } else if (r == "Data file") {
    n.rms = NoiseRmsSource::DataFile;
    if (s.get(k + "rms/file").empty()) {
      throw Error::in_setting(k + "rms/file", "", "expected a file of noise RMS values");
    }
    n.rms_file = s.get_path(k + "rms/file");
  } else if (r == "Range") {
    n.rms = NoiseRmsSource::Range;
    n.rms_start_jy = s.get_double(k + "rms/start");
    n.rms_end_jy = s.get_double(k + "rms/end");
    for (const char* e : {"rms/start", "rms/end"}) {
      const double v = s.get_double(k + e);
      if (!(v >= 0 && v <= kMaxNoiseRmsJy)) {
        throw Error::in_setting(k + e, s.get(k + e),
                                "expected an RMS in [0, 1e9] Jy (larger noise overflows the "
                                "Measurement Set's single-precision DATA)");
      }
    }
  } else {
    throw Error::in_setting(k + "rms", r, "expected a noise RMS option of the schema");
  }
  return n;
}

}  // namespace

vis::NoiseTable noise_table(const NoiseConfig& noise, const ObservationConfig& observation,
                            const telescope::TelescopeModel& tel) {
  vis::NoiseTable t;
  switch (noise.freq) {
    case NoiseFreqSource::TelescopeModel:
      t.freq_hz = tel.noise_freq_hz;
      if (t.freq_hz.empty()) {
        throw Error::in_setting(
            "interferometer/noise/freq", "Telescope model",
            "the telescope model '" + tel.directory + "' has no noise_frequencies.txt");
      }
      break;
    case NoiseFreqSource::ObservationSettings:
      for (int c = 0; c < observation.num_channels; ++c) {
        t.freq_hz.push_back(observation.channel_frequency_hz(c));
      }
      break;
    case NoiseFreqSource::DataFile:
      t.freq_hz = read_numbers(noise.freq_file);
      break;
    case NoiseFreqSource::Range:
      for (int i = 0; i < noise.freq_number; ++i) {
        t.freq_hz.push_back(noise.freq_start_hz + i * noise.freq_inc_hz);
      }
      break;
  }
  const std::size_t nf = t.freq_hz.size();
  const std::size_t ns = tel.num_stations();
  std::vector<double> common;
  switch (noise.rms) {
    case NoiseRmsSource::TelescopeModel:
      for (std::size_t s = 0; s < ns; ++s) {
        const std::vector<double>& r = tel.noise_rms_jy(s);
        if (r.size() != nf) {
          throw Error::in_setting("interferometer/noise/rms", "Telescope model",
                                  "station " + std::to_string(s) + " of '" + tel.directory +
                                      "' has " + std::to_string(r.size()) +
                                      " RMS value(s) (rms.txt), expected one per noise "
                                      "frequency (" +
                                      std::to_string(nf) + ")");
        }
        t.rms_jy.push_back(r);
      }
      break;
    case NoiseRmsSource::DataFile:
      common = read_numbers(noise.rms_file);
      if (common.size() != nf) {
        throw Error::in_setting("interferometer/noise/rms/file", noise.rms_file,
                                "has " + std::to_string(common.size()) +
                                    " RMS value(s), expected one per noise frequency (" +
                                    std::to_string(nf) + ")");
      }
      break;
    case NoiseRmsSource::Range:
      for (std::size_t i = 0; i < nf; ++i) {
        const double x = nf > 1 ? double(i) / double(nf - 1) : 0.0;
        common.push_back(noise.rms_start_jy + x * (noise.rms_end_jy - noise.rms_start_jy));
      }
      break;
  }
  if (noise.rms != NoiseRmsSource::TelescopeModel) t.rms_jy.assign(ns, common);
  for (const auto& row : t.rms_jy) {
    for (double v : row) {
      if (!(v >= 0 && v <= kMaxNoiseRmsJy)) {
        throw Error::in_setting("interferometer/noise/rms", std::to_string(v),
                                "expected noise RMS values in [0, 1e9] Jy");
      }
    }
  }
  t.validate(ns);
  return t;
}

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
  b.allow_station_beam_duplication = s.get_bool("telescope/allow_station_beam_duplication");
  const std::string a = "telescope/aperture_array/";
  auto& ap = b.aperture_array.array_pattern;
  ap.enable = s.get_bool(a + "array_pattern/enable");
  ap.normalise = s.get_bool(a + "array_pattern/normalise");
  ap.time_variable_seed = noise_seed(s, a + "array_pattern/element/seed_time_variable_errors");
  auto& ep = b.aperture_array.element_pattern;
  const std::string e = a + "element_pattern/";
  ep.enable_numerical = s.get_bool(e + "enable_numerical");
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
  ep.taper_gaussian_fwhm_rad = s.get_double(e + "taper/gaussian_fwhm_deg") * kDeg;
  ep.normalise = s.get_bool(e + "normalise");
  ep.swap_xy = s.get_bool(e + "swap_xy");
  jones::validate(b);  // errors name the telescope/... key
  return b;
}

void check_numerical_patterns(const jones::StationBeamConfig& beam,
                              const telescope::TelescopeModel& tel) {
  if (beam.station_type != jones::StationType::ApertureArray ||
      !beam.aperture_array.element_pattern.enable_numerical) {
    return;
  }
  for (const auto& f : tel.unsupported_files) {
    const bool pattern = f.reason.find("element pattern") != std::string::npos ||
                         f.reason.find("HARP") != std::string::npos ||
                         f.reason.find("FEKO") != std::string::npos;
    if (!pattern) continue;
    throw Error::in_setting(
        "telescope/aperture_array/element_pattern/enable_numerical", "true",
        "the telescope model holds numerical element pattern data ('" + f.path +
            "'), which fringe cannot evaluate yet (not supported yet); set this key to false "
            "to use the functional element pattern instead");
  }
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
  c.seed_position_xy = noise_seed(s, k + "seed_position_xy_errors");
  for (int f = 0; f < 2; ++f) {
    const std::string x = f == 0 ? "x_" : "y_";
    const auto i = std::size_t(f);
    c.gain[i] = value(x + "gain", -kMaxGain, kMaxGain, "a gain factor");
    c.gain_error_fixed[i] = value(x + "gain_error_fixed", 0.0, kMaxGain, "a standard deviation");
    c.gain_error_time[i] = value(x + "gain_error_time", 0.0, kMaxGain, "a standard deviation");
    c.phase_error_fixed_rad[i] =
        value(x + "phase_error_fixed_deg", 0.0, kMaxDeg, "a standard deviation (deg)") * kDeg;
    c.phase_error_time_rad[i] =
        value(x + "phase_error_time_deg", 0.0, kMaxDeg, "a standard deviation (deg)") * kDeg;
    c.cable_length_error_m[i] =
        value(x + "cable_length_error_m", 0.0, kMaxMetres, "a standard deviation (m)");
    c.orientation_error_rad[i] =
        value(x + "orientation_error_deg", 0.0, kMaxDeg, "a standard deviation (deg)") * kDeg;
    std::string seed = k + "seed_";
    seed += x;
    c.seed_gain[i] = noise_seed(s, seed + "gain_errors");
    c.seed_phase[i] = noise_seed(s, seed + "phase_errors");
    c.seed_cable_length[i] = noise_seed(s, seed + "cable_length_errors");
    c.seed_orientation[i] = noise_seed(s, seed + "orientation_error");
  }
  return c;
}

SimulationConfig simulation_config(const Settings& s) {
  SimulationConfig c;
  c.precision = s.get_bool("simulator/double_precision") ? Precision::Double : Precision::Single;
  c.devices.use_gpus = s.get_bool("simulator/use_gpus");
  c.devices.cuda_device_ids = cuda_device_ids(s);
  c.devices.num_devices = int_or_auto(s, "simulator/num_devices");
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
  c.element_errors = element_error_config(s);
  c.pointing_file =
      s.get("observation/pointing_file").empty() ? "" : s.get_path("observation/pointing_file");

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

  c.noise = noise_config(s);
  c.corruption = gain_corruption_config(s);
  c.telescope_name = s.get(i + "telescope_name");

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
