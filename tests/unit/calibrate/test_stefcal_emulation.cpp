// The CUDA StEFCal kernel run on the CPU by the host emulation (stefcal_cuda_emulation.h)
// against the CPU solver: same iterations, states and gains (to rounding: the sums run in
// another order) for teams of 1, 2, 4 and 8 warps, grids of 1 and 2 blocks (grid striding),
// a fixed odd iteration count (the final copy after the loop), a receptor without data and a
// problem without data. Runs without a GPU (label unit).
#include <gtest/gtest.h>

#include <vector>

#include "cal_test_util.h"
#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/stefcal.h"
#include "stefcal_cuda_emulation.h"

namespace {

using fringe::Complex;
using namespace fringe::calibrate;

struct Batch {
  int n = 0;
  std::vector<Complex<double>> a;
  std::vector<double> b;
};

Batch make_batch(int num, int stations, GainType type, double sigma, unsigned seed) {
  Batch batch;
  for (int k = 0; k < num; ++k) {
    const auto pr = cal_test::make_problem(stations, 1, type, false, sigma, seed + k);
    std::vector<Complex<double>> ak;
    std::vector<double> bk;
    build_normal_equations(pr.cell, type, std::vector<std::uint8_t>(stations, 0), ak, bk);
    batch.n = num_receptors(type, stations);
    batch.a.insert(batch.a.end(), ak.begin(), ak.end());
    batch.b.insert(batch.b.end(), bk.begin(), bk.end());
  }
  return batch;
}

void expect_emulated_equals_cpu(const Batch& batch, int num, const SolverOptions& o,
                                int warps_per_row, int blocks) {
  const std::size_t ng = std::size_t(batch.n) * num;
  std::vector<Complex<double>> g_cpu(ng, {1, 0}), g_emu(ng, {1, 0});
  std::vector<SolveStatus> s_cpu(num), s_emu(num);
  solve_scalar_batch_cpu(num, batch.n, batch.a.data(), batch.b.data(), g_cpu.data(), s_cpu.data(),
                         o);
  test::solve_scalar_batch_emulated(num, batch.n, batch.a.data(), batch.b.data(), g_emu.data(),
                                    s_emu.data(), o, warps_per_row, blocks);
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
  EXPECT_LT(worst, 1e-12) << "warps per row " << warps_per_row << ", blocks " << blocks;
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
  const int n = batch.n;
  for (int q = 0; q < n; ++q) {
    for (std::size_t i : {std::size_t(n) * n + 3 * n + q, std::size_t(n) * n + q * n + 3}) {
      batch.a[i] = {0, 0};
      batch.b[i] = 0;
    }
  }
  for (std::size_t i = 2 * std::size_t(n) * n; i < 3 * std::size_t(n) * n; ++i) {
    batch.a[i] = {0, 0};
    batch.b[i] = 0;
  }
  SolverOptions o;
  o.tolerance = 1e-8;
  expect_emulated_equals_cpu(batch, 3, o, 1, 2);
}

}  // namespace
