// Per-element formulas of the direct predict (host and device, FRINGE_HD_INLINE), shared by
// predict_cpu.cpp and the CUDA kernels so both evaluate the same expressions.
// Units: station (u, v, w) in metres, baseline (U, V, W) in wavelengths, direction cosines
// (l, m, n - 1) dimensionless, frequencies in Hz, angles in radians, fluxes in Jy.
// Conventions and formulas (docs/conventions.md, "Phase sign and the measurement equation" and
// "Smearing"):
//   K_p   = exp(+i 2 pi / lambda (u_p l + v_p m + w_p (n - 1)))
//   B     = [[I + Q, U + i V], [U - i V, I - Q]]
//   V_pq  = sum_s (K_p J_p) B (K_q J_q)^H g_s s_bw s_t
//   g_s   = exp(-(a U^2 + 2 b U V + c V^2))                        (Gaussian sources)
//   s_bw  = sinc(pi (dnu / nu) (U l + V m + W (n - 1)))              (bandwidth smearing)
//   s_t   = sinc(du l + dv m + dw (n - 1))                            (time smearing)
// with sinc x = sin x / x. Both sinc arguments are differences of per-station terms
// (x_pq = x_p - x_q), so the sine in the numerator is formed without per-baseline trig:
// sin(x_p - x_q) = sin x_p cos x_q - cos x_p sin x_q (docs/architecture.md, "Compute back ends").
#pragma once

#include <cmath>
#include <type_traits>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"

namespace fringe::predict {

// Below this |x| sinc uses its Taylor series (to x^8: truncation < 3e-18 at |x| = 0.1);
// above it sin x / x from the separable numerator, whose absolute rounding (a few eps) is
// then amplified by at most 1 / 0.1.
inline constexpr double kSincSeriesLimit = 0.1;

// 1 - x^2/3! + x^4/5! - x^6/7! + x^8/9!
template <typename T>
FRINGE_HD_INLINE T sinc_series(T x) {
  const T x2 = x * x;
  return T(1) + x2 * (T(-1.0 / 6.0) +
                      x2 * (T(1.0 / 120.0) + x2 * (T(-1.0 / 5040.0) + x2 * T(1.0 / 362880.0))));
}

// sinc x = sin x / x, 1 at x = 0.
template <typename T>
FRINGE_HD_INLINE T sinc(T x) {
  using std::sin;
  return (x < T(kSincSeriesLimit) && x > T(-kSincSeriesLimit)) ? sinc_series(x) : sin(x) / x;
}

// sinc(x_p - x_q) from sin/cos of the per-station terms, x = x_p - x_q given.
template <typename T>
FRINGE_HD_INLINE T sinc_separable(T x, T sin_p, T cos_p, T sin_q, T cos_q) {
  return (x < T(kSincSeriesLimit) && x > T(-kSincSeriesLimit))
             ? sinc_series(x)
             : (sin_p * cos_q - cos_p * sin_q) / x;
}

// Station phase 2 pi / lambda (u l + v m + w (n - 1)) in radians (always double: it can be
// 1e5 rad on long baselines; docs/architecture.md, "Compute back ends").
// inv_lambda = frequency / c, in 1/m.
FRINGE_HD_INLINE double station_phase(double u, double v, double w, double l, double m,
                                      double n_minus_1, double inv_lambda) {
  return kTwoPi * inv_lambda * (u * l + v * m + w * n_minus_1);
}

// K = exp(+i phase). Single precision: range-reduced in double before the float sincos;
// double: the sincos reduces exactly by itself.
template <typename T>
FRINGE_HD_INLINE Complex<T> station_phasor(double phase) {
  if constexpr (std::is_same_v<T, double>) {
    return exp_i(phase);
  } else {
    return exp_i_reduced<T>(phase);
  }
}

// Bandwidth smearing: the per-station term x_p = pi (dnu/nu) (u_p l + v_p m + w_p (n-1)) /
// lambda equals phase_p * dnu / (2 nu), so sinc(x_p - x_q) is OSKAR's s_bw.
FRINGE_HD_INLINE double bandwidth_smearing_scale(double channel_bandwidth_hz, double frequency_hz) {
  return channel_bandwidth_hz / (2.0 * frequency_hz);
}

// Time smearing coefficients of one station (docs/conventions.md, "Smearing"): with x, y its
// offset-ECEF coordinates (m), H0 = GAST - RA0, r = omega_E tau and k = pi / lambda,
//   du = (x cos H0 - y sin H0) r k,  dv = (x sin H0 + y cos H0) r k sin dec0,
//   dw = -(x sin H0 + y cos H0) r k cos dec0.
// A baseline's coefficients are du_p - du_q (etc.) and s_t = sinc(du l + dv m + dw (n-1)).
struct TimeSmearingCoefficients {
  double du, dv, dw;
};
FRINGE_HD_INLINE TimeSmearingCoefficients time_smearing_coefficients(double x, double y, double ha0,
                                                                     double dec0, double tau_s,
                                                                     double inv_lambda) {
  using std::cos;
  using std::sin;
  const double k = kPi * inv_lambda * kEarthRotationRate * tau_s;
  const double sh = sin(ha0), ch = cos(ha0);
  const double t = (x * sh + y * ch) * k;
  return {(x * ch - y * sh) * k, t * sin(dec0), -t * cos(dec0)};
}

// Gaussian source factor exp(-(a U^2 + 2 b U V + c V^2)), U, V in wavelengths,
// (a, b, c) as in docs/conventions.md, "Gaussian sources" (zero for a point source: factor 1).
template <typename T>
FRINGE_HD_INLINE T gaussian_argument(T a, T b, T c, T u, T v) {
  return -(a * u * u + T(2) * b * u * v + c * v * v);
}
template <typename T>
FRINGE_HD_INLINE T gaussian_factor(T a, T b, T c, T u, T v) {
  return detail::hd_exp(gaussian_argument(a, b, c, u, v));
}

// Brightness matrix B = [[I + Q, U + i V], [U - i V, I - Q]] (Hamaker & Bregman 1996 with
// OSKAR's/the IAU's linear-feed convention; docs/conventions.md, "Phase sign and the measurement
// equation").
template <typename T>
FRINGE_HD_INLINE Jones<T> brightness(T i, T q, T u, T v) {
  return {{i + q, T(0)}, {u, v}, {u, -v}, {i - q, T(0)}};
}

// J B for a Hermitian B given by its Stokes parameters (fewer products than J * B):
// (J B)_row = [j0 (I+Q) + j1 (U - iV), j0 (U + iV) + j1 (I - Q)] for row (j0, j1).
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_times_brightness(const Jones<T>& j, T i, T q, T u, T v) {
  const T ipq = i + q, imq = i - q;
  const Complex<T> upiv{u, v}, umiv{u, -v};
  return {j.a * ipq + j.b * umiv, j.a * upiv + j.b * imq,  //
          j.c * ipq + j.d * umiv, j.c * upiv + j.d * imq};
}

// One source's contribution to a cross-correlation, matrix mode: (J_p B) J_q^H scaled by the
// real factor f = g s_bw s_t.
template <typename T>
FRINGE_HD_INLINE Jones<T> correlate_term(const Jones<T>& jp_b, const Jones<T>& jq, T f) {
  return jones_mul_h(jp_b, jq) * f;
}
// Scalar mode: J_p I conj(J_q) f.
template <typename T>
FRINGE_HD_INLINE Complex<T> correlate_term(Complex<T> jp, T i, Complex<T> jq, T f) {
  return jp * conj(jq) * (i * f);
}

// Baseline index of (p, q), p < q, in the order (0,1), (0,2), ..., (1,2), ... (docs/conventions.md,
// "Baselines and their order"): b = p (N - 1) - p (p - 1) / 2 + q - p - 1.
FRINGE_HD_INLINE long long baseline_index(long long p, long long q, long long num_stations) {
  return p * (num_stations - 1) - p * (p - 1) / 2 + q - p - 1;
}

}  // namespace fringe::predict
