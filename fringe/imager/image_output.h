// FITS output of the imager (OSKAR's and CASA's conventions, docs/imager.md): one file
// per product, axes RA---SIN (CDELT1 = -cell), DEC--SIN (CDELT2 = +cell), FREQ, CRPIX = n/2 + 1
// on the sky axes (the phase centre), BUNIT JY/BEAM (the caller's unit), EQUINOX 2000,
// RADESYS FK5, OBSRA/OBSDEC. Written under a
// temporary name and renamed when complete (fringe/io/fits).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/precision.h"
#include "fringe/io/fits/fits_image_writer.h"

namespace fringe::imager {

struct ImageCube {
  int size = 0;                        // n (pixels per side)
  double cell_rad = 0.0;               // pixel size (direction cosines)
  std::array<double, 2> centre_rad{};  // RA, Dec of the reference pixel
  std::vector<double> freq_hz;         // plane frequencies (first: CRVAL3)
  double freq_step_hz = 1.0;           // CDELT3
  std::string bunit = "JY/BEAM";
  std::vector<std::string> history;
  Precision precision = Precision::Single;  // BITPIX -64 for Double, else -32
  std::vector<double> pixels;               // [plane][y][x], x fastest
};

void write_image_cube(const std::string& path, const ImageCube& cube);

// The same, left under its temporary name: the caller calls finish() once every product of a
// run is written, so that a failed or cancelled run replaces none of the earlier images (the
// writer's destructor removes an unfinished temporary).
std::unique_ptr<io::FitsImageWriter> write_image_cube_unfinished(const std::string& path,
                                                                 const ImageCube& cube);

}  // namespace fringe::imager
