// The station-beam config fields (jones::StationBeamConfig) that the library names in errors,
// and the telescope settings keys they come from (field_keys.h). Shared by the simulator and
// beam-pattern apps, which read the same keys. Angles are held in radians but shown, like
// the keys, in degrees.
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& station_beam_field_keys() {
  static const FieldKeys keys = {
      {"StationBeamConfig.aperture_array.element_pattern.dipole_length",
       "telescope/aperture_array/element_pattern/dipole_length"},
      {"StationBeamConfig.aperture_array.element_pattern.taper_cosine_power",
       "telescope/aperture_array/element_pattern/taper/cosine_power"},
      {"StationBeamConfig.aperture_array.element_pattern.taper_gaussian_fwhm_rad",
       "telescope/aperture_array/element_pattern/taper/gaussian_fwhm_deg"},
      {"ElementPatternConfig.enable_numerical",
       "telescope/aperture_array/element_pattern/enable_numerical"},
      {"StationBeamConfig.gaussian.ref_freq_hz", "telescope/gaussian_beam/ref_freq_hz"},
      {"StationBeamConfig.gaussian.fwhm_rad", "telescope/gaussian_beam/fwhm_deg"},
      {"StationBeamConfig.gaussian.x.fwhm_major_rad", "telescope/gaussian_beam/x_fwhm_major_deg"},
      {"StationBeamConfig.gaussian.x.fwhm_minor_rad", "telescope/gaussian_beam/x_fwhm_minor_deg"},
      {"StationBeamConfig.gaussian.x.angle_rad", "telescope/gaussian_beam/x_angle_deg"},
      {"StationBeamConfig.gaussian.y.fwhm_major_rad", "telescope/gaussian_beam/y_fwhm_major_deg"},
      {"StationBeamConfig.gaussian.y.fwhm_minor_rad", "telescope/gaussian_beam/y_fwhm_minor_deg"},
      {"StationBeamConfig.gaussian.y.angle_rad", "telescope/gaussian_beam/y_angle_deg"},
  };
  return keys;
}

}  // namespace fringe::app
