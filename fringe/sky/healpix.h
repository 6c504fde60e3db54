// HEALPix (Gorski et al. 2005, ApJ 622, 759) RING scheme pixel centres, and the reader of
// HEALPix FITS maps (binary table in HDU 2, first column, ORDERING = RING) as sky models
// (docs/conventions.md, "Sky images (FITS, HEALPix)"): each pixel becomes a point source; Galactic
// maps (COORDSYS = 'G', or the option when the keyword is absent) are converted to ICRS with ERFA
// eraG2icrs; units K, mK (Rayleigh-Jeans with pixel solid angle 4 pi / Npix at freq_hz) or
// Jy/pixel.
#pragma once

#include <cstdint>
#include <string>

#include "fringe/sky/diagnostics.h"
#include "fringe/sky/sky_config.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

inline std::uint64_t healpix_npix(std::uint64_t nside) { return 12 * nside * nside; }

// Colatitude theta in [0, pi] and longitude phi in [0, 2 pi) of RING pixel ipix.
void healpix_pix2ang_ring(std::uint64_t nside, std::uint64_t ipix, double& theta, double& phi);

struct HealpixReadOptions {
  MapUnits default_map_units = MapUnits::K;
  bool override_map_units = false;
  double spectral_index = -0.7;
  CoordSys coord_sys = CoordSys::Galactic;  // when the file has no COORDSYS keyword
  double min_peak_fraction = 0.0;
  double min_abs_val = 0.0;
  double freq_hz = 408e6;  // K -> Jy and reference frequency
  Diagnostics diagnostics;
};

HealpixReadOptions healpix_read_options(const HealpixFitsConfig& config);

// Throws fringe::Error naming the file for unreadable files, NESTED ordering, a pixel count
// that is not 12 nside^2, ecliptic coordinates or unsupported units (Jy/beam).
SkyModel read_healpix_sky(const std::string& path, const HealpixReadOptions& options);

}  // namespace fringe::sky
