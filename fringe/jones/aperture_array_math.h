// Per-element formulas of aperture-array station beams, host and device (FRINGE_HD_INLINE),
// shared by the CPU loops of aperture_array.cpp and the CUDA kernels (docs/station_beams.md).
// Directions are unit vectors (e, n, u) in a station's local East-North-Up frame; positions in
// metres; angles in radians; wavenumber k0 = 2 pi f / c in rad/m.
//
// Array factor of one feed (OSKAR 2.13):
//   AF(s) = sum_k w_k exp(+i k0 r_k . s),   w_k = W_k exp(-i k0 (r'_k . b + dL_k))
// with r_k the TRUE element positions (measured + error columns), r'_k the MEASURED ones,
// b the beam direction, dL_k the element's cable length error and W_k the static weight
// (apodisation x G exp(i phi), with the time-variable errors drawn for the time step). At the
// beam direction and without errors every term is W_k: the phase is k0 r_k . (s - b).
// `array_pattern/normalise` divides by the number of elements.
//
// Element patterns in OSKAR's (theta, phi) basis, theta the zenith angle, phi the azimuth
// measured from East towards North, so the matrix rows are [X_theta, X_phi; Y_theta, Y_phi]:
//   Dipole of length L (kL = pi L / lambda), phi' = phi - alpha_x for X (the dipole along
//   East, turned by the feed angle towards North) and phi' = phi + pi/2 - alpha_y for Y
//   (OSKAR's orientation convention: the Y dipole lies along North but its pattern is taken
//   with phi' measured from South, which flips the sign of the Y row relative to a dipole
//   measured from North; checked against OSKAR 2.13's Measurement Sets, where the other
//   choice flips the sign of XY and YX):
//     t = (cos(kL cos phi' sin theta) - cos kL) / (1 - cos^2 phi' sin^2 theta)
//     E_theta = -cos phi' cos theta t,   E_phi = sin phi' t
//   (the far field of a thin centre-fed dipole, Balanis ch. 4, resolved on theta-hat and
//   phi-hat; |E| = 1 at the zenith for a half-wave dipole). Along the dipole axis (zero
//   denominator) the field is 0.
//   Isotropic (unpolarised): X row (1, 0), Y row (0, 1), i.e. the identity.
//   Tapers multiply every component: cos^p(theta), or exp(-4 ln 2 theta^2 / FWHM^2).
//   `element_pattern/normalise`: the dipole is divided by its zenith value 1 - cos kL.
//   `swap_xy`: the X and Y rows are exchanged.
//   Scalar mode: sqrt((|X_theta|^2 + |X_phi|^2 + |Y_theta|^2 + |Y_phi|^2) / 2) (1 for the
//   isotropic element), times the taper.
// Station beam (polarised) = [X row * AF_x; Y row * AF_y]; with tiles the tile beams take the
// place of the element pattern (a station of identical tiles: element x AF_tile x AF_station).
// Below the station horizon (u < 0) the beam is 0.
#pragma once

#include <cmath>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"
#include "fringe/jones/spherical_wave_feko_math.h"
#include "fringe/jones/spherical_wave_math.h"

namespace fringe::jones {

enum class ElementKind : int { Isotropic = 0, Dipole = 1 };
enum class TaperKind : int { None = 0, Cosine = 1, Gaussian = 2 };

// Everything the element pattern needs at one frequency (same for every element of a node
// whose elements are uniform: identical feed angles and types).
template <typename T>
struct ElementParams {
  ElementKind kind = ElementKind::Isotropic;
  TaperKind taper = TaperKind::None;
  T kl = T(0), cos_kl = T(1);        // dipole: kL = pi L / lambda and cos(kL)
  T dipole_norm = T(1);              // 1 / (1 - cos kL) when element_pattern/normalise, else 1
  T taper_param = T(0);              // cosine power p, or 4 ln 2 / FWHM^2 (rad^-2)
  T alpha_x = T(0), alpha_y = T(0);  // feed angles, rad (East towards North)
  bool swap_xy = false;
  // Spherical-wave coefficients (spherical_wave_math.h) of the element type at the nearest
  // frequency, or nullptr for the functional pattern. Polarised mode only (OSKAR evaluates
  // the functional pattern in Scalar mode). sw_norm: 1 / zenith amplitude when
  // element_pattern/normalise, else 1.
  const Complex<T>* sw = nullptr;
  int sw_l_max = 0;
  bool sw_common_phi = false;
  bool sw_galileo = false;  // Galileo convention (spherical_wave_math.h)
  bool sw_feko = false;     // FEKO convention (spherical_wave_feko_math.h)
  T sw_norm = T(1);
};

// The two rows of a polarised element (or node) response, real for functional patterns.
template <typename T>
struct ElementRows {
  T x_theta, x_phi, y_theta, y_phi;
};

template <typename T>
FRINGE_HD_INLINE T aa_taper(const ElementParams<T>& p, T cos_theta) {
  using std::acos;
  using std::exp;
  using std::pow;
  if (p.taper == TaperKind::Cosine) return pow(cos_theta > T(0) ? cos_theta : T(0), p.taper_param);
  if (p.taper == TaperKind::Gaussian) {
    const T theta = acos(cos_theta < T(1) ? cos_theta : T(1));
    return exp(-p.taper_param * theta * theta);
  }
  return T(1);
}

// One dipole's (E_theta, E_phi) for phi' = phi - phi_dipole given as cos/sin.
template <typename T>
FRINGE_HD_INLINE void aa_dipole(T kl, T cos_kl, T cos_phi, T sin_phi, T sin_theta, T cos_theta,
                                T& e_theta, T& e_phi) {
  using std::cos;
  const T cps = cos_phi * sin_theta;
  const T denom = T(1) - cps * cps;
  if (!(denom > T(0))) {  // along the dipole axis
    e_theta = e_phi = T(0);
    return;
  }
  const T t = (cos(kl * cps) - cos_kl) / denom;
  e_theta = -cos_phi * cos_theta * t;
  e_phi = sin_phi * t;
}

// Polarised element response for a direction (e, n, u) with u >= 0 (callers zero u < 0).
template <typename T>
FRINGE_HD_INLINE ElementRows<T> aa_element(const ElementParams<T>& p, T e, T n, T u) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  ElementRows<T> r{T(1), T(0), T(0), T(1)};
  const T cos_theta = u;
  if (p.kind == ElementKind::Dipole) {
    const T rho = sqrt(e * e + n * n);  // sin(theta)
    // cos/sin of phi (azimuth from East); at the zenith phi = atan2(0, 0) = 0.
    const T cp = rho > T(0) ? e / rho : T(1), sp = rho > T(0) ? n / rho : T(0);
    // phi' = phi - alpha_x for X; phi + pi/2 - alpha_y for Y (OSKAR's azimuth offsets
    // pi/2 - orientation with orientations alpha_x + 90 deg and alpha_y).
    const T cax = cos(p.alpha_x), sax = sin(p.alpha_x);
    const T cay = cos(p.alpha_y), say = sin(p.alpha_y);
    const T cx = cp * cax + sp * sax, sx = sp * cax - cp * sax;
    // cos(phi + pi/2 - a) = -sin(phi - a), sin(phi + pi/2 - a) = cos(phi - a)
    const T cy = -(sp * cay - cp * say), sy = cp * cay + sp * say;
    aa_dipole(p.kl, p.cos_kl, cx, sx, rho, cos_theta, r.x_theta, r.x_phi);
    aa_dipole(p.kl, p.cos_kl, cy, sy, rho, cos_theta, r.y_theta, r.y_phi);
    r.x_theta *= p.dipole_norm;
    r.x_phi *= p.dipole_norm;
    r.y_theta *= p.dipole_norm;
    r.y_phi *= p.dipole_norm;
  }
  if (p.taper != TaperKind::None) {
    const T f = aa_taper(p, cos_theta);
    r.x_theta *= f;
    r.x_phi *= f;
    r.y_theta *= f;
    r.y_phi *= f;
  }
  if (p.swap_xy) r = {r.y_theta, r.y_phi, r.x_theta, r.x_phi};
  return r;
}

// The element's factors applied to spherical-wave fields j for a direction of Up component u:
// norm times the taper, feeds exchanged when swap_xy.
template <typename T>
FRINGE_HD_INLINE Jones<T> aa_sw_finish(const ElementParams<T>& p, Jones<T> j, T norm, T u) {
  T f = norm;
  if (p.taper != TaperKind::None) f *= aa_taper(p, u);
  j = {j.a * f, j.b * f, j.c * f, j.d * f};
  if (p.swap_xy) j = {j.c, j.d, j.a, j.b};
  return j;
}

// The spherical-wave sum of element params p (feed angles, taper, swap_xy, Galileo/FEKO flags)
// with the coefficients coeffs(j) (spherical_wave_math.h: SwCoeffSet for one type,
// SwWeightedSets for several types weighted by their array factors) up to order l_max, times
// norm and the taper.
template <typename T, typename Coeffs>
FRINGE_HD_INLINE Jones<T> aa_sw_jones(const ElementParams<T>& p, const Coeffs& coeffs, int l_max,
                                      T norm, T e, T n, T u) {
  using std::atan2;
  using std::sqrt;
  const T theta = atan2(sqrt(e * e + n * n), u);
  const T phi = atan2(n, e);  // from East towards North; 0 at the zenith
  const T phi_x = phi - p.alpha_x;
  const T phi_y = p.sw_common_phi ? phi_x : phi + T(kPi / 2) - p.alpha_y;
  const Jones<T> j = p.sw_feko ? sw_pattern_feko(p.sw, p.sw_l_max, theta, phi_x, phi_y)
                               : sw_expand(coeffs, l_max, theta, phi_x, phi_y, p.sw_galileo);
  return aa_sw_finish(p, j, norm, u);
}

// Polarised element response as a complex matrix: the spherical-wave sum when the params
// carry coefficients (rows [E_phi, E_theta], OSKAR's order for them; Galileo and FEKO
// [E_theta, E_phi]), else aa_element.
template <typename T>
FRINGE_HD_INLINE Jones<T> aa_element_jones(const ElementParams<T>& p, T e, T n, T u) {
  if (!p.sw) {
    const ElementRows<T> r = aa_element(p, e, n, u);
    return {{r.x_theta, T(0)}, {r.x_phi, T(0)}, {r.y_theta, T(0)}, {r.y_phi, T(0)}};
  }
  return aa_sw_jones(p, SwCoeffSet<T>{p.sw}, p.sw_l_max, p.sw_norm, e, n, u);
}

// Whether element types a and b can share one spherical-wave pass (SwWeightedSets): both plain
// spherical-wave coefficients (not Galileo or FEKO) with the same feed angles, azimuth rule,
// taper and feed order; their orders and normalisations may differ.
template <typename T>
FRINGE_HD_INLINE bool aa_sw_mergeable(const ElementParams<T>& a, const ElementParams<T>& b) {
  const auto plain = [](const ElementParams<T>& p) {
    return p.sw != nullptr && !p.sw_galileo && !p.sw_feko;
  };
  return plain(a) && plain(b) && a.alpha_x == b.alpha_x && a.alpha_y == b.alpha_y &&
         a.sw_common_phi == b.sw_common_phi && a.taper == b.taper &&
         a.taper_param == b.taper_param && a.swap_xy == b.swap_xy;
}

// Station Jones from complex element rows and the two feeds' array factors.
template <typename T>
FRINGE_HD_INLINE Jones<T> aa_jones(const Jones<T>& r, Complex<T> af_x, Complex<T> af_y) {
  return {af_x * r.a, af_x * r.b, af_y * r.c, af_y * r.d};
}

// Scalar element response (real).
template <typename T>
FRINGE_HD_INLINE T aa_element_scalar(const ElementParams<T>& p, T e, T n, T u) {
  using std::sqrt;
  if (p.kind == ElementKind::Isotropic) return aa_taper(p, u);
  const ElementRows<T> r = aa_element(p, e, n, u);  // taper included
  return sqrt(
      (r.x_theta * r.x_theta + r.x_phi * r.x_phi + r.y_theta * r.y_theta + r.y_phi * r.y_phi) /
      T(2));
}

// Phase k0 r . s of one element for one direction (rad).
template <typename T>
FRINGE_HD_INLINE T aa_phase(T k0, T x, T y, T z, T e, T n, T u) {
  return k0 * (x * e + y * n + z * u);
}

// w exp(i phase) added into an accumulator.
template <typename T>
FRINGE_HD_INLINE void aa_accumulate(Complex<T>& acc, Complex<T> w, T s, T c) {
  acc.re += w.re * c - w.im * s;
  acc.im += w.re * s + w.im * c;
}

// Station Jones from the element rows and the two feeds' array factors.
template <typename T>
FRINGE_HD_INLINE Jones<T> aa_jones(const ElementRows<T>& r, Complex<T> af_x, Complex<T> af_y) {
  return {af_x * r.x_theta, af_x * r.x_phi, af_y * r.y_theta, af_y * r.y_phi};
}

// Beamforming weight of one element: W exp(-i k0 (r' . b + dL)) in double (the phase may be
// large; weights are formed once per station, time and frequency on the host).
FRINGE_HD_INLINE Complex<double> aa_weight(Complex<double> w0, double k0, double x, double y,
                                           double z, double be, double bn, double bu,
                                           double cable_m) {
  using std::cos;
  using std::sin;
  const double ph = -k0 * (x * be + y * bn + z * bu + cable_m);
  return w0 * Complex<double>{cos(ph), sin(ph)};
}

}  // namespace fringe::jones
