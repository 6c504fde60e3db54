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

// The seed of one group of G channels: c_s at the group's first channel (without the spectral
// factor) and the step R there; a group then runs the float recurrence above.
template <typename T>
struct alignas(16) GroupSeed {
  Complex<T> c, step;
};

// Seeds of L consecutive groups of G equally spaced channels (G a power of 2) from one direct
// evaluation in double at il0 (1/m, the first group's first channel), carried from group to
// group in double:
//   c_{j+1} = c_j D^G A_j,  A_j = exp(g G dil (2 il_j + G dil)),  A_{j+1} = A_j q^(G^2),
//   R_j = D a_j,           a_j = exp(g dil (2 il_j + dil)),      a_{j+1} = a_j q^G,
// with D = exp(i dphi) (dphi the phase step of one channel), g = -(a U^2 + 2 b U V + c V^2)
// (metres) and q = exp(2 g dil^2) (phase linear in f, the Gaussian exponent g f^2 / c0^2
// quadratic). Each carry step costs ~1e-16 relative, so a seed is within ~1e-15 of the direct
// c_s; rounded to T once. Seed j goes to out[j ^ swizzle] (the kernel's bank-conflict-free
// layout; 0 on the host). Returns q - 1 in T (0 for a point source), as coefficient_step.
template <typename T, int G, int L>
FRINGE_HD_INLINE T carry_seeds(const SourceTerm& s, double uu, double vv, double ww, double il0,
                               double dil, GroupSeed<T>* out, int swizzle) {
  static_assert(G > 0 && (G & (G - 1)) == 0, "G must be a power of 2");
  using detail::hd_exp;
  const double phase0 = predict::station_phase(uu, vv, ww, s.l, s.m, s.n_minus_1, il0);
  const double dphase = predict::station_phase(uu, vv, ww, s.l, s.m, s.n_minus_1, dil);
  Complex<double> p = exp_i(phase0);
  const Complex<double> d = exp_i(dphase);
  Complex<double> dg = d;  // D^G by squaring
  for (int i = 1; i < G; i <<= 1) dg = dg * dg;
  double amp = 1.0, big = 1.0, small = 1.0, q_g = 1.0, q_gg = 1.0;
  T ratio_m1 = T(0);
  // gaussian_argument in metres (m^-2 times (f / c0)^2 gives the exponent); 0 for a point.
  const double g = predict::gaussian_argument(s.a, s.b, s.c, uu, vv);
  if (g != 0.0) {
    const double gd = double(G) * dil;
    amp = hd_exp(g * il0 * il0);
    big = hd_exp(g * gd * (2.0 * il0 + gd));
    small = hd_exp(g * dil * (2.0 * il0 + dil));
    q_g = hd_exp(2.0 * g * gd * dil);
    q_gg = hd_exp(2.0 * g * gd * gd);
    ratio_m1 = hd_expm1(T(2.0 * g * dil * dil));
  }
#pragma unroll
  for (int j = 0; j < L; ++j) {
    const Complex<double> c = p * amp, r = d * small;
    out[j ^ swizzle] = GroupSeed<T>{{T(c.re), T(c.im)}, {T(r.re), T(r.im)}};
    p = p * dg;
    amp *= big;
    big *= q_gg;
    small *= q_g;
  }
  return ratio_m1;
}

// add_source_gradient / add_source_gradient_scalar (likelihood_math.h) without smearing, with
// every input already in T, for the lanes kernel: no double arithmetic and no conversion per
// term. (i, q, u, v): the source's Stokes values at f0; ln_ratio = ln(f / f0) (0: flat);
// dl = U - W l / n and dm = V - W m / n (metres; d phi / dl = k dl); k = 2 pi f / c0 (1/m);
// (ul, vl) = (U, V) f / c0 (wavelengths). The same sums as likelihood_math.h's, in T.
template <typename T>
struct StokesT {
  T i, q, u, v;
};
template <typename T>
FRINGE_HD_INLINE void add_shape_gradient_t(T* g, Complex<T> z, T ln_ratio, T dl, T dm, T k, T ul,
                                           T vl) {
  g[kAlpha] += T(2) * z.re * ln_ratio;
  g[kL] -= T(2) * z.im * k * dl;
  g[kM] -= T(2) * z.im * k * dm;
  g[kA] -= T(2) * z.re * ul * ul;
  g[kB] -= T(4) * z.re * ul * vl;
  g[kC] -= T(2) * z.re * vl * vl;
}
template <typename T>
FRINGE_HD_INLINE void add_source_gradient_t(T* g, const Jones<T>& ys, Complex<T> coef,
                                            const StokesT<T>& b, T ln_ratio, T dl, T dm, T k, T ul,
                                            T vl) {
  const Complex<T> sa = conj(ys.a) + conj(ys.d), sq = conj(ys.a) - conj(ys.d);
  const Complex<T> su = conj(ys.b) + conj(ys.c), sv = conj(ys.b) - conj(ys.c);
  const Complex<T> pa = coef * sa, pq = coef * sq, pu = coef * su, pv = coef * sv;
  g[kI] += T(2) * pa.re;
  g[kQ] += T(2) * pq.re;
  g[kU] += T(2) * pu.re;
  g[kV] -= T(2) * pv.im;
  // z = c <Ys, B> = (I pa + Q pq + U pu + i V pv) (inner_with_brightness, expanded).
  const Complex<T> z{b.i * pa.re + b.q * pq.re + b.u * pu.re - b.v * pv.im,
                     b.i * pa.im + b.q * pq.im + b.u * pu.im + b.v * pv.re};
  add_shape_gradient_t(g, z, ln_ratio, dl, dm, k, ul, vl);
}
template <typename T>
FRINGE_HD_INLINE void add_source_gradient_scalar_t(T* g, Complex<T> ys, Complex<T> coef, T i,
                                                   T ln_ratio, T dl, T dm, T k, T ul, T vl) {
  const Complex<T> p = coef * conj(ys);
  g[kI] += T(2) * p.re;
  add_shape_gradient_t(g, p * i, ln_ratio, dl, dm, k, ul, vl);
}

}  // namespace fringe::fit
