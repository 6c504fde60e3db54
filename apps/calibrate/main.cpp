// calibrate: StEFCal gain calibration of a Measurement Set driven by a settings file
// (settings/calibrate.xml, docs/calibration.md). Solves per solution interval and channel
// group, writes the gain table (+ CSV) and CORRECTED_DATA, and logs a summary: cells,
// convergence, iterations, residual RMS before and after, and the time of each stage.
#include <chrono>
#include <string>

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

int count_or_all(const Settings& s, const std::string& key) {
  if (s.is_word(key, "all")) return 0;
  const int v = s.get_int(key);
  if (v < 1) throw fringe::Error::in_setting(key, s.get(key), "expected a count >= 1 or 'all'");
  return v;
}

cal::CalibrateMsConfig make_config(const Settings& s) {
  const std::string k = "calibrate/";
  cal::CalibrateMsConfig c;
  c.ms_path = s.get_path(k + "input_ms");
  if (c.ms_path.empty()) {
    throw fringe::Error::in_setting(k + "input_ms", "", "expected a Measurement Set");
  }
  c.data_column = s.get(k + "data_column");
  c.model_column = s.get(k + "model_column");
  c.sky_model_path = s.get_path(k + "sky_model_file");
  const std::string type = s.get_option(k + "gain_type");
  if (type == "Scalar") {
    c.options.type = cal::GainType::Scalar;
  } else if (type == "Diagonal") {
    c.options.type = cal::GainType::Diagonal;
  } else if (type == "Full-Jones") {
    c.options.type = cal::GainType::FullJones;
  } else {
    throw fringe::Error::in_setting(k + "gain_type", type,
                                    "expected Scalar, Diagonal or Full-Jones");
  }
  c.times_per_solution = count_or_all(s, k + "solution_interval_times");
  c.channels_per_solution = count_or_all(s, k + "channels_per_solution");
  c.options.solver.max_iterations = s.get_int(k + "max_iterations");
  if (c.options.solver.max_iterations < 2) {
    throw fringe::Error::in_setting(k + "max_iterations", s.get(k + "max_iterations"),
                                    "expected at least 2 iterations");
  }
  c.options.solver.tolerance = s.get_double(k + "tolerance");
  c.options.solver.stall_checks = s.get_int(k + "stall_checks");
  if (c.options.solver.stall_checks < 0) {
    throw fringe::Error::in_setting(k + "stall_checks", s.get(k + "stall_checks"),
                                    "expected a count >= 0");
  }
  c.options.reference_station = s.get_int(k + "reference_station");
  c.options.min_baselines = s.get_int(k + "min_baselines");
  c.double_precision = s.get_bool(k + "double_precision");
  c.use_gpu = s.get_bool(k + "use_gpus");
  c.gains_path = s.get_path(k + "output_gains");
  c.write_corrected = s.get_bool(k + "write_corrected");
  return c;
}

void run(Settings& s, Logger& log) {
  const auto start = std::chrono::steady_clock::now();
  log.info("Settings are valid.");
  const cal::CalibrateMsConfig config = make_config(s);
  if (config.options.reference_station < 0) {
    throw fringe::Error::in_setting("calibrate/reference_station",
                                    s.get("calibrate/reference_station"),
                                    "expected a station index >= 0");
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
  log.info("  time: read " + format_number(r.read_sec) + " s, predict " +
           format_number(r.predict_sec) + " s, reorder " + format_number(r.reorder_sec) +
           " s, solve " + format_number(r.solve_sec) + " s, write " + format_number(r.write_sec) +
           " s, total " + format_number(wall) + " s");
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
      argc, argv, app,
      [](Settings& s, Logger& log, const fringe::settings::RunOptions&) { run(s, log); });
}
