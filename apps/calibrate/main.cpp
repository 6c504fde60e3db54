// calibrate: StEFCal gain calibration of a Measurement Set driven by a settings file
// (settings/calibrate.xml, docs/calibration.md). Solves per solution interval and channel
// group, writes the gain table (+ CSV) and CORRECTED_DATA, and logs a summary: cells,
// convergence, iterations, residual RMS before and after, and the time of each stage.
// Exit codes (docs/reliability.md): 0 done; 2 bad input (settings, outputs that would replace
// something that is not an earlier gain table or overlap an input, an MS that does not fit
// the settings or is not writable), found before the MS is touched; 1 the run failed (data
// that solve nothing, a write error such as a full disk); 130/143 SIGINT/SIGTERM.
#include <chrono>
#include <string>

#include "fringe/app/calibrate_settings.h"
#include "fringe/app/field_keys.h"
#include "fringe/calibrate/calibrate_checks.h"
#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/settings.h"

namespace {

using fringe::Logger;
using fringe::settings::format_number;
using fringe::settings::Settings;
namespace cal = fringe::calibrate;

void run(Settings& s, Logger& log, const fringe::settings::RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  log.info("Settings are valid.");
  // Everything that can be checked before the MS is touched is bad input (exit 2).
  cal::CalibrateMsConfig config;
  try {
    config = fringe::app::calibrate_config(s);
    config.force = options.force;
    cal::check_calibration(config, {}, &log);
  } catch (const fringe::Error& e) {
    throw fringe::settings::InputError(e);
  }
  const cal::CalibrateMsResult r = cal::calibrate_ms(config, &log);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  log.info("Calibration summary (" + r.backend + ")");
  log.info("  cells: " + std::to_string(r.num_cells) + " (converged " +
           std::to_string(r.num_converged) + ", stalled " + std::to_string(r.num_stalled) +
           ", max iterations " + std::to_string(r.num_max_iterations) + ", no data " +
           std::to_string(r.num_no_data) + ")");
  log.info("  iterations: min " + std::to_string(r.min_iterations) + ", mean " +
           format_number(r.mean_iterations) + ", max " + std::to_string(r.max_iterations));
  log.info("  unsolved (flagged) station solutions: " +
           std::to_string(r.num_flagged_station_cells));
  log.info("  residual RMS |DATA - G MODEL G^H|: before " + format_number(r.rms_before) +
           " Jy, after " + format_number(r.rms_after) + " Jy");
  log.info("  time: total " + format_number(wall) + " s; reorder " + format_number(r.reorder_sec) +
           " s, predict " + format_number(r.predict_sec) + " s, solve " +
           format_number(r.solve_sec) + " s, correct " + format_number(r.correct_sec) +
           " s; I/O threads (overlapping them; seconds summed over the threads): read " +
           format_number(r.read_sec) + " s (waited for " + format_number(r.read_wait_sec) +
           " s), write " + format_number(r.write_sec) + " s (waited for " +
           format_number(r.write_wait_sec) + " s)");
  log.info("  solve: normal equations " + format_number(r.normal_eq_sec) + " s, StEFCal " +
           format_number(r.solver_sec) + " s (with copies to and from the GPU), residuals " +
           format_number(r.residual_sec) + " s");
  log.info("Gains: " + r.gains_path + " and " + r.gains_path + ".csv");
  if (config.write_corrected) log.info("CORRECTED_DATA written to " + config.ms_path);
  if (r.num_max_iterations > 0) {
    log.warning(std::to_string(r.num_max_iterations) +
                " cell(s) reached calibrate/max_iterations without converging");
  }
}

}  // namespace

int main(int argc, char** argv) {
  fringe::settings::AppInfo app;
  app.name = "calibrate";
  app.version = FRINGE_VERSION;
  app.summary =
      "StEFCal gain calibration of a Measurement Set from a settings file\n"
      "(see `calibrate --settings` for every key).";
  app.schema_files = &fringe::settings::embedded_schemas();
  app.root_schema = "calibrate.xml";
  return fringe::settings::run_app(
      argc, argv, app, [](Settings& s, Logger& log, const fringe::settings::RunOptions& options) {
        fringe::app::with_setting_keys(fringe::app::calibrate_field_keys(), &log,
                                       [&] { run(s, log, options); });
      });
}
