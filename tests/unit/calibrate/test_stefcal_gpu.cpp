// CUDA batched StEFCal against the CPU reference (label gpu; skipped without a device):
// identical algorithm, so double-precision gains agree to 1e-10 and the iteration counts to
// within one check; noise-free gains equal the truth to 1e-8; batches mixing sizes of work,
// flagged receptors and a problem without data; float against double; calibrate_ms on a GPU
// against the CPU. Full-Jones: the GPU kernel against the CPU's sample-form solver
// (solve_full_jones) to 1e-10 in double, the truth to 1e-8, flagged stations and a problem
// without data, float against double, calibrate_ms with Full-Jones gains.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cal_test_batch.h"
#include "cal_test_ms.h"
#include "cal_test_util.h"
#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/calibrate/sky_predict.h"
#include "fringe/calibrate/stefcal.h"
#include "fringe/calibrate/stefcal_cuda.h"
#include "fringe/core/device.h"
#include "fringe/io/ms/gain_table.h"

namespace {

using fringe::Complex;
using namespace fringe::calibrate;

#define SKIP_WITHOUT_GPU()                                             \
  do {                                                                 \
    if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU"; \
  } while (0)

using cal_test::Batch;
using cal_test::make_batch;

double max_rel_diff(const std::vector<Complex<double>>& x, const std::vector<Complex<double>>& y) {
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double s = std::max(fringe::abs(y[i]), 1e-300);
    worst = std::max(worst, fringe::abs(x[i] - y[i]) / s);
  }
  return worst;
}

// shared_rows: A and B rows in shared memory where they fit (false: always from global memory).
void expect_same_as_cpu(const Batch& batch, int num, const SolverOptions& o, int warps_per_row,
                        int blocks_per_sm = 0, bool shared_rows = true) {
  const std::size_t ng = std::size_t(batch.n) * num;
  std::vector<Complex<double>> g_cpu(ng, {1, 0}), g_gpu(ng, {1, 0});
  std::vector<SolveStatus> s_cpu(num), s_gpu(num);
  solve_scalar_batch_cpu(num, batch.n, batch.a.data(), batch.b.data(), g_cpu.data(), s_cpu.data(),
                         o);
  StefcalCuda<double> gpu(0, num, batch.n, warps_per_row, blocks_per_sm, shared_rows);
  if (!shared_rows) EXPECT_FALSE(gpu.rows_in_shared());
  gpu.upload(batch.a.data(), batch.b.data());
  gpu.solve(g_gpu.data(), o);
  gpu.download(g_gpu.data(), s_gpu.data());
  for (int k = 0; k < num; ++k) {
    EXPECT_NEAR(s_gpu[k].iterations, s_cpu[k].iterations, 2) << "problem " << k;
    EXPECT_EQ(s_gpu[k].state, s_cpu[k].state) << "problem " << k;
  }
  // Zero gains (no data) compare exactly; others relative.
  EXPECT_LT(max_rel_diff(g_gpu, g_cpu), 1e-10)
      << "warps per row " << gpu.warps_per_row() << ", rows in shared memory "
      << gpu.rows_in_shared();
}

TEST(StefcalGpu, DoubleAgreesWithCpuTo1e10) {
  SKIP_WITHOUT_GPU();
  SolverOptions o;
  o.tolerance = 1e-12;
  const Batch scalar = make_batch(9, 37, GainType::Scalar, 0.05, 1);
  for (int w : {0, 1, 2, 4, 8}) expect_same_as_cpu(scalar, 9, o, w);
  expect_same_as_cpu(scalar, 9, o, 8, 1);  // one block per SM: rows strided over the grid
  const Batch diag = make_batch(5, 33, GainType::Diagonal, 0.05, 20);
  expect_same_as_cpu(diag, 5, o, 0);
  // Fixed iteration count, no convergence test: 300 iterations of one 1000-station problem.
  SolverOptions fixed;
  fixed.tolerance = 0;
  fixed.stall_checks = 0;
  fixed.max_iterations = 301;  // odd: the solution is an un-averaged update
  const Batch big = make_batch(1, 1000, GainType::Scalar, 0.1, 40);
  expect_same_as_cpu(big, 1, fixed, 0);
  // The same with A and B always read from global memory (the path of large batches).
  for (int w : {0, 1, 8}) expect_same_as_cpu(scalar, 9, o, w, 0, false);
  expect_same_as_cpu(diag, 5, o, 0, 0, false);
  expect_same_as_cpu(big, 1, fixed, 0, 0, false);
}

TEST(StefcalGpu, NoiseFreeGainsEqualTruthTo1e8) {
  SKIP_WITHOUT_GPU();
  for (GainType type : {GainType::Scalar, GainType::Diagonal}) {
    const int num = 4, stations = 30;
    const Batch batch = make_batch(num, stations, type, 0.0, 60);
    std::vector<Complex<double>> g(std::size_t(batch.n) * num, {1, 0});
    std::vector<SolveStatus> st(num);
    SolverOptions o;
    o.tolerance = 1e-13;
    o.max_iterations = 1000;
    solve_scalar_batch_cuda(0, num, batch.n, batch.a.data(), batch.b.data(), g.data(), st.data(),
                            o);
    for (int k = 0; k < num; ++k) {
      EXPECT_NE(st[k].state, SolveState::MaxIterations);
      std::vector<Complex<double>> gk(g.begin() + batch.n * k, g.begin() + batch.n * (k + 1));
      const std::vector<std::uint8_t> flags(stations, 0);
      const auto sol = receptor_gains_to_jones(type, stations, gk, 0, flags);
      EXPECT_LT(cal_test::max_relative_error(sol, batch.truth[k], type, 0, flags), 1e-8)
          << gain_type_name(type) << " problem " << k;
    }
  }
}

TEST(StefcalGpu, FlaggedReceptorsAndEmptyProblems) {
  SKIP_WITHOUT_GPU();
  Batch batch = make_batch(3, 20, GainType::Scalar, 0.0, 80);
  const int n = batch.n;
  // Problem 1: receptor 5 without data. Problem 2: no data at all.
  cal_test::remove_receptor(batch, 1, 5);
  cal_test::remove_problem(batch, 2);
  SolverOptions o;
  o.tolerance = 1e-12;
  expect_same_as_cpu(batch, 3, o, 0);
  std::vector<Complex<double>> g(3 * std::size_t(n), {1, 0});
  std::vector<SolveStatus> st(3);
  solve_scalar_batch_cuda(0, 3, n, batch.a.data(), batch.b.data(), g.data(), st.data(), o);
  EXPECT_EQ(g[n + 5], (Complex<double>{0, 0}));
  EXPECT_EQ(st[2].state, SolveState::NoData);
  EXPECT_EQ(st[0].state, SolveState::Converged);
}

TEST(StefcalGpu, SingleAgreesWithDouble) {
  SKIP_WITHOUT_GPU();
  const int num = 6;
  const Batch batch = make_batch(num, 64, GainType::Scalar, 0.01, 90);
  std::vector<Complex<float>> af;
  std::vector<float> bf(batch.b.begin(), batch.b.end());
  for (auto v : batch.a) af.push_back(fringe::complex_cast<float>(v));
  std::vector<Complex<float>> gf(std::size_t(batch.n) * num, {1, 0});
  std::vector<Complex<double>> gd(std::size_t(batch.n) * num, {1, 0});
  std::vector<SolveStatus> st(num);
  SolverOptions o;
  o.tolerance = 1e-6;
  solve_scalar_batch_cuda(0, num, batch.n, af.data(), bf.data(), gf.data(), st.data(), o);
  o.tolerance = 1e-12;
  solve_scalar_batch_cpu(num, batch.n, batch.a.data(), batch.b.data(), gd.data(), st.data(), o);
  std::vector<Complex<double>> gfd;
  for (auto v : gf) gfd.push_back(fringe::complex_cast<double>(v));
  EXPECT_LT(max_rel_diff(gfd, gd), 1e-4);
}

}  // namespace

namespace {

// calibrate_ms on a GPU and on the CPU: the same gain tables to 1e-10 (double).
TEST(StefcalGpu, CalibrateMsGpuEqualsCpu) {
  SKIP_WITHOUT_GPU();
  for (GainType type : {GainType::Scalar, GainType::Diagonal, GainType::FullJones}) {
    const cal_test::TestMs ms = cal_test::write_ms("gpu_vs_cpu.MS", true, true);
    CalibrateMsConfig c;
    c.ms_path = ms.path;
    c.options.type = type;
    c.options.solver.tolerance = 1e-12;
    c.options.solver.max_iterations = 2000;  // full-Jones from the identity: several hundred
    c.devices.use_gpus = false;
    c.gains_path = ms.path + ".cpu_gains";
    const CalibrateMsResult cpu = calibrate_ms(c, nullptr);
    c.devices.use_gpus = true;
    c.gains_path = ms.path + ".gpu_gains";
    const CalibrateMsResult gpu = calibrate_ms(c, nullptr);
    EXPECT_EQ(cpu.backend, "cpu");
    EXPECT_EQ(gpu.backend, "gpu 0");
    const auto tc = fringe::io::read_gain_table(cpu.gains_path);
    const auto tg = fringe::io::read_gain_table(gpu.gains_path);
    ASSERT_EQ(tc.rows.size(), tg.rows.size());
    // Scalar and diagonal: every gain element relative to itself. Full-Jones: the difference
    // of each 2x2 gain matrix relative to the matrix (Frobenius norms): its off-diagonal
    // elements are small (leakage), so their own relative error says nothing about agreement.
    double worst = 0;
    for (std::size_t r = 0; r < tc.rows.size(); ++r) {
      const auto& gc = tc.rows[r].gain;
      const auto& gg = tg.rows[r].gain;
      if (type == GainType::FullJones) {
        double d2 = 0, n2 = 0;
        for (int k = 0; k < 4; ++k) {
          d2 += fringe::abs2(gg[k] - gc[k]);
          n2 += fringe::abs2(gc[k]);
        }
        if (n2 > 0) worst = std::max(worst, std::sqrt(d2 / n2));
        continue;
      }
      for (int k = 0; k < 4; ++k) {
        if (fringe::abs(gc[k]) == 0) continue;
        worst = std::max(worst, fringe::abs(gg[k] - gc[k]) / fringe::abs(gc[k]));
      }
    }
    EXPECT_LT(worst, 1e-10) << gain_type_name(type);
  }
}

}  // namespace

namespace {

// Full-Jones problems: cells of a polarised model (a unique solution up to the phase), with
// their A, B for the GPU.
using cal_test::JonesBatch;

// Two samples per baseline.
JonesBatch make_jones_batch(int num, int stations, double sigma, unsigned seed) {
  return cal_test::make_jones_batch(num, stations, sigma, seed, 2);
}

void build_jones(JonesBatch& batch) { cal_test::build_jones(batch, 4); }

// GPU against solve_full_jones (CPU, from the samples), both from the identity: states and
// iterations (within one check) and raw gains to 1e-10. Returns the GPU gains and statuses.
std::vector<fringe::Jones<double>> expect_jones_same_as_cpu(const JonesBatch& batch,
                                                            const SolverOptions& o,
                                                            int warps_per_row,
                                                            std::vector<SolveStatus>& s_gpu,
                                                            bool shared_rows = true) {
  const int num = int(batch.problems.size());
  std::vector<fringe::Jones<double>> g_gpu(std::size_t(batch.n) * num,
                                           fringe::jones_identity<double>());
  s_gpu.assign(num, SolveStatus{});
  StefcalCudaFullJones<double> gpu(0, num, batch.n, warps_per_row, 0, shared_rows);
  gpu.upload(batch.a.data(), batch.b.data());
  gpu.solve(g_gpu.data(), o);
  gpu.download(g_gpu.data(), s_gpu.data());
  double worst = 0;
  for (int k = 0; k < num; ++k) {
    std::vector<fringe::Jones<double>> g_cpu(batch.n, fringe::jones_identity<double>());
    const SolveStatus s_cpu = solve_full_jones(batch.problems[k].cell, batch.flags[k], g_cpu, o);
    EXPECT_NEAR(s_gpu[k].iterations, s_cpu.iterations, 2) << "problem " << k;
    EXPECT_EQ(s_gpu[k].state, s_cpu.state) << "problem " << k;
    for (int p = 0; p < batch.n; ++p) {
      const fringe::Jones<double>& gg = g_gpu[std::size_t(k) * batch.n + p];
      const double s = fringe::jones_norm2(g_cpu[p]);
      if (s == 0) {
        EXPECT_EQ(fringe::jones_norm2(gg), 0.0) << "problem " << k << " station " << p;
        continue;
      }
      worst = std::max(worst, std::sqrt(fringe::jones_norm2(gg - g_cpu[p]) / s));
    }
  }
  EXPECT_LT(worst, 1e-10) << "full-Jones, warps per row " << gpu.warps_per_row();
  return g_gpu;
}

TEST(StefcalGpu, FullJonesDoubleAgreesWithCpuTo1e10) {
  SKIP_WITHOUT_GPU();
  JonesBatch batch = make_jones_batch(6, 24, 0.05, 500);
  build_jones(batch);
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 1000;
  std::vector<SolveStatus> st;
  for (int w : {0, 1, 2, 4, 8}) expect_jones_same_as_cpu(batch, o, w, st);
  // Fixed odd iteration count: the solution is an un-averaged update.
  SolverOptions fixed;
  fixed.tolerance = 0;
  fixed.stall_checks = 0;
  fixed.max_iterations = 101;
  expect_jones_same_as_cpu(batch, fixed, 0, st);
  for (const SolveStatus& s : st) EXPECT_EQ(s.iterations, 101);
  // A and B from global memory (the path of large batches).
  for (int w : {0, 8}) expect_jones_same_as_cpu(batch, o, w, st, false);
}

TEST(StefcalGpu, FullJonesNoiseFreeGainsEqualTruthTo1e8) {
  SKIP_WITHOUT_GPU();
  const int num = 3, stations = 30;
  JonesBatch batch = make_jones_batch(num, stations, 0.0, 600);
  build_jones(batch);
  std::vector<fringe::Jones<double>> g(std::size_t(stations) * num,
                                       fringe::jones_identity<double>());
  std::vector<SolveStatus> st(num);
  SolverOptions o;
  o.tolerance = 1e-12;
  o.max_iterations = 2000;
  solve_full_jones_batch_cuda(0, num, stations, batch.a.data(), batch.b.data(), g.data(), st.data(),
                              o);
  for (int k = 0; k < num; ++k) {
    EXPECT_NE(st[k].state, SolveState::MaxIterations) << "problem " << k;
    std::vector<fringe::Jones<double>> gk(g.begin() + stations * k, g.begin() + stations * (k + 1));
    fix_reference_phase_jones(gk, 0);
    EXPECT_LT(cal_test::max_relative_error(gk, batch.problems[k].true_gains, GainType::FullJones, 0,
                                           batch.flags[k]),
              1e-8)
        << "problem " << k;
  }
}

TEST(StefcalGpu, FullJonesFlaggedStationAndEmptyProblem) {
  SKIP_WITHOUT_GPU();
  JonesBatch batch = make_jones_batch(3, 16, 0.0, 700);
  // Problem 1: station 5 keeps 2 baselines (flagged). Problem 2: no row with 4 unflagged pols.
  auto& c1 = batch.problems[1].cell;
  for (std::size_t r = 0; r < c1.num_rows(); ++r) {
    const bool has5 = c1.station1[r] == 5 || c1.station2[r] == 5;
    const int other = c1.station1[r] == 5 ? c1.station2[r] : c1.station1[r];
    if (has5 && other > 1) {
      for (int k = 0; k < 4; ++k) c1.weight[4 * r + k] = 0;
    }
  }
  auto& c2 = batch.problems[2].cell;
  for (std::size_t r = 0; r < c2.num_rows(); ++r) c2.weight[4 * r + 2] = 0;
  build_jones(batch);
  ASSERT_EQ(batch.flags[1][5], 1);
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 1000;
  std::vector<SolveStatus> st;
  const auto g = expect_jones_same_as_cpu(batch, o, 0, st);
  EXPECT_EQ(fringe::jones_norm2(g[16 + 5]), 0.0);
  EXPECT_EQ(st[0].state, SolveState::Converged);
  EXPECT_EQ(st[2].state, SolveState::NoData);
}

TEST(StefcalGpu, FullJonesSingleAgreesWithDouble) {
  SKIP_WITHOUT_GPU();
  const int num = 2, stations = 24;
  JonesBatch batch = make_jones_batch(num, stations, 0.01, 800);
  build_jones(batch);
  std::vector<Complex<float>> af, bf;
  for (auto v : batch.a) af.push_back(fringe::complex_cast<float>(v));
  for (auto v : batch.b) bf.push_back(fringe::complex_cast<float>(v));
  std::vector<fringe::Jones<float>> gf(std::size_t(stations) * num,
                                       fringe::jones_identity<float>());
  std::vector<SolveStatus> st(num);
  SolverOptions o;
  o.tolerance = 1e-6;
  o.max_iterations = 1000;
  solve_full_jones_batch_cuda(0, num, stations, af.data(), bf.data(), gf.data(), st.data(), o);
  o.tolerance = 1e-12;
  for (int k = 0; k < num; ++k) {
    EXPECT_NE(st[k].state, SolveState::MaxIterations) << "problem " << k;
    std::vector<fringe::Jones<double>> gd(stations, fringe::jones_identity<double>());
    solve_full_jones(batch.problems[k].cell, batch.flags[k], gd, o);
    std::vector<fringe::Jones<double>> gk;
    for (int p = 0; p < stations; ++p) {
      gk.push_back(fringe::jones_cast<double>(gf[std::size_t(k) * stations + p]));
    }
    fix_reference_phase_jones(gk, 0);
    fix_reference_phase_jones(gd, 0);
    double worst = 0;
    for (int p = 0; p < stations; ++p) {
      worst = std::max(worst,
                       std::sqrt(fringe::jones_norm2(gk[p] - gd[p]) / fringe::jones_norm2(gd[p])));
    }
    EXPECT_LT(worst, 1e-4) << "problem " << k;
  }
}

}  // namespace

namespace {

// The sky-model prediction of calibrate (SkyPredictor) on a GPU equals the CPU's: 40 point
// sources with spectral indices, 6 stations (rows in both orders and an autocorrelation), 3
// channels, 4 pols; both sum in double, so the float models agree to rounding.
TEST(StefcalGpu, SkyPredictorGpuEqualsCpu) {
  SKIP_WITHOUT_GPU();
  const std::filesystem::path dir = std::filesystem::path(FRINGE_BINARY_DIR) / "sky_predict_gpu";
  std::filesystem::create_directories(dir);
  const std::string sky = (dir / "sky.osm").string();
  {
    std::ofstream f(sky);
    for (int s = 0; s < 40; ++s) {
      // RA, Dec (deg), I (Jy), Q, U, V, reference frequency (Hz), spectral index
      f << 60.0 + 0.05 * (s % 7) - 0.15 << ' ' << -30.0 + 0.04 * (s % 5) - 0.1 << ' '
        << 0.5 + 0.1 * s << " 0 0 0 100e6 " << -0.7 + 0.02 * s << '\n';
    }
  }
  const double deg = 3.14159265358979323846 / 180.0;
  const std::vector<double> freqs = {100e6, 120e6, 140e6};
  fringe::calibrate::SkyPredictor cpu(sky, 60 * deg, -30 * deg, freqs, 4);
  fringe::calibrate::SkyPredictor gpu(sky, 60 * deg, -30 * deg, freqs, 4);
  gpu.use_gpu(0);
  ASSERT_EQ(gpu.gpu(), 0);
  const int a1[] = {0, 1, 4, 2, 5, 3, 2}, a2[] = {1, 2, 0, 5, 3, 3, 4};
  std::vector<std::array<double, 3>> uvw;
  for (int r = 0; r < 7; ++r) {
    uvw.push_back({310.0 * (a1[r] - a2[r]) + 17.0 * a1[r], -120.0 * (a1[r] - a2[r]) + 9.0 * a2[r],
                   4.0 * (a1[r] - a2[r])});
  }
  std::vector<Complex<float>> mc(7 * freqs.size() * 4), mg(mc.size());
  cpu.predict_time(6, a1, a2, uvw.data(), 7, mc.data());
  gpu.predict_time(6, a1, a2, uvw.data(), 7, mg.data());
  double peak = 0, worst = 0;
  for (std::size_t i = 0; i < mc.size(); ++i) {
    peak = std::max(peak, double(fringe::abs(mc[i])));
    worst = std::max(worst, double(fringe::abs(mg[i] - mc[i])));
  }
  EXPECT_GT(peak, 1.0);
  EXPECT_LT(worst, 1e-6 * peak);
}

}  // namespace
