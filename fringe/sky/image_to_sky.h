// A FITS image (or a HEALPix FITS map) as a sky model, with the options and defaults of
// OSKAR 2.13's oskar_fits_image_to_sky_model (apps/fits_image_to_sky_model; docs/sky_models.md):
// every selected pixel becomes a point source. Pixels are kept when non-zero, finite, not
// below min_abs_val (map units) and, when min_peak_fraction > 0, not below that fraction of
// the image peak (brightness.h pixel_selection). Units come from BUNIT (Jy/beam needs
// BMAJ/BMIN, Jy/pixel, K and mK need a frequency), Jy/beam when BUNIT is absent, as OSKAR.
// Images are read by fits_image_reader.h (WCS honoured), maps by healpix.h (COORDSYS 'G' is
// Galactic, anything else or none equatorial, as OSKAR's tool).
#pragma once

#include <string>

#include "fringe/sky/diagnostics.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

struct ImageToSkyOptions {
  double spectral_index = 0.0;     // given to every source (OSKAR: -s)
  double min_peak_fraction = 0.0;  // of the image peak (OSKAR: -f)
  double min_abs_val = 0.0;        // noise floor in map units (OSKAR: -n)
  Diagnostics diagnostics;
};

// Throws fringe::Error naming the file when it cannot be read, is neither an image (NAXIS >= 2)
// nor a HEALPix map (NAXIS = 0), or its units or coordinates are not supported.
SkyModel read_image_as_sky(const std::string& path, const ImageToSkyOptions& options);

}  // namespace fringe::sky
