// Typed configuration of the sky: what sim/ fills from the `sky/...` settings keys
// (docs/settings.md). The library never sees key strings; each struct below is one
// settings group and each field is one key, named after the key with its unit converted to SI:
//
//   sky/oskar_sky_model/file                       -> SkyConfig::oskar_sky_model.file
//   sky/<group>/filter/flux_min ("min" = -inf)     -> <group>.filter.flux_min        [Jy]
//   sky/<group>/filter/flux_max ("max" = +inf)     -> <group>.filter.flux_max        [Jy]
//   sky/<group>/filter/radius_inner_deg            -> <group>.filter.radius_inner_rad
//   sky/<group>/filter/radius_outer_deg            -> <group>.filter.radius_outer_rad
//   sky/<group>/extended_sources/FWHM_major [arcsec] -> <group>.extended_sources.fwhm_major_rad
//   sky/<group>/extended_sources/FWHM_minor [arcsec] -> <group>.extended_sources.fwhm_minor_rad
//   sky/<group>/extended_sources/position_angle [deg] ->
//   <group>.extended_sources.position_angle_rad sky/fits_image/{file, default_map_units,
//   spectral_index, min_peak_fraction, min_abs_val,
//                   override_map_units}            -> SkyConfig::fits_image.<same name>
//   sky/healpix_fits/{..., coord_sys, freq_hz}     -> SkyConfig::healpix_fits.<same name>
//   sky/generator/random_power_law/{num_sources, flux_min, flux_max, seed, power}
//                                                  -> SkyConfig::generator.random_power_law.<same>
//   sky/generator/random_broken_power_law/{..., power1, power2, threshold}
//                                                  -> SkyConfig::generator.random_broken_power_law
//   sky/generator/grid/{side_length, fov_deg, mean_flux_jy, std_flux_jy, seed}
//                                                  -> SkyConfig::generator.grid.{..., fov_rad, ...}
//   sky/generator/healpix/{nside, amplitude}       -> SkyConfig::generator.healpix.<same>
//   sky/spectral_index/{override, ref_frequency_hz, mean, std_dev, seed}
//                                                  -> SkyConfig::spectral_index.<same>
//   sky/common_flux_filter/{flux_min, flux_max}    -> SkyConfig::common_flux_filter.<same>
//   sky/advanced/{zero_failed_gaussians, apply_horizon_clip} -> SkyConfig::advanced.<same>
//   sky/output_text_file (+ use_named_columns, use_ska_convention, use_degrees,
//       write_format_wrapper, write_name, write_quoted_vectors, write_type)
//                                                  -> SkyConfig::output_text_file.{file, <same>}
// Defaults below are OSKAR's defaults for those keys.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fringe/core/constants.h"

namespace fringe::sky {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// filter/... : keep min < I <= max and inner <= r < outer (r from the phase centre).
struct FilterConfig {
  double flux_min = -kInf;  // Jy, exclusive
  double flux_max = kInf;   // Jy, inclusive
  double radius_inner_rad = 0.0;
  double radius_outer_rad = kPi;
};

// extended_sources/... : applied to every source of the group when both FWHM > 0.
struct ExtendedSourceConfig {
  double fwhm_major_rad = 0.0;
  double fwhm_minor_rad = 0.0;
  double position_angle_rad = 0.0;  // East of North
};

enum class MapUnits { JyPerBeam, JyPerPixel, K, mK };
enum class CoordSys { Galactic, Equatorial };

struct OskarSkyModelConfig {
  std::vector<std::string> file;
  FilterConfig filter;
  ExtendedSourceConfig extended_sources;
};

struct FitsImageConfig {
  std::vector<std::string> file;
  FilterConfig filter;
  MapUnits default_map_units = MapUnits::JyPerBeam;  // used if BUNIT absent or overridden
  double spectral_index = 0.0;
  double min_peak_fraction = 0.02;  // pixels below this fraction of the peak are dropped
  double min_abs_val = 0.0;         // pixels below this value (image units) are dropped
  bool override_map_units = false;  // ignore BUNIT, use default_map_units
};

struct HealpixFitsConfig {
  std::vector<std::string> file;
  FilterConfig filter;
  ExtendedSourceConfig extended_sources;
  MapUnits default_map_units = MapUnits::K;
  double spectral_index = -0.7;
  CoordSys coord_sys = CoordSys::Galactic;  // used when the file has no COORDSYS keyword
  double min_peak_fraction = 0.0;
  double min_abs_val = 0.0;
  bool override_map_units = false;
  double freq_hz = 408e6;  // K -> Jy conversion frequency and reference frequency
};

struct RandomPowerLawConfig {
  std::uint64_t num_sources = 0;
  double flux_min = 0.0, flux_max = 0.0;  // Jy
  std::uint64_t seed = 1;
  double power = 0.0;  // dN/dS proportional to S^power
  FilterConfig filter;
  ExtendedSourceConfig extended_sources;
};

struct RandomBrokenPowerLawConfig {
  std::uint64_t num_sources = 0;
  double flux_min = 0.0, flux_max = 0.0;  // Jy
  std::uint64_t seed = 1;
  double power1 = 0.0;     // below threshold
  double power2 = 0.0;     // above threshold
  double threshold = 0.0;  // Jy
  FilterConfig filter;
  ExtendedSourceConfig extended_sources;
};

struct GridConfig {
  std::uint64_t side_length = 0;
  double fov_rad = 0.0;  // fov_deg
  double mean_flux_jy = 0.0;
  double std_flux_jy = 0.0;
  std::uint64_t seed = 1;
  ExtendedSourceConfig extended_sources;
};

struct HealpixGeneratorConfig {
  std::uint64_t nside = 0;
  double amplitude = 1.0;  // Jy per source
  FilterConfig filter;
  ExtendedSourceConfig extended_sources;
};

struct GeneratorConfig {
  RandomPowerLawConfig random_power_law;
  RandomBrokenPowerLawConfig random_broken_power_law;
  GridConfig grid;
  HealpixGeneratorConfig healpix;
};

struct SpectralIndexConfig {
  bool override = false;
  double ref_frequency_hz = 0.0;
  double mean = 0.0;
  double std_dev = 0.0;
  std::uint64_t seed = 1;
};

struct CommonFluxFilterConfig {
  double flux_min = -kInf;  // exclusive
  double flux_max = kInf;   // inclusive
};

struct AdvancedConfig {
  bool zero_failed_gaussians = false;
  bool apply_horizon_clip = true;
};

struct TextOutputConfig {
  std::string file;  // sky/output_text_file; empty = no output
  bool use_named_columns = true;
  bool use_ska_convention = false;
  bool use_degrees = true;
  bool write_format_wrapper = true;
  bool write_name = false;
  bool write_quoted_vectors = false;
  bool write_type = false;
};

struct SkyConfig {
  OskarSkyModelConfig oskar_sky_model;
  FitsImageConfig fits_image;
  HealpixFitsConfig healpix_fits;
  GeneratorConfig generator;
  SpectralIndexConfig spectral_index;
  CommonFluxFilterConfig common_flux_filter;
  AdvancedConfig advanced;
  TextOutputConfig output_text_file;
};

}  // namespace fringe::sky
