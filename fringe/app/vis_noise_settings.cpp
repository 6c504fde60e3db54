#include "fringe/app/vis_noise_settings.h"

#include <ostream>

#include "fringe/app/field_keys.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/core/error.h"
#include "fringe/settings/ini.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::app {
namespace {

using settings::Settings;

// interferometer/noise/... -> sim::NoiseConfig (the keys and options of the simulator's noise).
sim::NoiseConfig noise_config(const Settings& s) {
  const std::string k = "interferometer/noise/";
  sim::NoiseConfig n;
  n.enable = s.get_bool(k + "enable");
  if (!n.enable) {
    throw Error::in_setting(k + "enable", s.get(k + "enable"),
                            "noise addition is disabled in the settings (expected true)");
  }
  n.seed = positive_seed(s, k + "seed");
  const std::string f = s.get_option(k + "freq");
  if (f == "Telescope model") {
    n.freq = sim::NoiseFreqSource::TelescopeModel;
  } else if (f == "Observation settings") {
    n.freq = sim::NoiseFreqSource::ObservationSettings;
  } else if (f == "Data file") {
    n.freq = sim::NoiseFreqSource::DataFile;
    if (s.get(k + "freq/file").empty())
      throw Error::in_setting(k + "freq/file", "", "expected a file of noise frequencies");
    n.freq_file = s.get_path(k + "freq/file");
  } else if (f == "Range") {
    n.freq = sim::NoiseFreqSource::Range;
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
    n.rms = sim::NoiseRmsSource::TelescopeModel;
  } else if (r == "Data file") {
    n.rms = sim::NoiseRmsSource::DataFile;
    if (s.get(k + "rms/file").empty())
      throw Error::in_setting(k + "rms/file", "", "expected a file of noise RMS values");
    n.rms_file = s.get_path(k + "rms/file");
  } else if (r == "Range") {
    n.rms = sim::NoiseRmsSource::Range;
    for (const char* e : {"rms/start", "rms/end"}) {
      const double v = s.get_double(k + e);
      if (!(v >= 0 && v <= sim::kMaxNoiseRmsJy)) {
        throw Error::in_setting(k + e, s.get(k + e), "expected an RMS in [0, 1e9] Jy");
      }
    }
    n.rms_start_jy = s.get_double(k + "rms/start");
    n.rms_end_jy = s.get_double(k + "rms/end");
  } else {
    throw Error::in_setting(k + "rms", r, "expected a noise RMS option of the schema");
  }
  return n;
}

}  // namespace

VisNoiseSettings vis_noise_settings(const Settings& s, Logger& log) {
  VisNoiseSettings out;
  const sim::NoiseConfig noise = noise_config(s);
  out.seed = noise.seed;
  const TelescopeConfig t = telescope_config(s);
  if (t.input_directory.empty()) {
    throw Error::in_setting("telescope/input_directory", "",
                            "expected the telescope model of the visibilities (its stations "
                            "give the noise RMS)");
  }
  const telescope::TelescopeModel tel = telescope::load_telescope_model(t.input_directory, &log);
  // The observation's channels are the noise frequencies of "Observation settings" only.
  astro::ObservationConfig observation;
  if (noise.freq == sim::NoiseFreqSource::ObservationSettings) observation = observation_config(s);
  out.table = sim::noise_table(noise, observation, tel);
  out.input_files.push_back(t.input_directory);
  if (!noise.freq_file.empty()) out.input_files.push_back(noise.freq_file);
  if (!noise.rms_file.empty()) out.input_files.push_back(noise.rms_file);
  return out;
}

VisNoiseSettings read_vis_noise_settings(const std::string& path,
                                         const settings::SchemaFiles& schema_files, Logger& log,
                                         std::ostream& err) {
  settings::Settings s(settings::Schema::load(schema_files, "sim_interferometer.xml"));
  const settings::LoadReport report = settings::load_ini(s, path);
  if (!report.errors.empty()) throw Error(report.errors.front().text());
  for (const auto& p : report.warnings) err << "warning: " << p.text() << "\n";
  for (const auto& p : s.validate()) {
    // Keys a simulation needs (a sky, a start frequency) are not read here.
    if (!p.key.empty() && p.key.rfind("interferometer/noise/", 0) == 0) throw Error(p.text());
  }
  VisNoiseSettings out =
      with_setting_keys(simulator_field_keys(), &log, [&] { return vis_noise_settings(s, log); });
  out.input_files.push_back(path);
  return out;
}

}  // namespace fringe::app
