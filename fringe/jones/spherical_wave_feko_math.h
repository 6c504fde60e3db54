// Spherical-wave element patterns in OSKAR 2.13's FEKO convention (coefficient text files
// named *_feko* and *FEKO*.h5 files), host and device (FRINGE_HD_INLINE), shared by the CPU
// loops (aperture_array.cpp) and the CUDA kernels (docs/station_beams.md, "FEKO
// coefficients").
//
// With Pn^m the fully normalised associated Legendre function WITHOUT the Condon-Shortley
// sign, Pn^m(x) = sqrt((n + 1/2) (n - m)! / (n + m)!) P_n^m(x) (so that the integral of
// (Pn^m)^2 over x in [-1, 1] is 1), mu = |m|, and
//   dPn = d Pn^mu(cos theta) / d theta = mu cot(theta) Pn^mu - sqrt((n + mu + 1)(n - mu)) Pn^(mu+1)
// (the standard derivative identity, which avoids the cancellation of the form in l near the
// zenith), the far field of one feed is
//   E_theta = K sum_{n, m} i^n     s_m e^{i m phi} / sqrt(n(n+1)) (-m a_TE Pn/sin + a_TM dPn)
//   E_phi   = K sum_{n, m} i^(n+1) s_m e^{i m phi} / sqrt(n(n+1)) ( m a_TM Pn/sin - a_TE dPn)
// with s_m = (-1)^m for m < 0 (else 1), K = sqrt(Z0 / (2 pi)), Z0 the impedance of free space,
// theta held at >= 1e-5 rad as OSKAR does, and rows [E_theta, E_phi] (as the Galileo
// variant). This is the sum OSKAR 2.13 evaluates for FEKO data (its "norm polynomial" kernel,
// non-TICRA branch); derived here from the formulas above, checked against OSKAR's
// Measurement Sets and beam patterns (tests/data/oskar-reference/spherical_wave_feko*).
//
// Legendre functions: Q_l^m = sqrt(2) Pl^m by the standard recurrences of fully normalised
// functions (e.g. Holmes & Featherstone 2002, J. Geodesy 76, eqs. 11-13):
//   Q_0^0 = 1,  Q_m^m = sqrt((2m + 1) / (2m)) sin(theta) Q_(m-1)^(m-1),
//   Q_l^m = a_lm (cos(theta) Q_(l-1)^m - b_lm Q_(l-2)^m),
//   a_lm = sqrt((4l^2 - 1) / (l^2 - m^2)),  b_lm = sqrt(((l-1)^2 - m^2) / (4(l-1)^2 - 1)),
// carried in l for orders m and m + 1 together (for dPn). No factorials: no overflow in
// single precision, whatever the order.
//
// Coefficients: 4 complex values per mode index j = n*n + n - 1 + m, [X TE, X TM, Y TE, Y TM]
// (telescope/spherical_wave_files.h).
#pragma once

#include <cmath>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"
#include "fringe/jones/spherical_wave_math.h"

namespace fringe::jones {

// One step of the fully normalised recurrence in l at order m: Q_l^m from Q_(l-1)^m and
// Q_(l-2)^m (l > m; the b term vanishes at l = m + 1).
template <typename T>
FRINGE_HD_INLINE T sw_feko_step(int l, int m, T ct, T q1, T q2) {
  using std::sqrt;
  const T l2 = T(l) * T(l), m2 = T(m) * T(m), k = T(l - 1) * T(l - 1);
  const T a = sqrt((T(4) * l2 - T(1)) / (l2 - m2));
  const T b = sqrt((k - m2) / (T(4) * k - T(1)));
  return a * (ct * q1 - b * q2);
}

// i^k for k >= 0.
template <typename T>
FRINGE_HD_INLINE Complex<T> sw_ipow(int k) {
  const int q = k % 4;
  return q == 0   ? Complex<T>{T(1), T(0)}
         : q == 1 ? Complex<T>{T(0), T(1)}
         : q == 2 ? Complex<T>{T(-1), T(0)}
                  : Complex<T>{T(0), T(-1)};
}

// Adds one FEKO mode to (E_theta, E_phi) of one feed: e = s_m e^{i m phi} / sqrt(n(n+1)),
// fn = i^n, fn1 = i^(n+1).
template <typename T>
FRINGE_HD_INLINE void sw_mode_feko(Complex<T> e, T m, T p_sin, T dp, Complex<T> fn, Complex<T> fn1,
                                   Complex<T> te, Complex<T> tm, Complex<T>& e_theta,
                                   Complex<T>& e_phi) {
  const Complex<T> t = tm * dp - te * (m * p_sin);
  const Complex<T> p = tm * (m * p_sin) - te * dp;
  e_theta = e_theta + fn * e * t;
  e_phi = e_phi + fn1 * e * p;
}

// Both feeds' fields for a direction (theta, phi_x, phi_y) in rad; rows [E_theta, E_phi].
template <typename T>
FRINGE_HD_INLINE Jones<T> sw_pattern_feko(const Complex<T>* a, int l_max, T theta, T phi_x,
                                          T phi_y) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (theta < sw_min_theta<T>()) theta = sw_min_theta<T>();
  const T st = sin(theta), ct = cos(theta);
  Complex<T> xt{T(0), T(0)}, xp{T(0), T(0)}, yt{T(0), T(0)}, yp{T(0), T(0)};
  T qmm = T(1);  // Q_m^m
  for (int m = 0; m <= l_max; ++m) {
    if (m > 0) qmm *= sqrt(T(2 * m + 1) / T(2 * m)) * st;
    const T qnext = qmm * sqrt(T(2 * m + 3) / T(2 * m + 2)) * st;  // Q_(m+1)^(m+1)
    const T cmx = cos(T(m) * phi_x), smx = sin(T(m) * phi_x);
    const T cmy = cos(T(m) * phi_y), smy = sin(T(m) * phi_y);
    // Orders m (qa) and m + 1 (qb) at degree l, and at l - 1 (pa, pb).
    T qa = qmm, pa = T(0), qb = T(0), pb = T(0);
    for (int l = m; l <= l_max; ++l) {
      if (l >= 1) {
        const T p_sin = qa / st;
        const T dp = T(m) * ct * qa / st - sqrt(T(l + m + 1) * T(l - m)) * qb;  // times sqrt(2)
        const T r = T(1) / sqrt(T(l) * T(l + 1));
        const Complex<T> fn = sw_ipow<T>(l), fn1 = sw_ipow<T>(l + 1);
        const int centre = l * l + l - 1;
        for (int sgn = (m == 0 ? 1 : -1); sgn <= 1; sgn += 2) {
          const int mm = sgn * m;
          const T s = (sgn < 0 && (m % 2)) ? -r : r;
          const Complex<T>* c = a + 4 * (centre + mm);
          const Complex<T> ex{s * cmx, T(sgn) * s * smx};
          const Complex<T> ey{s * cmy, T(sgn) * s * smy};
          sw_mode_feko(ex, T(mm), p_sin, dp, fn, fn1, c[0], c[1], xt, xp);
          sw_mode_feko(ey, T(mm), p_sin, dp, fn, fn1, c[2], c[3], yt, yp);
        }
      }
      // Degree l + 1 at orders m and m + 1.
      const T qa_next = sw_feko_step(l + 1, m, ct, qa, pa);
      const T qb_next = (l + 1 == m + 1) ? qnext : sw_feko_step(l + 1, m + 1, ct, qb, pb);
      pa = qa;
      qa = qa_next;
      pb = qb;
      qb = qb_next;
    }
  }
  // K = sqrt(Z0 / (2 pi)), and 1 / sqrt(2) from Q = sqrt(2) Pn.
  const T k = sqrt(sw_z0<T>() / (T(4) * T(kPi)));
  return {xt * k, xp * k, yt * k, yp * k};
}

}  // namespace fringe::jones
