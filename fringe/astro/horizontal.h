// Host wrappers: RA/Dec -> hour angle, az/el, ENU direction cosines and parallactic angle at a
// station, one source or arrays of sources. Angles in radians. The per-element formulas are in
// horizontal_math.h and parallactic_math.h (shared with GPU kernels). OSKAR's conventions
// (docs/conventions.md, "Time"): RA/Dec are used as apparent coordinates, the local hour angle is
// H = GAST + lon - RA with GAST from time.h, lon/lat the station's geodetic longitude/latitude.
#pragma once

#include <span>

#include "fringe/astro/geodesy.h"

namespace fringe::astro {

struct AzEl {
  double az = 0.0;  // rad, from North through East, [0, 2pi)
  double el = 0.0;  // rad, above the horizon positive
};

// Local hour angle H = GAST + lon - RA, wrapped to [-pi, pi).
double local_hour_angle(double ra, double gast, double lon);

AzEl radec_to_azel(double ra, double dec, double gast, double lon, double lat);

// Unit vector (x East, y North, z Up) towards the source at the station.
Vec3 radec_to_enu(double ra, double dec, double gast, double lon, double lat);

double parallactic_angle(double ra, double dec, double gast, double lon, double lat);

// Array forms: one output per source; all spans the same length (else fringe::Error).
void radec_to_enu(std::span<const double> ra, std::span<const double> dec, double gast, double lon,
                  double lat, std::span<double> x, std::span<double> y, std::span<double> z);
void parallactic_angles(std::span<const double> ra, std::span<const double> dec, double gast,
                        double lon, double lat, std::span<double> psi);

}  // namespace fringe::astro
