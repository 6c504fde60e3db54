// sim_interferometer: reads an OSKAR-compatible settings file, validates it, prints a summary
// of the run, loads and summarises the sky and telescope models, simulates on the GPUs or the
// CPU and writes a Measurement Set, then calibrates and images it when asked
// (fringe/app/sim_chain.h). The log ends with the time of each stage and the output path; the
// settings and the log go into the MS HISTORY table.
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/app/field_keys.h"
#include "fringe/app/models.h"
#include "fringe/app/run_files.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/app/sim_chain.h"
#include "fringe/app/sim_summary.h"
#include "fringe/app/simulation_settings.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/log.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/progress.h"
#include "fringe/core/resources.h"
#include "fringe/core/timer.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/jones/numerical_patterns.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/run_estimate.h"
#include "fringe/telescope/summary.h"

namespace {

namespace app = fringe::app;
using fringe::Logger;
using fringe::settings::format_number;
using fringe::settings::InputError;
using fringe::settings::Settings;
using fringe::settings::split_lines;

// f(), with a fringe::Error it throws turned into bad input (exit 2).
template <typename F>
decltype(auto) as_input(F&& f) {
  try {
    return f();
  } catch (const fringe::interrupt::Cancelled&) {
    throw;
  } catch (const fringe::Error& e) {
    throw InputError(e);
  }
}

// The settings file as it is, one entry per line: OSKAR 2.13 records it so in the MS HISTORY
// (ORIGIN OSKAR_SETTINGS) and the .vis header (docs/ms_output.md). A run without a file (or
// one that can no longer be read) records the settings in force as an INI text instead.
std::vector<std::string> settings_record(const Settings& s, const std::string& path,
                                         const std::string& version) {
  if (!path.empty()) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in && (text << in.rdbuf())) return split_lines(text.str());
  }
  return split_lines(fringe::settings::format_ini(s, "sim_interferometer", version));
}

// The whole run: configs, summary, models, the chain, timing report.
void run(Settings& s, Logger& log, const fringe::settings::RunOptions& options,
         const std::string& version) {
  fringe::StageTimers timers;
  fringe::Timer wall;
  wall.start();
  log.info("Settings are valid.");
  // Every step is configured (and its settings checked) before any work.
  const app::ChainConfig chain =
      as_input([&] { return app::chain_config(s, options.force, options.strict); });
  const fringe::sim::SimulationConfig& config = chain.simulation;
  app::log_summary(config, as_input([&] { return app::sky_config(s); }), log);
  app::log_simulation_plan(config, log);
  // CUDA's start-up (the driver and a context on each GPU: a few tenths of a second) runs
  // while the models load; the simulation's own GPU query then finds it done.
  std::future<void> cuda_start;
  if (config.devices.use_gpus) {
    cuda_start = std::async(std::launch::async, [] { (void)fringe::cuda_devices(); });
  }
  // Every output of the run, checked against what is there and the run's inputs before any
  // work: nothing is touched when one is refused (docs/reliability/sim.md).
  as_input([&] {
    std::vector<std::string> outputs;  // not inputs, though named by the settings
    if (!config.ms_path.empty()) outputs.push_back(fringe::io::ms_output_path(config.ms_path));
    if (!config.vis_path.empty()) outputs.push_back(config.vis_path);
    fringe::check_outputs(
        app::interferometer_outputs(config, s, chain.calibration ? &*chain.calibration : nullptr,
                                    chain.imaging ? &*chain.imaging : nullptr),
        app::run_inputs(s, options.settings_file, outputs));
  });

  fringe::sky::SkyModel sky;
  fringe::telescope::TelescopeModel tel;
  as_input([&] {
    fringe::Timer t;
    t.start();
    sky = app::load_sky(s, log, options.strict);
    log.info("Sky model: " + app::sky_summary(sky));
    timers.add("load sky", t.seconds());
    t.start();
    tel = app::load_telescope(s, log);
    const auto summary = fringe::telescope::summarise(tel);
    log.info("Telescope model:");
    for (const auto& line : split_lines(fringe::telescope::format_summary(tel, summary)))
      log.info("  " + line);
    timers.add("load telescope", t.seconds());
    // Element pattern files that cannot be used, or malformed ones: bad input (exit 2).
    fringe::jones::check_numerical_patterns(config.beam, tel);
    if (sky.empty()) {
      throw fringe::Error(
          "the sky model is empty: no sources to simulate (check the sky/... settings, the "
          "sky files and their filters); no Measurement Set was written");
    }
  });

  // A runaway request (e.g. observation/num_time_steps = 1e9) is refused here, before the
  // Measurement Set is created, unless --force: exit 1, as for a full disk.
  fringe::check_run_size(fringe::sim::interferometer_estimate(
                             config, tel.num_stations(), sky.size(), chain.calibration.has_value()),
                         options.force, &log);

  app::ChainContext context;
  fringe::sim::RunContext& sim = context.simulation;
  sim.logger = &log;
  sim.timers = &timers;
  sim.settings_lines = settings_record(s, options.settings_file, version);
  sim.application = "fringe sim_interferometer " + version;
  sim.strict = options.strict;
  fringe::TerminalProgress bar(std::cout);
  if (!options.quiet) {
    sim.progress = bar.callback();
    context.imaging_progress = bar.callback();
  }
  sim.run_log = [&]() {
    bar.finish();
    log.info("Simulation completed in " + format_number(wall.seconds()) +
             " s. Time of each stage:");
    for (const auto& line : split_lines(timers.report(wall.seconds()))) log.info("  " + line);
    return log.history();
  };
  context.imaging_done = [&] { bar.finish(); };
  log.info("Simulating " + std::to_string(config.observation.num_time_steps) + " time(s) x " +
           std::to_string(config.observation.num_channels) + " channel(s)...");
  app::run_chain(chain, std::move(sky), tel, context);
}

}  // namespace

int main(int argc, char** argv) {
  fringe::settings::AppInfo info;
  info.name = "sim_interferometer";
  info.oskar_name = "oskar_sim_interferometer";
  info.version = FRINGE_VERSION;
  info.summary =
      "Simulates interferometer visibilities from an OSKAR-compatible settings file\n"
      "(see `sim_interferometer --settings` for every key).";
  info.schema_files = &fringe::settings::embedded_schemas();
  info.root_schema = "sim_interferometer.xml";
  return fringe::settings::run_app(
      argc, argv, info, [](Settings& s, Logger& log, const fringe::settings::RunOptions& options) {
        app::with_setting_keys(app::simulator_field_keys(), &log,
                               [&] { run(s, log, options, FRINGE_VERSION); });
      });
}
