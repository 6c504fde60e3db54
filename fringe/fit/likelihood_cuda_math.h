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
// evaluation at il0 (1/m, the first group's first channel), carried from group to group in
// double:
//   c_{j+1} = c_j D^G A_j,  A_j = exp(g G dil (2 il_j + G dil)),  A_{j+1} = A_j q^(G^2),
//   R_j = D a_j,           a_j = exp(g dil (2 il_j + dil)),      a_{j+1} = a_j q^G,
// with D = exp(i dphi) (dphi the phase step of one channel), g = -(a U^2 + 2 b U V + c V^2)
// (metres) and q = exp(2 g dil^2) (phase linear in f, the Gaussian exponent g f^2 / c0^2
// quadratic). c_0 and the factors that compound over the groups (D^G, A_0, q^G, q^(G^2)) are
// formed in double (D^G from its own double sincos in float, by squaring D in double), D and
// a_0 as the fused kernel forms them in T (phasor_cw, exp of a double-formed exponent): each
// carry step adds ~1e-16 relative, so a seed is c_s to T's rounding.
// Seed j goes to out[j ^ swizzle] (the kernel's bank-conflict-free layout; 0 on the host).
// Returns q - 1 in T (0 for a point source), as coefficient_step.
template <typename T, int G, int L>
FRINGE_HD_INLINE T carry_seeds(const SourceTerm& s, double uu, double vv, double ww, double il0,
                               double dil, GroupSeed<T>* out, int swizzle) {
  static_assert(G > 0 && (G & (G - 1)) == 0, "G must be a power of 2");
  using detail::hd_exp;
  const double phase0 = predict::station_phase(uu, vv, ww, s.l, s.m, s.n_minus_1, il0);
  const double dphase = predict::station_phase(uu, vv, ww, s.l, s.m, s.n_minus_1, dil);
  const Complex<double> p0 = exp_i(phase0);
  const Complex<T> d = phasor_cw<T>(dphase);
  Complex<double> dg;  // D^G
  if constexpr (std::is_same_v<T, double>) {
    dg = d;
    for (int i = 1; i < G; i <<= 1) dg = dg * dg;
  } else {
    dg = exp_i(double(G) * dphase);
  }
  T small0 = T(1), ratio_m1 = T(0);
  double amp0 = 1.0, big = 1.0, q_g = 1.0, q_gg = 1.0;
  // gaussian_argument in metres (m^-2 times (f / c0)^2 gives the exponent); 0 for a point.
  const double g = predict::gaussian_argument(s.a, s.b, s.c, uu, vv);
  if (g != 0.0) {
    const double gd = double(G) * dil;
    amp0 = hd_exp(g * il0 * il0);
    small0 = hd_exp(T(g * dil * (2.0 * il0 + dil)));
    big = hd_exp(g * gd * (2.0 * il0 + gd));
    q_g = hd_exp(2.0 * g * gd * dil);
    q_gg = q_g;
    for (int i = 1; i < G; i <<= 1) q_gg *= q_gg;
    ratio_m1 = hd_expm1(T(2.0 * g * dil * dil));
  }
  Complex<double> c = p0 * amp0;
  double small = double(small0);
#ifdef __CUDA_ARCH__  // (host compilers warn about the pragma)
#pragma unroll
#endif
  for (int j = 0; j < L; ++j) {
    out[j ^ swizzle] = GroupSeed<T>{{T(c.re), T(c.im)}, d * T(small)};
    c = c * (dg * big);
    big *= q_gg;
    small *= q_g;
  }
  return ratio_m1;
}

// One source's gradient (add_source_gradient / add_source_gradient_scalar of likelihood_math.h,
// without smearing) summed over the channels j = 0 .. G-1 of a group, all in T, for the lanes
// kernel. The per-channel geometry is linear in j (k_j = k0 + j kd, U_j = ul0 + j uld, V_j =
// vl0 + j vld, as f is), so the position and shape terms need only moments of z over the group:
//   sum z_j k_j = k0 sum z + kd sum j z,   sum z_j U_j^2 = ul0^2 sum z + 2 ul0 uld sum j z
//   + uld^2 sum j^2 z  (likewise U V, V^2),
// with z_j = c_j <Ys_j, B>. Per channel: the brightness-weighted products and five moments; the
// geometry once per group (finish). The Y sums per channel (ysum) are taken once per channel
// and row, not per source: (conj Y_a + conj Y_d, conj Y_a - conj Y_d, conj Y_b + conj Y_c,
// conj Y_b - conj Y_c) for four products (of Ys = J_p^H Y J_q with Jones), conj Y for one.
template <typename T>
FRINGE_HD_INLINE Jones<T> gradient_ysum(const Jones<T>& y) {
  return {conj(y.a) + conj(y.d), conj(y.a) - conj(y.d), conj(y.b) + conj(y.c),
          conj(y.b) - conj(y.c)};
}
template <typename T>
struct StokesT {
  T i, q, u, v;
};
template <typename T>
struct GradientMoments {
  T i = 0, q = 0, u = 0, v = 0, alpha = 0;  // sums of Re(c ysum) and Re z ln(f / f0)
  T zr0 = 0, zr1 = 0, zr2 = 0;              // sum j^n Re z
  T zi0 = 0, zi1 = 0;                       // sum j^n Im z

  FRINGE_HD_INLINE void add_z(int j, T zr, T zi, T ln_ratio) {
    alpha += zr * ln_ratio;
    zr0 += zr;
    zr1 += T(j) * zr;
    zr2 += T(j * j) * zr;
    zi0 += zi;
    zi1 += T(j) * zi;
  }
  // Channel j of four products: coef = c_s (with the spectral factor), ys = gradient_ysum.
  FRINGE_HD_INLINE void add(int j, Complex<T> coef, const Jones<T>& ys, const StokesT<T>& b,
                            T ln_ratio) {
    const Complex<T> pa = coef * ys.a, pq = coef * ys.b, pu = coef * ys.c, pv = coef * ys.d;
    i += pa.re;
    q += pq.re;
    u += pu.re;
    v -= pv.im;
    // z = c <Ys, B> = I pa + Q pq + U pu + i V pv (inner_with_brightness).
    add_z(j, b.i * pa.re + b.q * pq.re + b.u * pu.re - b.v * pv.im,
          b.i * pa.im + b.q * pq.im + b.u * pu.im + b.v * pv.re, ln_ratio);
  }
  // One product: ys = conj Y (of conj(J_p) Y J_q with Jones), z = c conj(Ys) I.
  FRINGE_HD_INLINE void add(int j, Complex<T> coef, Complex<T> ys, T stokes_i, T ln_ratio) {
    const Complex<T> p = coef * ys;
    i += p.re;
    add_z(j, stokes_i * p.re, stokes_i * p.im, ln_ratio);
  }
  // d chi2 / d (the intermediate quantities) of the group into g[kNumInter]: dl = U - W l / n,
  // dm = V - W m / n (metres), k0 + j kd = 2 pi f_j / c0 (1/m), (ul0 + j uld, vl0 + j vld) =
  // (U, V) f_j / c0.
  FRINGE_HD_INLINE void finish(T* g, T dl, T dm, T k0, T kd, T ul0, T uld, T vl0, T vld) const {
    g[kI] = T(2) * i;
    g[kQ] = T(2) * q;
    g[kU] = T(2) * u;
    g[kV] = T(2) * v;
    g[kAlpha] = T(2) * alpha;
    const T kz = k0 * zi0 + kd * zi1;  // sum k_j Im z_j
    g[kL] = T(-2) * dl * kz;
    g[kM] = T(-2) * dm * kz;
    g[kA] = T(-2) * (ul0 * ul0 * zr0 + T(2) * ul0 * uld * zr1 + uld * uld * zr2);
    g[kB] = T(-4) * (ul0 * vl0 * zr0 + (ul0 * vld + uld * vl0) * zr1 + uld * vld * zr2);
    g[kC] = T(-2) * (vl0 * vl0 * zr0 + T(2) * vl0 * vld * zr1 + vld * vld * zr2);
  }
};

}  // namespace fringe::fit
