// Per-element formulas of the likelihood (docs/model_fitting.md), host and device
// (FRINGE_HD_INLINE), shared by the CPU and CUDA back ends.
//
// Model of row (p, q) at frequency f (docs/conventions.md, "Phase sign and the measurement
// equation"; B as predict/predict_math.h, no factor 1/2):
//   M = G_p S G_q^H,   S = sum_s c_s J_ps B_s J_qs^H,
//   c_s = exp(i phi_s) exp(-(a U^2 + 2 b U V + c V^2) + alpha ln(f / f0)),
//   phi_s = 2 pi f / c0 (U l + V m + W (n - 1)),
// with (U, V, W) in metres in phi and in wavelengths in the Gaussian, and B_s the Stokes values
// at f0. chi2 = sum w |M - D|^2 over rows, channels and products.
//
// Gradient (Wirtinger calculus; <A, X> = sum_ij conj(A_ij) X_ij):
//   d chi2 / d theta = 2 Re <w (M - D), dM / d theta> = 2 Re <Y, dS / d theta>,
//   Y = G_p^H (w (M - D)) G_q,  and for a source term <Y, J_p X J_q^H> = <J_p^H Y J_q, X>.
// With Ys = J_p^H Y J_q and z = c_s <Ys, B_s>:
//   dI = 2 Re c (Ys_a + Ys_d)*,  dQ = 2 Re c (Ys_a - Ys_d)*,  dU = 2 Re c (Ys_b + Ys_c)*,
//   dV = 2 Re i c (Ys_b - Ys_c)*,  dalpha = 2 Re z ln(f/f0),
//   dl = -2 Im z d phi/dl,  d phi/dl = 2 pi f / c0 (U - W l / n)  (likewise m),
//   da = -2 Re z U^2,  db = -4 Re z U V,  dc = -2 Re z V^2  (U, V in wavelengths).
// Smearing multiplies c_s by the real factor of smearing_factor (bandwidth and time, as the
// simulator's).
// The chain rule from (l, m, a, b, c) to (ra, dec, major, minor, pa) is applied per source on
// the host (chain_to_parameters).
#pragma once

#include <cmath>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"
#include "fringe/predict/predict_math.h"

namespace fringe::fit {

// Intermediate quantities of the gradient, in this order, per source.
enum Inter : int { kI = 0, kQ, kU, kV, kAlpha, kL, kM, kA, kB, kC, kNumInter };

// Per-source values one evaluation needs (host side derives them from the parameters).
struct SourceTerm {
  double l, m, n_minus_1;     // direction cosines about the phase centre
  double l_over_n, m_over_n;  // -dn/dl and -dn/dm (the gradient's W term)
  double i, q, u, v;          // Jy at f0
  double alpha;               // spectral index (0 for a flat spectrum)
  double ln_f0;               // ln(f0 / Hz); 0 with has_spectrum == false
  double has_spectrum;        // 1 or 0 (flat: ln(f / f0) is taken as 0)
  double a, b, c;             // Gaussian coefficients (rad^2), 0 for a point source
};

// ln(f / f0) of a source (0 for a flat spectrum).
FRINGE_HD_INLINE double log_frequency_ratio(const SourceTerm& s, double ln_f) {
  return s.has_spectrum * (ln_f - s.ln_f0);
}

// c_s of one source for a visibility of baseline (U, V, W) (metres) at inv_lambda = f / c0 (1/m).
template <typename T>
FRINGE_HD_INLINE Complex<T> source_coefficient(const SourceTerm& s, double uu, double vv, double ww,
                                               double inv_lambda, double ln_ratio) {
  const double phase = predict::station_phase(uu, vv, ww, s.l, s.m, s.n_minus_1, inv_lambda);
  const T ul = T(uu * inv_lambda), vl = T(vv * inv_lambda);
  const T amp = detail::hd_exp(predict::gaussian_argument(T(s.a), T(s.b), T(s.c), ul, vl) +
                               T(s.alpha * ln_ratio));
  return predict::station_phasor<T>(phase) * amp;
}

// <Y, B> for the brightness B = [[I + Q, U + iV], [U - iV, I - Q]].
template <typename T>
FRINGE_HD_INLINE Complex<T> inner_with_brightness(const Jones<T>& y, T i, T q, T u, T v) {
  // conj(y_a)(I+Q) + conj(y_b)(U+iV) + conj(y_c)(U-iV) + conj(y_d)(I-Q)
  const Complex<T> bu = conj(y.b) + conj(y.c);
  const Complex<T> bv = conj(y.b) - conj(y.c);  // times iV
  return conj(y.a) * (i + q) + conj(y.d) * (i - q) + bu * u + Complex<T>{-bv.im, bv.re} * v;
}

// sinc x and its derivative sinc'(x) = (cos x - sinc x) / x (below predict::kSincSeriesLimit
// the series of both: sinc'(x) = -x/3 + x^3/30 - x^5/840 + x^7/45360).
struct SincValue {
  double s, ds_dx;
};
FRINGE_HD_INLINE SincValue sinc_and_derivative(double x) {
  using std::cos;
  const double s = predict::sinc(x);
  if (x < predict::kSincSeriesLimit && x > -predict::kSincSeriesLimit) {
    const double x2 = x * x;
    return {s, x * (-1.0 / 3.0 + x2 * (1.0 / 30.0 + x2 * (-1.0 / 840.0 + x2 * (1.0 / 45360.0))))};
  }
  return {s, (cos(x) - s) / x};
}

// The smearing factor of one source term and its derivatives by l and m (n = sqrt(1 - l^2 -
// m^2) moving with them): bandwidth smearing sinc(phi dnu / (2 nu)) (predict_math.h) times
// time smearing sinc((du l + dv m + dw (n - 1)) / lambda), (du, dv, dw) the row's coefficients
// of predict::time_smearing_coefficients at 1 / lambda = 1 / m (ObservedData::time_smearing).
struct SmearingFactor {
  double s, ds_dl, ds_dm;
};
// bw_scale = dnu / (2 nu) (0: no bandwidth smearing); tc = nullptr: no time smearing.
FRINGE_HD_INLINE SmearingFactor smearing_factor(const SourceTerm& t, double uu, double vv,
                                                double ww, double inv_lambda, double bw_scale,
                                                const double* tc) {
  const double k = kTwoPi * inv_lambda;
  double s = 1.0, ds_dl = 0.0, ds_dm = 0.0;
  if (bw_scale > 0.0) {
    const double phase = predict::station_phase(uu, vv, ww, t.l, t.m, t.n_minus_1, inv_lambda);
    const SincValue b = sinc_and_derivative(phase * bw_scale);
    s = b.s;
    ds_dl = b.ds_dx * bw_scale * k * (uu - ww * t.l_over_n);
    ds_dm = b.ds_dx * bw_scale * k * (vv - ww * t.m_over_n);
  }
  if (tc) {
    const double x = inv_lambda * (tc[0] * t.l + tc[1] * t.m + tc[2] * t.n_minus_1);
    const SincValue v = sinc_and_derivative(x);
    const double dx_dl = inv_lambda * (tc[0] - tc[2] * t.l_over_n);
    const double dx_dm = inv_lambda * (tc[1] - tc[2] * t.m_over_n);
    ds_dl = ds_dl * v.s + s * v.ds_dx * dx_dl;
    ds_dm = ds_dm * v.s + s * v.ds_dx * dx_dm;
    s *= v.s;
  }
  return {s, ds_dl, ds_dm};
}

// The part of a source's gradient shared by four products and one: spectral index, position
// (l, m) and Gaussian (a, b, c), from z0 = c0 <Ys, B> and z = s z0 (s the smearing factor).
// d c / d l = c0 (i s dphi/dl + ds/dl), so 2 Re[z0 (i s dphi/dl + ds/dl)]
// = 2 (ds/dl Re z0 - s dphi/dl Im z0).
template <typename T, typename Acc>
FRINGE_HD_INLINE void add_shape_gradient(Acc* g, const SourceTerm& s, Complex<T> z0, Complex<T> z,
                                         const SmearingFactor& sm, double uu, double vv, double ww,
                                         double inv_lambda, double ln_ratio) {
  // In Acc (float on the GPU's float path: no double arithmetic per term).
  const Acc zr = Acc(z.re), zi = Acc(z.im);
  g[kAlpha] += Acc(2) * zr * Acc(ln_ratio);
  const Acc k = Acc(kTwoPi * inv_lambda);
  const Acc u = Acc(uu), v = Acc(vv), w = Acc(ww);
  g[kL] += Acc(2) * (Acc(sm.ds_dl) * Acc(z0.re) - zi * k * (u - w * Acc(s.l_over_n)));
  g[kM] += Acc(2) * (Acc(sm.ds_dm) * Acc(z0.re) - zi * k * (v - w * Acc(s.m_over_n)));
  const Acc ul = Acc(uu * inv_lambda), vl = Acc(vv * inv_lambda);
  g[kA] += Acc(-2) * zr * ul * ul;
  g[kB] += Acc(-4) * zr * ul * vl;
  g[kC] += Acc(-2) * zr * vl * vl;
}

// Adds one source's d chi2 / d (intermediate quantities) for one visibility into g[kNumInter].
// ys = J_p^H Y J_q (Y itself without Jones), coef0 = c_s without smearing, sm its smearing
// factor ({1, 0, 0} without), (uu, vv, ww) metres. With smearing,
// d c / d l = c0 (i s dphi/dl + ds/dl).
template <typename T, typename Acc>
FRINGE_HD_INLINE void add_source_gradient_smeared(Acc* g, const SourceTerm& s, const Jones<T>& ys,
                                                  Complex<T> coef0, const SmearingFactor& sm,
                                                  double uu, double vv, double ww,
                                                  double inv_lambda, double ln_ratio) {
  const T smear = T(sm.s);
  const Complex<T> coef = coef0 * smear;
  const Complex<T> z0 = coef0 * inner_with_brightness(ys, T(s.i), T(s.q), T(s.u), T(s.v));
  const Complex<T> z = z0 * smear;
  const Complex<T> pa = coef * (conj(ys.a) + conj(ys.d));
  const Complex<T> pq = coef * (conj(ys.a) - conj(ys.d));
  const Complex<T> pu = coef * (conj(ys.b) + conj(ys.c));
  const Complex<T> pv = coef * (conj(ys.b) - conj(ys.c));  // Re(i pv) = -Im pv
  g[kI] += Acc(2) * Acc(pa.re);
  g[kQ] += Acc(2) * Acc(pq.re);
  g[kU] += Acc(2) * Acc(pu.re);
  g[kV] += Acc(-2) * Acc(pv.im);
  add_shape_gradient<T, Acc>(g, s, z0, z, sm, uu, vv, ww, inv_lambda, ln_ratio);
}

// Without smearing: coef = c_s.
template <typename T, typename Acc>
FRINGE_HD_INLINE void add_source_gradient(Acc* g, const SourceTerm& s, const Jones<T>& ys,
                                          Complex<T> coef, double uu, double vv, double ww,
                                          double inv_lambda, double ln_ratio) {
  add_source_gradient_smeared<T, Acc>(g, s, ys, coef, SmearingFactor{1.0, 0.0, 0.0}, uu, vv, ww,
                                      inv_lambda, ln_ratio);
}

// The same for one product (Stokes I model): ys = conj(J_p) Y J_q, z = c conj(ys) I.
template <typename T, typename Acc>
FRINGE_HD_INLINE void add_source_gradient_scalar_smeared(Acc* g, const SourceTerm& s, Complex<T> ys,
                                                         Complex<T> coef0, const SmearingFactor& sm,
                                                         double uu, double vv, double ww,
                                                         double inv_lambda, double ln_ratio) {
  const T smear = T(sm.s);
  const Complex<T> p0 = coef0 * conj(ys);
  const Complex<T> pi = p0 * smear;
  const Complex<T> z0 = p0 * T(s.i);
  const Complex<T> z = z0 * smear;
  g[kI] += Acc(2) * Acc(pi.re);
  add_shape_gradient<T, Acc>(g, s, z0, z, sm, uu, vv, ww, inv_lambda, ln_ratio);
}

template <typename T, typename Acc>
FRINGE_HD_INLINE void add_source_gradient_scalar(Acc* g, const SourceTerm& s, Complex<T> ys,
                                                 Complex<T> coef, double uu, double vv, double ww,
                                                 double inv_lambda, double ln_ratio) {
  add_source_gradient_scalar_smeared<T, Acc>(g, s, ys, coef, SmearingFactor{1.0, 0.0, 0.0}, uu, vv,
                                             ww, inv_lambda, ln_ratio);
}

// Gains: with M = G_p S G_q^H and R = w (M - D),
//   h_pi = sum_j conj(R_ij) S_ij conj(g_qj):  dRe g_pi = 2 Re h,  dIm g_pi = -2 Im h,
//   k_qj = sum_i conj(R_ij) g_pi S_ij:        dRe g_qj = 2 Re k,  dIm g_qj = 2 Im k.
// gp, gq: [4] = Re X, Im X, Re Y, Im Y accumulators of stations p and q.
template <typename T, typename Acc>
FRINGE_HD_INLINE void add_gain_gradient(Acc* gp, Acc* gq, const Jones<T>& r, const Jones<T>& s,
                                        Complex<T> gpx, Complex<T> gpy, Complex<T> gqx,
                                        Complex<T> gqy) {
  const Complex<T> ta = conj(r.a) * s.a, tb = conj(r.b) * s.b;
  const Complex<T> tc = conj(r.c) * s.c, td = conj(r.d) * s.d;
  const Complex<T> hx = ta * conj(gqx) + tb * conj(gqy);
  const Complex<T> hy = tc * conj(gqx) + td * conj(gqy);
  const Complex<T> kx = ta * gpx + tc * gpy;
  const Complex<T> ky = tb * gpx + td * gpy;
  gp[0] += Acc(2) * Acc(hx.re);
  gp[1] += Acc(-2) * Acc(hx.im);
  gp[2] += Acc(2) * Acc(hy.re);
  gp[3] += Acc(-2) * Acc(hy.im);
  gq[0] += Acc(2) * Acc(kx.re);
  gq[1] += Acc(2) * Acc(kx.im);
  gq[2] += Acc(2) * Acc(ky.re);
  gq[3] += Acc(2) * Acc(ky.im);
}

// One product: M = g_p S conj(g_q).
template <typename T, typename Acc>
FRINGE_HD_INLINE void add_gain_gradient_scalar(Acc* gp, Acc* gq, Complex<T> r, Complex<T> s,
                                               Complex<T> gpx, Complex<T> gqx) {
  const Complex<T> t = conj(r) * s;
  const Complex<T> h = t * conj(gqx);
  const Complex<T> k = t * gpx;
  gp[0] += Acc(2) * Acc(h.re);
  gp[1] += Acc(-2) * Acc(h.im);
  gq[0] += Acc(2) * Acc(k.re);
  gq[1] += Acc(2) * Acc(k.im);
}

}  // namespace fringe::fit
