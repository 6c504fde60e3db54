// Reads the first plane of a FITS model image (Jy/pixel) for prediction by degridding. The
// image must be n x n pixels with |CDELT1| = |CDELT2| = the imager's cell (to 1e-6 relative),
// the phase centre at CRPIX = n/2 + 1; pixels are returned [y][x] in FITS order. Errors name
// the file (CFITSIO's message, wrong size or pixel size).
#pragma once

#include <string>
#include <vector>

namespace fringe::imager {

std::vector<double> read_model_image(const std::string& path, int size, double cell_rad);

}  // namespace fringe::imager
