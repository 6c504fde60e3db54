#include "fringe/app/beam_pattern_summary.h"

#include <fstream>
#include <string>

#include "fringe/app/beam_pattern_settings.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/settings/app_cli.h"

namespace fringe::app {
namespace {

using namespace fringe::beam_pattern;
using settings::format_number;

std::string averaging_text(const BeamPatternConfig& c) {
  std::string s;
  auto add = [&](const char* what) { s += (s.empty() ? "" : ", ") + std::string(what); };
  if (c.separate) add("separate times and channels");
  if (c.average_all) add("averaged over times and channels");
  if (c.average_axis == AverageAxis::Time) add("averaged over time");
  if (c.average_axis == AverageAxis::Channel) add("averaged over channels");
  return s.empty() ? "none" : s;
}

}  // namespace

void log_beam_pattern_summary(const BeamPatternConfig& c, Logger& log) {
  const ObservationConfig& o = c.observation;
  log.info("Observation");
  log.info(std::string("  mode: ") +
           (o.mode == ObservationMode::Tracking ? "Tracking" : "Drift scan"));
  log.info("  phase centre: RA " + format_number(o.phase_centre_ra * kRadToDeg) + " deg, Dec " +
           format_number(o.phase_centre_dec * kRadToDeg) + " deg" +
           (o.mode == ObservationMode::DriftScan
                ? " (drift scan: OSKAR's azimuth 0, elevation 90 deg read as RA/Dec; beams at "
                  "the zenith)"
                : ""));
  log.info("  frequencies: " + std::to_string(o.num_channels) + " channel(s) from " +
           format_number(o.start_frequency_hz / 1e6) + " MHz, step " +
           format_number(o.frequency_inc_hz / 1e6) + " MHz");
  log.info("  times: " + std::to_string(o.num_time_steps) + " step(s) of " +
           format_number(o.interval_sec()) + " s from " + o.start_time_text + " UTC (MJD " +
           format_number(o.start_mjd_utc) + ")");
  log.info("Telescope");
  log.info("  model: " + c.telescope_directory);
  log.info(std::string("  station type: ") + jones::to_string(c.beam.station_type) +
           ", polarisation: " + (c.pol_mode == PolarisationMode::Full ? "Full" : "Scalar"));
  if (c.beam.station_type == jones::StationType::ApertureArray) {
    const auto& e = c.beam.aperture_array.element_pattern;
    log.info(std::string("  element pattern: ") +
             (e.functional_type == jones::ElementFunctionalType::Dipole
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
  log.info(std::string("  precision: ") + (c.precision == Precision::Double ? "double" : "single") +
           ", chunks of <= " + std::to_string(c.max_pixels_per_chunk) + " pixels");
}

void write_beam_pattern_log(const std::string& path, const Logger& log) {
  OutputTarget target;
  target.key = "simulator/keep_log_file";
  target.path = path;
  target.kind = OutputKind::Text;
  target.text_signature = kBeamPatternLogSignature;
  TemporaryOutput temp(target);
  {
    std::ofstream out(temp.path());
    out << kBeamPatternLogSignature << '\n';
    for (const auto& line : log.history()) out << line << '\n';
    out.close();
    if (!out) throw Error("cannot write the log file '" + path + "'");
  }
  temp.commit();
}

}  // namespace fringe::app
