// Per-element formulas of StEFCal shared by the CPU and CUDA back ends (FRINGE_HD), so both
// evaluate the same expressions (docs/architecture.md, "Compute back ends"). Notation as in
// stefcal.h.
#pragma once

#include "fringe/core/complex.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"

namespace fringe::calibrate {

// Partial sums of the update of one receptor p: num = sum_q A_pq g_q, den = sum_q B_pq |g_q|^2
// (memo 091 eq. 6; Salvini & Wijnholds 2014 Algorithm 1, line 5, summed over the cell).
template <typename T>
struct StefcalSums {
  Complex<T> num;
  T den;
};

template <typename T>
FRINGE_HD_INLINE void stefcal_accumulate(StefcalSums<T>& s, Complex<T> a_pq, T b_pq,
                                         Complex<T> g_q) {
  s.num = mul_add(a_pq, g_q, s.num);
  s.den += b_pq * abs2(g_q);
}

// g_p = num / den; 0 when the receptor has no data (den == 0).
template <typename T>
FRINGE_HD_INLINE Complex<T> stefcal_gain(const StefcalSums<T>& s) {
  if (!(s.den > T(0))) return {T(0), T(0)};
  return s.num / s.den;
}

// The averaging step of every second iteration (Algorithm 1, line 10).
template <typename T>
FRINGE_HD_INLINE Complex<T> stefcal_average(Complex<T> g_new, Complex<T> g_old) {
  return (g_new + g_old) * T(0.5);
}

// Relative change ||g[i] - g[i-1]|| / ||g[i]|| from the two squared norms (Algorithm 1, line 8).
FRINGE_HD_INLINE double stefcal_relative_change(double diff2, double norm2) {
  if (!(norm2 > 0)) return 0.0;
  return detail::hd_sqrt(diff2 / norm2);
}

// The test made at every even iteration: converged when change <= tolerance; stalled when
// the change has not fallen below 0.99 of its best value for stall_checks checks in a row,
// once the best change is below kStefcalStallBelow: above that StEFCal can plateau for
// tens of iterations and then converge (a weakly constrained mode such as the X-Y phase of
// diagonal gains; seen in the unit tests), so it is not a stall. Returns 0 (go on: average
// and iterate), 1 (converged), 2 (stalled). Same on CPU and GPU.
constexpr double kStefcalStallBelow = 1e-4;
struct StefcalMonitor {
  double best = 1e300;
  int since_best = 0;
};
FRINGE_HD_INLINE int stefcal_check(StefcalMonitor& m, double change, double tolerance,
                                   int stall_checks) {
  if (change <= tolerance) return 1;
  if (change < 0.99 * m.best) {
    m.best = change;
    m.since_best = 0;
  } else {
    ++m.since_best;
  }
  return (stall_checks > 0 && m.best <= kStefcalStallBelow && m.since_best >= stall_checks) ? 2 : 0;
}

// Full-Jones (2x2) StEFCal in a normal-equation form (our generalisation of memo 091's A, B to
// 2x2 gains). The update of station p (Salvini & Wijnholds 2014 section 5, summed over the
// samples s of the cell with weights w) is G_p <- N_p D_p^-1 with
//   N_p = sum_q sum_s w R_s G_q M_s^H,    D_p = sum_q sum_s w M_s H_q M_s^H,   H_q = G_q^H G_q.
// Both are linear in a 2x2 matrix X (G_q, H_q): (R X M^H)_ij = sum_kl R_ik conj(M_jl) X_kl, so
// per (p, q) the cell is summed once into two 4x4 complex matrices
//   A_pq[4 (2i + j) + (2k + l)] = sum_s w R_ik conj(M_jl),
//   B_pq[4 (2i + j) + (2k + l)] = sum_s w M_ik conj(M_jl)
// (Jones elements a, b, c, d = (0, 0), (0, 1), (1, 0), (1, 1)), and per iteration
//   N_p = sum_q A_pq . G_q,   D_p = sum_q B_pq . H_q                       ("." = the 4x4 map).
// For the pair seen from q: R_qp = R_pq^H, M_qp = M_pq^H (full_jones_pair_terms).
constexpr int kFullJonesTerms = 16;  // complex values of A_pq (and of B_pq)

template <typename T>
struct FullJonesSums {
  Jones<T> num;  // N_p
  Jones<T> den;  // D_p
};

// acc + sum_kl m[e0 + 2k + l] x_kl: one output element of the 4x4 map (load(e) = m[e]).
template <typename T, typename Load>
FRINGE_HD_INLINE Complex<T> full_jones_row(const Load& load, int e0, const Jones<T>& x,
                                           Complex<T> acc) {
  acc = mul_add(load(e0), x.a, acc);
  acc = mul_add(load(e0 + 1), x.b, acc);
  acc = mul_add(load(e0 + 2), x.c, acc);
  return mul_add(load(e0 + 3), x.d, acc);
}

// s += (A_pq . G_q, B_pq . H_q); load_a(e), load_b(e) return element e < 16 of A_pq, B_pq.
template <typename T, typename LoadA, typename LoadB>
FRINGE_HD_INLINE void full_jones_accumulate(FullJonesSums<T>& s, const LoadA& load_a,
                                            const LoadB& load_b, const Jones<T>& g_q) {
  s.num.a = full_jones_row(load_a, 0, g_q, s.num.a);
  s.num.b = full_jones_row(load_a, 4, g_q, s.num.b);
  s.num.c = full_jones_row(load_a, 8, g_q, s.num.c);
  s.num.d = full_jones_row(load_a, 12, g_q, s.num.d);
  // H = G^H G (Hermitian).
  const Complex<T> h01 = mul_add(conj(g_q.a), g_q.b, conj(g_q.c) * g_q.d);
  const Jones<T> h{
      {abs2(g_q.a) + abs2(g_q.c), T(0)}, h01, conj(h01), {abs2(g_q.b) + abs2(g_q.d), T(0)}};
  s.den.a = full_jones_row(load_b, 0, h, s.den.a);
  s.den.b = full_jones_row(load_b, 4, h, s.den.b);
  s.den.c = full_jones_row(load_b, 8, h, s.den.c);
  s.den.d = full_jones_row(load_b, 12, h, s.den.d);
}

// G_p = N_p D_p^-1; 0 when D_p is singular (a station without data: D_p = 0). The same
// expression as the sample-form CPU solver (solve_full_jones, cal_data.cpp).
template <typename T>
FRINGE_HD_INLINE Jones<T> full_jones_gain(const FullJonesSums<T>& s) {
  if (!(abs2(jones_det(s.den)) > T(0))) return jones_zero<T>();
  return s.num * jones_inverse(s.den);
}

// Adds one sample (R_pq, M_pq, weight w) to A_pq, B_pq (ap, bp: 16 values each) and, seen from
// q, to A_qp, B_qp (aq, bq) as defined above.
template <typename T>
inline void full_jones_pair_terms(const Jones<T>& r, const Jones<T>& m, T w, Complex<T>* ap,
                                  Complex<T>* bp, Complex<T>* aq, Complex<T>* bq) {
  const Complex<T> rv[2][2] = {{r.a, r.b}, {r.c, r.d}}, mv[2][2] = {{m.a, m.b}, {m.c, m.d}};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 2; ++k) {
        for (int l = 0; l < 2; ++l) {
          const int e = 4 * (2 * i + j) + 2 * k + l;
          ap[e] += rv[i][k] * conj(mv[j][l]) * w;  // R_ik conj(M_jl)
          bp[e] += mv[i][k] * conj(mv[j][l]) * w;  // M_ik conj(M_jl)
          aq[e] += conj(rv[k][i]) * mv[l][j] * w;  // (R^H)_ik conj((M^H)_jl)
          bq[e] += conj(mv[k][i]) * mv[l][j] * w;  // (M^H)_ik conj((M^H)_jl)
        }
      }
    }
  }
}

// Gain-type helpers of the batched kernels: squared norm (|g|^2, Frobenius for Jones) and the
// averaging step, the same for the scalar and the full-Jones solver (Algorithm 1, line 10).
template <typename T>
FRINGE_HD_INLINE T stefcal_norm2(Complex<T> g) {
  return abs2(g);
}
template <typename T>
FRINGE_HD_INLINE T stefcal_norm2(const Jones<T>& g) {
  return jones_norm2(g);
}
template <typename T>
FRINGE_HD_INLINE Jones<T> stefcal_average(const Jones<T>& g_new, const Jones<T>& g_old) {
  return (g_new + g_old) * T(0.5);
}

}  // namespace fringe::calibrate
