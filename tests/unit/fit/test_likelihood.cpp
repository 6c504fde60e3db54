// The CPU likelihood (fringe/fit/likelihood.h) against an independent brute-force chi2
// (fit_test_problem.h), its gradient against central finite differences of that chi2, float
// against double, batches against single calls, the model against the simulator's predict,
// and the errors for bad parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "fit_test_problem.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/fit/likelihood.h"
#include "fringe/fit/likelihood_split.h"
#include "fringe/predict/predict.h"

namespace {

using fit_test::make_problem;
using fit_test::Problem;
using fit_test::reference_chi2;
using namespace fringe::fit;

std::unique_ptr<LikelihoodBackend> cpu(const Problem& pr,
                                       fringe::Precision prec = fringe::Precision::Double) {
  return make_likelihood_cpu(pr.data, pr.jones, pr.centre, prec, 2);
}

double chi2_of(LikelihoodBackend& be, const SourceParameters& p, const StationGains& g,
               Gradient* grad = nullptr) {
  double chi2 = 0;
  GradientRequest req{grad != nullptr, grad != nullptr};
  be.evaluate({&p, 1}, {&g, 1}, req, &chi2, grad);
  return chi2;
}

struct Case {
  int pols;
  bool jones;
  double bandwidth_hz = 0.0;  // bandwidth smearing
  bool time_smearing = false;
};
class LikelihoodCase : public ::testing::TestWithParam<Case> {
 protected:
  Problem with_bandwidth(Problem pr) {
    pr.data.channel_bandwidth_hz = GetParam().bandwidth_hz;
    if (GetParam().time_smearing) {
      // Coefficients ~300 m: arguments up to a few rad at 0.02 rad from the centre.
      std::mt19937_64 rng(99);
      std::normal_distribution<double> g(0.0, 300.0);
      for (std::size_t i = 0; i < 3 * pr.data.num_rows; ++i)
        pr.data.time_smearing.push_back(g(rng));
    }
    return pr;
  }
};

TEST_P(LikelihoodCase, Chi2EqualsBruteForce) {
  const Problem pr = with_bandwidth(make_problem(GetParam().pols, GetParam().jones));
  auto be = cpu(pr);
  const double want = reference_chi2(pr, pr.params, pr.gains);
  EXPECT_NEAR(chi2_of(*be, pr.params, pr.gains), want, 1e-12 * want);
  // Unit gains: the same as no gains given.
  const StationGains none;
  EXPECT_NEAR(chi2_of(*be, pr.params, none), reference_chi2(pr, pr.params, none), 1e-12 * want);
}

TEST_P(LikelihoodCase, ModelEqualsBruteForce) {
  const Problem pr = with_bandwidth(make_problem(GetParam().pols, GetParam().jones));
  auto be = cpu(pr);
  const auto m = be->model(pr.params, pr.gains);
  const int np = pr.data.num_pols;
  for (std::size_t r = 0; r < pr.data.num_rows; ++r) {
    for (std::size_t c = 0; c < pr.data.num_channels; ++c) {
      const auto want = fit_test::reference_model(pr, pr.params, pr.gains, r, c);
      for (int k = 0; k < np; ++k) {
        const auto got = m[(r * pr.data.num_channels + c) * np + k];
        EXPECT_NEAR(got.re, want[k].real(), 1e-12 * (1 + std::abs(want[k])));
        EXPECT_NEAR(got.im, want[k].imag(), 1e-12 * (1 + std::abs(want[k])));
      }
    }
  }
}

// Every gradient entry against a central difference of the brute-force chi2. Steps are
// relative to each parameter's natural scale; the difference's truncation error is
// O(h^2 chi2''') and its rounding O(eps chi2 / h), both far below 1e-6 of the entry.
TEST_P(LikelihoodCase, GradientMatchesFiniteDifferences) {
  const Problem pr = with_bandwidth(make_problem(GetParam().pols, GetParam().jones));
  auto be = cpu(pr);
  Gradient grad;
  chi2_of(*be, pr.params, pr.gains, &grad);
  const std::size_t ns = pr.params.size();
  ASSERT_EQ(grad.source.size(), ns * kNumParams);
  double gnorm = 0;
  for (double v : grad.source) gnorm = std::max(gnorm, std::abs(v));
  int checked = 0;
  for (int p = 0; p < kNumParams; ++p) {
    const Param par = static_cast<Param>(p);
    if (pr.data.num_pols == 1 && (par == Param::Q || par == Param::U || par == Param::V)) {
      for (std::size_t s = 0; s < ns; ++s) EXPECT_EQ(grad.source[s * kNumParams + p], 0.0);
      continue;
    }
    for (std::size_t s = 0; s < ns; ++s) {
      // Richardson-extrapolated central differences, (4 D(h/2) - D(h)) / 3, truncation
      // O(h^4): steps large enough that the rounding eps chi2 / h (chi2 ~ 1e5 here) stays
      // below 1e-7 of the entry; phases move 2 pi |uvw| / lambda ~ 1e4 rad per radian.
      double h = 1e-4;
      if (par == Param::Ra || par == Param::Dec) h = 1e-7;
      if (par == Param::Major || par == Param::Minor) h = 1e-7;
      auto diff = [&](double step) {
        SourceParameters plus = pr.params, minus = pr.params;
        plus[par][s] += step;
        minus[par][s] -= step;
        return (reference_chi2(pr, plus, pr.gains) - reference_chi2(pr, minus, pr.gains)) /
               (2 * step);
      };
      const double fd = (4 * diff(h / 2) - diff(h)) / 3;
      const double got = grad.source[s * kNumParams + p];
      EXPECT_NEAR(got, fd, 1e-6 * std::max(std::abs(fd), 1e-3 * gnorm))
          << param_name(par) << " of source " << s;
      ++checked;
    }
  }
  EXPECT_GE(checked, int(ns) * 7);
  // Gains: real and imaginary parts of g_X (and g_Y with four products).
  ASSERT_EQ(grad.gains.size(), pr.data.num_stations * 4);
  for (std::size_t st = 0; st < pr.data.num_stations; ++st) {
    for (int k = 0; k < (pr.data.num_pols == 4 ? 4 : 2); ++k) {
      auto diff = [&](double step) {
        StationGains plus = pr.gains, minus = pr.gains;
        auto& gp = plus.values[2 * st + k / 2];
        auto& gm = minus.values[2 * st + k / 2];
        (k % 2 ? gp.im : gp.re) += step;
        (k % 2 ? gm.im : gm.re) -= step;
        return (reference_chi2(pr, pr.params, plus) - reference_chi2(pr, pr.params, minus)) /
               (2 * step);
      };
      const double fd = (4 * diff(0.5e-4) - diff(1e-4)) / 3;
      EXPECT_NEAR(grad.gains[4 * st + k], fd, 1e-6 * std::max(std::abs(fd), 1.0))
          << "gain " << k << " of station " << st;
    }
  }
}

TEST_P(LikelihoodCase, FloatAgreesWithDouble) {
  const Problem pr = with_bandwidth(make_problem(GetParam().pols, GetParam().jones));
  auto d = cpu(pr), f = cpu(pr, fringe::Precision::Single);
  const double cd = chi2_of(*d, pr.params, pr.gains), cf = chi2_of(*f, pr.params, pr.gains);
  // Float terms (24-bit mantissa) summed over ~10 sources: ~1e-6 relative per visibility.
  EXPECT_NEAR(cf, cd, 1e-5 * cd);
}

TEST_P(LikelihoodCase, BatchEqualsSingleCalls) {
  const Problem pr = with_bandwidth(make_problem(GetParam().pols, GetParam().jones));
  auto be = cpu(pr);
  std::vector<SourceParameters> ps(3, pr.params);
  std::vector<StationGains> gs(3, pr.gains);
  ps[1][Param::I][0] += 0.5;
  ps[2][Param::Ra][2] += 1e-4;
  gs[2].values[3].im += 0.05;
  double chi2[3];
  std::vector<Gradient> grads(3);
  be->evaluate(ps, gs, {true, true}, chi2, grads.data());
  for (int k = 0; k < 3; ++k) {
    Gradient one;
    EXPECT_EQ(chi2[k], chi2_of(*be, ps[k], gs[k], &one));
    EXPECT_EQ(grads[k].source, one.source);
    EXPECT_EQ(grads[k].gains, one.gains);
  }
  EXPECT_NE(chi2[0], chi2[1]);
}

INSTANTIATE_TEST_SUITE_P(Modes, LikelihoodCase,
                         // 5 MHz channels at 100 MHz on 4 km baselines 0.02 rad out: sinc
                         // arguments up to ~4 rad (both branches of the sinc).
                         ::testing::Values(Case{4, false}, Case{4, true}, Case{1, false},
                                           Case{1, true}, Case{4, true, 5e6}, Case{1, false, 5e6},
                                           Case{4, false, 0.0, true}, Case{1, true, 5e6, true}),
                         [](const auto& info) {
                           return std::string(info.param.pols == 4 ? "Full" : "Scalar") +
                                  (info.param.jones ? "Jones" : "NoJones") +
                                  (info.param.bandwidth_hz > 0 ? "Bandwidth" : "") +
                                  (info.param.time_smearing ? "Time" : "");
                         });

// The model of point sources without Jones equals the simulator's direct predict
// (predict::predict_direct_cpu) for stations whose baselines are the rows' UVW.
TEST(Likelihood, ModelEqualsSimulatorPredict) {
  Problem pr = make_problem(4, false, 11, 5, 1, 2, 4);
  for (std::size_t s = 0; s < pr.params.size(); ++s) pr.params[Param::Major][s] = 0;
  for (std::size_t s = 0; s < pr.params.size(); ++s) pr.params[Param::Minor][s] = 0;
  // Station uvw: recover them from the rows of time 0 (row (0, q) = uvw_0 - uvw_q, uvw_0 = 0).
  const std::size_t nst = pr.data.num_stations;
  std::vector<double> su(nst, 0.0), sv(nst, 0.0), sw(nst, 0.0);
  for (std::size_t r = 0; r < pr.data.num_rows; ++r) {
    if (pr.data.antenna1[r] != 0) continue;
    const int q = pr.data.antenna2[r];
    su[q] = -pr.data.uvw[3 * r];
    sv[q] = -pr.data.uvw[3 * r + 1];
    sw[q] = -pr.data.uvw[3 * r + 2];
  }
  auto be = cpu(pr);
  const StationGains none;
  const auto model = be->model(pr.params, none);
  const auto terms = derive_terms(pr.params, pr.centre);
  for (std::size_t c = 0; c < pr.data.num_channels; ++c) {
    const double f = pr.data.frequency_hz[c];
    std::vector<double> i, q, u, v, l, m, n;
    for (std::size_t s = 0; s < terms.size(); ++s) {
      const double scale =
          pr.params.ref_freq_hz[s] > 0
              ? std::pow(f / pr.params.ref_freq_hz[s], pr.params[Param::SpectralIndex][s])
              : 1.0;
      i.push_back(terms[s].i * scale);
      q.push_back(terms[s].q * scale);
      u.push_back(terms[s].u * scale);
      v.push_back(terms[s].v * scale);
      l.push_back(terms[s].l);
      m.push_back(terms[s].m);
      n.push_back(1 + terms[s].n_minus_1);
    }
    fringe::predict::PredictInput<double> in;
    in.frequency_hz = f;
    in.sources = {terms.size(), i.data(), q.data(), u.data(),
                  v.data(),     l.data(), m.data(), n.data()};
    in.stations.count = nst;
    in.stations.u = su.data();
    in.stations.v = sv.data();
    in.stations.w = sw.data();
    std::vector<fringe::Complex<double>> cross(fringe::predict::num_baselines(nst) * 4);
    fringe::predict::predict_direct_cpu(in, {cross.data(), nullptr});
    for (std::size_t r = 0; r < pr.data.num_rows; ++r) {
      const auto b = fringe::predict::baseline_index(pr.data.antenna1[r], pr.data.antenna2[r], nst);
      for (int k = 0; k < 4; ++k) {
        const auto got = model[(r * pr.data.num_channels + c) * 4 + k];
        const auto want = cross[b * 4 + k];
        EXPECT_NEAR(got.re, want.re, 1e-10 * (1 + std::abs(want.re)));
        EXPECT_NEAR(got.im, want.im, 1e-10 * (1 + std::abs(want.im)));
      }
    }
  }
}

TEST(Likelihood, RejectsBadParameters) {
  const Problem pr = make_problem(4, false);
  auto be = cpu(pr);
  SourceParameters p = pr.params;
  p[Param::Dec][2] = std::nan("");
  try {
    chi2_of(*be, p, pr.gains);
    FAIL() << "NaN accepted";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'dec' of source 2"), std::string::npos) << e.what();
  }
  p = pr.params;
  p[Param::I].pop_back();
  EXPECT_THROW(chi2_of(*be, p, pr.gains), fringe::Error);
  StationGains g = pr.gains;
  g.values.pop_back();
  EXPECT_THROW(chi2_of(*be, pr.params, g), fringe::Error);
  p = pr.params;
  p[Param::Minor][0] = -1e-5;
  EXPECT_THROW(chi2_of(*be, p, pr.gains), fringe::Error);
  EXPECT_THROW(param_from_name("flux"), fringe::Error);
  EXPECT_EQ(param_from_name("spectral_index"), Param::SpectralIndex);
}

TEST(Likelihood, RejectsBadData) {
  Problem pr = make_problem(4, false);
  pr.data.weight[5] = -1;
  EXPECT_THROW(cpu(pr), fringe::Error);
  pr = make_problem(4, false);
  pr.data.antenna2[3] = pr.data.antenna1[3];
  EXPECT_THROW(cpu(pr), fringe::Error);
  pr = make_problem(4, true);
  pr.jones.values.pop_back();
  EXPECT_THROW(cpu(pr), fringe::Error);
}

}  // namespace

namespace {

// Rows split among three back ends (as among three GPUs) give the numbers of one back end up
// to the rounding of the three-term sums.
TEST(Likelihood, SplitRowsEqualOneBackEnd) {
  const Problem pr = make_problem(4, true);
  auto one = cpu(pr);
  auto split = fringe::fit::make_likelihood_split(
      pr.data, pr.jones, 3, [&](ObservedData d, StationJones j, int) {
        return make_likelihood_cpu(std::move(d), std::move(j), pr.centre, fringe::Precision::Double,
                                   1);
      });
  Gradient g1, g3;
  const double c1 = chi2_of(*one, pr.params, pr.gains, &g1);
  const double c3 = chi2_of(*split, pr.params, pr.gains, &g3);
  EXPECT_NEAR(c3, c1, 1e-13 * c1);
  ASSERT_EQ(g3.source.size(), g1.source.size());
  for (std::size_t i = 0; i < g1.source.size(); ++i) {
    EXPECT_NEAR(g3.source[i], g1.source[i], 1e-12 * (1 + std::abs(g1.source[i])));
  }
  for (std::size_t i = 0; i < g1.gains.size(); ++i) {
    EXPECT_NEAR(g3.gains[i], g1.gains[i], 1e-12 * (1 + std::abs(g1.gains[i])));
  }
  const auto m1 = one->model(pr.params, pr.gains), m3 = split->model(pr.params, pr.gains);
  ASSERT_EQ(m1.size(), m3.size());
  for (std::size_t i = 0; i < m1.size(); ++i) {
    EXPECT_EQ(m1[i].re, m3[i].re);
    EXPECT_EQ(m1[i].im, m3[i].im);
  }
  EXPECT_THROW(fringe::fit::make_likelihood_split(pr.data, pr.jones, 0, nullptr), fringe::Error);
}

}  // namespace
