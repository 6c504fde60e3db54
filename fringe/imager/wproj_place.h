// Where W-projection puts one visibility (wproj_grid.h, OSKAR 2.13's rules): one formula for
// the CPU gridder and the CUDA one (FRINGE_HD), in the gridding precision T, so both select the
// same cells, kernel samples and plane.
#pragma once

#include <cmath>

#include "fringe/core/hd.h"
#include "fringe/core/hd_math.h"

namespace fringe::imager {

struct WPlacement {
  int gu = 0, gv = 0;        // centre cell
  int off_u = 0, off_v = 0;  // kernel sample offset, -oversample/2 .. oversample/2
  int plane = 0, support = 0;
  bool conj = false;     // w > 0: the kernel's imaginary part negated
  bool gridded = false;  // the 2 support + 1 cells fit on the grid
};

// pos = (-u, v) x grid_scale (grid_scale = grid_size x cell, in T); centre cell
// round(pos) + grid_size / 2; offset round((round(pos) - pos) x oversample); plane
// round(sqrt(|w| w_scale)), the last beyond; support[plane]. Not gridded (gridded = false)
// when the support leaves the grid or |pos| >= grid_size (also NaN).
template <typename T>
FRINGE_HD_INLINE WPlacement wproj_place(T uu, T vv, T ww, T grid_scale, int grid_size,
                                        int oversample, T w_scale, int num_planes,
                                        const int* support) {
  using detail::hd_round;
  WPlacement p;
  const T pos_u = -uu * grid_scale;
  const T pos_v = vv * grid_scale;
  // Far outside (or NaN): skipped before any conversion to int could overflow.
  const T limit = T(grid_size);
  if (!(pos_u > -limit && pos_u < limit && pos_v > -limit && pos_v < limit)) return p;
  const T ru = hd_round(pos_u), rv = hd_round(pos_v);
  p.gu = static_cast<int>(ru) + grid_size / 2;
  p.gv = static_cast<int>(rv) + grid_size / 2;
  p.off_u = static_cast<int>(hd_round((ru - pos_u) * T(oversample)));
  p.off_v = static_cast<int>(hd_round((rv - pos_v) * T(oversample)));
  const T aw = ww * w_scale;
  // Plane round(sqrt(|w| w_scale)), the last one beyond (and for a NaN w).
  const T iw = hd_round(detail::hd_sqrt(aw < T(0) ? -aw : aw));
  p.plane = iw < T(num_planes) ? static_cast<int>(iw) : num_planes - 1;
  p.support = support[p.plane];
  p.conj = ww > T(0);
  p.gridded = !(p.gu + p.support >= grid_size || p.gu - p.support < 0 ||
                p.gv + p.support >= grid_size || p.gv - p.support < 0);
  return p;
}

}  // namespace fringe::imager
