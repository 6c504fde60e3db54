// sim_interferometer: reads an OSKAR-compatible settings file, validates it, prints a summary
// of the run, loads and summarises the sky and telescope models, simulates on the CPU
// (fringe/sim/interferometer.h) and writes a Measurement Set. The log ends with the time of
// each stage and the output path; the settings and the log go into the MS HISTORY table.
#include <cmath>
#include <future>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/log.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/progress.h"
#include "fringe/core/resources.h"
#include "fringe/core/timer.h"
#include "fringe/imager/imager.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/calibrate_settings.h"
#include "fringe/sim/imager_settings.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/models.h"
#include "fringe/sim/run_estimate.h"
#include "fringe/sim/run_files.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/telescope/summary.h"

namespace {

using fringe::settings::format_number;
using fringe::settings::split_lines;

using fringe::Logger;
using fringe::settings::InputError;
using fringe::settings::Settings;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
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
      log.info("  phase centre: RA " + format_number(ra[0]) + " deg, Dec " + format_number(dec[0]) +
               " deg");
  }
  if (has("observation/start_frequency_hz")) {
    const double f0 = s.get_double("observation/start_frequency_hz");
    const int n = s.has("observation/num_channels") ? s.get_int("observation/num_channels") : 1;
    const double df =
        s.has("observation/frequency_inc_hz") ? s.get_double("observation/frequency_inc_hz") : 0;
    log.info("  frequencies: " + std::to_string(n) + " channel(s) from " + format_number(f0 / 1e6) +
             " MHz, step " + format_number(df / 1e6) + " MHz (last " +
             format_number((f0 + (n - 1) * df) / 1e6) + " MHz)");
  }
  if (has("observation/start_time_utc") && has("observation/length")) {
    const auto start = s.get_datetime("observation/start_time_utc");
    const double length = s.get_seconds("observation/length");
    const int steps =
        s.has("observation/num_time_steps") ? s.get_int("observation/num_time_steps") : 1;
    log.info("  times: " + std::to_string(steps) + " step(s) of " + format_number(length / steps) +
             " s from " + start.to_string() + " UTC (MJD " + format_number(start.to_mjd()) +
             "), length " + format_number(length) + " s");
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
  if (has("telescope/station_type") && s.get_option("telescope/station_type") == "Aperture array") {
    const std::string e = "telescope/aperture_array/element_pattern/";
    std::string element = s.get_option(e + "functional_type");
    if (element == "Dipole") {
      element += " (length " + s.get(e + "dipole_length") + " " +
                 s.get_option(e + "dipole_length_units") + ")";
    }
    if (s.get_option(e + "taper/type") != "None") {
      element += ", " + s.get_option(e + "taper/type") + " taper";
    }
    log.info("  element pattern: " + element);
    log.info(std::string("  array factor: ") +
             (s.get_bool("telescope/aperture_array/array_pattern/enable") ? "on" : "off") +
             ", beams normalised at the phase centre: " +
             (s.get_bool("telescope/normalise_beams_at_phase_centre") ? "yes" : "no") +
             ", one beam per station model: " +
             (s.get_bool("telescope/allow_station_beam_duplication") ? "yes" : "no"));
  }
  if (has("observation/pointing_file") && !s.get("observation/pointing_file").empty())
    log.info("  pointing file: " + s.get_path("observation/pointing_file"));

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

// Settings that cannot run (unsupported options, bad beam values) are bad input (exit 2).
fringe::sim::SimulationConfig make_config(const Settings& s) {
  try {
    return fringe::sim::simulation_config(s);
  } catch (const fringe::interrupt::Cancelled&) {
    throw;
  } catch (const fringe::Error& e) {
    throw fringe::settings::InputError(e);
  }
}

void log_simulation_plan(const fringe::sim::SimulationConfig& c, Logger& log) {
  using fringe::sim::PolarisationMode;
  log.info("Simulation");
  log.info(std::string("  precision: ") +
           (c.precision == fringe::Precision::Double ? "double" : "single") + ", polarisation: " +
           (c.pol_mode == PolarisationMode::Full ? "Full" : "Scalar") + ", products: " +
           (c.write_cross && c.write_autos ? "cross + auto"
            : c.write_cross                ? "cross"
                                           : "auto"));
  const std::string threads =
      std::to_string(fringe::sim::resolve_num_threads(c)) + " CPU thread(s)";
  log.info((c.devices.use_gpus ? "  devices: the GPUs (simulator/use_gpus), else " + threads
                               : "  devices: " + threads) +
           ", blocks of <= " + std::to_string(c.times_per_block()) + " time(s) x " +
           std::to_string(c.channels_per_block()) +
           " channel(s), sky chunks of <= " + std::to_string(c.max_sources_per_chunk) + " sources");
  log.info("  smearing: bandwidth " + format_number(c.channel_bandwidth_hz) + " Hz, time " +
           format_number(c.time_average_sec) + " s");
}

// The whole run: config, models, simulation, timing report.
void run(Settings& s, Logger& log, const fringe::settings::RunOptions& options,
         const std::string& version) {
  fringe::StageTimers timers;
  fringe::Timer wall;
  wall.start();
  log.info("Settings are valid.");
  summarise(s, log);
  const fringe::sim::SimulationConfig config = make_config(s);
  log_simulation_plan(config, log);
  // CUDA's start-up (the driver and a context on each GPU: a few tenths of a second) runs
  // while the models load; the simulation's own GPU query then finds it done.
  std::future<void> cuda_start;
  if (config.devices.use_gpus) {
    cuda_start = std::async(std::launch::async, [] { (void)fringe::cuda_devices(); });
  }
  // The optional calibration and imaging steps are configured (and their settings checked)
  // before any work.
  std::optional<fringe::calibrate::CalibrateMsConfig> calibration;
  std::optional<fringe::imager::ImagerConfig> imaging;
  try {
    const std::string ms = fringe::io::ms_output_path(config.ms_path);
    if (s.get_bool("interferometer/calibrate_output")) {
      calibration = fringe::sim::calibrate_config(s, ms);
      calibration->force = options.force;
    }
    if (s.get_bool("interferometer/image_output")) {
      imaging = fringe::sim::imager_config(s, ms);
      imaging->force = options.force;
      imaging->strict = options.strict;
      // After calibration the corrected data are imaged unless a column was asked for.
      if (calibration && calibration->write_corrected && !s.is_given("image/ms_column")) {
        imaging->ms_column = "CORRECTED_DATA";
      }
    }
    // Every output of the run, checked against what is there and the run's inputs before
    // any work: nothing is touched when one is refused (docs/reliability/sim.md).
    fringe::check_outputs(
        fringe::sim::interferometer_outputs(config, s, calibration ? &*calibration : nullptr,
                                            imaging ? &*imaging : nullptr),
        fringe::sim::run_inputs(s, options.settings_file, {ms}));
  } catch (const fringe::interrupt::Cancelled&) {
    throw;
  } catch (const fringe::Error& e) {
    throw InputError(e);
  }

  fringe::sky::SkyModel sky;
  fringe::telescope::TelescopeModel tel;
  try {
    fringe::Timer t;
    t.start();
    sky = fringe::sim::load_sky(s, log, options.strict);
    log.info("Sky model: " + fringe::sim::sky_summary(sky));
    timers.add("load sky", t.seconds());
    t.start();
    tel = fringe::sim::load_telescope(s, log);
    const auto summary = fringe::telescope::summarise(tel);
    log.info("Telescope model:");
    for (const auto& line : split_lines(fringe::telescope::format_summary(tel, summary)))
      log.info("  " + line);
    timers.add("load telescope", t.seconds());
    if (sky.empty()) {
      throw fringe::Error(
          "the sky model is empty: no sources to simulate (check the sky/... settings, the "
          "sky files and their filters); no Measurement Set was written");
    }
  } catch (const fringe::interrupt::Cancelled&) {
    throw;
  } catch (const fringe::Error& e) {
    throw InputError(e);
  }

  // A runaway request (e.g. observation/num_time_steps = 1e9) is refused here, before the
  // Measurement Set is created, unless --force: exit 1, as for a full disk.
  fringe::check_run_size(fringe::sim::interferometer_estimate(config, tel.num_stations(),
                                                              sky.size(), calibration.has_value()),
                         options.force, &log);

  fringe::sim::RunContext context;
  context.logger = &log;
  context.timers = &timers;
  context.settings_lines =
      split_lines(fringe::settings::format_ini(s, "sim_interferometer", version));
  context.application = "sim_interferometer " + version;
  context.strict = options.strict;
  fringe::TerminalProgress bar(std::cout);
  if (!options.quiet) context.progress = bar.callback();
  context.run_log = [&]() {
    bar.finish();
    log.info("Simulation completed in " + format_number(wall.seconds()) +
             " s. Time of each stage:");
    for (const auto& line : split_lines(timers.report(wall.seconds()))) log.info("  " + line);
    return log.history();
  };
  log.info("Simulating " + std::to_string(config.observation.num_time_steps) + " time(s) x " +
           std::to_string(config.observation.num_channels) + " channel(s)...");
  const fringe::sim::SimulationResult result =
      fringe::sim::simulate_interferometer(config, std::move(sky), tel, context);
  log.info("Measurement Set: " + result.ms_path + " (" + std::to_string(result.num_rows) +
           " rows)");
  if (calibration) {
    log.info("Calibrating " + calibration->ms_path + " (interferometer/calibrate_output)...");
    const fringe::calibrate::CalibrateMsResult r =
        fringe::calibrate::calibrate_ms(*calibration, &log);
    log.info("Calibration (" + r.backend + "): " + std::to_string(r.num_cells) + " cell(s), " +
             std::to_string(r.num_converged) + " converged, mean " +
             format_number(r.mean_iterations) + " iterations; residual RMS before " +
             format_number(r.rms_before) + " Jy, after " + format_number(r.rms_after) + " Jy");
    log.info("Gains: " + r.gains_path + " and " + r.gains_path + ".csv");
    if (r.num_max_iterations > 0) {
      log.warning(std::to_string(r.num_max_iterations) +
                  " cell(s) reached calibrate/max_iterations without converging");
    }
  }
  if (imaging) {
    log.info("Imaging " + imaging->input_ms.front() + " (" + imaging->ms_column +
             ", interferometer/image_output)...");
    fringe::Timer t;
    t.start();
    const fringe::imager::ImagerResult images = fringe::imager::run(
        *imaging, options.quiet ? fringe::ProgressCallback{} : bar.callback(), &log);
    bar.finish();
    log.info("Imaged " + std::to_string(images.num_gridded) + " visibilities on " + images.device +
             " in " + format_number(t.seconds()) + " s:");
    for (const auto& f : images.files) log.info("  " + f);
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
        run(s, log, options, FRINGE_VERSION);
      });
}
