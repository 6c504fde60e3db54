// Per-element formulas of StEFCal shared by the CPU and CUDA back ends (FRINGE_HD), so both
// evaluate the same expressions (DESIGN.md section 5). Notation as in stefcal.h.
#pragma once

#include "fringe/core/complex.h"
#include "fringe/core/hd.h"

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

}  // namespace fringe::calibrate
