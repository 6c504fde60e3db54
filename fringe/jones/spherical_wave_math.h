// Spherical-wave element patterns (OSKAR 2.13's text-file coefficients), host and device
// (FRINGE_HD_INLINE), shared by the CPU loops (aperture_array.cpp) and the CUDA kernels
// (docs/station_beams.md, "Numerical element patterns").
//
// The far field of one feed is a sum over orders l = 1..L and m = -l..l of TE and TM modes
// (J. E. Hansen, "Spherical near-field antenna measurements", 1988, ch. 2, the normalised
// vector spherical harmonics without the radial factor):
//   E_theta += N_lm e^{i m phi} (-a_TE dP + i m a_TM P/sin)
//   E_phi   += N_lm e^{i m phi} (-a_TM dP - i m a_TE P/sin)
// with P = P_l^|m|(cos theta) (Condon-Shortley phase), P/sin = P / sin theta,
// dP = sin theta dP_l^|m|/d(cos theta) = -dP/dtheta, and
// N_lm = sqrt((2l + 1) / (4 pi l (l + 1)) (l - |m|)! / (l + |m|)!).
// This is the expansion OSKAR 2.13 evaluates (its element-pattern kernels); theta is held
// at >= 1e-5 rad as OSKAR does, so the zenith is finite. The X feed uses phi - alpha_x, the
// Y feed phi + pi/2 - alpha_y, or the X azimuth for x/y-labelled files (their patterns are
// already rotated). OSKAR's matrix rows are [E_phi, E_theta] (not [E_theta, E_phi] as for
// the dipole): row X = (X_phi, X_theta), row Y = (Y_phi, Y_theta).
//
// Coefficients: 4 complex values per mode index j = l*l + l - 1 + m, [X TE, X TM, Y TE, Y TM]
// (telescope/spherical_wave_files.h). Legendre functions by the standard upward recurrences
// in l at fixed m (Abramowitz & Stegun 8.5.3, 8.5.4); the factorial ratio is updated in the
// same loop ((l-m)!/(l+m)! times (l+1-m)/(l+1+m) from l to l + 1).
#pragma once

#include <cmath>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"

namespace fringe::jones {

// theta is clamped to this (rad), as in OSKAR: P/sin and dP are finite at the zenith.
template <typename T>
FRINGE_HD_INLINE T sw_min_theta() {
  return T(1e-5);
}

// Adds one mode's contribution to (E_theta, E_phi) of one feed.
template <typename T>
FRINGE_HD_INLINE void sw_mode(Complex<T> e_m, T m, T p_sin, T dp, Complex<T> te, Complex<T> tm,
                              Complex<T>& e_theta, Complex<T>& e_phi) {
  // -a dP + i m b P/sin, for (a, b) = (TE, TM) and (TM, -TE).
  const Complex<T> t{-te.re * dp - m * tm.im * p_sin, -te.im * dp + m * tm.re * p_sin};
  const Complex<T> p{-tm.re * dp + m * te.im * p_sin, -tm.im * dp - m * te.re * p_sin};
  e_theta = e_theta + e_m * t;
  e_phi = e_phi + e_m * p;
}

// Both feeds' fields for a direction (theta, phi_x, phi_y) in rad; rows [E_phi, E_theta].
template <typename T>
FRINGE_HD_INLINE Jones<T> sw_pattern(const Complex<T>* a, int l_max, T theta, T phi_x, T phi_y) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (theta < sw_min_theta<T>()) theta = sw_min_theta<T>();
  const T st = sin(theta), ct = cos(theta);
  Complex<T> xt{T(0), T(0)}, xp{T(0), T(0)}, yt{T(0), T(0)}, yp{T(0), T(0)};
  T pmm = T(1);       // P_m^m = (-1)^m (2m - 1)!! sin^m theta
  T ratio_mm = T(1);  // (l - m)! / (l + m)! at l = m: 1 / (2m)!
  for (int m = 0; m <= l_max; ++m) {
    if (m > 0) {
      pmm *= -T(2 * m - 1) * st;
      ratio_mm /= T(2 * m - 1) * T(2 * m);
    }
    const T cmx = cos(T(m) * phi_x), smx = sin(T(m) * phi_x);
    const T cmy = cos(T(m) * phi_y), smy = sin(T(m) * phi_y);
    // P_l^m and P_{l+1}^m, starting at l = m.
    T p_l = pmm, p_next = ct * T(2 * m + 1) * pmm, ratio = ratio_mm;
    for (int l = m; l <= l_max; ++l) {
      if (l >= 1) {
        const T norm = sqrt(T(2 * l + 1) / (T(4) * T(kPi) * T(l) * T(l + 1)) * ratio);
        const T p_sin = p_l / st;
        const T dp = (ct * p_l * T(l + 1) - p_next * T(l - m + 1)) / st;
        const int centre = l * l + l - 1;
        for (int sgn = (m == 0 ? 1 : -1); sgn <= 1; sgn += 2) {
          const int mm = sgn * m;
          const Complex<T>* c = a + 4 * (centre + mm);
          const Complex<T> ex{norm * cmx, T(sgn) * norm * smx};
          const Complex<T> ey{norm * cmy, T(sgn) * norm * smy};
          sw_mode(ex, T(mm), p_sin, dp, c[0], c[1], xt, xp);
          sw_mode(ey, T(mm), p_sin, dp, c[2], c[3], yt, yp);
        }
      }
      // Next order: P_{l+2}^m from P_{l+1}^m and P_l^m; the ratio for l + 1.
      const T p_after = (T(2 * l + 3) * ct * p_next - T(l + 1 + m) * p_l) / T(l + 2 - m);
      p_l = p_next;
      p_next = p_after;
      ratio *= T(l + 1 - m) / T(l + 1 + m);
    }
  }
  return {xp, xt, yp, yt};
}

}  // namespace fringe::jones
