// Reads the first plane of a FITS model image (Jy/pixel) for prediction by degridding. The
// image must be n x n pixels with |CDELT1| = |CDELT2| = the imager's cell (to 1e-6 relative),
// the phase centre at CRPIX = n/2 + 1; pixels are returned [y][x] in FITS order. Errors name
// the file (CFITSIO's message, wrong size or pixel size).
#pragma once

#include <string>
#include <vector>

namespace fringe::imager {

std::vector<double> read_model_image(const std::string& path, int size, double cell_rad);

// Prediction's check of a model read from path: a NaN or Inf pixel would spread over every
// predicted visibility, so the first one is an error naming the file and the pixel (FITS
// pixel numbers: 1-based x, y). (A dirty image's NaN blanks, read back, are legitimate.)
void check_model_pixels(const std::string& path, const std::vector<double>& pixels, int size);

}  // namespace fringe::imager
