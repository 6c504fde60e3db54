#include "fringe/app/sim_summary.h"

#include <string>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/datetime.h"
#include "fringe/settings/app_cli.h"
#include "fringe/sim/interferometer.h"

namespace fringe::app {
namespace {

using settings::format_number;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

void log_observation(const astro::ObservationConfig& o, Logger& log) {
  log.info("Observation");
  log.info(std::string("  mode: ") +
           (o.mode == astro::ObservationMode::Tracking ? "Tracking" : "Drift scan"));
  if (o.mode == astro::ObservationMode::DriftScan) {
    log.info("  phase centre: the zenith of the array centre (phase_centre_ra/dec_deg unused)");
  } else {
    log.info("  phase centre: RA " + format_number(o.phase_centre_ra * kRadToDeg) + " deg, Dec " +
             format_number(o.phase_centre_dec * kRadToDeg) + " deg");
  }
  const double f0 = o.start_frequency_hz, df = o.frequency_inc_hz;
  const int n = o.num_channels;
  log.info("  frequencies: " + std::to_string(n) + " channel(s) from " + format_number(f0 / 1e6) +
           " MHz, step " + format_number(df / 1e6) + " MHz (last " +
           format_number((f0 + (n - 1) * df) / 1e6) + " MHz)");
  // The start as the user wrote it, in its own style with zero-padded fields.
  const DateTime start = DateTime::parse(o.start_time_text);
  const int steps = o.num_time_steps;
  log.info("  times: " + std::to_string(steps) + " step(s) of " +
           format_number(o.length_sec / steps) + " s from " + start.to_string() + " UTC (MJD " +
           format_number(start.to_mjd()) + "), length " + format_number(o.length_sec) + " s");
}

void log_sky(const sky::SkyConfig& sky, Logger& log) {
  log.info("Sky");
  int inputs = 0;
  const std::pair<const char*, const std::vector<std::string>*> files[] = {
      {"sky/oskar_sky_model/file", &sky.oskar_sky_model.file},
      {"sky/fits_image/file", &sky.fits_image.file},
      {"sky/healpix_fits/file", &sky.healpix_fits.file},
  };
  for (const auto& [key, paths] : files) {
    if (!paths->empty()) {
      log.info(std::string("  ") + key + ": " + join(*paths));
      ++inputs;
    }
  }
  const auto& g = sky.generator;
  const std::pair<const char*, std::uint64_t> generators[] = {
      {"sky/generator/random_power_law/num_sources", g.random_power_law.num_sources},
      {"sky/generator/random_broken_power_law/num_sources", g.random_broken_power_law.num_sources},
      {"sky/generator/grid/side_length", g.grid.side_length},
      {"sky/generator/healpix/nside", g.healpix.nside},
  };
  for (const auto& [key, count] : generators) {
    if (count > 0) {
      log.info(std::string("  ") + key + ": " + std::to_string(count));
      ++inputs;
    }
  }
  if (inputs == 0) log.warning("  no sky model input is set: the sky is empty");
}

void log_telescope(const sim::SimulationConfig& c, Logger& log) {
  log.info("Telescope");
  log.info("  model: " + c.telescope_directory);
  log.info(std::string("  station type: ") + jones::to_string(c.beam.station_type));
  log.info(std::string("  polarisation: ") +
           (c.pol_mode == jones::PolarisationMode::Full ? "Full" : "Scalar"));
  if (c.beam.station_type == jones::StationType::ApertureArray) {
    const jones::ElementPatternConfig& e = c.beam.aperture_array.element_pattern;
    std::string element = "Isotropic (unpolarised)";
    if (e.functional_type == jones::ElementFunctionalType::Dipole) {
      element = "Dipole (length " + format_number(e.dipole_length) + " " +
                (e.dipole_length_in_wavelengths ? "Wavelengths" : "Metres") + ")";
    }
    if (e.taper == jones::ElementTaper::Cosine) element += ", Cosine taper";
    if (e.taper == jones::ElementTaper::Gaussian) element += ", Gaussian taper";
    log.info("  element pattern: " + element);
    log.info(std::string("  array factor: ") +
             (c.beam.aperture_array.array_pattern.enable ? "on" : "off") +
             ", beams normalised at the phase centre: " + yes_no(c.beam.normalise_at_phase_centre) +
             ", one beam per station model: " + yes_no(c.beam.allow_station_beam_duplication));
  }
  if (!c.pointing_file.empty()) log.info("  pointing file: " + c.pointing_file);
}

}  // namespace

void log_summary(const sim::SimulationConfig& config, const sky::SkyConfig& sky, Logger& log) {
  log_observation(config.observation, log);
  log_sky(sky, log);
  log_telescope(config, log);
  log.info("Output");
  if (!config.ms_path.empty()) log.info("  interferometer/ms_filename: " + config.ms_path);
  if (!config.vis_path.empty()) {
    log.info("  interferometer/oskar_vis_filename: " + config.vis_path);
  }
}

void log_simulation_plan(const sim::SimulationConfig& c, Logger& log) {
  log.info("Simulation");
  log.info(std::string("  precision: ") + (c.precision == Precision::Double ? "double" : "single") +
           ", polarisation: " + (c.pol_mode == jones::PolarisationMode::Full ? "Full" : "Scalar") +
           ", products: " +
           (c.write_cross && c.write_autos ? "cross + auto"
            : c.write_cross                ? "cross"
                                           : "auto"));
  const std::string threads = std::to_string(sim::resolve_num_threads(c)) + " CPU thread(s)";
  log.info((c.devices.use_gpus ? "  devices: the GPUs (simulator/use_gpus), else " + threads
                               : "  devices: " + threads) +
           ", blocks of <= " + std::to_string(c.times_per_block()) + " time(s) x " +
           std::to_string(c.channels_per_block()) +
           " channel(s), sky chunks of <= " + std::to_string(c.max_sources_per_chunk) + " sources");
  log.info("  smearing: bandwidth " + format_number(c.channel_bandwidth_hz) + " Hz, time " +
           format_number(c.time_average_sec) + " s");
}

}  // namespace fringe::app
