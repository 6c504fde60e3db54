// sim_beam_pattern: reads an OSKAR-compatible settings file (app sim_beam_pattern, also
// accepted from oskar_sim_beam_pattern), validates it, prints a summary, loads the telescope
// model, evaluates the station beams of the selected stations on an image or at sky-model
// positions (fringe/beam_pattern/beam_pattern.h) and writes FITS images and text files
// named from beam_pattern/root_path (docs/beam_pattern.md). The log ends with the time of
// each stage and the output files; with simulator/keep_log_file the log is also written to
// <root_path>.log.
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/app/beam_pattern_settings.h"
#include "fringe/app/field_keys.h"
#include "fringe/app/run_files.h"
#include "fringe/beam_pattern/beam_pattern.h"
#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/beam_pattern/beam_pattern_estimate.h"
#include "fringe/beam_pattern/beam_pattern_products.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/log.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/progress.h"
#include "fringe/core/resources.h"
#include "fringe/core/timer.h"
#include "fringe/jones/numerical_patterns.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"
#include "fringe/telescope/summary.h"

namespace {

using fringe::settings::format_number;
using fringe::settings::split_lines;

using fringe::Logger;
using fringe::settings::Settings;
using namespace fringe::beam_pattern;
using fringe::kRadToDeg;

// The log file (simulator/keep_log_file): its first line is the signature that lets a later
// run replace it (run_files.h), written under a temporary name and renamed when complete.
void write_log_file(const std::string& path, const Logger& log) {
  fringe::OutputTarget target;
  target.key = "simulator/keep_log_file";
  target.path = path;
  target.kind = fringe::OutputKind::Text;
  target.text_signature = fringe::app::kBeamPatternLogSignature;
  fringe::TemporaryOutput temp(target);
  {
    std::ofstream out(temp.path());
    out << fringe::app::kBeamPatternLogSignature << '\n';
    for (const auto& line : log.history()) out << line << '\n';
    out.close();
    if (!out) throw fringe::Error("cannot write the log file '" + path + "'");
  }
  temp.commit();
}

std::string averaging_text(const BeamPatternConfig& c) {
  std::string s;
  auto add = [&](const char* what) { s += (s.empty() ? "" : ", ") + std::string(what); };
  if (c.separate) add("separate times and channels");
  if (c.average_all) add("averaged over times and channels");
  if (c.average_axis == AverageAxis::Time) add("averaged over time");
  if (c.average_axis == AverageAxis::Channel) add("averaged over channels");
  return s.empty() ? "none" : s;
}

void summarise(const BeamPatternConfig& c, Logger& log) {
  const ObservationConfig& o = c.observation;
  log.info("Observation");
  log.info(std::string("  mode: ") +
           (o.mode == ObservationMode::Tracking ? "Tracking" : "Drift scan"));
  log.info("  phase centre: RA " + format_number(o.phase_centre_ra * kRadToDeg) + " deg, Dec " +
           format_number(o.phase_centre_dec * kRadToDeg) + " deg");
  log.info("  frequencies: " + std::to_string(o.num_channels) + " channel(s) from " +
           format_number(o.start_frequency_hz / 1e6) + " MHz, step " +
           format_number(o.frequency_inc_hz / 1e6) + " MHz");
  log.info("  times: " + std::to_string(o.num_time_steps) + " step(s) of " +
           format_number(o.interval_sec()) + " s from " + o.start_time_text + " UTC (MJD " +
           format_number(o.start_mjd_utc) + ")");
  log.info("Telescope");
  log.info("  model: " + c.telescope_directory);
  log.info(std::string("  station type: ") + fringe::jones::to_string(c.beam.station_type) +
           ", polarisation: " + (c.pol_mode == PolarisationMode::Full ? "Full" : "Scalar"));
  if (c.beam.station_type == fringe::jones::StationType::ApertureArray) {
    const auto& e = c.beam.aperture_array.element_pattern;
    log.info(std::string("  element pattern: ") +
             (e.functional_type == fringe::jones::ElementFunctionalType::Dipole
                  ? "dipole, length " + format_number(e.dipole_length) +
                        (e.dipole_length_in_wavelengths ? " wavelengths" : " m")
                  : std::string("isotropic")) +
             "; array factor " + (c.beam.aperture_array.array_pattern.enable ? "on" : "off"));
  }
  if (!c.pointing_file.empty()) log.info("  pointing file: " + c.pointing_file);
  log.info("Beam pattern");
  std::string stations = "all";
  if (!c.all_stations) {
    stations.clear();
    for (std::size_t id : c.station_ids)
      stations += (stations.empty() ? "" : ",") + std::to_string(id);
  }
  log.info("  stations: " + stations);
  const bool eq = c.frame == BeamFrame::Equatorial;
  if (c.coordinates == BeamCoordinates::Image) {
    std::string where =
        "  image: " + std::to_string(c.image.width) + " x " + std::to_string(c.image.height) +
        " pixels, " +
        (eq ? "Equatorial frame (SIN projection about the phase centre), pixel " +
                  format_number(c.image.cell_rad[0] * kRadToDeg * 3600.0) + " x " +
                  format_number(c.image.cell_rad[1] * kRadToDeg * 3600.0) + " arcsec"
            : std::string("Horizon frame (the visible hemisphere)"));
    log.info(where);
  } else {
    log.info(std::string("  positions: ") + c.sky_model_file + (eq ? " (RA, Dec)" : " (Az, El)"));
  }
  log.info("  outputs: " + averaging_text(c) + "; root path " + c.root_path);
  log.info(std::string("  precision: ") +
           (c.precision == fringe::Precision::Double ? "double" : "single") +
           ", chunks of <= " + std::to_string(c.max_pixels_per_chunk) + " pixels");
}

// Settings that cannot run are bad input (exit 2).
BeamPatternConfig make_config(const Settings& s) {
  try {
    return fringe::app::beam_pattern_config(s);
  } catch (const fringe::interrupt::Cancelled&) {
    throw;
  } catch (const fringe::Error& e) {
    throw fringe::settings::InputError(e);
  }
}

void run(Settings& s, Logger& log, const fringe::settings::RunOptions& options,
         const std::string& version) {
  fringe::StageTimers timers;
  fringe::Timer wall;
  wall.start();
  log.info("Settings are valid.");
  const BeamPatternConfig config = make_config(s);
  summarise(config, log);

  fringe::telescope::TelescopeModel tel;
  std::optional<fringe::RunEstimate> estimate;
  try {
    fringe::Timer t;
    t.start();
    tel = load_beam_pattern_telescope(config, &log);
    const auto summary = fringe::telescope::summarise(tel);
    log.info("Telescope model:");
    for (const auto& line : split_lines(fringe::telescope::format_summary(tel, summary)))
      log.info("  " + line);
    timers.add("load telescope", t.seconds());
    const std::vector<std::size_t> ids = selected_stations(config, tel);  // bad indices: input
    fringe::jones::check_numerical_patterns(config.beam, tel);
    // Every output file, checked against what is there and the run's inputs before any is
    // written (docs/reliability/sim.md); then the size of the run (--force to override).
    const std::vector<BeamProduct> products = plan_products(config, ids);
    fringe::check_outputs(
        fringe::app::beam_pattern_outputs(products, config.root_path, config.keep_log_file),
        fringe::app::run_inputs(s, options.settings_file));
    if (config.coordinates == BeamCoordinates::Image) {
      const std::size_t pixels = std::size_t(config.image.width) * std::size_t(config.image.height);
      estimate = beam_pattern_estimate(config, pixels, products);
    }
  } catch (const fringe::interrupt::Cancelled&) {
    throw;
  } catch (const fringe::Error& e) {
    throw fringe::settings::InputError(e);
  }

  // A runaway request (a huge image, many times and channels) is refused before any file is
  // written, unless --force: exit 1, as for a full disk.
  if (estimate) fringe::check_run_size(*estimate, options.force, &log);

  BeamPatternContext context;
  context.logger = &log;
  context.timers = &timers;
  context.application = "fringe sim_beam_pattern " + version;
  context.strict = options.strict;
  context.settings_lines =
      split_lines(fringe::settings::format_ini(s, "sim_beam_pattern", version));
  fringe::TerminalProgress bar(std::cout);
  if (!options.quiet) context.progress = bar.callback();
  log.info("Evaluating beams: " + std::to_string(config.observation.num_time_steps) +
           " time(s) x " + std::to_string(config.observation.num_channels) + " channel(s)...");
  const BeamPatternResult result = run_beam_pattern(config, tel, context);
  bar.finish();
  log.info("Beam pattern completed in " + format_number(wall.seconds()) +
           " s: " + std::to_string(result.station_ids.size()) + " station(s), " +
           std::to_string(result.num_pixels) + " pixel(s) in " + std::to_string(result.num_chunks) +
           " chunk(s), " + std::to_string(result.num_threads) +
           " CPU thread(s). Time of each stage:");
  for (const auto& line : split_lines(timers.report(wall.seconds()))) log.info("  " + line);
  log.info("Output files (" + std::to_string(result.files.size()) + "):");
  for (const auto& f : result.files) log.info("  " + f);
  if (config.keep_log_file) {
    const std::string path = config.root_path + ".log";
    log.info("Log file: " + path);
    write_log_file(path, log);
  }
}

}  // namespace

int main(int argc, char** argv) {
  fringe::settings::AppInfo app;
  app.name = "sim_beam_pattern";
  app.oskar_name = "oskar_sim_beam_pattern";
  app.version = FRINGE_VERSION;
  app.summary =
      "Evaluates station beam patterns (FITS images, text files) from an OSKAR-compatible\n"
      "settings file (see `sim_beam_pattern --settings` for every key).";
  app.schema_files = &fringe::settings::embedded_schemas();
  app.root_schema = "sim_beam_pattern.xml";
  return fringe::settings::run_app(
      argc, argv, app, [](Settings& s, Logger& log, const fringe::settings::RunOptions& options) {
        fringe::app::with_setting_keys(fringe::app::beam_pattern_field_keys(), &log,
                                       [&] { run(s, log, options, FRINGE_VERSION); });
      });
}
