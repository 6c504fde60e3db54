// api::solve_gains: model visibilities corrupted with known random gains (R = G_p M G_q^H,
// docs/calibration.md) are solved back; the solution equals the true gains up to the phase
// of the reference station (each diagonal entry made real and positive), which is the only
// freedom of the problem (Salvini & Wijnholds 2014, section 2).
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "fringe/api/calibration.h"
#include "fringe/core/error.h"

namespace {

using namespace fringe;
using C = std::complex<double>;

Complex<double> to_c(C z) { return {z.real(), z.imag()}; }

TEST(ApiCalibration, DiagonalGainsRecovered) {
  const int ns = 7, nt = 3;
  std::mt19937 rng(5);
  std::normal_distribution<double> g(0, 1);
  std::uniform_real_distribution<double> ph(-3, 3), amp(0.7, 1.3);
  std::vector<C> gx(ns), gy(ns);
  for (int p = 0; p < ns; ++p) {
    gx[p] = std::polar(amp(rng), ph(rng));
    gy[p] = std::polar(amp(rng), ph(rng));
  }
  std::vector<Complex<double>> data, model;
  std::vector<int> a1, a2;
  std::vector<double> time;
  for (int t = 0; t < nt; ++t)
    for (int p = 0; p < ns; ++p)
      for (int q = p; q < ns; ++q) {  // autocorrelations included: they must be ignored
        a1.push_back(p);
        a2.push_back(q);
        time.push_back(100.0 + t);
        const C m[4] = {C(g(rng), g(rng)), C(g(rng), g(rng)), C(g(rng), g(rng)), C(g(rng), g(rng))};
        // R = diag(gx_p, gy_p) M diag(conj gx_q, conj gy_q)
        const C r[4] = {gx[p] * m[0] * std::conj(gx[q]), gx[p] * m[1] * std::conj(gy[q]),
                        gy[p] * m[2] * std::conj(gx[q]), gy[p] * m[3] * std::conj(gy[q])};
        for (int k = 0; k < 4; ++k) {
          model.push_back(to_c(m[k]));
          data.push_back(to_c(p == q ? C(5, 0) : r[k]));
        }
      }
  api::VisibilityArrays v;
  v.num_rows = a1.size();
  v.num_pols = 4;
  v.data = data;
  v.model = model;
  v.antenna1 = a1;
  v.antenna2 = a2;
  v.time = time;
  api::CalibrationOptions o;
  o.solver.type = api::GainType::Diagonal;
  o.solver.reference_station = 2;
  o.solver.solver.tolerance = 1e-12;
  o.solver.solver.max_iterations = 1000;
  o.times_per_solution = 0;
  const api::GainSolution s = api::solve_gains(v, o);
  ASSERT_EQ(s.num_intervals, 1);
  ASSERT_EQ(s.num_stations, ns);
  const C rx = std::polar(1.0, -std::arg(gx[2])), ry = std::polar(1.0, -std::arg(gy[2]));
  for (int p = 0; p < ns; ++p) {
    const auto& j = s.gains[p];
    EXPECT_LT(std::abs(C(j.a.re, j.a.im) - gx[p] * rx), 1e-8) << p;
    EXPECT_LT(std::abs(C(j.d.re, j.d.im) - gy[p] * ry), 1e-8) << p;
    EXPECT_EQ(s.flagged[p], 0);
  }
  EXPECT_LT(s.rms_after[0], 1e-8 * s.rms_before[0]);
  // Per time step: three intervals, each the same gains.
  o.times_per_solution = 1;
  const api::GainSolution s3 = api::solve_gains(v, o);
  ASSERT_EQ(s3.num_intervals, 3);
  EXPECT_DOUBLE_EQ(s3.interval_time[2], 102.0);
  for (int p = 0; p < ns; ++p) {
    const auto& j = s3.gains[2 * ns + p];
    EXPECT_LT(std::abs(C(j.a.re, j.a.im) - gx[p] * rx), 1e-8) << p;
  }
}

TEST(ApiCalibration, BadInputThrows) {
  std::vector<Complex<double>> data(4), model(4);
  std::vector<int> a1 = {0}, a2 = {1};
  api::VisibilityArrays v;
  v.num_rows = 1;
  v.num_pols = 1;
  v.data = data;
  v.model = model;
  v.antenna1 = a1;
  v.antenna2 = a2;
  api::CalibrationOptions o;  // diagonal gains need 4 pols
  EXPECT_THROW(api::solve_gains(v, o), Error);
  v.num_pols = 3;
  EXPECT_THROW(api::solve_gains(v, o), Error);
  o.solver.type = api::GainType::Scalar;
  v.num_pols = 1;
  v.num_rows = 2;  // arrays hold 1 row
  EXPECT_THROW(api::solve_gains(v, o), Error);
}

}  // namespace
