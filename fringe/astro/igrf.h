// The main geomagnetic field of the International Geomagnetic Reference Field, 14th generation
// (IGRF-14, IAGA Working Group V-MOD, 2024), as OSKAR 2.13 uses it for ionospheric Faraday
// rotation. See docs/geomagnetic_field.md for the model, frame, year convention and tests.
#pragma once

namespace fringe::astro {

// Main geomagnetic field of IGRF-14 in the local horizon frame, nanotesla.
// east/north/up are the components along the local geodetic East, North and Up (the ellipsoid
// normal); total_nT is the magnitude of the vector.
struct GeomagneticField {
  double east_nT = 0, north_nT = 0, up_nT = 0, total_nT = 0;
};

// Field at a geodetic (WGS84) position: latitude and longitude in radians, height above the
// ellipsoid in metres, at a decimal year (valid range as IGRF-14: 1900.0-2035.0; throws
// fringe::Error outside, saying so and naming the year).
GeomagneticField igrf_field(double lat_rad, double lon_rad, double height_m, double decimal_year);

// OSKAR 2.13's decimal year of an MJD (UTC): mjd / 365.25 + 1858.87945205.
double decimal_year_from_mjd(double mjd_utc);

}  // namespace fringe::astro
