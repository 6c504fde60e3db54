// StationBeamConfig: the typed form of the station-beam settings of sim_interferometer (what
// sim/ fills from the settings; this library never sees a key string). Angles in radians,
// frequencies in Hz. Mapping (settings key -> field, unit conversion):
//
//   telescope/station_type                     -> station_type
//       "Aperture array" -> ApertureArray, "Isotropic beam" -> Isotropic,
//       "Gaussian beam" -> Gaussian, "VLA (PBCOR)" -> VlaPbcor
//   telescope/normalise_beams_at_phase_centre  -> normalise_at_phase_centre
//   telescope/gaussian_beam/elliptical         -> gaussian.elliptical
//   telescope/gaussian_beam/ref_freq_hz        -> gaussian.ref_freq_hz      (Hz, as is)
//   telescope/gaussian_beam/fwhm_deg           -> gaussian.fwhm_rad         (deg -> rad)
//   telescope/gaussian_beam/x_fwhm_major_deg   -> gaussian.x.fwhm_major_rad (deg -> rad)
//   telescope/gaussian_beam/x_fwhm_minor_deg   -> gaussian.x.fwhm_minor_rad (deg -> rad)
//   telescope/gaussian_beam/x_angle_deg        -> gaussian.x.angle_rad      (deg -> rad)
//   telescope/gaussian_beam/y_...              -> gaussian.y.... (the same for the Y feed)
//
// Meaning (oskar-compat.md 1.4, 5, 11): a Gaussian beam has FWHM * ref_freq_hz / f at
// frequency f when ref_freq_hz > 0, and the FWHM as given when ref_freq_hz == 0 (OSKAR scales
// only when the reference frequency is non-zero). The ellipse angle is defined in
// jones_math.h (tangent-plane axes). Polarisation mode (telescope/pol_mode) is not part of
// this struct: it picks which evaluate_* function of station_jones.h the pipeline calls.
#pragma once

#include <string>

namespace fringe::jones {

enum class StationType { ApertureArray, Isotropic, Gaussian, VlaPbcor };

// The option text of telescope/station_type for a type (for messages).
const char* to_string(StationType type);

// One feed's elliptical Gaussian at the reference frequency.
struct GaussianEllipse {
  double fwhm_major_rad = 0.0;
  double fwhm_minor_rad = 0.0;
  double angle_rad = 0.0;  // major axis from +m towards +l (jones_math.h)
};

struct GaussianBeamConfig {
  bool elliptical = false;
  double ref_freq_hz = 0.0;  // 0: the widths do not scale with frequency
  double fwhm_rad = 0.0;     // circular beam (elliptical == false)
  GaussianEllipse x;         // X feed (elliptical == true)
  GaussianEllipse y;         // Y feed (elliptical == true)
};

struct StationBeamConfig {
  StationType station_type = StationType::ApertureArray;  // OSKAR's default
  bool normalise_at_phase_centre = true;                  // OSKAR's default
  GaussianBeamConfig gaussian;
};

// Checks what the evaluation needs, so that bad values fail before any work. Throws
// fringe::Error::in_setting naming the settings key, its value (in the settings' units) and
// what is expected:
//  - station types Aperture array and VLA (PBCOR): "not supported yet";
//  - Gaussian: ref_freq_hz >= 0; circular fwhm in (0, 180) deg; elliptical: every major and
//    minor FWHM in (0, 180) deg and finite angles.
void validate(const StationBeamConfig& config);

}  // namespace fringe::jones
