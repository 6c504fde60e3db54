// Per-station (u, v, w) coordinates, host and device (FRINGE_HD).
// Input: the station's ECEF offset (x, y, z) from the array centre (metres; x towards
// longitude 0 on the equator, y towards longitude +90 deg, z towards the North pole) and the
// Greenwich apparent hour angle H0 = GAST - RA0 and declination dec0 of the phase centre.
// Output (metres): u towards East, v towards North (on the plane of the sky), w towards the
// phase centre. Thompson, Moran & Swenson, "Interferometry and Synthesis in Radio Astronomy",
// 3rd ed., eq. 4.1 (with Greenwich hour angle and ECEF axes), as in docs/conventions.md,
// "Coordinates and (u, v, w)":
//   u = x sinH0 + y cosH0
//   v = -sin(dec0) cosH0 x + sin(dec0) sinH0 y + cos(dec0) z
//   w = cos(dec0) cosH0 x - cos(dec0) sinH0 y + sin(dec0) z
// It is a rotation: |(u, v, w)| = |(x, y, z)|. A baseline's (u, v, w) is uvw_p - uvw_q.
#pragma once

#include <cmath>

#include "fringe/core/hd.h"

namespace fringe::astro {

// With the sines and cosines given (a kernel computes them once per time).
template <typename T>
FRINGE_HD_INLINE void station_uvw_rotated(T x, T y, T z, T sin_ha0, T cos_ha0, T sin_dec0,
                                          T cos_dec0, T& u, T& v, T& w) {
  u = x * sin_ha0 + y * cos_ha0;
  const T t = x * cos_ha0 - y * sin_ha0;  // component towards H = 0 in the equatorial plane
  v = -sin_dec0 * t + cos_dec0 * z;
  w = cos_dec0 * t + sin_dec0 * z;
}

// ha0 = GAST - RA0 (rad), dec0 (rad).
template <typename T>
FRINGE_HD_INLINE void station_uvw(T x, T y, T z, T ha0, T dec0, T& u, T& v, T& w) {
  using std::cos;
  using std::sin;
  station_uvw_rotated(x, y, z, sin(ha0), cos(ha0), sin(dec0), cos(dec0), u, v, w);
}

}  // namespace fringe::astro
