#include "fringe/app/vis_noise_settings.h"

#include <ostream>

#include "fringe/app/field_keys.h"
#include "fringe/app/noise_settings.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/core/error.h"
#include "fringe/settings/ini.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::app {
namespace {

using settings::Settings;

}  // namespace

VisNoiseSettings vis_noise_settings(const Settings& s, Logger& log) {
  VisNoiseSettings out;
  const sim::NoiseConfig noise = noise_config(s);
  if (!noise.enable) {
    throw Error::in_setting("interferometer/noise/enable", s.get("interferometer/noise/enable"),
                            "noise addition is disabled in the settings (expected true)");
  }
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
