// The uv grid and image geometry of the imager, and the pixel <-> (l, m) and uv <-> grid-cell
// maps shared by the plan, the CPU and CUDA kernels and the DFT reference.
//
// Image pixel (x, y), 0-based, x along FITS axis 1 (RA---SIN, CDELT1 < 0), of an n x n image
// with reference pixel n/2 (CRPIX = n/2 + 1): l = -(x - n/2) cell, m = (y - n/2) cell,
// cell in radians (direction cosines; the FITS SIN projection's intermediate coordinates).
// Grid cell (ju, jv) of the g x g uv grid: u = (g/2 - ju) du, v = (jv - g/2) dv, with
// du = dv = 1 / (g cell) wavelengths. With this orientation both the grid -> image and the
// subgrid transforms use one FFT sign (docs/imager.md, "Transforms").
#pragma once

#include <cmath>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"

namespace fringe::imager {

struct GridGeometry {
  int grid_size = 0;      // g: uv grid (and padded image) side, even
  int image_size = 0;     // n: output image side (<= g, even), the centre of the padded image
  double cell_rad = 0.0;  // pixel size in direction cosines (l, m)
  int subgrid_size = 32;  // Ns, even
  int kernel_size = 9;    // total support budget per visibility [cells] (taper + w)
  int taper_support = 7;  // taper's uv support [cells]
  double w_step = 0.0;    // w-layer spacing [wavelengths]; 0: one layer at w = 0

  double image_width_lm() const { return grid_size * cell_rad; }   // L
  double uv_cell() const { return 1.0 / (grid_size * cell_rad); }  // du = 1 / L [wavelengths]
  // Fractional grid position of u or v (in wavelengths).
  double grid_x(double u) const { return 0.5 * grid_size - u / uv_cell(); }
  double grid_y(double v) const { return 0.5 * grid_size + v / uv_cell(); }
  // Largest |d(n - 1)/dl| over the padded image (its corner): w shifts a visibility's
  // footprint by at most |w| * this * L cells.
  double w_spread_per_lambda() const {
    const double r = image_width_lm() / std::sqrt(2.0);
    const double n = std::sqrt(std::fmax(1e-6, 1.0 - r * r));
    return r / n * image_width_lm();
  }
};

// (l, m, n - 1) of a point of a field of width `width_lm` sampled with `size` pixels:
// pixel (x, y) with centre size / 2. n - 1 is computed as -(l^2 + m^2) / (1 + n) to keep its
// precision near the centre; beyond l^2 + m^2 = 1 it is taken as -1.
template <typename T>
FRINGE_HD_INLINE void pixel_lmn(int x, int y, int size, T width_lm, T* l, T* m, T* nm1) {
  const T step = width_lm / T(size);
  *l = -(T(x) - T(0.5) * T(size)) * step;
  *m = (T(y) - T(0.5) * T(size)) * step;
  const T r2 = *l * *l + *m * *m;
  *nm1 = r2 < T(1) ? -r2 / (T(1) + detail::hd_sqrt(T(1) - r2)) : T(-1);
}

}  // namespace fringe::imager
