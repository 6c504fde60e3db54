#include "fringe/imager/model_image.h"

#include <fitsio.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "fringe/core/error.h"

namespace fringe::imager {

std::vector<double> read_model_image(const std::string& path, int size, double cell_rad) {
  fitsfile* f = nullptr;
  int status = 0;
  auto fail = [&](const std::string& what) -> Error {
    char msg[FLEN_STATUS] = "";
    if (status) fits_get_errstatus(status, msg);
    int s2 = 0;
    if (f) fits_close_file(f, &s2);
    return Error::in_file(path, 0, what + (status ? std::string(" (") + msg + ")" : ""));
  };
  if (fits_open_diskfile(&f, path.c_str(), READONLY, &status))
    throw fail("cannot open the FITS model image");
  int naxis = 0;
  long dims[4] = {1, 1, 1, 1};
  if (fits_get_img_dim(f, &naxis, &status) || fits_get_img_size(f, 4, dims, &status))
    throw fail("cannot read the image size");
  if (naxis < 2 || dims[0] != size || dims[1] != size)
    throw fail("the model image must be " + std::to_string(size) + " x " + std::to_string(size) +
               " pixels (image/size), not " + std::to_string(dims[0]) + " x " +
               std::to_string(dims[1]));
  double cdelt1 = 0, cdelt2 = 0;
  if (fits_read_key(f, TDOUBLE, "CDELT1", &cdelt1, nullptr, &status) ||
      fits_read_key(f, TDOUBLE, "CDELT2", &cdelt2, nullptr, &status))
    throw fail("the model image has no CDELT1/CDELT2");
  const double cell_deg = cell_rad * 180.0 / std::numbers::pi;
  if (std::abs(std::abs(cdelt1) - cell_deg) > 1e-6 * cell_deg ||
      std::abs(std::abs(cdelt2) - cell_deg) > 1e-6 * cell_deg)
    throw fail("the model image's pixels (CDELT " + std::to_string(cdelt1) + ", " +
               std::to_string(cdelt2) + " deg) differ from the imager's cell (" +
               std::to_string(cell_deg) + " deg)");
  // A STOKES axis (FITS WCS paper I, Greisen & Calabretta 2002: value = CRVAL + (k - CRPIX)
  // CDELT, with 1 = I, 2 = Q, 3 = U, 4 = V, negative for correlations) selects the I plane;
  // an image without one is refused rather than read as I. Other axes: their first plane.
  long first[4] = {1, 1, 1, 1};
  for (int axis = 3; axis <= std::min(naxis, 4); ++axis) {
    const std::string n = std::to_string(axis);
    char ctype[FLEN_VALUE] = "";
    int st = 0;
    fits_read_key(f, TSTRING, ("CTYPE" + n).c_str(), ctype, nullptr, &st);
    if (st != 0 || std::string(ctype).rfind("STOKES", 0) != 0) continue;
    double crval = 1.0, crpix = 1.0, cdelt = 1.0;
    st = 0;
    fits_read_key(f, TDOUBLE, ("CRVAL" + n).c_str(), &crval, nullptr, &st);
    st = 0;
    fits_read_key(f, TDOUBLE, ("CRPIX" + n).c_str(), &crpix, nullptr, &st);
    st = 0;
    fits_read_key(f, TDOUBLE, ("CDELT" + n).c_str(), &cdelt, nullptr, &st);
    long plane = 0;
    std::string held;
    for (long k = 1; k <= dims[axis - 1]; ++k) {
      const double code = crval + (static_cast<double>(k) - crpix) * cdelt;
      if (std::abs(code - 1.0) < 1e-6) plane = k;
      const char* names[] = {"I", "Q", "U", "V"};
      const long c = std::lround(code);
      held += (held.empty() ? "" : ", ") +
              (c >= 1 && c <= 4 ? std::string(names[c - 1]) : "code " + std::to_string(c));
    }
    if (plane == 0)
      throw fail("the model image's STOKES axis (axis " + n + ") holds " + held +
                 ", not Stokes I: expected an I plane");
    first[axis - 1] = plane;
  }
  std::vector<double> pixels(std::size_t(size) * size);
  int anynul = 0;
  double nul = 0.0;
  if (fits_read_pix(f, TDOUBLE, first, static_cast<LONGLONG>(pixels.size()), &nul, pixels.data(),
                    &anynul, &status))
    throw fail("cannot read the model image's pixels");
  fits_close_file(f, &status);
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
