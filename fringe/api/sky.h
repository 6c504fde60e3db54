// The sky model in the public API (docs/cpp_api.md, docs/python.md "Sky"): build an api::Sky
// from arrays, load it from OSKAR sky files or FITS images, generate, filter and write it.
// Units inside an api::Sky are SI and radians (sky/sky_model.h); the array helpers below use
// OSKAR's column units (degrees, Jy, Hz, arcsec) where they say so. Errors are fringe::Error
// naming the file, line or argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fringe/api/types.h"

namespace fringe::api {

// The columns of OSKAR's sky array (oskar.Sky.from_array / to_array), in order.
inline constexpr std::size_t kSkyArrayColumns = 12;
// Column names: ra_deg, dec_deg, I, Q, U, V [Jy], ref_freq_hz, spectral_index,
// rotation_measure [rad/m^2], major_arcsec, minor_arcsec, pa_deg (FWHM, PA East of North).
const std::vector<std::string>& sky_array_column_names();

// A sky from a row-major array of num_rows x num_cols values in OSKAR's column layout
// (num_cols 3..12; missing trailing columns are 0). Throws fringe::Error naming the row and
// column for a non-finite value, |Dec| > 90 deg, a negative FWHM or reference frequency.
Sky sky_from_array(std::span<const double> values, std::size_t num_rows, std::size_t num_cols);

// The sky as a row-major num_sources x 12 array in OSKAR's column layout (first spectral
// index term only; the rotation measure is 0 where the source has none).
std::vector<double> sky_to_array(const Sky& sky);

// Appends point or Gaussian sources given as columns in OSKAR's units (degrees, Jy, Hz,
// arcsec); every span but ra_deg, dec_deg and I may be empty (zeros); non-empty spans must
// have ra_deg.size() values. Throws fringe::Error naming the column on a length mismatch or
// a bad value.
struct SkyColumns {
  std::span<const double> ra_deg, dec_deg, I, Q, U, V, ref_freq_hz, spectral_index,
      rotation_measure, major_arcsec, minor_arcsec, pa_deg;
};
void append_sources(Sky& sky, const SkyColumns& columns);

// Options of load_sky.
struct SkyLoadOptions {
  bool strict = false;  // text files: malformed lines are errors instead of skipped warnings
  // FITS images and HEALPix maps (docs/sky_models.md): every kept pixel becomes a source.
  double spectral_index = 0.0;     // given to every source of a FITS image
  double min_peak_fraction = 0.0;  // pixels below this fraction of the peak are dropped
  double min_abs_val = 0.0;        // pixels below this value (map units) are dropped
};

// Loads a sky model file: OSKAR text (fixed-column .osm or named columns) or, for names
// ending in .fits/.fit/.fts (any case), a FITS image or HEALPix map (sky/image_to_sky.h).
// Warnings (skipped lines, ignored keywords) are appended to *warnings when given. Throws
// fringe::Error naming the file (and line) when it cannot be read or is malformed.
Sky load_sky(const std::string& path, const SkyLoadOptions& options = {},
             std::vector<std::string>* warnings = nullptr);

// Writes the sky as text: OSKAR's 12 fixed columns (named_columns = false) or fringe's named
// columns (every field kept). Output-safety rules (core/output_guard.h): an existing file is
// replaced only when it is an earlier sky model written by fringe; anything else there is
// refused with fringe::Error; the file is written under a temporary name and renamed.
void save_sky(const Sky& sky, const std::string& path, bool named_columns = false,
              std::vector<std::string>* warnings = nullptr);

// Sources with flux_min < I <= flux_max [Jy], I at the reference frequency (OSKAR's rule).
Sky filter_sky_by_flux(const Sky& sky, double flux_min_jy, double flux_max_jy);
// Sources with inner <= r < outer, r the great-circle distance [deg] from (ra0, dec0) [deg].
Sky filter_sky_by_radius(const Sky& sky, double inner_radius_deg, double outer_radius_deg,
                         double ra0_deg, double dec0_deg);

// side_length^2 point sources on a grid over fov_deg around (ra0, dec0) [deg], flux
// mean_flux_jy + std_flux_jy * N(0, 1) (sky/generators.h).
Sky generate_sky_grid(double ra0_deg, double dec0_deg, std::uint64_t side_length, double fov_deg,
                      double mean_flux_jy, double std_flux_jy, std::uint64_t seed = 1);
// num_sources point sources uniform on the sphere with dN/dS ~ S^power in
// [flux_min_jy, flux_max_jy].
Sky generate_sky_random_power_law(std::uint64_t num_sources, double flux_min_jy, double flux_max_jy,
                                  double power, std::uint64_t seed = 1);

}  // namespace fringe::api
