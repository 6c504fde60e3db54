// Per-element formulas of Image-Domain Gridding shared by the CPU and CUDA kernels
// (FRINGE_HD). Notation (docs/imager.md, "Algorithm"): subgrid s has its corner at grid cell
// (x0, y0) and its centre at (u_s, v_s) wavelengths; its pixel (x', y') sees the direction
// (l, m, n - 1) of a field of width L (pixel_lmn). A visibility (row r, channel c) of the
// subgrid contributes with phase
//   phi = -2 pi [(u f/c - u_s) l + (v f/c - v_s) m + (w f/c - w0)(n - 1)]
//       = -(A_r . lmn + dk_c (B_r . lmn)),
// A_r = 2 pi (uvw_r f_ref / c - (u_s, v_s, w0)), B_r = uvw_r [m], dk_c = 2 pi (f_c - f_ref) / c,
// f_ref the group's middle channel: both terms stay small (tens of radians at most), so they
// are accurate in single precision (IDG's phase index x wavenumber - phase offset form,
// Veenboer 2021 section 3.3, rearranged about the subgrid centre).
// Gridder:   s(x', y') = sign t(xi) t(eta) sum_rc weight V exp(+i phi)  (per polarisation)
// Degridder: V = sum_x'y' sign t(xi) t(eta) s(x', y') exp(-i phi)       (its adjoint)
// sign = (-1)^(x' + y') centres the subgrid FFT.
#pragma once

#include <cstdint>

#include "fringe/core/complex.h"
#include "fringe/core/hd.h"
#include "fringe/imager/geometry.h"

namespace fringe::imager {

// Centre of a subgrid in wavelengths.
inline void subgrid_centre(const GridGeometry& g, int x0, int y0, double* us, double* vs) {
  *us = (0.5 * (g.grid_size - g.subgrid_size) - x0) * g.uv_cell();
  *vs = (y0 - 0.5 * (g.grid_size - g.subgrid_size)) * g.uv_cell();
}

// Reference frequency of a subgrid's channel group (its middle channel).
FRINGE_HD_INLINE int subgrid_ref_channel(std::uint32_t chan_begin, std::uint32_t num_channels) {
  return static_cast<int>(chan_begin + num_channels / 2);
}

// A_r of one row (see above); computed in double.
FRINGE_HD_INLINE void row_phase_terms(const double uvw[3], double f_ref, double us, double vs,
                                      double w0, double a[3]) {
  const double s = f_ref / kSpeedOfLight;
  a[0] = kTwoPi * (uvw[0] * s - us);
  a[1] = kTwoPi * (uvw[1] * s - vs);
  a[2] = kTwoPi * (uvw[2] * s - w0);
}

FRINGE_HD_INLINE double channel_dk(double f, double f_ref) {
  return kTwoPi * (f - f_ref) / kSpeedOfLight;
}

}  // namespace fringe::imager
