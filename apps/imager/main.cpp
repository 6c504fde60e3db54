// imager: reads an OSKAR-compatible imager settings file (app imager, also accepted from
// oskar_imager), validates it, images the Measurement Set(s) with Image-Domain Gridding on a
// GPU or the CPU (or the DFT) and writes one FITS image per product, named from
// image/root_path (docs/imager.md). The log ends with the counts and the time of each stage.
#include <cmath>
#include <iostream>
#include <string>

#include "fringe/app/field_keys.h"
#include "fringe/app/imager_settings.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/log.h"
#include "fringe/core/progress.h"
#include "fringe/core/timer.h"
#include "fringe/imager/imager.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/settings.h"

namespace {

using fringe::Logger;
using fringe::settings::format_number;
using fringe::settings::Settings;
namespace im = fringe::imager;

void run(Settings& s, Logger& log, const fringe::settings::RunOptions& options) {
  fringe::Timer wall;
  wall.start();
  log.info("Settings are valid.");
  im::ImagerConfig config;
  try {
    config = fringe::app::imager_config(s);
  } catch (const fringe::Error& e) {
    throw fringe::settings::InputError(e);
  }
  config.force = options.force;
  config.strict = options.strict;
  constexpr double kArcsec = fringe::kRadToDeg * 3600.0;
  log.info("Imager");
  for (const auto& ms : config.input_ms) log.info("  input: " + ms + " (" + config.ms_column + ")");
  log.info("  image: " + std::to_string(config.size) + " x " + std::to_string(config.size) +
           " pixels of " + format_number(config.cell_rad * kArcsec) + " arcsec, product " +
           im::to_string(config.image_type) +
           (config.channel_snapshots ? ", one plane per channel" : ", all channels together"));
  log.info(
      std::string("  algorithm: ") + im::to_string(config.algorithm) +
      (config.algorithm == im::Algorithm::Idg
           ? ", subgrid " + std::to_string(config.idg.subgrid_size) + ", kernel " +
                 std::to_string(config.idg.kernel_size) + ", taper support " +
                 std::to_string(config.idg.taper_support) + ", padding " +
                 format_number(config.idg.padding) +
                 (config.idg.aterms.mode == im::ATermMode::StationBeams ? ", A-terms: station beams"
                                                                        : std::string())
       : config.algorithm == im::Algorithm::Fft
           ? std::string(config.fft.kernel == im::ConvKernelType::Pillbox ? ", pillbox"
                                                                          : ", spheroidal") +
                 " kernel, support " + std::to_string(config.fft.support) + ", oversample " +
                 std::to_string(config.fft.oversample)
           : std::string()) +
      ", " + (config.precision == fringe::Precision::Double ? "double" : "single") + " precision");
  fringe::TerminalProgress bar(std::cout);
  fringe::ProgressCallback progress;
  if (!options.quiet) progress = bar.callback();
  im::ImagerResult r;
  try {
    r = im::run(config, progress, &log);
  } catch (const fringe::interrupt::Cancelled&) {
    bar.finish();
    throw;  // exit 128 + signal (run_app)
  } catch (const im::RunFailure&) {
    bar.finish();
    throw;  // the run failed (out of memory, a FITS write): exit 1
  } catch (const fringe::Error& e) {
    bar.finish();
    // Missing files, empty selections, oversized images and output paths that hold something
    // else are bad input (exit 2).
    throw fringe::settings::InputError(e);
  }
  bar.finish();
  log.info("Imaged on " + r.device + ": " + std::to_string(r.num_gridded) + " of " +
           std::to_string(r.num_visibilities) + " visibilities (" + std::to_string(r.num_flagged) +
           " flagged, " + std::to_string(r.num_outside) + " outside the uv range or the grid" +
           (r.num_non_finite > 0 ? ", " + std::to_string(r.num_non_finite) + " skipped as NaN/Inf"
                                 : std::string()) +
           "); grid " + std::to_string(r.grid_size) + " x " + std::to_string(r.grid_size) +
           (config.algorithm == im::Algorithm::Idg
                ? ", " + std::to_string(r.num_subgrids) + " subgrids, " +
                      std::to_string(r.num_w_layers) + " w layer(s)"
                : std::string()));
  const double wall_s = wall.seconds();
  log.info("Time: read " + format_number(r.seconds_read) + " s, image " +
           format_number(r.seconds_grid) + " s, write " + format_number(r.seconds_write) +
           " s, total " + format_number(wall_s) + " s");
  // Each stage's share, and the rate end to end (selected visibilities per second of the run).
  auto stages = r.stages;
  if (stages.empty())
    stages = {{"read", r.seconds_read}, {"image", r.seconds_grid}, {"write", r.seconds_write}};
  std::string line, json;
  for (const auto& [name, sec] : stages) {
    line += (line.empty() ? "" : ", ") + name + " " + format_number(sec) + " s (" +
            format_number(std::round(1000.0 * sec / wall_s) / 10.0) + " %)";
    json += std::string(json.empty() ? "" : ",") + "\"" + name + "\":" + format_number(sec);
  }
  const double rate = wall_s > 0 ? double(r.num_visibilities) / wall_s : 0.0;
  log.info("Stages: " + line + "; " + format_number(rate) + " visibilities/s end to end");
  if (options.timing)
    std::cout << "{\"app\":\"imager\",\"algorithm\":\"" << im::to_string(config.algorithm)
              << "\",\"device\":\"" << r.device << "\",\"visibilities\":" << r.num_visibilities
              << ",\"wall_s\":" << format_number(wall_s)
              << ",\"visibilities_per_s\":" << format_number(rate) << ",\"stages\":{" << json
              << "}}" << std::endl;
  log.info("Output files (" + std::to_string(r.files.size()) + "):");
  for (const auto& f : r.files) log.info("  " + f);
}

// The embedded schemas, the telescope group enabled by image/idg/aterms = Station beams.
const fringe::settings::SchemaFiles& imager_schema_files() {
  static const fringe::settings::SchemaFiles files =
      fringe::app::imager_schema_files(fringe::settings::embedded_schemas());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  fringe::settings::AppInfo app;
  app.name = "imager";
  app.oskar_name = "oskar_imager";
  app.version = FRINGE_VERSION;
  app.summary =
      "Makes dirty images (FITS) from Measurement Sets with Image-Domain Gridding\n"
      "(see `imager --settings` for every key).";
  app.schema_files = &imager_schema_files();
  app.root_schema = "imager.xml";
  return fringe::settings::run_app(
      argc, argv, app, [](Settings& s, Logger& log, const fringe::settings::RunOptions& options) {
        fringe::app::with_setting_keys(fringe::app::imager_field_keys(), &log,
                                       [&] { run(s, log, options); });
      });
}
