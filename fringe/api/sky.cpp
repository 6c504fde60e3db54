#include "fringe/api/sky.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/sky/filters.h"
#include "fringe/sky/generators.h"
#include "fringe/sky/image_to_sky.h"
#include "fringe/sky/sky_text_reader.h"
#include "fringe/sky/sky_writer.h"

namespace fringe::api {
namespace {

// One radian in arcseconds, as the .osm writer converts FWHM (sky/sky_writer.cpp).
constexpr double kRadToArcsec = kRadToDeg * 3600.0;

std::string number(double v) {
  std::string s = std::to_string(v);
  return std::isfinite(v) ? s : (std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
}

// One source from OSKAR's 12 column values (degrees, Jy, Hz, arcsec); `where` names it.
sky::Source source_from_columns(const double (&v)[kSkyArrayColumns], const std::string& where) {
  const auto& names = sky_array_column_names();
  for (std::size_t c = 0; c < kSkyArrayColumns; ++c)
    if (!std::isfinite(v[c]))
      throw Error(where + ", column '" + names[c] + "': value " + number(v[c]) +
                  " is not a finite number");
  auto bad = [&](std::size_t c, const std::string& what) {
    throw Error(where + ", column '" + names[c] + "': value " + number(v[c]) + " " + what);
  };
  if (std::fabs(v[1]) > 90.0) bad(1, "is outside [-90, 90] deg");
  if (v[6] < 0.0) bad(6, "is negative (a reference frequency in Hz)");
  if (v[9] < 0.0) bad(9, "is negative (a FWHM in arcsec)");
  if (v[10] < 0.0) bad(10, "is negative (a FWHM in arcsec)");
  return sky::source_from_osm_columns(v);
}

bool is_fits_name(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* ext : {".fits", ".fit", ".fts"}) {
    const std::string e(ext);
    if (lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0)
      return true;
  }
  return false;
}

}  // namespace

const std::vector<std::string>& sky_array_column_names() {
  static const std::vector<std::string> names{"ra_deg",
                                              "dec_deg",
                                              "I",
                                              "Q",
                                              "U",
                                              "V",
                                              "ref_freq_hz",
                                              "spectral_index",
                                              "rotation_measure",
                                              "major_arcsec",
                                              "minor_arcsec",
                                              "pa_deg"};
  return names;
}

Sky sky_from_array(std::span<const double> values, std::size_t num_rows, std::size_t num_cols) {
  if (num_cols < 3 || num_cols > kSkyArrayColumns)
    throw Error("sky array: " + std::to_string(num_cols) +
                " columns given; expected 3 to 12 (RA, Dec, I, then optional Q, U, V, "
                "reference frequency, spectral index, RM, FWHM major, minor, PA)");
  if (values.size() != num_rows * num_cols)
    throw Error("sky array: " + std::to_string(values.size()) + " values for " +
                std::to_string(num_rows) + " x " + std::to_string(num_cols));
  Sky sky;
  sky.reserve(num_rows);
  for (std::size_t r = 0; r < num_rows; ++r) {
    double v[kSkyArrayColumns] = {};
    std::copy_n(values.data() + r * num_cols, num_cols, v);
    sky.push_back(source_from_columns(v, "sky array row " + std::to_string(r)));
  }
  return sky;
}

std::vector<double> sky_to_array(const Sky& sky) {
  const std::size_t n = sky.size();
  std::vector<double> out(n * kSkyArrayColumns);
  for (std::size_t i = 0; i < n; ++i) {
    double* row = out.data() + i * kSkyArrayColumns;
    row[0] = sky.ra[i] * kRadToDeg;
    row[1] = sky.dec[i] * kRadToDeg;
    row[2] = sky.I[i];
    row[3] = sky.Q[i];
    row[4] = sky.U[i];
    row[5] = sky.V[i];
    row[6] = sky.ref_freq[i];
    row[7] = sky.spectral_index.count(i) ? sky.spectral_index.row(i)[0] : 0.0;
    row[8] = (sky.flags[i] & sky::kHasRotationMeasure) ? sky.rotation_measure[i] : 0.0;
    row[9] = sky.fwhm_major[i] * kRadToArcsec;
    row[10] = sky.fwhm_minor[i] * kRadToArcsec;
    row[11] = sky.position_angle[i] * kRadToDeg;
  }
  return out;
}

void append_sources(Sky& sky, const SkyColumns& c) {
  const std::span<const double> cols[kSkyArrayColumns] = {c.ra_deg,
                                                          c.dec_deg,
                                                          c.I,
                                                          c.Q,
                                                          c.U,
                                                          c.V,
                                                          c.ref_freq_hz,
                                                          c.spectral_index,
                                                          c.rotation_measure,
                                                          c.major_arcsec,
                                                          c.minor_arcsec,
                                                          c.pa_deg};
  const auto& names = sky_array_column_names();
  const std::size_t n = c.ra_deg.size();
  for (std::size_t k = 0; k < kSkyArrayColumns; ++k) {
    const bool required = k < 3;
    if ((required || !cols[k].empty()) && cols[k].size() != n)
      throw Error("sky columns: '" + names[k] + "' has " + std::to_string(cols[k].size()) +
                  " values, 'ra_deg' has " + std::to_string(n));
  }
  Sky added;
  added.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    double v[kSkyArrayColumns] = {};
    for (std::size_t k = 0; k < kSkyArrayColumns; ++k)
      if (!cols[k].empty()) v[k] = cols[k][i];
    added.push_back(source_from_columns(v, "source " + std::to_string(i)));
  }
  sky.append(added);  // all or nothing: a bad value leaves `sky` as it was
}

Sky load_sky(const std::string& path, const SkyLoadOptions& options,
             std::vector<std::string>* warnings) {
  sky::Diagnostics diagnostics;
  diagnostics.warnings = warnings;
  if (is_fits_name(path)) {
    sky::ImageToSkyOptions o;
    o.spectral_index = options.spectral_index;
    o.min_peak_fraction = options.min_peak_fraction;
    o.min_abs_val = options.min_abs_val;
    o.diagnostics = diagnostics;
    return sky::read_image_as_sky(path, o);
  }
  sky::TextReadOptions o;
  o.strict = options.strict;
  o.diagnostics = diagnostics;
  return sky::read_sky_text(path, o);
}

void save_sky(const Sky& sky, const std::string& path, bool named_columns,
              std::vector<std::string>* warnings) {
  sky.check_consistent();
  sky::Diagnostics diagnostics;
  diagnostics.warnings = warnings;
  if (named_columns) {
    sky::TextOutputConfig config;
    config.file = path;
    config.use_named_columns = true;
    sky::write_sky_named_columns(sky, path, config);
  } else {
    sky::write_sky_fixed_columns(sky, path, diagnostics);
  }
}

Sky filter_sky_by_flux(const Sky& sky, double flux_min_jy, double flux_max_jy) {
  if (std::isnan(flux_min_jy) || std::isnan(flux_max_jy))
    throw Error("filter_by_flux: the flux limits must not be NaN");
  return sky.select(sky::flux_filter_mask(sky, flux_min_jy, flux_max_jy));
}

Sky filter_sky_by_radius(const Sky& sky, double inner_radius_deg, double outer_radius_deg,
                         double ra0_deg, double dec0_deg) {
  if (!std::isfinite(inner_radius_deg) || !std::isfinite(ra0_deg) || !std::isfinite(dec0_deg) ||
      std::isnan(outer_radius_deg))
    throw Error("filter_by_radius: the radii and the centre must be finite numbers (deg)");
  if (std::fabs(dec0_deg) > 90.0)
    throw Error("filter_by_radius: centre Dec " + number(dec0_deg) + " deg is outside [-90, 90]");
  return sky.select(sky::radius_filter_mask(sky, ra0_deg * kDegToRad, dec0_deg * kDegToRad,
                                            inner_radius_deg * kDegToRad,
                                            outer_radius_deg * kDegToRad));
}

Sky generate_sky_grid(double ra0_deg, double dec0_deg, std::uint64_t side_length, double fov_deg,
                      double mean_flux_jy, double std_flux_jy, std::uint64_t seed) {
  sky::GridConfig c;
  c.side_length = side_length;
  c.fov_rad = fov_deg * kDegToRad;
  c.mean_flux_jy = mean_flux_jy;
  c.std_flux_jy = std_flux_jy;
  c.seed = seed;
  return sky::generate_grid(c, ra0_deg * kDegToRad, dec0_deg * kDegToRad);
}

Sky generate_sky_random_power_law(std::uint64_t num_sources, double flux_min_jy, double flux_max_jy,
                                  double power, std::uint64_t seed) {
  sky::RandomPowerLawConfig c;
  c.num_sources = num_sources;
  c.flux_min = flux_min_jy;
  c.flux_max = flux_max_jy;
  c.power = power;
  c.seed = seed;
  return sky::generate_random_power_law(c);
}

}  // namespace fringe::api
