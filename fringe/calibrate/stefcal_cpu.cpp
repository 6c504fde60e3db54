// CPU back end of StEFCal in the A, B form (stefcal.h): the reference implementation, one
// problem per OpenMP thread.
#include <omp.h>

#include <cmath>
#include <vector>

#include "fringe/calibrate/stefcal.h"
#include "fringe/calibrate/stefcal_iterate.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/error.h"

namespace fringe::calibrate {

std::string gain_type_name(GainType type) {
  switch (type) {
    case GainType::Scalar:
      return "scalar";
    case GainType::Diagonal:
      return "diagonal";
    case GainType::FullJones:
      return "full_jones";
  }
  return "?";
}

std::string solve_state_name(SolveState state) {
  switch (state) {
    case SolveState::Converged:
      return "converged";
    case SolveState::Stalled:
      return "stalled";
    case SolveState::MaxIterations:
      return "max_iterations";
    case SolveState::NoData:
      return "no_data";
  }
  return "?";
}

namespace {

// g_new_p = sum_q A_pq g_q / sum_q B_pq |g_q|^2 for every p (stefcal_math.h, written out
// with scalar accumulators so that `omp simd` vectorises the sum over q; the formula is
// stefcal_accumulate's). parallel_rows: OpenMP threads over p (one large problem).
template <typename T>
void update_all(int n, const Complex<T>* a, const T* b, const Complex<T>* g, Complex<T>* g_new,
                bool parallel_rows) {
#pragma omp parallel for schedule(static) if (parallel_rows)
  for (int p = 0; p < n; ++p) {
    const Complex<T>* a_row = a + std::size_t(p) * n;
    const T* b_row = b + std::size_t(p) * n;
    T re = 0, im = 0, den = 0;
#pragma omp simd reduction(+ : re, im, den)
    for (int q = 0; q < n; ++q) {
      const Complex<T> av = a_row[q], gq = g[q];
      re += av.re * gq.re - av.im * gq.im;
      im += av.re * gq.im + av.im * gq.re;
      den += b_row[q] * (gq.re * gq.re + gq.im * gq.im);
    }
    g_new[p] = stefcal_gain(StefcalSums<T>{{re, im}, den});
  }
}

template <typename T>
SolveStatus solve_one(int n, const Complex<T>* a, const T* b, Complex<T>* gains,
                      const SolverOptions& options, bool parallel_rows) {
  if (n < 0 || options.max_iterations < 1) {
    throw Error("solve_scalar: bad size " + std::to_string(n) + " or max_iterations " +
                std::to_string(options.max_iterations));
  }
  std::vector<Complex<T>> g(gains, gains + n);
  const SolveStatus status = stefcal_iterate(
      g, options, [&](const std::vector<Complex<T>>& in, std::vector<Complex<T>>& out) {
        update_all(n, a, b, in.data(), out.data(), parallel_rows);
      });
  // The solution is the last update (un-averaged), on every exit path.
  for (int p = 0; p < n; ++p) gains[p] = g[p];
  return status;
}

}  // namespace

template <typename T>
SolveStatus solve_scalar(int n, const Complex<T>* a, const T* b, Complex<T>* gains,
                         const SolverOptions& options) {
  return solve_one(n, a, b, gains, options, n >= 128 && !omp_in_parallel());
}

template <typename T>
void solve_scalar_batch_cpu(int num_problems, int n, const Complex<T>* a, const T* b,
                            Complex<T>* gains, SolveStatus* status, const SolverOptions& options) {
  if (num_problems < 0 || n < 0 || options.max_iterations < 1) {
    throw Error("solve_scalar_batch_cpu: bad batch " + std::to_string(num_problems) + " x " +
                std::to_string(n) + " or max_iterations " + std::to_string(options.max_iterations));
  }
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  // Enough problems for every thread: one problem per thread. Otherwise one problem after
  // the other, each with its rows shared by the threads.
  if (num_problems >= omp_get_max_threads() || n < 128) {
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < num_problems; ++k) {
      status[k] = solve_one(n, a + nn * k, b + nn * k, gains + std::size_t(n) * k, options, false);
    }
  } else {
    for (int k = 0; k < num_problems; ++k) {
      status[k] = solve_one(n, a + nn * k, b + nn * k, gains + std::size_t(n) * k, options, true);
    }
  }
}

template <typename T>
int fix_reference_phase(Complex<T>* g, int n, int reference, int stride) {
  int r = (reference >= 0 && reference < n && abs2(g[std::size_t(reference) * stride]) > T(0))
              ? reference
              : -1;
  for (int p = 0; r < 0 && p < n; ++p) {
    if (abs2(g[std::size_t(p) * stride]) > T(0)) r = p;
  }
  if (r < 0) return -1;
  const Complex<T> ref = g[std::size_t(r) * stride];
  const Complex<T> rot = conj(ref) / abs(ref);  // exp(-i arg g_ref)
  for (int p = 0; p < n; ++p) g[std::size_t(p) * stride] *= rot;
  g[std::size_t(r) * stride].im = T(0);
  return r;
}

template SolveStatus solve_scalar<float>(int, const Complex<float>*, const float*, Complex<float>*,
                                         const SolverOptions&);
template SolveStatus solve_scalar<double>(int, const Complex<double>*, const double*,
                                          Complex<double>*, const SolverOptions&);
template void solve_scalar_batch_cpu<float>(int, int, const Complex<float>*, const float*,
                                            Complex<float>*, SolveStatus*, const SolverOptions&);
template void solve_scalar_batch_cpu<double>(int, int, const Complex<double>*, const double*,
                                             Complex<double>*, SolveStatus*, const SolverOptions&);
template int fix_reference_phase<float>(Complex<float>*, int, int, int);
template int fix_reference_phase<double>(Complex<double>*, int, int, int);

}  // namespace fringe::calibrate
