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
//   telescope/allow_station_beam_duplication   -> allow_station_beam_duplication
//   telescope/aperture_array/array_pattern/{enable,normalise} -> aperture_array.array_pattern
//   telescope/aperture_array/element_pattern/... -> aperture_array.element_pattern (deg -> rad)
//   (array_pattern/element/* error overrides act on the telescope model:
//   telescope/element_errors.h)
//
// Meaning (docs/settings.md, docs/station_beams.md): a Gaussian beam has FWHM * ref_freq_hz / f at
// frequency f when ref_freq_hz > 0, and the FWHM as given when ref_freq_hz == 0 (OSKAR scales
// only when the reference frequency is non-zero). The ellipse angle is defined in
// jones_math.h (tangent-plane axes). Polarisation mode (telescope/pol_mode) is not part of
// this struct: it picks which evaluate_* function of station_jones.h the pipeline calls.
#pragma once

#include <cstdint>
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

// telescope/aperture_array/element_pattern/... (docs/settings.md, docs/station_beams.md).
enum class ElementFunctionalType { Dipole, Isotropic };
enum class ElementTaper { None, Cosine, Gaussian };

struct ElementPatternConfig {
  bool enable_numerical = true;  // use spherical-wave coefficient files of the model
  int max_order = 0;             // > 0: use orders l <= max_order of those files only
  ElementFunctionalType functional_type = ElementFunctionalType::Dipole;
  double dipole_length = 0.5;  // in wavelengths or metres (next field)
  bool dipole_length_in_wavelengths = true;
  ElementTaper taper = ElementTaper::None;
  double taper_cosine_power = 1.0;              // cos^p(theta)
  double taper_gaussian_fwhm_rad = 0.78539816;  // exp(-4 ln2 theta^2 / FWHM^2); 45 deg
  bool normalise = false;                       // divide by the pattern's value at the zenith
  bool swap_xy = false;                         // swap the X and Y feed patterns
};

// telescope/aperture_array/array_pattern/{enable, normalise} and the seed of the
// time-variable element errors (array_pattern/element/seed_time_variable_errors).
struct ArrayPatternConfig {
  bool enable = true;      // false: the element pattern alone
  bool normalise = false;  // divide the array factor by the number of elements
  std::uint64_t time_variable_seed = 1;
};

struct ApertureArrayConfig {
  ArrayPatternConfig array_pattern;
  ElementPatternConfig element_pattern;
};

struct StationBeamConfig {
  StationType station_type = StationType::ApertureArray;  // OSKAR's default
  bool normalise_at_phase_centre = true;                  // OSKAR's default
  bool allow_station_beam_duplication = false;            // one beam per station model
  GaussianBeamConfig gaussian;
  ApertureArrayConfig aperture_array;
};

// Checks what the evaluation needs, so that bad values fail before any work. Throws
// fringe::Error::in_field naming the config field ("StationBeamConfig.gaussian.fwhm_rad"; the
// app layer maps it to its settings key), its value in the settings' units (degrees for
// angles, as the user wrote it) and what is expected:
//  - station types Aperture array and VLA (PBCOR): "not supported yet";
//  - Gaussian: ref_freq_hz >= 0; circular fwhm in (0, 180) deg; elliptical: every major and
//    minor FWHM in (0, 180) deg and finite angles.
void validate(const StationBeamConfig& config);

}  // namespace fringe::jones
