// Plain spherical-wave element patterns (OSKAR's text-file convention, spherical_wave_math.h)
// in the form the GPU kernels evaluate them (docs/station_beams.md, "Spherical waves on the
// GPU"): the same sums and recurrences as sw_expand, with three changes that leave only
// multiplications and fused multiply-adds per mode:
//   - the coefficients are pre-multiplied on the host by their mode's normalisation N_lm
//     (sw_prenormalise), so no square root or factorial ratio is formed per mode;
//   - theta and phi are taken from the direction's East/North/Up components
//     (sin theta = rho / r, cos theta = u / r, cos phi = e / rho, sin phi = n / rho with
//     rho = sqrt(e^2 + n^2), r = sqrt(rho^2 + u^2)), and 1 / sin theta = r / rho, instead of
//     atan2, sin, cos and a division per mode;
//   - each mode adds -te A + tm B to E_theta and -tm A - te B to E_phi, with A = e^{i m phi} dP
//     and B = i m e^{i m phi} P / sin theta formed once per mode and feed.
// Results equal aa_sw_jones with the raw coefficients to rounding (tests:
// SphericalWavePlain.*). Host and device (FRINGE_HD_INLINE).
#pragma once

#include <cmath>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/spherical_wave_math.h"

namespace fringe::jones {

// N_lm = sqrt((2l + 1) / (4 pi l (l + 1)) (l - |m|)! / (l + |m|)!) for l >= 1, |m| <= l
// (spherical_wave_math.h), in double.
inline double sw_mode_norm(int l, int m) {
  const int am = m < 0 ? -m : m;
  double ratio = 1.0;  // (l - |m|)! / (l + |m|)!
  for (int k = l - am + 1; k <= l + am; ++k) ratio /= double(k);
  return std::sqrt(double(2 * l + 1) / (4.0 * kPi * double(l) * double(l + 1)) * ratio);
}

// out[4 j + k] = N_lm a[4 j + k] for every mode index j = l*l + l - 1 + m of order <= l_max
// (4 (l_max + 1)^2 - 4 values): the coefficients sw_plain_fields expects.
template <typename T>
void sw_prenormalise(const Complex<double>* a, int l_max, Complex<T>* out) {
  for (int l = 1; l <= l_max; ++l) {
    for (int m = -l; m <= l; ++m) {
      const double nlm = sw_mode_norm(l, m);
      const int j = l * l + l - 1 + m;
      for (int k = 0; k < 4; ++k) {
        const Complex<double> c = a[4 * j + k];
        out[4 * j + k] = {static_cast<T>(c.re * nlm), static_cast<T>(c.im * nlm)};
      }
    }
  }
}

// cos and sin of the two feed angles, once per element type (not per direction).
template <typename T>
struct SwFeedTrig {
  T cax, sax, cay, say;
  bool common_phi;  // both feeds use the X azimuth (x/y-labelled files)
};

template <typename T>
FRINGE_HD_INLINE SwFeedTrig<T> sw_feed_trig(const ElementParams<T>& p) {
  using std::cos;
  using std::sin;
  return {cos(p.alpha_x), sin(p.alpha_x), cos(p.alpha_y), sin(p.alpha_y), p.sw_common_phi};
}

// One direction as the sums need it: sin, cos and 1 / sin of theta (held at >= 1e-5 rad as
// sw_expand does), cos and sin of the X feed's azimuth phi - alpha_x and of the Y feed's
// phi + pi/2 - alpha_y (or the X one).
template <typename T>
struct SwDirection {
  T st, ct, inv_st, c1x, s1x, c1y, s1y;
};

// (e, n, u): the direction's components (any length > 0), u towards the zenith.
template <typename T>
FRINGE_HD_INLINE SwDirection<T> sw_direction(T e, T n, T u, const SwFeedTrig<T>& f) {
  using std::copysign;
  using std::sqrt;
  // sin, cos and tan of sw_min_theta = 1e-5 rad by their Taylor series (exact to double
  // rounding: the next terms are below 1e-20 relative).
  const T st_min = T(1e-5 - 1e-15 / 6.0), ct_min = T(1.0 - 0.5e-10);
  const T tan_min = T(1e-5 + 1e-15 / 3.0);
  const T rho2 = e * e + n * n;
  const T rho = sqrt(rho2), r = sqrt(rho2 + u * u);
  const T inv_rho = rho > T(0) ? T(1) / rho : T(0);
  // At the zenith phi = atan2(n, e) of signed zeros: 0, or pi where e = -0 (as sw_expand).
  const T cp = rho > T(0) ? e * inv_rho : copysign(T(1), e), sp = n * inv_rho;
  SwDirection<T> d;
  if (u > T(0) && rho < u * tan_min) {  // theta < 1e-5 rad
    d.st = st_min;
    d.ct = ct_min;
    d.inv_st = T(1) / st_min;
  } else {
    const T inv_r = T(1) / r;
    d.st = rho * inv_r;
    d.ct = u * inv_r;
    d.inv_st = r * inv_rho;
  }
  d.c1x = cp * f.cax + sp * f.sax;  // phi - alpha_x
  d.s1x = sp * f.cax - cp * f.sax;
  if (f.common_phi) {
    d.c1y = d.c1x;
    d.s1y = d.s1x;
  } else {  // phi + pi/2 - alpha_y
    d.c1y = -(sp * f.cay - cp * f.say);
    d.s1y = cp * f.cay + sp * f.say;
  }
  return d;
}

// One mode of one feed: (er, ei) = e^{i m phi} (sign of m included), q = m P / sin theta,
// dp = sin theta dP/d(cos theta); et += -te A + tm B, ep += -tm A - te B with A = e dp,
// B = i q e (the sw_mode sums, spherical_wave_math.h, with N_lm in te and tm).
template <typename T>
FRINGE_HD_INLINE void sw_plain_feed(T er, T ei, T q, T dp, Complex<T> te, Complex<T> tm,
                                    Complex<T>& et, Complex<T>& ep) {
  const T ar = er * dp, ai = ei * dp;
  const T br = -q * ei, bi = q * er;
  et.re = et.re + tm.re * br - tm.im * bi - te.re * ar + te.im * ai;
  et.im = et.im + tm.re * bi + tm.im * br - te.re * ai - te.im * ar;
  ep.re = ep.re - tm.re * ar + tm.im * ai - te.re * br + te.im * bi;
  ep.im = ep.im - tm.re * ai - tm.im * ar - te.re * bi - te.im * br;
}

// Both feeds' fields, rows [E_phi, E_theta] as sw_expand's plain convention, with
// pre-normalised coefficients `coeffs(j)` (SwCoeffSet, SwWeightedSets over sw_prenormalise's
// output) per mode index j.
template <typename T, typename Coeffs>
FRINGE_HD_INLINE Jones<T> sw_plain_fields(const Coeffs& coeffs, int l_max,
                                          const SwDirection<T>& d) {
  Complex<T> xt{T(0), T(0)}, xp{T(0), T(0)}, yt{T(0), T(0)}, yp{T(0), T(0)};
  T pmm = T(1);                                      // P_m^m = (-1)^m (2m - 1)!! sin^m theta
  T cmx = T(1), smx = T(0), cmy = T(1), smy = T(0);  // cos, sin of m phi by rotation
  for (int m = 0; m <= l_max; ++m) {
    if (m > 0) {
      pmm *= -T(2 * m - 1) * d.st;
      const T cx = cmx * d.c1x - smx * d.s1x, cy = cmy * d.c1y - smy * d.s1y;
      smx = smx * d.c1x + cmx * d.s1x;
      smy = smy * d.c1y + cmy * d.s1y;
      cmx = cx;
      cmy = cy;
    }
    T p_l = pmm, p_next = d.ct * T(2 * m + 1) * pmm;  // P_l^m, P_{l+1}^m from l = m
    for (int l = m; l <= l_max; ++l) {
      if (l >= 1) {
        const T p_sin = p_l * d.inv_st;
        const T dp = (d.ct * p_l * T(l + 1) - p_next * T(l - m + 1)) * d.inv_st;
        const T q = T(m) * p_sin;
        const int centre = l * l + l - 1;
        if (m > 0) {  // -m first, as sw_expand: e^{-i m phi} = (c, -s), -q
          const SwModeCoeffs<T> c = coeffs(centre - m);
          sw_plain_feed(cmx, -smx, -q, dp, c.x_te, c.x_tm, xt, xp);
          sw_plain_feed(cmy, -smy, -q, dp, c.y_te, c.y_tm, yt, yp);
        }
        const SwModeCoeffs<T> c = coeffs(centre + m);
        sw_plain_feed(cmx, smx, q, dp, c.x_te, c.x_tm, xt, xp);
        sw_plain_feed(cmy, smy, q, dp, c.y_te, c.y_tm, yt, yp);
      }
      const T p_after = (T(2 * l + 3) * d.ct * p_next - T(l + 1 + m) * p_l) / T(l + 2 - m);
      p_l = p_next;
      p_next = p_after;
    }
  }
  return {xp, xt, yp, yt};
}

// aa_sw_jones for plain coefficients pre-normalised by sw_prenormalise: the fields for the
// direction (e, n, u), times norm and the taper, feeds exchanged when swap_xy.
template <typename T, typename Coeffs>
FRINGE_HD_INLINE Jones<T> aa_sw_jones_plain(const ElementParams<T>& p, const SwFeedTrig<T>& f,
                                            const Coeffs& coeffs, int l_max, T norm, T e, T n,
                                            T u) {
  return aa_sw_finish(p, sw_plain_fields(coeffs, l_max, sw_direction(e, n, u, f)), norm, u);
}

// Whether an element type's coefficients take the plain path (and are pre-normalised where
// the GPU kernels keep them).
template <typename T>
FRINGE_HD_INLINE bool aa_sw_plain(const ElementParams<T>& p) {
  return p.sw != nullptr && !p.sw_galileo && !p.sw_feko;
}

}  // namespace fringe::jones
