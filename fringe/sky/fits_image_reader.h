// FITS image -> sky model (one point source per selected pixel; docs/conventions.md, "Sky images
// (FITS, HEALPix)"), with the WCS honoured (Calabretta & Greisen 2002, A&A 395, 1077):
//   pixel (1-based p) -> intermediate world coords x = CD (p - CRPIX) [deg] (CDi_j, or PCi_j
//   with CDELTi, or CROTA2 with CDELTi) -> projection plane -> RA/Dec about CRVAL.
// Projections: SIN (l = x, m = y, exact orthographic; no PV slant parameters) and TAN
// (gnomonic: (l, m) = (x, y) / sqrt(1 + x^2 + y^2)); any other projection is refused with an
// error naming the file and CTYPE. Celestial frames: RA/DEC (FK5/ICRS, J2000), or GLON/GLAT
// converted to ICRS with ERFA eraG2icrs; FK4/B1950 and ecliptic frames are refused.
// The first image plane is read (FREQ axis value at pixel 1 = reference frequency, or the
// option default_freq_hz if there is no FREQ axis). Pixels are selected (brightness.h) in map
// units, then converted to Jy (Jy/beam with BMAJ/BMIN or an AIPS "CLEAN BMAJ=" HISTORY card,
// Jy/pixel, K, mK). Pixels whose projection point is off the sphere are dropped with a warning.
// Unlike OSKAR (which treats every image as SIN with square pixels; its issue #61), the pixel
// area is |det CD|.
#pragma once

#include <string>

#include "fringe/sky/diagnostics.h"
#include "fringe/sky/sky_config.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

struct FitsImageReadOptions {
  MapUnits default_map_units = MapUnits::JyPerBeam;
  bool override_map_units = false;
  double spectral_index = 0.0;
  double min_peak_fraction = 0.02;
  double min_abs_val = 0.0;
  double default_freq_hz = 0.0;  // used when the image has no FREQ axis
  Diagnostics diagnostics;
};

FitsImageReadOptions fits_image_read_options(const FitsImageConfig& config);

// Throws fringe::Error (naming the file) for unreadable files, NAXIS < 2, unsupported
// projections/frames, unknown units, or Jy/beam without a beam size.
SkyModel read_fits_image_sky(const std::string& path, const FitsImageReadOptions& options);

// NAXIS of the primary HDU (0 means a HEALPix table file in OSKAR's convention).
int fits_primary_naxis(const std::string& path);

}  // namespace fringe::sky
