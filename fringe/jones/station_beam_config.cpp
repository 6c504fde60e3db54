#include "fringe/jones/station_beam_config.h"

#include <cmath>
#include <sstream>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::jones {

namespace {

std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// An FWHM (rad) must lie in (0, pi): sin(FWHM) is the tangent-plane width. `field` names the
// config field; the value is shown in degrees, as the user gives it.
void check_fwhm(const char* field, double fwhm_rad) {
  if (!(fwhm_rad > 0.0 && fwhm_rad < kPi)) {
    throw Error::in_field(field, number(fwhm_rad * kRadToDeg),
                          "expected a full width at half maximum greater than 0 and less "
                          "than 180 degrees for Gaussian station beams");
  }
}

void check_angle(const char* field, double angle_rad) {
  if (!std::isfinite(angle_rad)) {
    throw Error::in_field(field, number(angle_rad * kRadToDeg),
                          "expected a finite angle in degrees");
  }
}

void validate_aperture_array(const ApertureArrayConfig& a) {
  const ElementPatternConfig& p = a.element_pattern;
  if (p.functional_type == ElementFunctionalType::Dipole &&
      !(p.dipole_length > 0.0 && std::isfinite(p.dipole_length))) {
    throw Error::in_field("StationBeamConfig.aperture_array.element_pattern.dipole_length",
                          number(p.dipole_length), "expected a dipole length greater than 0");
  }
  if (p.taper == ElementTaper::Cosine &&
      !(p.taper_cosine_power >= 0.0 && std::isfinite(p.taper_cosine_power))) {
    throw Error::in_field("StationBeamConfig.aperture_array.element_pattern.taper_cosine_power",
                          number(p.taper_cosine_power), "expected a cosine taper power >= 0");
  }
  if (p.taper == ElementTaper::Gaussian &&
      !(p.taper_gaussian_fwhm_rad > 0.0 && std::isfinite(p.taper_gaussian_fwhm_rad))) {
    throw Error::in_field(
        "StationBeamConfig.aperture_array.element_pattern.taper_gaussian_fwhm_rad",
        number(p.taper_gaussian_fwhm_rad * kRadToDeg),
        "expected a Gaussian taper FWHM greater than 0 degrees");
  }
}

}  // namespace

const char* to_string(StationType type) {
  switch (type) {
    case StationType::ApertureArray:
      return "Aperture array";
    case StationType::Isotropic:
      return "Isotropic beam";
    case StationType::Gaussian:
      return "Gaussian beam";
    case StationType::VlaPbcor:
      return "VLA (PBCOR)";
  }
  return "unknown";
}

void validate(const StationBeamConfig& config) {
  switch (config.station_type) {
    case StationType::Isotropic:
    case StationType::VlaPbcor:
      return;
    case StationType::ApertureArray:
      validate_aperture_array(config.aperture_array);
      return;
    case StationType::Gaussian:
      break;
  }
  const GaussianBeamConfig& g = config.gaussian;
  if (!(g.ref_freq_hz >= 0.0) || !std::isfinite(g.ref_freq_hz)) {
    throw Error::in_field("StationBeamConfig.gaussian.ref_freq_hz", number(g.ref_freq_hz),
                          "expected a reference frequency >= 0 Hz (0: no frequency scaling)");
  }
  if (!g.elliptical) {
    check_fwhm("StationBeamConfig.gaussian.fwhm_rad", g.fwhm_rad);
    return;
  }
  check_fwhm("StationBeamConfig.gaussian.x.fwhm_major_rad", g.x.fwhm_major_rad);
  check_fwhm("StationBeamConfig.gaussian.x.fwhm_minor_rad", g.x.fwhm_minor_rad);
  check_angle("StationBeamConfig.gaussian.x.angle_rad", g.x.angle_rad);
  check_fwhm("StationBeamConfig.gaussian.y.fwhm_major_rad", g.y.fwhm_major_rad);
  check_fwhm("StationBeamConfig.gaussian.y.fwhm_minor_rad", g.y.fwhm_minor_rad);
  check_angle("StationBeamConfig.gaussian.y.angle_rad", g.y.angle_rad);
}

}  // namespace fringe::jones
