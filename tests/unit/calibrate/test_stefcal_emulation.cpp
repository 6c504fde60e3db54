// The CUDA StEFCal kernel run on the CPU by the host emulation (stefcal_cuda_emulation.h)
// against the CPU solver: same iterations, states and gains (to rounding: the sums run in
// another order) for teams of 1, 2, 4 and 8 warps, grids of 1 and 2 blocks (grid striding),
// a fixed odd iteration count (the final copy after the loop), a receptor without data and a
// problem without data; and the full-Jones kernel against the CPU's sample-form full-Jones
// solver (solve_full_jones): same iterations and states, gains to 1e-12, flagged stations, a
// problem without data. The shared-rows kernels (rows of A and B in shared memory) give
// bit-identical gains and the same states as the global-memory kernels (same arithmetic in the
// same order) for scalar and full-Jones gains. Runs without a GPU (label unit).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "cal_test_batch.h"
#include "cal_test_util.h"
#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/stefcal.h"
#include "fringe/calibrate/stefcal_math.h"
#include "stefcal_cuda_emulation.h"

namespace {

using fringe::Complex;
using namespace fringe::calibrate;

using cal_test::Batch;
using cal_test::make_batch;

// Returns the emulated gains and states.
std::vector<Complex<double>> expect_emulated_equals_cpu(const Batch& batch, int num,
                                                        const SolverOptions& o, int warps_per_row,
                                                        int blocks, bool shared_rows = false,
                                                        std::vector<SolveStatus>* st = nullptr) {
  const std::size_t ng = std::size_t(batch.n) * num;
  std::vector<Complex<double>> g_cpu(ng, {1, 0}), g_emu(ng, {1, 0});
  std::vector<SolveStatus> s_cpu(num), s_emu(num);
  solve_scalar_batch_cpu(num, batch.n, batch.a.data(), batch.b.data(), g_cpu.data(), s_cpu.data(),
                         o);
  test::solve_scalar_batch_emulated(num, batch.n, batch.a.data(), batch.b.data(), g_emu.data(),
                                    s_emu.data(), o, warps_per_row, blocks, shared_rows);
  for (int k = 0; k < num; ++k) {
    EXPECT_EQ(s_emu[k].iterations, s_cpu[k].iterations) << "problem " << k;
    EXPECT_EQ(s_emu[k].state, s_cpu[k].state) << "problem " << k;
  }
  double worst = 0;
  for (std::size_t i = 0; i < ng; ++i) {
    const double s = fringe::abs(g_cpu[i]);
    if (s == 0) {
      EXPECT_EQ(fringe::abs(g_emu[i]), 0.0) << i;
      continue;
    }
    worst = std::max(worst, fringe::abs(g_emu[i] - g_cpu[i]) / s);
  }
  EXPECT_LT(worst, 1e-12) << "warps per row " << warps_per_row << ", blocks " << blocks
                          << (shared_rows ? ", shared rows" : "");
  if (st) *st = s_emu;
  return g_emu;
}

// The shared-rows kernel against the CPU (as above) and against the global-memory kernel:
// the same gains bit for bit and the same states; it loads each value of A and B from global
// memory once (the copy), the global-memory kernel once per iteration (fixed counts only).
void expect_shared_rows_same(const Batch& batch, int num, const SolverOptions& o, int warps_per_row,
                             int blocks) {
  const long long values = 2LL * num * batch.n * batch.n;  // A and B
  std::vector<SolveStatus> s_global, s_shared;
  const auto g_global =
      expect_emulated_equals_cpu(batch, num, o, warps_per_row, blocks, false, &s_global);
  EXPECT_EQ(test::last_emulated_row_loads(), values * o.max_iterations);
  const auto g_shared =
      expect_emulated_equals_cpu(batch, num, o, warps_per_row, blocks, true, &s_shared);
  EXPECT_EQ(test::last_emulated_row_loads(), values);
  for (int k = 0; k < num; ++k) {
    EXPECT_EQ(s_shared[k].iterations, s_global[k].iterations) << "problem " << k;
    EXPECT_EQ(s_shared[k].state, s_global[k].state) << "problem " << k;
    // (The norms are sums of atomics, in any order: equal to rounding.)
    EXPECT_NEAR(s_shared[k].last_change, s_global[k].last_change, 1e-14) << "problem " << k;
  }
  for (std::size_t i = 0; i < g_global.size(); ++i) {
    EXPECT_EQ(g_shared[i].re, g_global[i].re) << i;
    EXPECT_EQ(g_shared[i].im, g_global[i].im) << i;
  }
}

TEST(StefcalCudaEmulation, TeamsAndGridsAgreeWithCpu) {
  // A few fixed iterations (every emulated barrier is slow); the decisions are tested below.
  SolverOptions o;
  o.tolerance = 0;
  o.stall_checks = 0;
  o.max_iterations = 6;
  const Batch scalar = make_batch(3, 20, GainType::Scalar, 0.02, 7);
  expect_emulated_equals_cpu(scalar, 3, o, 1, 1);
  expect_emulated_equals_cpu(scalar, 3, o, 2, 2);
  expect_emulated_equals_cpu(scalar, 3, o, 8, 1);
  const Batch diag = make_batch(2, 12, GainType::Diagonal, 0.0, 30);
  expect_emulated_equals_cpu(diag, 2, o, 4, 1);
}

TEST(StefcalCudaEmulation, ConvergesAsTheCpu) {
  SolverOptions o;
  o.tolerance = 1e-8;
  const Batch scalar = make_batch(2, 12, GainType::Scalar, 0.01, 90);
  expect_emulated_equals_cpu(scalar, 2, o, 1, 1);
  // max_iterations = the iteration that converges: the kernel's test after its loop.
  std::vector<Complex<double>> g(std::size_t(scalar.n), {1, 0});
  const SolveStatus s = solve_scalar(scalar.n, scalar.a.data(), scalar.b.data(), g.data(), o);
  ASSERT_EQ(s.state, SolveState::Converged);
  o.max_iterations = s.iterations;
  expect_emulated_equals_cpu(scalar, 1, o, 2, 1);
}

// One problem: the kernel's single-problem path (no stop_iteration or running-count reads;
// every thread leaves the loop on its own verdict), over 1 and 2 blocks and teams of 1, 2
// warps, stopping before max_iterations; and a problem without data.
TEST(StefcalCudaEmulation, SingleProblemStopsAsTheCpu) {
  SolverOptions o;
  o.tolerance = 1e-8;
  const Batch scalar = make_batch(1, 14, GainType::Scalar, 0.01, 110);
  std::vector<Complex<double>> g(std::size_t(scalar.n), {1, 0});
  const SolveStatus s = solve_scalar(scalar.n, scalar.a.data(), scalar.b.data(), g.data(), o);
  ASSERT_EQ(s.state, SolveState::Converged);
  ASSERT_LT(s.iterations, o.max_iterations);
  expect_emulated_equals_cpu(scalar, 1, o, 1, 2);
  expect_emulated_equals_cpu(scalar, 1, o, 2, 1);
  // More blocks than rows (6 rows of 8 warps, 7 blocks): a block without a row makes the
  // test itself (the launch configuration on a GPU never does this).
  const Batch small = make_batch(1, 6, GainType::Scalar, 0.01, 120);
  expect_emulated_equals_cpu(small, 1, o, 8, 7);
  Batch empty = scalar;
  std::fill(empty.a.begin(), empty.a.end(), Complex<double>{0, 0});
  std::fill(empty.b.begin(), empty.b.end(), 0.0);
  expect_emulated_equals_cpu(empty, 1, o, 1, 2);
}

TEST(StefcalCudaEmulation, FixedOddIterationCount) {
  SolverOptions o;
  o.tolerance = 0;
  o.stall_checks = 0;
  o.max_iterations = 7;
  const Batch scalar = make_batch(2, 16, GainType::Scalar, 0.1, 50);
  expect_emulated_equals_cpu(scalar, 2, o, 1, 1);
  o.max_iterations = 8;
  expect_emulated_equals_cpu(scalar, 2, o, 2, 1);
}

TEST(StefcalCudaEmulation, ReceptorAndProblemWithoutData) {
  Batch batch = make_batch(3, 10, GainType::Scalar, 0.0, 70);
  cal_test::remove_receptor(batch, 1, 3);
  cal_test::remove_problem(batch, 2);
  SolverOptions o;
  o.tolerance = 1e-8;
  expect_emulated_equals_cpu(batch, 3, o, 1, 2);
}

// Rows of A and B in shared memory: several rounds per block with a partial last round (60
// rows, 2 blocks of 4 teams: 8 rounds, the last half used; 12 rows, 5 blocks of one team, as
// for one problem on a GPU: 3 rounds), a block without a row (12 rows, 7 blocks of 2 teams:
// it copies nothing), and one problem stopping on convergence over 2 blocks.
TEST(StefcalCudaEmulation, SharedRowsSameAsGlobal) {
  SolverOptions o;
  o.tolerance = 0;
  o.stall_checks = 0;
  o.max_iterations = 5;
  const Batch scalar = make_batch(3, 20, GainType::Scalar, 0.02, 7);
  expect_shared_rows_same(scalar, 3, o, 2, 2);
  const Batch diag = make_batch(1, 6, GainType::Diagonal, 0.0, 31);
  expect_shared_rows_same(diag, 1, o, 8, 5);
  expect_shared_rows_same(diag, 1, o, 4, 7);
  SolverOptions conv;
  conv.tolerance = 1e-8;
  const Batch single = make_batch(1, 14, GainType::Scalar, 0.01, 110);
  std::vector<SolveStatus> st;
  expect_emulated_equals_cpu(single, 1, conv, 1, 2, true, &st);
  EXPECT_EQ(st[0].state, SolveState::Converged);
}

// Full-Jones: cells of a polarised model (a unique solution), one sample per baseline, A and
// B built from them as the GPU path of calibrate_ms does, the kernel against
// solve_full_jones on the same cells.
using cal_test::build_jones;
using cal_test::JonesBatch;
JonesBatch make_jones_batch(int num, int stations, double sigma, unsigned seed) {
  return cal_test::make_jones_batch(num, stations, sigma, seed, 1);
}

// Starting gains near the truth (each element off by ~10 %): from the identity the small
// full-Jones problems need 100-300 iterations, too many for the emulation's slow barriers.
void start_near_truth(JonesBatch& batch, unsigned seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t k = 0; k < batch.problems.size(); ++k) {
    for (int p = 0; p < batch.n; ++p) {
      const fringe::Jones<double>& t = batch.problems[k].true_gains[p];
      batch.start[k * batch.n + p] = {
          t.a + cal_test::rand_c(rng, 0.1), t.b + cal_test::rand_c(rng, 0.1),
          t.c + cal_test::rand_c(rng, 0.1), t.d + cal_test::rand_c(rng, 0.1)};
    }
  }
}

// Returns the emulated gains (raw: no reference phase fixed).
std::vector<fringe::Jones<double>> expect_jones_emulated_equals_cpu(
    const JonesBatch& batch, const SolverOptions& o, int warps_per_row, int blocks,
    std::vector<SolveStatus>* st = nullptr, bool shared_rows = false) {
  const int num = int(batch.problems.size());
  std::vector<fringe::Jones<double>> g_emu = batch.start;
  std::vector<SolveStatus> s_emu(num);
  test::solve_full_jones_batch_emulated(num, batch.n, batch.a.data(), batch.b.data(), g_emu.data(),
                                        s_emu.data(), o, warps_per_row, blocks, shared_rows);
  double worst = 0;
  for (int k = 0; k < num; ++k) {
    std::vector<fringe::Jones<double>> g_cpu(batch.start.begin() + std::size_t(k) * batch.n,
                                             batch.start.begin() + std::size_t(k + 1) * batch.n);
    const SolveStatus s_cpu = solve_full_jones(batch.problems[k].cell, batch.flags[k], g_cpu, o);
    EXPECT_EQ(s_emu[k].iterations, s_cpu.iterations) << "problem " << k;
    EXPECT_EQ(s_emu[k].state, s_cpu.state) << "problem " << k;
    // The change is a difference of nearly equal gains: equal to ~1e-15 absolute.
    EXPECT_NEAR(s_emu[k].last_change, s_cpu.last_change, 1e-13) << "problem " << k;
    for (int p = 0; p < batch.n; ++p) {
      const fringe::Jones<double>& ge = g_emu[std::size_t(k) * batch.n + p];
      const double s = fringe::jones_norm2(g_cpu[p]);
      if (s == 0) {
        EXPECT_EQ(fringe::jones_norm2(ge), 0.0) << "problem " << k << " station " << p;
        continue;
      }
      worst = std::max(worst, std::sqrt(fringe::jones_norm2(ge - g_cpu[p]) / s));
    }
  }
  EXPECT_LT(worst, 1e-12) << "full-Jones, warps per row " << warps_per_row << ", blocks " << blocks;
  if (st) *st = s_emu;
  return g_emu;
}

TEST(StefcalCudaEmulation, FullJonesConvergesAsTheCpu) {
  // One problem of 8 stations: one round of 8 teams per iteration (emulated barriers are slow).
  JonesBatch batch = make_jones_batch(1, 8, 0.0, 200);
  start_near_truth(batch, 201);
  build_jones(batch, 4);
  SolverOptions o;
  o.tolerance = 1e-9;  // about 150 iterations here
  std::vector<SolveStatus> st;
  const auto g = expect_jones_emulated_equals_cpu(batch, o, 1, 1, &st);
  EXPECT_EQ(st[0].state, SolveState::Converged);
  // Noise-free: the truth, after fixing the reference phase (1e-8 at this tolerance).
  for (int k = 0; k < 1; ++k) {
    std::vector<fringe::Jones<double>> gk(g.begin() + 8 * k, g.begin() + 8 * (k + 1));
    fix_reference_phase_jones(gk, 0);
    EXPECT_LT(cal_test::max_relative_error(gk, batch.problems[k].true_gains, GainType::FullJones, 0,
                                           batch.flags[k]),
              1e-7)
        << "problem " << k;
  }
}

TEST(StefcalCudaEmulation, FullJonesTeamsGridsAndFixedCounts) {
  JonesBatch batch = make_jones_batch(2, 9, 0.05, 300);
  build_jones(batch, 4);
  SolverOptions o;
  o.tolerance = 0;
  o.stall_checks = 0;
  o.max_iterations = 7;  // odd: the solution is an un-averaged update
  expect_jones_emulated_equals_cpu(batch, o, 2, 2);
  o.max_iterations = 6;
  expect_jones_emulated_equals_cpu(batch, o, 4, 2);
}

// The full-Jones shared-rows kernels: 16 A and 16 B values per (p, q) in shared memory, the
// same gains bit for bit as the global-memory kernel, each value of A and B loaded once. Two
// problems (18 rows, 2 blocks of 4 teams: 3 rounds, the last partial) and one problem (gains
// staged in shared memory too; 9 rows, 3 blocks of 2 teams).
void expect_jones_shared_rows_same(const JonesBatch& batch, const SolverOptions& o,
                                   int warps_per_row, int blocks) {
  const int num = int(batch.problems.size());
  std::vector<SolveStatus> s_global, s_shared;
  const auto g_global =
      expect_jones_emulated_equals_cpu(batch, o, warps_per_row, blocks, &s_global);
  const auto g_shared =
      expect_jones_emulated_equals_cpu(batch, o, warps_per_row, blocks, &s_shared, true);
  EXPECT_EQ(test::last_emulated_row_loads(), 2LL * num * batch.n * kFullJonesTerms * batch.n);
  for (int k = 0; k < num; ++k) {
    EXPECT_EQ(s_shared[k].iterations, s_global[k].iterations);
    EXPECT_EQ(s_shared[k].state, s_global[k].state);
  }
  for (std::size_t i = 0; i < g_global.size(); ++i) {
    const fringe::Jones<double>& x = g_shared[i];
    const fringe::Jones<double>& y = g_global[i];
    for (auto [u, v] :
         {std::pair{x.a, y.a}, std::pair{x.b, y.b}, std::pair{x.c, y.c}, std::pair{x.d, y.d}}) {
      EXPECT_EQ(u.re, v.re) << i;
      EXPECT_EQ(u.im, v.im) << i;
    }
  }
}

TEST(StefcalCudaEmulation, FullJonesSharedRowsSameAsGlobal) {
  SolverOptions o;
  o.tolerance = 0;
  o.stall_checks = 0;
  o.max_iterations = 5;
  JonesBatch two = make_jones_batch(2, 9, 0.05, 300);
  build_jones(two, 4);
  expect_jones_shared_rows_same(two, o, 2, 2);
  JonesBatch one = make_jones_batch(1, 9, 0.05, 310);
  build_jones(one, 4);
  expect_jones_shared_rows_same(one, o, 4, 3);
}

TEST(StefcalCudaEmulation, FullJonesFlaggedStationAndProblemWithoutData) {
  JonesBatch batch = make_jones_batch(2, 8, 0.0, 400);
  // Problem 0: station 3 keeps only 2 baselines (flagged by min_baselines = 4). Problem 1: no
  // usable row (one of the four products flagged everywhere; the stations are not flagged).
  auto& c0 = batch.problems[0].cell;
  for (std::size_t r = 0; r < c0.num_rows(); ++r) {
    const bool has3 = c0.station1[r] == 3 || c0.station2[r] == 3;
    const int other = c0.station1[r] == 3 ? c0.station2[r] : c0.station1[r];
    if (has3 && other > 1) {
      for (int k = 0; k < 4; ++k) c0.weight[4 * r + k] = 0;
    }
  }
  start_near_truth(batch, 401);
  auto& c2 = batch.problems[1].cell;
  for (std::size_t r = 0; r < c2.num_rows(); ++r) c2.weight[4 * r + 1] = 0;
  build_jones(batch, 4);
  ASSERT_EQ(batch.flags[0][3], 1);
  SolverOptions o;
  o.tolerance = 1e-6;
  std::vector<SolveStatus> st;
  const auto g = expect_jones_emulated_equals_cpu(batch, o, 1, 2, &st);
  EXPECT_EQ(st[0].state, SolveState::Converged);
  EXPECT_EQ(st[1].state, SolveState::NoData);
  EXPECT_EQ(fringe::jones_norm2(g[3]), 0.0);
  for (int p = 0; p < 8; ++p) EXPECT_EQ(fringe::jones_norm2(g[8 + p]), 0.0);
}

}  // namespace
