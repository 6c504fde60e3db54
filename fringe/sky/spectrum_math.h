// Per-source spectral formulas (host and device, FRINGE_HD): Stokes I, Q, U, V of one source
// at a frequency, for every spectrum kind of the named-column sky format
// (docs/conventions.md, "Sky model files"), in this order of priority:
//   line:       I(nu) = sum_k S_k exp(-(nu - nu_k)^2 / (2 sigma_k^2))   (LineWidth given)
//   multi-I:    I(nu) = value at the nearest reference frequency (no scaling)
//   curvature:  I(nu) = S0 (nu/nu0)^a0 exp(q ln^2(nu/nu0))  (Callingham et al. 2017, eq. 2)
//   log poly:   I(nu) = S0 (nu/nu0)^(a0 + a1 x + a2 x^2 + ...), x = log10(nu/nu0)
//   linear:     I(nu) = S0 + a0 (nu/nu0 - 1) + a1 (nu/nu0 - 1)^2 + ...   (LogarithmicSI false)
//   nu0 = 0:    flat (values as given).
// Q, U and V scale like I. With a rotation measure, Q and U follow the Faraday rotation
// chi = chi0 + RM lambda^2, Q = p I(nu) cos 2chi, U = p I(nu) sin 2chi (Burn 1966), where
// p and chi0 come from PolarizationFraction/PolarizationAngle, or else from Q0, U0 at the
// reference wavelength lambda0 (default c / nu0): p = sqrt(Q0^2+U0^2) / I(c/lambda0),
// chi0 = atan2(U0, Q0)/2 - RM lambda0^2.
// Frequencies in Hz, angles in radians, RM in rad/m^2, flux in Jy.
#pragma once

#include <cmath>

#include "fringe/core/constants.h"
#include "fringe/core/hd.h"

namespace fringe::sky {

// One source's spectral parameters as plain pointers (host or device memory).
template <typename T>
struct SpectrumView {
  const T* i = nullptr;  // Stokes values at the reference frequencies (num_i >= 1)
  const T* q = nullptr;
  const T* u = nullptr;
  const T* v = nullptr;
  int num_i = 0, num_q = 0, num_u = 0, num_v = 0;
  const T* ref_freq = nullptr;  // Hz; num_ref_freq >= 1 (0 = flat spectrum)
  int num_ref_freq = 0;
  T freq_inc = 0;           // Hz; multi-valued spectra at ref_freq[0] + k * freq_inc if > 0
  const T* spix = nullptr;  // alpha0, alpha1, ...
  int num_spix = 0;
  bool linear_si = false;
  bool has_curvature = false;
  T curvature = 0;
  bool has_rm = false;
  T rm = 0;
  const T* pol_frac = nullptr;
  const T* pol_angle = nullptr;
  int num_pol_frac = 0, num_pol_angle = 0;
  T ref_wavelength = 0;           // m; 0 = c / nu0
  const T* line_width = nullptr;  // Hz (sigma of each Gaussian line)
  int num_line_width = 0;
};

// S0 (nu/nu0)^(sum_k a_k x^k), x = log10(nu/nu0); Horner in x.
template <typename T>
FRINGE_HD_INLINE T flux_log_polynomial(T s0, T ratio, const T* alpha, int n) {
  const T x = log10(ratio);
  T e = 0;
  for (int k = n - 1; k >= 0; --k) e = e * x + alpha[k];
  return s0 * pow(T(10), x * e);
}

// S0 + sum_k a_k (nu/nu0 - 1)^(k+1).
template <typename T>
FRINGE_HD_INLINE T flux_linear(T s0, T ratio, const T* alpha, int n) {
  const T x = ratio - T(1);
  T e = 0;
  for (int k = n - 1; k >= 0; --k) e = e * x + alpha[k];
  return s0 + x * e;
}

// S0 (nu/nu0)^a0 exp(q ln^2(nu/nu0)).
template <typename T>
FRINGE_HD_INLINE T flux_curved(T s0, T ratio, T alpha0, T q) {
  const T ln_r = log(ratio);
  return s0 * pow(ratio, alpha0) * exp(q * ln_r * ln_r);
}

// Reference frequency of entry k of a multi-valued spectrum.
template <typename T>
FRINGE_HD_INLINE T spectrum_ref_freq(const SpectrumView<T>& s, int k) {
  if (k < s.num_ref_freq) return s.ref_freq[k];
  return s.ref_freq[0] + T(k) * s.freq_inc;
}

// Sum of Gaussian lines: amplitudes s.i[k], centres spectrum_ref_freq(k), widths s.line_width.
template <typename T>
FRINGE_HD_INLINE T flux_lines(const SpectrumView<T>& s, T freq) {
  T sum = 0;
  for (int k = 0; k < s.num_i; ++k) {
    const T sigma = s.line_width[k < s.num_line_width ? k : 0];
    const T x = freq - spectrum_ref_freq(s, k);
    sum += s.i[k] * exp(-(x * x) / (T(2) * sigma * sigma));
  }
  return sum;
}

// Stokes I at freq from i_ref at freq0, by the priority list above.
template <typename T>
FRINGE_HD_INLINE T stokes_i_spectrum(const SpectrumView<T>& s, T i_ref, T freq, T freq0) {
  if (s.num_line_width > 0) return flux_lines(s, freq);
  if (s.num_i > 1) return i_ref;
  const T ratio = freq / freq0;
  if (s.has_curvature)
    return flux_curved(i_ref, ratio, s.num_spix > 0 ? s.spix[0] : T(0), s.curvature);
  if (s.linear_si) return flux_linear(i_ref, ratio, s.spix, s.num_spix);
  return flux_log_polynomial(i_ref, ratio, s.spix, s.num_spix);
}

// Index of the reference frequency nearest to freq (0 for single-valued spectra).
template <typename T>
FRINGE_HD_INLINE int nearest_channel(const SpectrumView<T>& s, T freq, T& freq0) {
  int best = 0;
  freq0 = s.num_ref_freq > 0 ? s.ref_freq[0] : T(0);
  if (s.num_i <= 1) return 0;
  T best_diff = fabs(freq0 - freq);
  for (int k = 1; k < s.num_i; ++k) {
    const T f = spectrum_ref_freq(s, k);
    const T d = fabs(f - freq);
    if (d < best_diff) {
      best_diff = d;
      best = k;
      freq0 = f;
    }
  }
  return best;
}

template <typename T>
FRINGE_HD_INLINE T value_at(const T* values, int n, int k) {
  if (n <= 0) return T(0);
  return values[k < n ? k : 0];
}

// Stokes (I, Q, U, V) of one source at freq [Hz].
template <typename T>
FRINGE_HD_INLINE void evaluate_stokes(const SpectrumView<T>& s, T freq, T out[4]) {
  T freq0 = 0;
  const int k = nearest_channel(s, freq, freq0);
  const T i0 = value_at(s.i, s.num_i, k);
  T q0 = value_at(s.q, s.num_q, k);
  T u0 = value_at(s.u, s.num_u, k);
  const T v0 = value_at(s.v, s.num_v, k);
  const bool have_pol = s.num_pol_frac > 0 && s.num_pol_angle > 0;
  const T pol_frac = value_at(s.pol_frac, s.num_pol_frac, k);
  const T pol_angle = value_at(s.pol_angle, s.num_pol_angle, k);
  if (have_pol && q0 == T(0) && u0 == T(0)) {
    q0 = pol_frac * i0 * cos(T(2) * pol_angle);
    u0 = pol_frac * i0 * sin(T(2) * pol_angle);
  }
  if (freq0 == T(0)) {
    out[0] = i0;
    out[1] = q0;
    out[2] = u0;
    out[3] = v0;
    return;
  }
  const T i_out = stokes_i_spectrum(s, i0, freq, freq0);
  const T scale = i0 != T(0) ? i_out / i0 : T(0);
  out[0] = i_out;
  out[3] = scale * v0;
  if (!s.has_rm) {
    out[1] = scale * q0;
    out[2] = scale * u0;
    return;
  }
  T p = 0, chi0 = 0;
  if (have_pol) {
    p = pol_frac;
    chi0 = pol_angle;
  } else {
    const T lambda0 = s.ref_wavelength > T(0) ? s.ref_wavelength : T(kSpeedOfLight) / freq0;
    const T i_at_lambda0 = stokes_i_spectrum(s, i0, T(kSpeedOfLight) / lambda0, freq0);
    p = i_at_lambda0 != T(0) ? sqrt(q0 * q0 + u0 * u0) / i_at_lambda0 : T(0);
    chi0 = T(0.5) * atan2(u0, q0) - s.rm * lambda0 * lambda0;
  }
  const T lambda = T(kSpeedOfLight) / freq;
  const T chi = chi0 + s.rm * lambda * lambda;
  out[1] = p * i_out * cos(T(2) * chi);
  out[2] = p * i_out * sin(T(2) * chi);
}

}  // namespace fringe::sky
