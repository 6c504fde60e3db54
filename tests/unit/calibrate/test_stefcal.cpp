// StEFCal on random Hermitian problems with known gains (CPU back end): exact recovery of
// scalar, diagonal and full-Jones gains from noise-free data, the statistical error with
// noise, convergence within the stated iterations, stall detection, flagged stations, the
// inverse application of the gains and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "cal_test_util.h"
#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/stefcal.h"
#include "fringe/core/error.h"

namespace {

using namespace fringe::calibrate;
using cal_test::make_problem;
using cal_test::max_relative_error;

CalOptions exact_options(GainType type) {
  CalOptions o;
  o.type = type;
  o.solver.tolerance = 1e-13;
  o.solver.max_iterations = 400;
  o.reference_station = 2;
  return o;
}

struct Case {
  GainType type;
  bool polarised;
};

class ExactRecovery : public ::testing::TestWithParam<Case> {};

TEST_P(ExactRecovery, NoiseFreeGainsEqualTrueGainsTo1e8) {
  const Case c = GetParam();
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto pr = make_problem(24, 2, c.type, c.polarised, 0.0, seed);
    const CalOptions o = exact_options(c.type);
    const auto sol = solve_cell_cpu(pr.cell, o);
    EXPECT_NE(sol.status.state, SolveState::MaxIterations) << "seed " << seed;
    EXPECT_LT(sol.status.iterations, 200) << "seed " << seed;
    EXPECT_LT(
        max_relative_error(sol.gains, pr.true_gains, c.type, o.reference_station, sol.flagged),
        1e-8)
        << gain_type_name(c.type) << " seed " << seed;
    EXPECT_GT(sol.rms_before, 0.1);
    EXPECT_LT(sol.rms_after, 1e-9 * sol.rms_before);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, ExactRecovery,
                         ::testing::Values(Case{GainType::Scalar, false},
                                           Case{GainType::Scalar, true},
                                           Case{GainType::Diagonal, false},
                                           Case{GainType::Diagonal, true},
                                           Case{GainType::FullJones, true}));

// Default tolerance (1e-6): converged, and within the iterations stated in
// docs/calibration.md (gains within +-40 % in amplitude, any phase: < 100 iterations).
TEST(Stefcal, DefaultToleranceConvergesWithinStatedIterations) {
  for (GainType type : {GainType::Scalar, GainType::Diagonal, GainType::FullJones}) {
    const auto pr = make_problem(30, 1, type, true, 0.0, 11);
    CalOptions o;
    o.type = type;
    const auto sol = solve_cell_cpu(pr.cell, o);
    EXPECT_EQ(sol.status.state, SolveState::Converged) << gain_type_name(type);
    EXPECT_LT(sol.status.iterations, 100) << gain_type_name(type);
    EXPECT_LE(sol.status.last_change, 1e-6);
    EXPECT_LT(max_relative_error(sol.gains, pr.true_gains, type, 0, sol.flagged), 1e-4);
    std::printf("%s: %d iterations\n", gain_type_name(type).c_str(), sol.status.iterations);
  }
}

// With complex Gaussian noise of variance sigma^2 per visibility, the Cramer-Rao variance
// of g_p (other gains known) is sigma^2 / sum_{q, samples, pols} |g_q M_pq|^2; the joint
// solution adds O(1/N). Mean square error over 5 seeds (after the best common phase) within
// 30 % of the prediction.
TEST(Stefcal, NoiseErrorMatchesExpectedStatisticalError) {
  const int n = 40, samples = 4;
  const double sigma = 0.05;
  double measured = 0, predicted = 0;
  for (unsigned seed = 100; seed < 105; ++seed) {
    const auto pr = make_problem(n, samples, GainType::Scalar, false, sigma, seed);
    CalOptions o;
    o.type = GainType::Scalar;
    o.solver.tolerance = 1e-10;
    const auto sol = solve_cell_cpu(pr.cell, o);
    // Best common phase: arg sum g_true conj(g_sol).
    fringe::Complex<double> dot{0, 0};
    for (int p = 0; p < n; ++p) dot += pr.true_gains[p].a * fringe::conj(sol.gains[p].a);
    const auto rot = dot / fringe::abs(dot);
    // Per station sum of |g_q M_pq|^2 over its rows and the two parallel-hand pols.
    std::vector<double> info(n, 0.0);
    for (std::size_t r = 0; r < pr.cell.num_rows(); ++r) {
      const int p = pr.cell.station1[r], q = pr.cell.station2[r];
      const double m2 = fringe::abs2(pr.cell.model[4 * r]) + fringe::abs2(pr.cell.model[4 * r + 3]);
      info[p] += fringe::abs2(pr.true_gains[q].a) * m2;
      info[q] += fringe::abs2(pr.true_gains[p].a) * m2;
    }
    for (int p = 0; p < n; ++p) {
      measured += fringe::abs2(sol.gains[p].a * rot - pr.true_gains[p].a);
      predicted += sigma * sigma / info[p];
    }
  }
  const double ratio = measured / predicted;
  std::printf("noise: measured / predicted mean square gain error = %.3f\n", ratio);
  EXPECT_GT(ratio, 0.7) << "measured " << measured << " predicted " << predicted;
  EXPECT_LT(ratio, 1.3) << "measured " << measured << " predicted " << predicted;
}

// Noise floor: with a tolerance no solution can reach, the solver stops as stalled well
// before max_iterations.
TEST(Stefcal, StallDetectionStopsAtTheNoiseFloor) {
  const auto pr = make_problem(20, 1, GainType::Scalar, false, 0.1, 5);
  CalOptions o;
  o.type = GainType::Scalar;
  o.solver.tolerance = 1e-30;
  o.solver.max_iterations = 5000;
  o.solver.stall_checks = 10;
  const auto sol = solve_cell_cpu(pr.cell, o);
  EXPECT_EQ(sol.status.state, SolveState::Stalled);
  EXPECT_LT(sol.status.iterations, 1000);
  o.solver.stall_checks = 0;
  o.solver.max_iterations = 300;
  EXPECT_EQ(solve_cell_cpu(pr.cell, o).status.state, SolveState::MaxIterations);
}

TEST(Stefcal, FlaggedStationsAreExcludedAndTheRestRecovered) {
  auto pr = make_problem(16, 1, GainType::Diagonal, false, 0.0, 21);
  auto& c = pr.cell;
  // Station 3: every row flagged. Station 7: only 3 baselines left (min_baselines 4).
  int kept7 = 0;
  for (std::size_t r = 0; r < c.num_rows(); ++r) {
    const int p = c.station1[r], q = c.station2[r];
    bool flag = (p == 3 || q == 3);
    if (p == 7 || q == 7) flag = flag || (kept7++ >= 3);
    if (flag) {
      for (int k = 0; k < 4; ++k) c.weight[4 * r + k] = 0.0;
      // Garbage under the flags must not matter.
      for (int k = 0; k < 4; ++k) c.data[4 * r + k] = {1e6, -1e6};
    }
  }
  CalOptions o = exact_options(GainType::Diagonal);
  o.reference_station = 3;  // flagged: the first unflagged station becomes the reference
  const auto sol = solve_cell_cpu(c, o);
  EXPECT_EQ(sol.flagged[3], 1);
  EXPECT_EQ(sol.flagged[7], 1);
  EXPECT_EQ(std::count(sol.flagged.begin(), sol.flagged.end(), 1), 2);
  EXPECT_EQ(fringe::jones_norm2(sol.gains[3]), 0.0);
  EXPECT_LT(max_relative_error(sol.gains, pr.true_gains, GainType::Diagonal, 0, sol.flagged), 1e-8);
}

TEST(Stefcal, InverseGainsTurnDataIntoModel) {
  for (GainType type : {GainType::Scalar, GainType::Diagonal, GainType::FullJones}) {
    const auto pr = make_problem(12, 1, type, true, 0.0, 31);
    const auto sol = solve_cell_cpu(pr.cell, exact_options(type));
    double worst = 0;
    for (std::size_t r = 0; r < pr.cell.num_rows(); ++r) {
      fringe::Complex<double> out[4];
      ASSERT_TRUE(apply_inverse_row(sol.gains[pr.cell.station1[r]], sol.gains[pr.cell.station2[r]],
                                    &pr.cell.data[4 * r], out, 4));
      for (int k = 0; k < 4; ++k) {
        // Diagonal gains leave the X-Y phase free: only XX and YY are restored.
        if (type == GainType::Diagonal && (k == 1 || k == 2)) continue;
        worst = std::max(worst, fringe::abs(out[k] - pr.cell.model[4 * r + k]));
      }
    }
    EXPECT_LT(worst, 1e-9) << gain_type_name(type);
  }
}

TEST(Stefcal, BatchEqualsSingleProblems) {
  const int problems = 5, n = 10;
  std::vector<fringe::Complex<double>> a, b_all_c;
  std::vector<double> b;
  for (int k = 0; k < problems; ++k) {
    const auto pr = make_problem(n, 1, GainType::Scalar, false, 0.01, 40 + k);
    std::vector<fringe::Complex<double>> ak;
    std::vector<double> bk;
    build_normal_equations(pr.cell, GainType::Scalar, std::vector<std::uint8_t>(n, 0), ak, bk);
    a.insert(a.end(), ak.begin(), ak.end());
    b.insert(b.end(), bk.begin(), bk.end());
  }
  std::vector<fringe::Complex<double>> g(problems * n, {1.0, 0.0});
  std::vector<SolveStatus> st(problems);
  SolverOptions o;
  solve_scalar_batch_cpu(problems, n, a.data(), b.data(), g.data(), st.data(), o);
  for (int k = 0; k < problems; ++k) {
    std::vector<fringe::Complex<double>> gk(n, {1.0, 0.0});
    const auto s = solve_scalar(n, a.data() + n * n * k, b.data() + n * n * k, gk.data(), o);
    EXPECT_EQ(s.iterations, st[k].iterations);
    for (int p = 0; p < n; ++p) EXPECT_EQ(gk[p], g[n * k + p]);
  }
}

TEST(Stefcal, SinglePrecisionScalarRecovery) {
  const auto pr = make_problem(20, 1, GainType::Scalar, false, 0.0, 51);
  std::vector<fringe::Complex<double>> a;
  std::vector<double> b;
  build_normal_equations(pr.cell, GainType::Scalar, std::vector<std::uint8_t>(20, 0), a, b);
  std::vector<fringe::Complex<float>> af;
  std::vector<float> bf(b.begin(), b.end());
  for (auto v : a) af.push_back(fringe::complex_cast<float>(v));
  std::vector<fringe::Complex<float>> g(20, {1.0f, 0.0f});
  SolverOptions o;
  o.tolerance = 1e-6;
  solve_scalar(20, af.data(), bf.data(), g.data(), o);
  fix_reference_phase(g.data(), 20, 0);
  std::vector<fringe::Complex<double>> t;
  for (const auto& j : pr.true_gains) t.push_back(j.a);
  fix_reference_phase(t.data(), 20, 0);
  for (int p = 0; p < 20; ++p) {
    EXPECT_LT(fringe::abs(fringe::complex_cast<double>(g[p]) - t[p]) / fringe::abs(t[p]), 1e-4);
  }
}

TEST(Stefcal, BadInputGivesClearErrors) {
  auto pr = make_problem(6, 1, GainType::Scalar, false, 0.0, 61);
  auto cell = pr.cell;
  cell.model.pop_back();
  try {
    solve_cell_cpu(cell, CalOptions{});
    FAIL() << "no error for mismatched shapes";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("mismatched shapes"), std::string::npos) << e.what();
  }
  cell = pr.cell;
  cell.station2[0] = cell.station1[0];
  EXPECT_THROW(solve_cell_cpu(cell, CalOptions{}), fringe::Error);
  // One polarisation cannot carry diagonal or full-Jones gains.
  CalCell<double> one;
  one.num_stations = 6;
  one.num_pols = 1;
  for (int q = 1; q < 6; ++q) {
    one.station1.push_back(0);
    one.station2.push_back(q);
    one.data.push_back({1, 0});
    one.model.push_back({1, 0});
    one.weight.push_back(1);
  }
  CalOptions o;
  o.type = GainType::Diagonal;
  try {
    solve_cell_cpu(one, o);
    FAIL() << "no error for diagonal gains on one polarisation";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("4 polarisations"), std::string::npos) << e.what();
  }
}

}  // namespace
