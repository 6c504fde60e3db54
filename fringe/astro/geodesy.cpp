#include "fringe/astro/geodesy.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "fringe/core/error.h"

namespace fringe::astro {
namespace {
constexpr double kA = 6378137.0;            // WGS84 semi-major axis, m
constexpr double kF = 1.0 / 298.257223563;  // WGS84 flattening
constexpr double kE2 = kF * (2.0 - kF);     // first eccentricity squared
// ecef_to_geodetic accepts points this far from the Earth's centre (m).
constexpr double kMinRadius = 1.0e6;
constexpr double kMaxRadius = 1.0e8;
}  // namespace

Vec3 geodetic_to_ecef(const Geodetic& g) {
  // Evaluated in long double (64-bit mantissa on x86-64) so that the result is the correctly
  // rounded double to within ~0.5 ulp (9.3e-10 m is 1 ulp at 6.4e6 m).
  using Real = long double;
  const Real lat = g.lat, lon = g.lon, h = g.height;
  const Real sin_lat = std::sin(lat), cos_lat = std::cos(lat);
  const Real n = Real(kA) / std::sqrt(1.0L - Real(kE2) * sin_lat * sin_lat);  // prime vertical
  const Real rc = (n + h) * cos_lat;
  return {static_cast<double>(rc * std::cos(lon)), static_cast<double>(rc * std::sin(lon)),
          static_cast<double>((n * (1.0L - Real(kE2)) + h) * sin_lat)};
}

Geodetic ecef_to_geodetic(const Vec3& p) {
  // Bowring's method (Bowring 1976, Survey Review 23, 323): iterate on the parametric latitude
  // beta; each step cuts the latitude error by a factor ~e^4, so three steps reach double
  // precision for any point outside ~30 km of the Earth's centre. The height then comes from
  // h = r cos(lat) + z sin(lat) - a sqrt(1 - e^2 sin^2(lat)), which, unlike r / cos(lat) - N,
  // stays well conditioned at the poles.
  constexpr double kB = kA * (1.0 - kF);      // semi-minor axis
  constexpr double kEp2 = kE2 / (1.0 - kE2);  // second eccentricity squared
  const double r = std::hypot(p.x, p.y);
  const double dist = std::hypot(r, p.z);
  if (!(dist >= kMinRadius && dist <= kMaxRadius)) {  // also catches NaN
    // %.10g: std::to_string would print 1e308 as 309 digits.
    char buf[200];
    std::snprintf(buf, sizeof buf, "ECEF position (%.10g, %.10g, %.10g) m is %.10g m", p.x, p.y,
                  p.z, dist);
    throw Error(std::string(buf) +
                " from the Earth's centre; expected metres, 1e6..1e8 m from the centre");
  }
  const double lon = std::atan2(p.y, p.x);
  using Real = long double;  // keeps the height's cancellation error below 1e-12 m
  const Real r_l = std::hypot(Real(p.x), Real(p.y)), z_l = p.z;
  const Real one_minus_f = 1.0L - Real(kF);
  Real beta = std::atan2(z_l, one_minus_f * r_l);
  Real lat = 0.0L;
  for (int i = 0; i < 4; ++i) {
    const Real sb = std::sin(beta), cb = std::cos(beta);
    lat = std::atan2(z_l + Real(kEp2) * Real(kB) * sb * sb * sb,
                     r_l - Real(kE2) * Real(kA) * cb * cb * cb);
    beta = std::atan2(one_minus_f * std::sin(lat), std::cos(lat));
  }
  const Real sin_lat = std::sin(lat), cos_lat = std::cos(lat);
  const Real h =
      r_l * cos_lat + z_l * sin_lat - Real(kA) * std::sqrt(1.0L - Real(kE2) * sin_lat * sin_lat);
  return {lon, static_cast<double>(lat), static_cast<double>(h)};
}

Vec3 enu_to_ecef_offset(const Vec3& e, double lon, double lat) {
  const double sl = std::sin(lon), cl = std::cos(lon), sp = std::sin(lat), cp = std::cos(lat);
  return {-sl * e.x - sp * cl * e.y + cp * cl * e.z, cl * e.x - sp * sl * e.y + cp * sl * e.z,
          cp * e.y + sp * e.z};
}

Vec3 ecef_offset_to_enu(const Vec3& d, double lon, double lat) {
  const double sl = std::sin(lon), cl = std::cos(lon), sp = std::sin(lat), cp = std::cos(lat);
  return {-sl * d.x + cl * d.y, -sp * cl * d.x - sp * sl * d.y + cp * d.z,
          cp * cl * d.x + cp * sl * d.y + sp * d.z};
}

Vec3 enu_to_ecef(const Vec3& enu, const Geodetic& ref) {
  const Vec3 o = geodetic_to_ecef(ref);
  const Vec3 d = enu_to_ecef_offset(enu, ref.lon, ref.lat);
  return {o.x + d.x, o.y + d.y, o.z + d.z};
}

Vec3 ecef_to_enu(const Vec3& ecef, const Geodetic& ref) {
  const Vec3 o = geodetic_to_ecef(ref);
  return ecef_offset_to_enu({ecef.x - o.x, ecef.y - o.y, ecef.z - o.z}, ref.lon, ref.lat);
}

}  // namespace fringe::astro
