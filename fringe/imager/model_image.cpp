#include "fringe/imager/model_image.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::imager {

namespace {

using io::FitsFile;

// The 1-based plane of a STOKES axis (FITS WCS paper I, Greisen & Calabretta 2002: value =
// CRVAL + (k - CRPIX) CDELT, with 1 = I, 2 = Q, 3 = U, 4 = V, negative for correlations) that
// holds I, 0 if none; `held` lists what its planes hold.
long stokes_i_plane(const FitsFile& f, int axis, long length, std::string& held) {
  const std::string n = std::to_string(axis);
  const double crval = f.try_key_double("CRVAL" + n).value_or(1.0);
  const double crpix = f.try_key_double("CRPIX" + n).value_or(1.0);
  const double cdelt = f.try_key_double("CDELT" + n).value_or(1.0);
  long plane = 0;
  for (long k = 1; k <= length; ++k) {
    const double code = crval + (static_cast<double>(k) - crpix) * cdelt;
    if (std::abs(code - 1.0) < 1e-6) plane = k;
    const char* names[] = {"I", "Q", "U", "V"};
    const long c = std::lround(code);
    held += (held.empty() ? "" : ", ") +
            (c >= 1 && c <= 4 ? std::string(names[c - 1]) : "code " + std::to_string(c));
  }
  return plane;
}

}  // namespace

std::vector<double> read_model_image(const std::string& path, int size, double cell_rad) {
  FitsFile f;
  int status = 0;
  auto fail = [&](const std::string& what) -> Error {
    const std::string msg = status ? io::cfitsio_message(status) : std::string();
    f.close_discarding_errors();
    return Error::in_file(path, 0, what + (status ? " (" + msg + ")" : ""));
  };
  if (!f.open(path, io::FitsOpen::ReadOnlyPlain, status))
    throw fail("cannot open the FITS model image");
  const int naxis = f.image_dim(status);
  const std::vector<long> dims = f.image_size(4, status);
  if (status) throw fail("cannot read the image size");
  if (naxis < 2 || dims[0] != size || dims[1] != size)
    throw fail("the model image must be " + std::to_string(size) + " x " + std::to_string(size) +
               " pixels (ImagerConfig.size), not " + std::to_string(dims[0]) + " x " +
               std::to_string(dims[1]));
  const std::optional<double> cdelt1 = f.key_double("CDELT1"), cdelt2 = f.key_double("CDELT2");
  if (!cdelt1 || !cdelt2) throw fail("the model image has no CDELT1/CDELT2");
  const double cell_deg = cell_rad * 180.0 / kPi;
  if (std::abs(std::abs(*cdelt1) - cell_deg) > 1e-6 * cell_deg ||
      std::abs(std::abs(*cdelt2) - cell_deg) > 1e-6 * cell_deg)
    throw fail("the model image's pixels (CDELT " + std::to_string(*cdelt1) + ", " +
               std::to_string(*cdelt2) + " deg) differ from the imager's cell (" +
               std::to_string(cell_deg) + " deg)");
  // A STOKES axis selects the I plane; an image without one is refused rather than read as I.
  // Other axes: their first plane.
  long first[4] = {1, 1, 1, 1};
  for (int axis = 3; axis <= std::min(naxis, 4); ++axis) {
    const std::optional<std::string> ctype = f.try_key_string("CTYPE" + std::to_string(axis));
    if (!ctype || ctype->rfind("STOKES", 0) != 0) continue;
    std::string held;
    const long plane = stokes_i_plane(f, axis, dims[axis - 1], held);
    if (plane == 0)
      throw fail("the model image's STOKES axis (axis " + std::to_string(axis) + ") holds " + held +
                 ", not Stokes I: expected an I plane");
    first[axis - 1] = plane;
  }
  std::vector<double> pixels(std::size_t(size) * size);
  f.read_pixels(first, pixels, 0.0, status);
  if (status) throw fail("cannot read the model image's pixels");
  return pixels;
}

void check_model_pixels(const std::string& path, const std::vector<double>& pixels, int size) {
  for (std::size_t i = 0; i < pixels.size(); ++i)
    if (!std::isfinite(pixels[i]))
      throw Error::in_file(path, 0,
                           "model image pixel (" + std::to_string(i % size + 1) + ", " +
                               std::to_string(i / size + 1) + ") is " +
                               (std::isnan(pixels[i]) ? "NaN" : "infinite") +
                               ": expected finite Jy/pixel values (0 for no emission)");
}

}  // namespace fringe::imager
