// Helpers of the CUDA likelihood (docs/gpu_likelihood.md), host and device (FRINGE_HD_INLINE),
// on top of the formulas of likelihood_math.h.
//
// The CUDA kernel evaluates c_s (likelihood_math.h, source_coefficient) directly at the first
// channel of a group of channels and steps it along equally spaced channels by a complex
// recurrence (phase linear in f, Gaussian exponent quadratic in f):
//   c(f + df) = c(f) R(f),   R(f) = exp(i dphi) exp(-G (2 f df + df^2) / c0^2),
//   R(f + df) = R(f) q,      q = exp(-2 G df^2 / c0^2),
// (q is kept as q - 1 = expm1(...) and applied as R + R (q - 1): q itself is within ~1e-3 of 1,
// and its float rounding, compounded k^2 / 2 times over k channels, reached 7e-6 at k = 15),
// with dphi = 2 pi df / c0 (U l + V m + W (n - 1)) and G = a U^2 + 2 b U V + c V^2 (U, V in
// metres). The spectral factor (f / f0)^alpha is applied separately (it is not geometric).
#pragma once

#include <cmath>
#include <type_traits>

#include "fringe/core/complex.h"
#include "fringe/core/hd.h"
#include "fringe/core/hd_math.h"
#include "fringe/fit/likelihood_math.h"
#include "fringe/predict/predict_math.h"

namespace fringe::fit {

FRINGE_HD_INLINE double hd_rint(double x) {
#ifdef __CUDA_ARCH__
  return rint(x);
#else
  return std::nearbyint(x);
#endif
}

FRINGE_HD_INLINE float hd_expm1(float x) {
#ifdef __CUDA_ARCH__
  return expm1f(x);
#else
  return std::expm1(x);
#endif
}
FRINGE_HD_INLINE double hd_expm1(double x) {
#ifdef __CUDA_ARCH__
  return expm1(x);
#else
  return std::expm1(x);
#endif
}

FRINGE_HD_INLINE double hd_fma(double a, double b, double c) {
#ifdef __CUDA_ARCH__
  return fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// exp(i phase) for a phase formed in double, as predict::station_phasor<T>, with the float
// path's range reduction done by a two-constant Cody-Waite step, phase - 2 pi n with
// n = rint(phase / 2 pi), instead of remainder() (a bit-by-bit loop on the GPU). For |phase|
// < 2^31 the reduced value differs from remainder()'s by < 1e-15 rad (n 2 pi is formed with
// 2 pi = hi + lo to 2^-106), far below float's resolution. Double: station_phasor<double>.
template <typename T>
FRINGE_HD_INLINE Complex<T> phasor_cw(double phase) {
  if constexpr (std::is_same_v<T, double>) {
    return predict::station_phasor<double>(phase);
  } else {
    constexpr double kInvTwoPi = 0.15915494309189533577;
    constexpr double kTwoPiHi = 6.283185307179586232;    // double nearest 2 pi
    constexpr double kTwoPiLo = 2.4492935982947064e-16;  // 2 pi - kTwoPiHi
    const double n = hd_rint(phase * kInvTwoPi);
    const double r = hd_fma(-n, kTwoPiLo, hd_fma(-n, kTwoPiHi, phase));
    return exp_i(static_cast<T>(r));
  }
}

// source_coefficient (likelihood_math.h) without the spectral factor (ln_ratio = 0), with
// phasor_cw for the phase. A point source (a = b = c = 0) skips the taper: exp(-0) = 1 exactly.
template <typename T>
FRINGE_HD_INLINE Complex<T> source_coefficient_cw(const SourceTerm& s, double uu, double vv,
                                                  double ww, double inv_lambda) {
  const double phase = predict::station_phase(uu, vv, ww, s.l, s.m, s.n_minus_1, inv_lambda);
  if (s.a == 0.0 && s.b == 0.0 && s.c == 0.0) return phasor_cw<T>(phase);
  const T ul = T(uu * inv_lambda), vl = T(vv * inv_lambda);
  const T amp = detail::hd_exp(predict::gaussian_argument(T(s.a), T(s.b), T(s.c), ul, vl));
  return phasor_cw<T>(phase) * amp;
}

// The step of the recurrence above at inv_lambda (1/m) for a channel spacing d_inv_lambda
// (1/m): R into *step, q - 1 into *ratio_m1 (0 for a point source). Then per channel:
// c = c R; R = advance_step(R, q - 1).
template <typename T>
FRINGE_HD_INLINE void coefficient_step(const SourceTerm& s, double uu, double vv, double ww,
                                       double inv_lambda, double d_inv_lambda, Complex<T>* step,
                                       T* ratio_m1) {
  const double dphase = predict::station_phase(uu, vv, ww, s.l, s.m, s.n_minus_1, d_inv_lambda);
  Complex<T> r = phasor_cw<T>(dphase);
  T qm1 = T(0);
  if (s.a != 0.0 || s.b != 0.0 || s.c != 0.0) {
    // gaussian_argument in metres: -(a U^2 + 2 b U V + c V^2), times (f/c0)^2 gives the exponent.
    const double g = predict::gaussian_argument(s.a, s.b, s.c, uu, vv);
    r = r * detail::hd_exp(T(g * d_inv_lambda * (2.0 * inv_lambda + d_inv_lambda)));
    qm1 = hd_expm1(T(2.0 * g * d_inv_lambda * d_inv_lambda));
  }
  *step = r;
  *ratio_m1 = qm1;
}

// R q = R + R (q - 1).
template <typename T>
FRINGE_HD_INLINE Complex<T> advance_step(Complex<T> step, T ratio_m1) {
  return step + step * ratio_m1;
}

}  // namespace fringe::fit
