// Local horizontal coordinates of a source at a station, host and device (FRINGE_HD).
// Inputs: local hour angle ha = LST - RA = GAST + lon - RA, declination dec, and the station's
// geodetic latitude lat (all rad). Outputs: ENU direction cosines (e East, n North, u Up;
// a unit vector) and azimuth (from North through East, [0, 2pi)) / elevation (rad).
// Standard spherical astronomy, e.g. Smart, "Textbook on Spherical Astronomy", ch. II; the
// same convention as ERFA eraHd2ae.
#pragma once

#include <cmath>

#include "fringe/core/constants.h"
#include "fringe/core/hd.h"

namespace fringe::astro {

template <typename T>
FRINGE_HD_INLINE void hadec_to_enu(T ha, T dec, T lat, T& e, T& n, T& u) {
  using std::cos;
  using std::sin;
  const T sin_ha = sin(ha), cos_ha = cos(ha);
  const T sin_dec = sin(dec), cos_dec = cos(dec);
  const T sin_lat = sin(lat), cos_lat = cos(lat);
  e = -cos_dec * sin_ha;
  n = cos_lat * sin_dec - sin_lat * cos_dec * cos_ha;
  u = sin_lat * sin_dec + cos_lat * cos_dec * cos_ha;
}

// ENU direction -> azimuth (from North through East, [0, 2pi)) and elevation.
template <typename T>
FRINGE_HD_INLINE void enu_to_azel(T e, T n, T u, T& az, T& el) {
  using std::atan2;
  using std::sqrt;
  const T two_pi = T(kTwoPi);
  az = atan2(e, n);
  if (az < T(0)) az += two_pi;
  el = atan2(u, sqrt(e * e + n * n));
}

template <typename T>
FRINGE_HD_INLINE void hadec_to_azel(T ha, T dec, T lat, T& az, T& el) {
  T e, n, u;
  hadec_to_enu(ha, dec, lat, e, n, u);
  enu_to_azel(e, n, u, az, el);
}

}  // namespace fringe::astro
