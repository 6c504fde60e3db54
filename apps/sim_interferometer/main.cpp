// sim_interferometer: reads an OSKAR-compatible settings file, validates it and prints a
// summary of the run, then loads and summarises the sky and telescope models. The simulation
// itself is not implemented yet.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/models.h"
#include "fringe/telescope/summary.h"

namespace {

using fringe::Logger;
using fringe::settings::Settings;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string number(double v) {
  std::ostringstream ss;
  ss.precision(10);
  ss << v;
  return ss.str();
}

// Keys that the schema may lack are skipped, so the summary never fails on them.
void summarise(const Settings& s, Logger& log) {
  auto has = [&](const char* key) { return s.has(key) && s.is_enabled(key); };

  log.info("Observation");
  if (has("observation/mode")) log.info("  mode: " + s.get_option("observation/mode"));
  if (has("observation/phase_centre_ra_deg") && has("observation/phase_centre_dec_deg")) {
    auto ra = s.get_double_list("observation/phase_centre_ra_deg");
    auto dec = s.get_double_list("observation/phase_centre_dec_deg");
    if (!ra.empty() && !dec.empty())
      log.info("  phase centre: RA " + number(ra[0]) + " deg, Dec " + number(dec[0]) + " deg");
  }
  if (has("observation/start_frequency_hz")) {
    const double f0 = s.get_double("observation/start_frequency_hz");
    const int n = s.has("observation/num_channels") ? s.get_int("observation/num_channels") : 1;
    const double df =
        s.has("observation/frequency_inc_hz") ? s.get_double("observation/frequency_inc_hz") : 0;
    log.info("  frequencies: " + std::to_string(n) + " channel(s) from " + number(f0 / 1e6) +
             " MHz, step " + number(df / 1e6) + " MHz (last " + number((f0 + (n - 1) * df) / 1e6) +
             " MHz)");
  }
  if (has("observation/start_time_utc") && has("observation/length")) {
    const auto start = s.get_datetime("observation/start_time_utc");
    const double length = s.get_seconds("observation/length");
    const int steps =
        s.has("observation/num_time_steps") ? s.get_int("observation/num_time_steps") : 1;
    log.info("  times: " + std::to_string(steps) + " step(s) of " + number(length / steps) +
             " s from " + start.to_string() + " UTC (MJD " + number(start.to_mjd()) + "), length " +
             number(length) + " s");
  }

  log.info("Sky");
  int inputs = 0;
  for (const char* key :
       {"sky/oskar_sky_model/file", "sky/fits_image/file", "sky/healpix_fits/file"}) {
    if (has(key) && !s.get(key).empty()) {
      log.info(std::string("  ") + key + ": " + join(s.get_path_list(key)));
      ++inputs;
    }
  }
  for (const char* key : {"sky/generator/random_power_law/num_sources",
                          "sky/generator/random_broken_power_law/num_sources",
                          "sky/generator/grid/side_length", "sky/generator/healpix/nside"}) {
    if (has(key) && s.get_int(key) > 0) {
      log.info(std::string("  ") + key + ": " + s.get(key));
      ++inputs;
    }
  }
  if (inputs == 0) log.warning("  no sky model input is set: the sky is empty");

  log.info("Telescope");
  if (has("telescope/input_directory"))
    log.info("  model: " + s.get_path("telescope/input_directory"));
  if (has("telescope/station_type"))
    log.info("  station type: " + s.get_option("telescope/station_type"));
  if (has("telescope/pol_mode")) log.info("  polarisation: " + s.get_option("telescope/pol_mode"));

  log.info("Output");
  int outputs = 0;
  for (const char* key : {"interferometer/ms_filename", "interferometer/oskar_vis_filename"}) {
    if (has(key) && !s.get(key).empty()) {
      log.info(std::string("  ") + key + ": " + s.get_path(key));
      ++outputs;
    }
  }
  if (outputs == 0) log.warning("  no output file is set: results would not be saved");
}

// Loads the sky and the telescope the settings name and logs their summaries. A bad input
// file is bad input (exit code 2).
void load_models(const Settings& s, Logger& log, bool strict) {
  try {
    const fringe::sky::SkyModel sky = fringe::sim::load_sky(s, log, strict);
    log.info("Sky model: " + fringe::sim::sky_summary(sky));
    const fringe::telescope::TelescopeModel tel = fringe::sim::load_telescope(s, log);
    const auto summary = fringe::telescope::summarise(tel);
    log.info("Telescope model:");
    std::istringstream lines(fringe::telescope::format_summary(tel, summary));
    for (std::string line; std::getline(lines, line);) log.info("  " + line);
  } catch (const fringe::Error& e) {
    throw fringe::settings::InputError(e);
  }
}

}  // namespace

int main(int argc, char** argv) {
  fringe::settings::AppInfo app;
  app.name = "sim_interferometer";
  app.oskar_name = "oskar_sim_interferometer";
  app.version = FRINGE_VERSION;
  app.summary =
      "Simulates interferometer visibilities from an OSKAR-compatible settings file\n"
      "(see `sim_interferometer --settings` for every key).";
  app.schema_files = &fringe::settings::embedded_schemas();
  app.root_schema = "sim_interferometer.xml";
  return fringe::settings::run_app(
      argc, argv, app, [](Settings& s, Logger& log, const fringe::settings::RunOptions& options) {
        log.info("Settings are valid.");
        summarise(s, log);
        load_models(s, log, options.strict);
        log.info("The simulation is not implemented yet: nothing was computed.");
      });
}
