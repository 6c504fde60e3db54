#include "fringe/sky/image_to_sky.h"

#include "fringe/core/error.h"
#include "fringe/sky/fits_image_reader.h"
#include "fringe/sky/healpix.h"

namespace fringe::sky {

SkyModel read_image_as_sky(const std::string& path, const ImageToSkyOptions& options) {
  const int naxis = fits_primary_naxis(path);
  if (naxis == 0) {  // OSKAR's convention: a HEALPix map in a binary table (healpix.h)
    HealpixReadOptions o;
    o.default_map_units = MapUnits::JyPerBeam;  // OSKAR's tool: refused without TUNIT1
    o.coord_sys = CoordSys::Equatorial;         // no COORDSYS keyword: not Galactic
    o.spectral_index = options.spectral_index;
    o.min_peak_fraction = options.min_peak_fraction;
    o.min_abs_val = options.min_abs_val;
    o.freq_hz = 0.0;  // the tool has no frequency: K and mK maps are refused
    o.diagnostics = options.diagnostics;
    return read_healpix_sky(path, o);
  }
  if (naxis < 2)
    throw Error::in_file(path, 0,
                         "not an image: NAXIS = " + std::to_string(naxis) +
                             " (expected an image of at least 2 axes, or 0 for a HEALPix map)");
  FitsImageReadOptions o;
  o.default_map_units = MapUnits::JyPerBeam;  // used when BUNIT is absent, as OSKAR's tool
  o.spectral_index = options.spectral_index;
  o.min_peak_fraction = options.min_peak_fraction;
  o.min_abs_val = options.min_abs_val;
  o.default_freq_hz = 0.0;  // no FREQ axis: reference frequency 0, as OSKAR's tool
  o.diagnostics = options.diagnostics;
  return read_fits_image_sky(path, o);
}

}  // namespace fringe::sky
