// Station (u, v, w) for all stations of an array at one time (host). Units: metres, radians.
// Conventions and formula: station_uvw_math.h (docs/conventions.md, "Coordinates and (u, v, w)").
// The ECEF offsets are station ECEF minus array-centre ECEF (use the true positions for simulation
// and the measured positions for the written UVW, same section).
#pragma once

#include <span>

namespace fringe::astro {

// u[i], v[i], w[i] of station i from its ECEF offsets x[i], y[i], z[i] for the phase centre
// (ra0, dec0) at Greenwich apparent sidereal time gast (all rad). All spans must have the same
// length (else fringe::Error).
void station_uvw(std::span<const double> x, std::span<const double> y, std::span<const double> z,
                 double ra0, double dec0, double gast, std::span<double> u, std::span<double> v,
                 std::span<double> w);

}  // namespace fringe::astro
