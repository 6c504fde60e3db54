// WGS84 geodesy: geodetic (lon, lat, height) <-> Earth-centred Earth-fixed (ECEF) <-> local
// East-North-Up (ENU). Angles in radians, lengths in metres.
// Ellipsoid: a = 6378137 m, f = 1/298.257223563 (NIMA TR8350.2).
#pragma once

namespace fringe::astro {

struct Geodetic {
  double lon = 0.0;     // rad, East positive
  double lat = 0.0;     // rad, geodetic
  double height = 0.0;  // m above the ellipsoid
};

struct Vec3 {
  double x = 0.0, y = 0.0, z = 0.0;
};

Vec3 geodetic_to_ecef(const Geodetic& g);
// Accurate to < 1e-9 m in height and < 1e-15 rad in latitude for heights -1e4..1e5 m
// (Bowring's iteration). Throws fringe::Error for points closer than 1e6 m or farther than
// 1e8 m from the Earth's centre (not terrestrial positions in metres, e.g. km by mistake).
// At a pole the longitude is 0.
Geodetic ecef_to_geodetic(const Vec3& ecef);

// ENU offsets about a reference point -> ECEF offsets (a pure rotation, no translation).
Vec3 enu_to_ecef_offset(const Vec3& enu, double lon, double lat);
// ECEF offsets -> ENU offsets about a reference point.
Vec3 ecef_offset_to_enu(const Vec3& d, double lon, double lat);

// ENU position about reference `ref` -> absolute ECEF.
Vec3 enu_to_ecef(const Vec3& enu, const Geodetic& ref);
// Absolute ECEF -> ENU about reference `ref`.
Vec3 ecef_to_enu(const Vec3& ecef, const Geodetic& ref);

}  // namespace fringe::astro
