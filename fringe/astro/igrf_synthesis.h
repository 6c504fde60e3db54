// The two halves of the IGRF-14 field evaluation behind igrf_field (fringe/astro/igrf.h), exposed
// so that tests can check each against closed forms: the Gauss coefficients at a decimal year,
// and the spherical-harmonic synthesis of any set of coefficients at a geocentric position.
#pragma once

namespace fringe::astro::igrf {

constexpr int kMaxDegree = 13;                 // IGRF main field from 2000.0 (degree 10 before)
constexpr double kReferenceRadiusKm = 6371.2;  // IGRF reference radius a (not the mean radius)

// Schmidt semi-normalised Gauss coefficients g[n][m], h[n][m] in nT (unused entries zero).
struct GaussCoefficients {
  double g[kMaxDegree + 1][kMaxDegree + 1] = {};
  double h[kMaxDegree + 1][kMaxDegree + 1] = {};
};

// IGRF-14 at a decimal year in [1900, 2035]: linear in time between the 5-year epochs
// 1900.0 ... 2025.0, and 2025.0 plus the secular variation times (year - 2025) after that.
// Throws fringe::Error outside the range (naming the year).
GaussCoefficients coefficients_at(double decimal_year);

// Field components in the geocentric spherical frame, nT: north = -B_theta, east = B_phi,
// down = -B_r.
struct SphericalField {
  double north = 0, east = 0, down = 0;
};

// The internal field B = -grad V of the potential
//   V = a sum_{n=1..13} (a/r)^(n+1) sum_{m=0..n} (g_nm cos m phi + h_nm sin m phi) P_n^m(cos theta)
// (P_n^m Schmidt semi-normalised) at geocentric radius r_km, colatitude theta and east
// longitude phi (radians). On the polar axis (sin theta == 0) the east component uses the limit
// of P_n^m / sin theta.
SphericalField synthesise(const GaussCoefficients& c, double r_km, double theta, double phi);

}  // namespace fringe::astro::igrf
