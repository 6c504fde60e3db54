// Where a visibility lands on the grid of the FFT gridder, shared by the CPU degridder and the
// CUDA gridder/degridder so that they pick the same cells and kernel samples as grid_simple_cpu
// (conventions of OSKAR 2.13's simple gridder, conv_grid.h): the position in cells is
// pos_u = -u x grid_size x cell_rad, pos_v = v x grid_size x cell_rad, in the gridding
// precision T; the centre cell is round(pos) + grid_size / 2 (half away from zero); the
// kernel offset, in oversampled samples, is round((round(pos) - pos) x oversample); the sample
// of the cell centre + j is table[|off + j x oversample|]. A visibility is on the grid when
// its whole support [centre - support, centre + support] lies in [0, grid_size - 1] on both
// axes.
#pragma once

#include <math.h>

#include "fringe/core/hd.h"
#include "fringe/core/hd_math.h"

namespace fringe::imager {

struct ConvCell {
  int gu = 0, gv = 0;        // centre cell (column u, row v)
  int off_u = 0, off_v = 0;  // kernel offsets in oversampled samples
  bool inside = false;
};

FRINGE_HD_INLINE float conv_fabs(float x) { return fabsf(x); }
FRINGE_HD_INLINE double conv_fabs(double x) { return fabs(x); }

// In precision T, as OSKAR (and grid_simple_cpu): u, v and grid_size x cell_rad are rounded to
// T first, so single-precision gridding picks its cells from float positions.
template <typename T>
FRINGE_HD_INLINE ConvCell conv_cell(double uu, double vv, double cell_rad, int grid_size,
                                    int support, int oversample) {
  ConvCell c;
  const T scale = T(grid_size) * T(cell_rad);
  const T pos_u = -T(uu) * scale;
  const T pos_v = T(vv) * scale;
  // |pos| >= grid_size (or NaN) is off the grid whatever the support: tested before the
  // conversion to int, which would overflow.
  if (!(conv_fabs(pos_u) < T(grid_size) && conv_fabs(pos_v) < T(grid_size))) return c;
  const T ru = detail::hd_round(pos_u);
  const T rv = detail::hd_round(pos_v);
  const int centre = grid_size / 2;
  c.gu = static_cast<int>(ru) + centre;
  c.gv = static_cast<int>(rv) + centre;
  c.off_u = static_cast<int>(detail::hd_round((ru - pos_u) * T(oversample)));
  c.off_v = static_cast<int>(detail::hd_round((rv - pos_v) * T(oversample)));
  c.inside = c.gu - support >= 0 && c.gu + support < grid_size && c.gv - support >= 0 &&
             c.gv + support < grid_size;
  return c;
}

}  // namespace fringe::imager
