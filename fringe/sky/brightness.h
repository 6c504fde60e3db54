// Map brightness units to Jy per pixel (docs/conventions.md, "Sky images (FITS, HEALPix)"):
//   Jy/beam  -> divide by the beam area in pixels, pi BMAJ BMIN / (4 ln 2 A_pix)
//               (a Gaussian beam of FWHM BMAJ x BMIN; A_pix the pixel area, same units);
//   K, mK    -> Rayleigh-Jeans: S = 2 k_B T Omega_pix / lambda^2 x 1e26 Jy.
// Also OSKAR's pixel selection: after finding the peak (max(0, max value)), pixels below
// min_peak_fraction x peak or below min_abs_val, zero and blank (NaN) pixels are dropped.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/sky/sky_config.h"

namespace fringe::sky {

// "JY/BEAM", "Jy/beam", "JY/PIXEL", "K", "mK" (case-insensitive); nullopt otherwise.
std::optional<MapUnits> parse_map_units(std::string_view text);
std::string to_string(MapUnits units);

// Jy per pixel per kelvin at freq_hz for a pixel of solid angle omega_sr.
double kelvin_to_jy_per_pixel(double freq_hz, double omega_sr);

// Beam area in pixels for a Gaussian beam (bmaj, bmin FWHM) and pixel area, same angle units.
double beam_area_pixels(double bmaj, double bmin, double pixel_area);

// keep[i] for OSKAR's threshold rule (values in map units).
std::vector<std::uint8_t> pixel_selection(std::span<const double> values, double min_peak_fraction,
                                          double min_abs_val);

}  // namespace fringe::sky
