// Re-phasing visibilities to another phase centre (image/direction = "RA, Dec."). With the
// Measurement Set convention V = sum I exp(+2 pi i b.(s - s0)) (b the baseline in wavelengths,
// s0 the phase centre; docs/conventions.md), moving the centre to s1 gives
//   V' = V exp(+2 pi i (w - w')),  (u', v', w') = b in the frame of s1,
// the frame of a centre (ra, dec) having unit vectors east (-sin ra, cos ra, 0), north
// (-sin dec cos ra, -sin dec sin ra, cos dec) and s = (cos dec cos ra, cos dec sin ra, sin dec)
// (Thompson, Moran & Swenson 2017, section 4.1). All products get the same phase.
#pragma once

#include <array>

#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// old_centre, new_centre: (RA, Dec) in radians. uvw_m are rotated; vis multiplied unless
// rotate_uvw_only (the PSF: unit visibilities stay 1).
template <typename T>
void rephase(VisBuffer<T>& vis, std::array<double, 2> old_centre, std::array<double, 2> new_centre,
             bool rotate_uvw_only = false);

}  // namespace fringe::imager
