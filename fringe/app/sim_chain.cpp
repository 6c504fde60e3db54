#include "fringe/app/sim_chain.h"

#include <string>
#include <utility>

#include "fringe/app/calibrate_settings.h"
#include "fringe/app/imager_settings.h"
#include "fringe/app/simulation_settings.h"
#include "fringe/astro/observation.h"
#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/core/timer.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/settings/app_cli.h"

namespace fringe::app {

using settings::format_number;

ChainConfig chain_config(const settings::Settings& s, bool force, bool strict) {
  ChainConfig c;
  c.simulation = simulation_config(s);
  const bool chained =
      s.get_bool("interferometer/calibrate_output") || s.get_bool("interferometer/image_output");
  if (chained && c.simulation.ms_path.empty()) {
    throw Error::in_setting("interferometer/ms_filename", "",
                            "calibrate_output and image_output work on the simulated "
                            "Measurement Set: give interferometer/ms_filename");
  }
  if (chained && c.simulation.observation.mode == astro::ObservationMode::DriftScan) {
    // The MS of a drift scan holds OSKAR's zenith pair (0, 90 deg) where calibration and
    // imaging read an RA/Dec phase centre, and its UVW are East-North-Up: both would be wrong.
    throw Error::in_setting("observation/mode", "Drift scan",
                            "interferometer/calibrate_output and image_output need an RA/Dec "
                            "phase centre (Tracking): a drift scan's Measurement Set is phased "
                            "to the zenith (docs/simulation.md, \"Drift scan\")");
  }
  const std::string ms =
      c.simulation.ms_path.empty() ? "" : io::ms_output_path(c.simulation.ms_path);
  if (s.get_bool("interferometer/calibrate_output")) {
    c.calibration = calibrate_config(s, ms);
    c.calibration->force = force;
  }
  if (s.get_bool("interferometer/image_output")) {
    c.imaging = imager_config(s, ms);
    c.imaging->force = force;
    c.imaging->strict = strict;
    if (c.calibration && c.calibration->write_corrected && !s.is_given("image/ms_column")) {
      c.imaging->ms_column = "CORRECTED_DATA";
    }
  }
  return c;
}

ChainResult run_chain(const ChainConfig& config, sky::SkyModel sky,
                      const telescope::TelescopeModel& telescope, const ChainContext& context) {
  Logger* log = context.simulation.logger;
  ChainResult result;
  result.simulation = sim::simulate_interferometer(config.simulation, std::move(sky), telescope,
                                                   context.simulation);
  if (!result.simulation.ms_path.empty()) {
    log_info(log, "Measurement Set: " + result.simulation.ms_path + " (" +
                      std::to_string(result.simulation.num_rows) + " rows)");
  }
  if (!result.simulation.vis_path.empty()) {
    log_info(log, "OSKAR visibility file: " + result.simulation.vis_path);
  }
  if (config.calibration) {
    const calibrate::CalibrateMsConfig& cal = *config.calibration;
    log_info(log, "Calibrating " + cal.ms_path + " (interferometer/calibrate_output)...");
    const calibrate::CalibrateMsResult& r =
        result.calibration.emplace(calibrate::calibrate_ms(cal, log));
    log_info(log, "Calibration (" + r.backend + "): " + std::to_string(r.num_cells) + " cell(s), " +
                      std::to_string(r.num_converged) + " converged, mean " +
                      format_number(r.mean_iterations) + " iterations; residual RMS before " +
                      format_number(r.rms_before) + " Jy, after " + format_number(r.rms_after) +
                      " Jy");
    log_info(log, "Gains: " + r.gains_path + " and " + r.gains_path + ".csv");
    if (r.num_max_iterations > 0) {
      log_warning(log, std::to_string(r.num_max_iterations) +
                           " cell(s) reached calibrate/max_iterations without converging");
    }
  }
  if (config.imaging) {
    const imager::ImagerConfig& im = *config.imaging;
    log_info(log, "Imaging " + im.input_ms.front() + " (" + im.ms_column +
                      ", interferometer/image_output)...");
    Timer t;
    t.start();
    const imager::ImagerResult& r =
        result.imaging.emplace(imager::run(im, context.imaging_progress, log));
    if (context.imaging_done) context.imaging_done();
    log_info(log, "Imaged " + std::to_string(r.num_gridded) + " visibilities on " + r.device +
                      " in " + format_number(t.seconds()) + " s:");
    for (const auto& f : r.files) log_info(log, "  " + f);
  }
  return result;
}

}  // namespace fringe::app
