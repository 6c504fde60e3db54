// StEFCal: per-station complex gains g that make R_pq ~ g_p M_pq conj(g_q) for measured
// visibilities R and model visibilities M (Salvini & Wijnholds 2014, A&A 571, A97,
// Algorithm 1: alternating least squares, every station updated from the previous iterate,
// the update averaged with the previous one every second iteration).
//
// A scalar problem is given in the normal-equation form of SDP Memo 091 (section 3): with
// weights w and Hermitian R, M (autocorrelations excluded),
//   A_pq = sum w R_pq conj(M_pq),   B_pq = sum w |M_pq|^2,
// summed over every sample of a solution cell (times, channels, polarisations sharing a gain),
// the update of station p is
//   g_p <- (sum_q A_pq g_q) / (sum_q B_pq |g_q|^2)                           (memo eq. 6)
// which is exactly the least-squares update of the paper summed over the cell. A and B are
// n x n row-major, A Hermitian, B symmetric, zero diagonal. Diagonal (X, Y) gains are the
// scalar problem of the 2N "receptors" (p, X), (p, Y) (build_normal_equations in
// cal_data.h); full-Jones gains are solved from the samples (solve_full_jones in cal_data.h).
//
// Convergence (paper Algorithm 1): at every even iteration i,
//   ||g[i] - g[i-1]|| / ||g[i]|| <= tolerance  -> converged (g[i] is the solution);
// otherwise g[i] <- (g[i] + g[i-1]) / 2. Stall: the even-iteration change has not dropped
// below 0.99 of its best value for `stall_checks` checks (rounding floor) -> stop; only once
// the best change is below 1e-4 (stefcal_math.h: earlier plateaus are not stalls).
// Gains of stations whose rows of B are all zero (no data) are 0 and flagged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::calibrate {

enum class GainType { Scalar, Diagonal, FullJones };

// "scalar", "diagonal", "full_jones" (also the settings option words).
std::string gain_type_name(GainType type);

struct SolverOptions {
  int max_iterations = 300;  // updates, counted as in the paper (>= 2)
  double tolerance = 1e-6;   // relative change at an even iteration
  int stall_checks = 20;     // even-iteration checks without 1 % progress (0 = no stall test)
};

enum class SolveState : std::uint8_t {
  Converged = 0,      // change <= tolerance
  Stalled = 1,        // no progress for stall_checks checks
  MaxIterations = 2,  // max_iterations reached
  NoData = 3,         // nothing to solve (every station without data)
};
std::string solve_state_name(SolveState state);

struct SolveStatus {
  int iterations = 0;  // updates made
  SolveState state = SolveState::MaxIterations;
  double last_change = 0;  // relative change at the last even iteration
};

// One scalar problem of n receptors: a[n*n], b[n*n]; gains[n] in: the starting point (all
// ones if in doubt), out: the solution (0 for receptors without data). CPU reference.
template <typename T>
SolveStatus solve_scalar(int n, const Complex<T>* a, const T* b, Complex<T>* gains,
                         const SolverOptions& options);

// num_problems independent problems stored one after another (a: n*n each, b: n*n each,
// gains: n each); OpenMP over problems. status[num_problems].
template <typename T>
void solve_scalar_batch_cpu(int num_problems, int n, const Complex<T>* a, const T* b,
                            Complex<T>* gains, SolveStatus* status, const SolverOptions& options);

// Multiplies every gain of the group g[0..n) by the phase factor that makes g[reference] real
// and positive (the solution's free phase; paper section 2). If g[reference] is 0, the first
// non-zero gain is the reference. Returns the receptor used (-1: all zero).
template <typename T>
int fix_reference_phase(Complex<T>* g, int n, int reference, int stride = 1);

// Floating-point operations of one StEFCal iteration of an n-receptor problem in the A, B
// form of memo 091 (our count of the memo's inner loop; the memo text was not at hand): per
// (p, q) one complex multiply-add A_pq g_q (8 flops) and one real multiply-add
// B_pq |g_q|^2 (2 flops); per q, |g_q|^2 (3 flops).
inline double stefcal_flops_per_iteration(double n) { return 10.0 * n * n + 3.0 * n; }

// The same for a full-Jones problem of n stations in the 4x4 A, B form (stefcal_math.h): per
// (p, q) the two 4x4 complex maps A_pq . G_q and B_pq . H_q (2 x 16 complex multiply-adds, 256
// flops); per q, H_q = G_q^H G_q (28 flops). The 2x2 inverse per station is not counted.
inline double stefcal_full_jones_flops_per_iteration(double n) { return 256.0 * n * n + 28.0 * n; }

}  // namespace fringe::calibrate
