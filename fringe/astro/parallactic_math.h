// Parallactic angle and the parallactic rotation R of the Jones chain, host and device.
// psi = atan2(cos(lat) sin(ha), sin(lat) cos(dec) - cos(lat) sin(dec) cos(ha)), the angle at the
// source between the directions to the North celestial pole and to the zenith, positive
// towards East (Smart, "Textbook on Spherical Astronomy", sec. 29; ERFA eraHd2pa). ha is the
// local hour angle GAST + lon - RA, lat the station's geodetic latitude (rad).
// R = [[cos psi, -sin psi], [sin psi, cos psi]] (docs/conventions.md, "Phase sign and the
// measurement equation"), applied per station and source in full-polarisation mode, E * R.
#pragma once

#include <cmath>

#include "fringe/core/hd.h"

namespace fringe::astro {

template <typename T>
FRINGE_HD_INLINE T hadec_to_parallactic_angle(T ha, T dec, T lat) {
  using std::atan2;
  using std::cos;
  using std::sin;
  const T cos_lat = cos(lat);
  return atan2(cos_lat * sin(ha), sin(lat) * cos(dec) - cos_lat * sin(dec) * cos(ha));
}

// A real 2x2 matrix [[xx, xy], [yx, yy]].
template <typename T>
struct Rotation2 {
  T xx, xy, yx, yy;
};

template <typename T>
FRINGE_HD_INLINE Rotation2<T> parallactic_rotation(T psi) {
  using std::cos;
  using std::sin;
  const T c = cos(psi), s = sin(psi);
  return {c, -s, s, c};
}

}  // namespace fringe::astro
