// Per-element formulas of the station Jones terms E (station beam) and R (parallactic
// rotation), host and device (FRINGE_HD_INLINE), shared by the CPU loops of station_jones.cpp
// and future CUDA kernels. Angles in radians, frequencies in Hz; directions are unit vectors
// (e, n, u) in a station's local East-North-Up frame.
//
// Gaussian station beam (docs/station_beams.md, OSKAR 2.13 behaviour):
//   value = exp(-(a l^2 + 2 b l m + c m^2)) with (l, m) the source direction projected on the
//   tangent plane at the beam direction. Circular: a = c = 1 / (2 sigma^2), b = 0 with
//   sigma = sin(FWHM) / (2 sqrt(2 ln 2)), so value = exp(-sin^2(d) / (2 sigma^2)) for a source
//   at angle d (< 90 deg) from the beam direction, and 0.5 where sin(d) = sin(FWHM) / 2.
//   FWHM -> FWHM * f_ref / f when f_ref > 0 (no scaling when f_ref == 0).
//
// Tangent-plane axes (the same as OSKAR's, so elliptical beams agree with it): for a beam
// direction at azimuth A (from North through East) and elevation El,
//   +l = (-cos A, sin A, 0)                          the direction of decreasing azimuth,
//   +m = (-sin El sin A, -sin El cos A, cos El)      the direction of increasing elevation.
// Seen from the ground facing the beam direction, m points up (towards the zenith) and l to
// the left: the usual sky-image orientation (North up, East left) with "up" = elevation.
// For a beam at the zenith A is taken as atan2(0, 0) = 0, so +l = West and +m = South.
// Ellipse angle: the major axis turns from +m towards +l by the angle (like a position angle
// East of North), i.e. anticlockwise on the sky seen from the ground:
//   a = cos^2 t k_min + sin^2 t k_maj, b = sin t cos t (k_maj - k_min),
//   c = sin^2 t k_min + cos^2 t k_maj, with k = 4 ln 2 / sin^2(FWHM) = 1 / (2 sigma^2).
//
// Polarised (Full) mode: E = diag(g_x, g_y) (X, Y feeds; circular beams g_x = g_y), then
// J = E R with R = [[cos psi, -sin psi], [sin psi, cos psi]] (astro/parallactic_math.h).
// Scalar mode: E = g for a circular beam; for an elliptical beam sqrt((g_x^2 + g_y^2) / 2),
// the amplitude whose square is the mean of the two feeds' power responses, so a Scalar run
// sees the same Stokes-I response as the Full run for identical stations (OSKAR itself refuses
// elliptical beams in Scalar mode; this is fringe's choice). No R in Scalar mode.
//
// Normalisation at the phase centre (not for Isotropic): divide the beam by its amplitude at
// the normalisation direction, scalar 1 / |b0|, matrix 1 / sqrt(sum |b0 elements|^2 / 2);
// phase untouched. When that amplitude is zero (the direction below the horizon) the beam is
// left as it is (factor 1) instead of becoming infinite.
#pragma once

#include <cmath>

#include "fringe/astro/parallactic_math.h"
#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"

namespace fringe::jones {

// 4 ln 2 = 1 / (2 sigma^2) * FWHM^2 for a Gaussian, and 1 / (2 sqrt(2 ln 2)) = sigma / FWHM.
inline constexpr double kFourLn2 = 2.7725887222397812376689284858327;
inline constexpr double kFwhmToSigma = 0.42466090014400952136075141705144;

// Coefficients of one feed's Gaussian exp(-(a l^2 + 2 b l m + c m^2)).
template <typename T>
struct GaussianFeed {
  T a, b, c;
};

// FWHM at frequency freq_hz of a beam whose FWHM is fwhm at ref_freq_hz; unchanged when
// ref_freq_hz <= 0 (OSKAR: no scaling for a zero reference frequency).
template <typename T>
FRINGE_HD_INLINE T gaussian_fwhm_at(T fwhm, T ref_freq_hz, T freq_hz) {
  return ref_freq_hz > T(0) ? fwhm * (ref_freq_hz / freq_hz) : fwhm;
}

// Standard deviation on the tangent plane, sigma = sin(FWHM) / (2 sqrt(2 ln 2)).
template <typename T>
FRINGE_HD_INLINE T gaussian_sigma_lm(T fwhm) {
  using std::sin;
  return sin(fwhm) * T(kFwhmToSigma);
}

template <typename T>
FRINGE_HD_INLINE GaussianFeed<T> gaussian_circular(T fwhm) {
  const T sigma = gaussian_sigma_lm(fwhm);
  const T k = T(1) / (T(2) * sigma * sigma);
  return {k, T(0), k};
}

// Elliptical feed: major/minor FWHM and the angle of the major axis from +m towards +l.
template <typename T>
FRINGE_HD_INLINE GaussianFeed<T> gaussian_elliptical(T fwhm_major, T fwhm_minor, T angle) {
  using std::cos;
  using std::sin;
  const T s_maj = sin(fwhm_major), s_min = sin(fwhm_minor);
  const T k_maj = T(kFourLn2) / (s_maj * s_maj);
  const T k_min = T(kFourLn2) / (s_min * s_min);
  const T st = sin(angle), ct = cos(angle);
  return {ct * ct * k_min + st * st * k_maj, st * ct * (k_maj - k_min),
          st * st * k_min + ct * ct * k_maj};
}

template <typename T>
FRINGE_HD_INLINE T gaussian_value(const GaussianFeed<T>& g, T l, T m) {
  using std::exp;
  return exp(-(g.a * l * l + T(2) * g.b * l * m + g.c * m * m));
}

// The tangent-plane axes at a beam direction (ENU unit vector), see the header comment.
template <typename T>
struct TangentPlane {
  T l_e, l_n;       // +l (no Up component)
  T m_e, m_n, m_u;  // +m
};

template <typename T>
FRINGE_HD_INLINE TangentPlane<T> beam_tangent_plane(T beam_e, T beam_n, T beam_u) {
  using std::atan2;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const T az = atan2(beam_e, beam_n);
  const T el = atan2(beam_u, sqrt(beam_e * beam_e + beam_n * beam_n));
  const T sa = sin(az), ca = cos(az), se = sin(el), ce = cos(el);
  return {-ca, sa, -se * sa, -se * ca, ce};
}

template <typename T>
FRINGE_HD_INLINE void tangent_plane_lm(const TangentPlane<T>& p, T e, T n, T u, T& l, T& m) {
  l = p.l_e * e + p.l_n * n;
  m = p.m_e * e + p.m_n * n + p.m_u * u;
}

// ENU direction of a source from precomputed sines and cosines of the local hour angle ha,
// the declination and the station latitude: the formula of astro::hadec_to_enu.
template <typename T>
FRINGE_HD_INLINE void source_enu(T sin_ha, T cos_ha, T sin_dec, T cos_dec, T sin_lat, T cos_lat,
                                 T& e, T& n, T& u) {
  e = -cos_dec * sin_ha;
  n = cos_lat * sin_dec - sin_lat * cos_dec * cos_ha;
  u = sin_lat * sin_dec + cos_lat * cos_dec * cos_ha;
}

// Parallactic angle from the same precomputed terms: astro::hadec_to_parallactic_angle.
template <typename T>
FRINGE_HD_INLINE T parallactic_angle(T sin_ha, T cos_ha, T sin_dec, T cos_dec, T sin_lat,
                                     T cos_lat) {
  using std::atan2;
  return atan2(cos_lat * sin_ha, sin_lat * cos_dec - cos_lat * sin_dec * cos_ha);
}

// R = [[cos psi, -sin psi], [sin psi, cos psi]] from the same terms without forming psi:
// psi = atan2(y, x), so cos psi = x / r and sin psi = y / r with r = sqrt(x^2 + y^2) (one sqrt
// instead of atan2 and sincos; equal to rounding). At r = 0 (source at the zenith or a pole)
// psi = atan2(0, 0) = 0: R = I.
template <typename T>
FRINGE_HD_INLINE astro::Rotation2<T> parallactic_rotation_from_terms(T sin_ha, T cos_ha, T sin_dec,
                                                                     T cos_dec, T sin_lat,
                                                                     T cos_lat) {
  using std::sqrt;
  const T y = cos_lat * sin_ha;
  const T x = sin_lat * cos_dec - cos_lat * sin_dec * cos_ha;
  const T r2 = x * x + y * y;
  if (!(r2 > T(0))) return {T(1), T(0), T(0), T(1)};
  const T inv_r = T(1) / sqrt(r2);
  const T c = x * inv_r, s = y * inv_r;
  return {c, -s, s, c};
}

// Below a station's horizon: elevation < 0, i.e. Up component < 0.
template <typename T>
FRINGE_HD_INLINE bool below_horizon(T u) {
  return u < T(0);
}

// Scalar beam of an elliptical beam from its two feeds, sqrt((g_x^2 + g_y^2) / 2).
template <typename T>
FRINGE_HD_INLINE T scalar_from_feeds(T gx, T gy) {
  using std::sqrt;
  return sqrt((gx * gx + gy * gy) / T(2));
}

// Normalisation factors: 1 / amplitude, or 1 when the amplitude is zero.
template <typename T>
FRINGE_HD_INLINE T normalisation_scalar(Complex<T> b0) {
  const T amp = abs(b0);
  return amp > T(0) ? T(1) / amp : T(1);
}
template <typename T>
FRINGE_HD_INLINE T normalisation_matrix(const Jones<T>& b0) {
  using std::sqrt;
  const T amp = sqrt(jones_norm2(b0) / T(2));
  return amp > T(0) ? T(1) / amp : T(1);
}

// Jones form of a rotation (the isotropic station's J = R).
template <typename T>
FRINGE_HD_INLINE Jones<T> rotation_jones(const astro::Rotation2<T>& r) {
  return {{r.xx, T(0)}, {r.xy, T(0)}, {r.yx, T(0)}, {r.yy, T(0)}};
}

// diag(gx, gy) R for real feed gains: the Gaussian station's J = E R.
template <typename T>
FRINGE_HD_INLINE Jones<T> diagonal_times_rotation(T gx, T gy, const astro::Rotation2<T>& r) {
  return {{gx * r.xx, T(0)}, {gx * r.xy, T(0)}, {gy * r.yx, T(0)}, {gy * r.yy, T(0)}};
}

// General E R (for matrix beams).
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_times_rotation(const Jones<T>& e, const astro::Rotation2<T>& r) {
  return e * rotation_jones(r);
}

// ---------------------------------------------------------------------------------------
// Everything one station needs at one time and frequency; built on the host by
// make_station_beam_params (station_jones.h) and passed by value to kernels.
enum class BeamKind : int { Isotropic = 0, Gaussian = 1, VlaPbcor = 2 };

// VLA primary beam (AIPS PBCOR polynomial, the VLA coefficients OSKAR uses, one set per band):
//   value = 1 + p1 X / 1e3 + p2 X^2 / 1e7 + p3 X^3 / 1e10,  X = (r f)^2,
// r the angle from the beam direction in arcmin, f in GHz; 0 where r f >= 44.376 arcmin GHz.
// The band is the one whose centre frequency is nearest to the observing frequency.
inline constexpr int kVlaBands = 8;
inline constexpr double kVlaBandGhz[kVlaBands] = {0.0738, 0.3275, 1.465,  4.885,
                                                  8.435,  14.965, 22.485, 43.315};
inline constexpr double kVlaP1[kVlaBands] = {-0.897, -0.935, -1.343, -1.372,
                                             -1.306, -1.305, -1.417, -1.321};
inline constexpr double kVlaP2[kVlaBands] = {2.71, 3.23, 6.579, 6.940, 6.253, 6.155, 7.332, 6.185};
inline constexpr double kVlaP3[kVlaBands] = {-0.242, -0.378, -1.186, -1.309,
                                             -1.100, -1.030, -1.352, -0.983};
inline constexpr double kVlaCutoffArcminGhz = 44.376;

// The PBCOR value for a source whose tangent-plane offset from the beam direction is
// (l, m) (sqrt(l^2 + m^2) = sin of the angle).
template <typename T>
FRINGE_HD_INLINE T vla_pbcor(T l, T m, T freq_ghz, T p1, T p2, T p3) {
  using std::asin;
  using std::sqrt;
  const T s = sqrt(l * l + m * m);
  const T r_arcmin = asin(s < T(1) ? s : T(1)) * T(10800.0 / kPi);
  const T t = r_arcmin * freq_ghz;
  if (!(t < T(kVlaCutoffArcminGhz))) return T(0);
  const T x = t * t;
  return T(1) + x * (p1 * T(1e-3) + x * (p2 * T(1e-7) + x * p3 * T(1e-10)));
}

template <typename T>
struct StationBeamParams {
  BeamKind kind = BeamKind::Isotropic;
  bool elliptical = false;  // Gaussian: x and y differ
  bool beam_off = false;    // beam direction below this station's horizon: E = 0 (OSKAR)
  T lst = 0;                // GAST + station longitude (rad)
  T sin_lat = 0, cos_lat = 1;
  TangentPlane<T> plane{};
  GaussianFeed<T> x{}, y{};                                // Gaussian feeds at this frequency
  T vla_freq_ghz = 0, vla_p1 = 0, vla_p2 = 0, vla_p3 = 0;  // VLA PBCOR band
  T norm = 1;                                              // normalisation factor (1 when off)
};

// The same parameters in another precision (e.g. built in double, used by float kernels).
template <typename U, typename T>
FRINGE_HD_INLINE StationBeamParams<U> station_beam_params_cast(const StationBeamParams<T>& p) {
  StationBeamParams<U> q;
  q.kind = p.kind;
  q.elliptical = p.elliptical;
  q.beam_off = p.beam_off;
  q.lst = U(p.lst);
  q.sin_lat = U(p.sin_lat);
  q.cos_lat = U(p.cos_lat);
  q.plane = {U(p.plane.l_e), U(p.plane.l_n), U(p.plane.m_e), U(p.plane.m_n), U(p.plane.m_u)};
  q.x = {U(p.x.a), U(p.x.b), U(p.x.c)};
  q.y = {U(p.y.a), U(p.y.b), U(p.y.c)};
  q.vla_freq_ghz = U(p.vla_freq_ghz);
  q.vla_p1 = U(p.vla_p1);
  q.vla_p2 = U(p.vla_p2);
  q.vla_p3 = U(p.vla_p3);
  q.norm = U(p.norm);
  return q;
}

// Beam of the two feeds (before normalisation) for a source at ENU (e, n, u).
template <typename T>
FRINGE_HD_INLINE void station_beam_feeds_raw(const StationBeamParams<T>& p, T e, T n, T u, T& gx,
                                             T& gy) {
  if (p.kind == BeamKind::Isotropic) {  // 1 everywhere, also below the horizon
    gx = gy = T(1);
    return;
  }
  if (below_horizon(u)) {
    gx = gy = T(0);
    return;
  }
  T l, m;
  tangent_plane_lm(p.plane, e, n, u, l, m);
  if (p.kind == BeamKind::VlaPbcor) {
    gx = gy = vla_pbcor(l, m, p.vla_freq_ghz, p.vla_p1, p.vla_p2, p.vla_p3);
    return;
  }
  gx = gaussian_value(p.x, l, m);
  gy = p.elliptical ? gaussian_value(p.y, l, m) : gx;
}

// Normalised feed beams; zero when the beam direction is below the horizon.
template <typename T>
FRINGE_HD_INLINE void station_beam_feeds(const StationBeamParams<T>& p, T e, T n, T u, T& gx,
                                         T& gy) {
  if (p.beam_off) {
    gx = gy = T(0);
    return;
  }
  station_beam_feeds_raw(p, e, n, u, gx, gy);
  gx *= p.norm;
  gy *= p.norm;
}

// Full-mode station Jones without K, J = E R, for a source at (ra, sin_dec, cos_dec).
template <typename T>
FRINGE_HD_INLINE Jones<T> station_jones_full(const StationBeamParams<T>& p, T ra, T sin_dec,
                                             T cos_dec) {
  using std::cos;
  using std::sin;
  const T ha = p.lst - ra;
  const T sin_ha = sin(ha), cos_ha = cos(ha);
  T e, n, u;
  source_enu(sin_ha, cos_ha, sin_dec, cos_dec, p.sin_lat, p.cos_lat, e, n, u);
  T gx, gy;
  station_beam_feeds(p, e, n, u, gx, gy);
  return diagonal_times_rotation(
      gx, gy,
      parallactic_rotation_from_terms(sin_ha, cos_ha, sin_dec, cos_dec, p.sin_lat, p.cos_lat));
}

// Scalar-mode station Jones without K (real, as a complex number).
template <typename T>
FRINGE_HD_INLINE Complex<T> station_jones_scalar(const StationBeamParams<T>& p, T ra, T sin_dec,
                                                 T cos_dec) {
  using std::cos;
  using std::sin;
  const T ha = p.lst - ra;
  T e, n, u;
  source_enu(sin(ha), cos(ha), sin_dec, cos_dec, p.sin_lat, p.cos_lat, e, n, u);
  T gx, gy;
  station_beam_feeds(p, e, n, u, gx, gy);
  return {p.elliptical ? scalar_from_feeds(gx, gy) : gx, T(0)};
}

// Phase factor of a station cable length error dL (m) at freq_hz: exp(i 2 pi dL / lambda)
// (docs/conventions.md, "Phase sign and the measurement equation"); it multiplies the station's X
// or Y row of J.
template <typename T>
FRINGE_HD_INLINE Complex<T> cable_phase(double length_error_m, double freq_hz) {
  using std::cos;
  using std::sin;
  const double phase = kTwoPi * freq_hz / kSpeedOfLight * length_error_m;
  return {T(cos(phase)), T(sin(phase))};
}

}  // namespace fringe::jones
