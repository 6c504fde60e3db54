// Direction cosines of a sky position about a phase centre (orthographic / SIN projection).
// Angles in radians. l points East, m North, n towards the phase centre; n - 1 <= 0.
// Standard formula (e.g. Thompson, Moran & Swenson, Interferometry and Synthesis, eq. 3.3 ff.).
#pragma once

#include <cmath>

#include "fringe/core/hd.h"

namespace fringe::astro {

template <typename T>
FRINGE_HD_INLINE void radec_to_lmn(T ra, T dec, T ra0, T dec0, T& l, T& m, T& n) {
  using std::cos;  // float overloads on the host; CUDA provides them on the device
  using std::sin;
  const T d_ra = ra - ra0;
  const T cos_dec = cos(dec), sin_dec = sin(dec);
  const T cos_dec0 = cos(dec0), sin_dec0 = sin(dec0);
  const T cos_dra = cos(d_ra);
  l = cos_dec * sin(d_ra);
  m = cos_dec0 * sin_dec - sin_dec0 * cos_dec * cos_dra;
  n = sin_dec0 * sin_dec + cos_dec0 * cos_dec * cos_dra;
}

// Inverse of radec_to_lmn for a point on the visible hemisphere (n >= 0); l^2 + m^2 <= 1
// (outside the unit circle the result is NaN). ra = ra0 + an offset in (-pi, pi], not wrapped.
template <typename T>
FRINGE_HD_INLINE void lm_to_radec(T l, T m, T ra0, T dec0, T& ra, T& dec) {
  using std::asin;
  using std::atan2;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const T n = sqrt(T(1) - l * l - m * m);
  const T cos_dec0 = cos(dec0), sin_dec0 = sin(dec0);
  dec = asin(n * sin_dec0 + m * cos_dec0);
  ra = ra0 + atan2(l, n * cos_dec0 - m * sin_dec0);
}

}  // namespace fringe::astro
