#include "fringe/astro/geodesy.h"

#include <cmath>

namespace fringe::astro {
namespace {
constexpr double kA = 6378137.0;                // WGS84 semi-major axis, m
constexpr double kF = 1.0 / 298.257223563;      // WGS84 flattening
constexpr double kE2 = kF * (2.0 - kF);         // first eccentricity squared
}  // namespace

Vec3 geodetic_to_ecef(const Geodetic& g) {
  const double sin_lat = std::sin(g.lat), cos_lat = std::cos(g.lat);
  const double n = kA / std::sqrt(1.0 - kE2 * sin_lat * sin_lat);  // prime vertical radius
  return {(n + g.height) * cos_lat * std::cos(g.lon), (n + g.height) * cos_lat * std::sin(g.lon),
          (n * (1.0 - kE2) + g.height) * sin_lat};
}

Geodetic ecef_to_geodetic(const Vec3& p) {
  // Bowring's initial guess refined by Newton-like fixed-point iterations on latitude;
  // converges to < 1e-12 rad in a few steps for terrestrial heights.
  const double lon = std::atan2(p.y, p.x);
  const double r = std::hypot(p.x, p.y);
  double lat = std::atan2(p.z, r * (1.0 - kE2));
  double h = 0.0;
  for (int i = 0; i < 10; ++i) {
    const double sin_lat = std::sin(lat);
    const double n = kA / std::sqrt(1.0 - kE2 * sin_lat * sin_lat);
    h = (std::abs(std::cos(lat)) > 1e-12) ? r / std::cos(lat) - n : std::abs(p.z) - n * (1.0 - kE2);
    const double next = std::atan2(p.z, r * (1.0 - kE2 * n / (n + h)));
    if (std::abs(next - lat) < 1e-15) {
      lat = next;
      break;
    }
    lat = next;
  }
  const double sin_lat = std::sin(lat);
  const double n = kA / std::sqrt(1.0 - kE2 * sin_lat * sin_lat);
  h = (std::abs(std::cos(lat)) > 1e-12) ? r / std::cos(lat) - n : std::abs(p.z) - n * (1.0 - kE2);
  return {lon, lat, h};
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
