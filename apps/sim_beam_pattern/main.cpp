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
#include "fringe/app/beam_pattern_summary.h"
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
  fringe::app::log_beam_pattern_summary(config, log);

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
    fringe::app::write_beam_pattern_log(path, log);
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
