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
// Galileo variant (files named *_galileo*, OSKAR's convention for them): P without the
// Condon-Shortley sign and dP of the opposite sign, every order scaled by the impedance of
// free space Z0 inside N^2, the TE and TM terms of order l multiplied by (-i)^(l+1) and (-i)^l,
// terms of m > 0 by (-1)^m, and the sums conjugated at the end:
//   E_theta += f N e^{i m phi} (i m (-i)^(l+1) a_TE P/sin + (-i)^l a_TM dP)
//   E_phi   += f N e^{i m phi} (i m (-i)^l a_TM P/sin - (-i)^(l+1) a_TE dP)
// with f = (-1)^m for m > 0, else 1; its matrix rows are [E_theta, E_phi].
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

// One Galileo mode: (dp, p_sin) already in the Galileo sign convention, ft = (-i)^(l+1),
// fm = (-i)^l, times the m > 0 factor bh.
template <typename T>
FRINGE_HD_INLINE void sw_mode_galileo(Complex<T> e_m, T m, T p_sin, T dp, Complex<T> ft,
                                      Complex<T> fm, Complex<T> te, Complex<T> tm,
                                      Complex<T>& e_theta, Complex<T>& e_phi) {
  const Complex<T> dd = e_m * Complex<T>{T(0), m * p_sin};  // i m E P/sin
  const Complex<T> qq = e_m * dp;
  e_theta = e_theta + dd * ft * te + qq * fm * tm;
  e_phi = e_phi + dd * fm * tm - qq * ft * te;
}

// Impedance of free space (ohm), as OSKAR's Galileo evaluation uses it.
template <typename T>
FRINGE_HD_INLINE T sw_z0() {
  return T(376.730313668);
}

// The four coefficients of one mode index j = l*l + l - 1 + m: X TE, X TM, Y TE, Y TM.
template <typename T>
struct SwModeCoeffs {
  Complex<T> x_te, x_tm, y_te, y_tm;
};

// The 4 coefficients at c (one mode index). On the device as 2 (float) or 4 (double) 16-byte
// loads through the read-only cache: the kernels' coefficient sets start at multiples of 4
// complex values of a cudaMalloc'd buffer, so c is 16-byte aligned.
template <typename T>
FRINGE_HD_INLINE SwModeCoeffs<T> sw_load_mode(const Complex<T>* c) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(T) == sizeof(float)) {
    const float4 a = __ldg(reinterpret_cast<const float4*>(c));
    const float4 b = __ldg(reinterpret_cast<const float4*>(c) + 1);
    return {{a.x, a.y}, {a.z, a.w}, {b.x, b.y}, {b.z, b.w}};
  } else {
    const double2* v = reinterpret_cast<const double2*>(c);
    const double2 a = __ldg(v), b = __ldg(v + 1), d = __ldg(v + 2), e = __ldg(v + 3);
    return {{a.x, a.y}, {b.x, b.y}, {d.x, d.y}, {e.x, e.y}};
  }
#else
  return {c[0], c[1], c[2], c[3]};
#endif
}

// The coefficients of one element type, in the file layout (4 complex values per mode index).
template <typename T>
struct SwCoeffSet {
  const Complex<T>* a;
  FRINGE_HD_INLINE SwModeCoeffs<T> operator()(int j) const { return sw_load_mode(a + 4 * j); }
};

// Several element types (at most kMax) that share the feed angles, each weighted by the complex
// factors (fx, fy) of its X and Y feed: the fields are linear in the coefficients, so
//   sum_g diag(fx_g, fy_g) E_g = E evaluated with sum_g (fx_g c_g^X, fy_g c_g^Y),
// one pass of the recurrences for all types (the aperture-array kernels use it for stations
// that mix element types: fx_g, fy_g are the group's array factors). Types of lower order have
// no coefficients beyond their own l_max (num_modes = l_max (l_max + 2)).
template <typename T, int kMax>
struct SwWeightedSets {
  const Complex<T>* a[kMax];
  int num_modes[kMax];
  Complex<T> fx[kMax], fy[kMax];
  int count;
  FRINGE_HD_INLINE SwModeCoeffs<T> operator()(int j) const {
    SwModeCoeffs<T> s{};
#ifdef __CUDA_ARCH__
#pragma unroll  // fx, fy stay in registers
#endif
    for (int g = 0; g < kMax; ++g) {
      if (g < count && j < num_modes[g]) {
        const SwModeCoeffs<T> c = sw_load_mode(a[g] + 4 * j);
        if (g == 0) {  // no addition of zeros (x + 0 is not folded in IEEE arithmetic)
          s = {fx[0] * c.x_te, fx[0] * c.x_tm, fy[0] * c.y_te, fy[0] * c.y_tm};
        } else {
          s.x_te = s.x_te + fx[g] * c.x_te;
          s.x_tm = s.x_tm + fx[g] * c.x_tm;
          s.y_te = s.y_te + fy[g] * c.y_te;
          s.y_tm = s.y_tm + fy[g] * c.y_tm;
        }
      }
    }
    return s;
  }
};

// Both feeds' fields for a direction (theta, phi_x, phi_y) in rad with the coefficients that
// `coeffs(j)` gives per mode index j (SwCoeffSet, SwWeightedSets); rows [E_phi, E_theta]
// (Galileo: [E_theta, E_phi]).
template <typename T, typename Coeffs>
FRINGE_HD_INLINE Jones<T> sw_expand(const Coeffs& coeffs, int l_max, T theta, T phi_x, T phi_y,
                                    bool galileo = false) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (theta < sw_min_theta<T>()) theta = sw_min_theta<T>();
  const T st = sin(theta), ct = cos(theta);
  Complex<T> xt{T(0), T(0)}, xp{T(0), T(0)}, yt{T(0), T(0)}, yp{T(0), T(0)};
  T pmm = T(1);       // P_m^m = (-1)^m (2m - 1)!! sin^m theta
  T ratio_mm = T(1);  // (l - m)! / (l + m)! at l = m: 1 / (2m)!
  // cos and sin of m phi by rotation from m - 1 (one sin/cos pair per feed, not one per m;
  // the rounding grows like m times the precision's epsilon).
  const T c1x = cos(phi_x), s1x = sin(phi_x), c1y = cos(phi_y), s1y = sin(phi_y);
  T cmx = T(1), smx = T(0), cmy = T(1), smy = T(0);
  for (int m = 0; m <= l_max; ++m) {
    if (m > 0) {
      pmm *= -T(2 * m - 1) * st;
      ratio_mm /= T(2 * m - 1) * T(2 * m);
      const T cx = cmx * c1x - smx * s1x, cy = cmy * c1y - smy * s1y;
      smx = smx * c1x + cmx * s1x;
      smy = smy * c1y + cmy * s1y;
      cmx = cx;
      cmy = cy;
    }
    // P_l^m and P_{l+1}^m, starting at l = m.
    T p_l = pmm, p_next = ct * T(2 * m + 1) * pmm, ratio = ratio_mm;
    for (int l = m; l <= l_max; ++l) {
      if (l >= 1) {
        const T scale = galileo ? sw_z0<T>() : T(1);
        const T norm = sqrt(scale * T(2 * l + 1) / (T(4) * T(kPi) * T(l) * T(l + 1)) * ratio);
        T p_sin = p_l / st;
        T dp = (ct * p_l * T(l + 1) - p_next * T(l - m + 1)) / st;
        const int centre = l * l + l - 1;
        // (-i)^l and (-i)^(l+1) for the Galileo terms.
        const int q = l % 4;
        const Complex<T> fm = q == 0   ? Complex<T>{T(1), T(0)}
                              : q == 1 ? Complex<T>{T(0), T(-1)}
                              : q == 2 ? Complex<T>{T(-1), T(0)}
                                       : Complex<T>{T(0), T(1)};
        const Complex<T> ft = fm * Complex<T>{T(0), T(-1)};
        if (galileo && (m % 2)) p_sin = -p_sin;  // no Condon-Shortley sign
        if (galileo && !(m % 2)) dp = -dp;       // and dP of the opposite sign
        for (int sgn = (m == 0 ? 1 : -1); sgn <= 1; sgn += 2) {
          const int mm = sgn * m;
          const SwModeCoeffs<T> c = coeffs(centre + mm);
          const Complex<T> ex{norm * cmx, T(sgn) * norm * smx};
          const Complex<T> ey{norm * cmy, T(sgn) * norm * smy};
          if (galileo) {
            const T bh = (sgn > 0 && (m % 2)) ? T(-1) : T(1);
            sw_mode_galileo(ex * bh, T(mm), p_sin, dp, ft, fm, c.x_te, c.x_tm, xt, xp);
            sw_mode_galileo(ey * bh, T(mm), p_sin, dp, ft, fm, c.y_te, c.y_tm, yt, yp);
          } else {
            sw_mode(ex, T(mm), p_sin, dp, c.x_te, c.x_tm, xt, xp);
            sw_mode(ey, T(mm), p_sin, dp, c.y_te, c.y_tm, yt, yp);
          }
        }
      }
      // Next order: P_{l+2}^m from P_{l+1}^m and P_l^m; the ratio for l + 1.
      const T p_after = (T(2 * l + 3) * ct * p_next - T(l + 1 + m) * p_l) / T(l + 2 - m);
      p_l = p_next;
      p_next = p_after;
      ratio *= T(l + 1 - m) / T(l + 1 + m);
    }
  }
  if (galileo) {
    return {{xt.re, -xt.im}, {xp.re, -xp.im}, {yt.re, -yt.im}, {yp.re, -yp.im}};
  }
  return {xp, xt, yp, yt};
}

// Both feeds' fields of one element type with coefficients a (the file layout).
template <typename T>
FRINGE_HD_INLINE Jones<T> sw_pattern(const Complex<T>* a, int l_max, T theta, T phi_x, T phi_y,
                                     bool galileo = false) {
  return sw_expand(SwCoeffSet<T>{a}, l_max, theta, phi_x, phi_y, galileo);
}

}  // namespace fringe::jones
