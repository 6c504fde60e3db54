// GPU tests of the likelihood (label gpu): make_likelihood_cuda against make_likelihood_cpu
// element by element (chi2, every gradient entry, the model) for Full and one product, with
// and without station Jones, with and without gains, point and Gaussian sources with spectral
// indices, float and double; batches against single calls; errors. The host tests at the top
// (the CUDA helpers of likelihood_cuda_math.h on the CPU) run everywhere.
//
// Bounds (docs/gpu_likelihood.md, "Precision"):
// - double: |gpu - cpu| <= 1e-10 max(|cpu|, 1e-2 peak), peak = the largest |value| of the same
//   kind (chi2, one source parameter type, gains, model), i.e. 1e-10 relative for every entry
//   that does not cancel to below 1 % of its kind's largest (the kernel's recurrence along
//   channels adds ~1e-15 per step; phases of ~400 rad carry ~1e-14 of rounding on both sides,
//   which a model element that cancels to 0.01 Jy out of ~100 Jy of terms shows as 2e-10).
// - float: |gpu_float - cpu_double| <= 10 e_cpu + 1e-6 peak, e_cpu = the largest
//   |cpu_float - cpu_double| of the same kind. The GPU's per-term error is that of the CPU's
//   float evaluation (phase in double, float sincos) plus at most 7 steps of the float
//   recurrence (~1.5e-7 each, RecurrenceStaysAccurate bounds it by 2e-6 of |c_s|), and its
//   gradient sums in float over at most 8 channels before double: a few times the CPU's
//   float error, never orders of magnitude more.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fit_test_problem.h"
#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/fit/likelihood.h"
#include "fringe/fit/likelihood_cuda_math.h"

namespace {

using fit_test::make_problem;
using fit_test::Problem;
using fringe::Complex;
using fringe::Precision;
using namespace fringe::fit;

#define SKIP_WITHOUT_GPU()                                             \
  do {                                                                 \
    if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU"; \
  } while (0)

constexpr double kDoubleTol = 1e-10;

// --- host tests of likelihood_cuda_math.h ---

TEST(LikelihoodCudaMath, PhasorCwMatchesStationPhasor) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-2e5, 2e5);
  for (int i = 0; i < 20000; ++i) {
    const double ph = i < 10 ? i * 0.5 * fringe::kPi : u(rng);
    const Complex<float> a = phasor_cw<float>(ph);
    const Complex<float> b = fringe::predict::station_phasor<float>(ph);
    // Both round the same reduced phase to float: within 2 float ulps of 1.
    EXPECT_NEAR(a.re, b.re, 2.5e-7) << ph;
    EXPECT_NEAR(a.im, b.im, 2.5e-7) << ph;
    EXPECT_NEAR(a.re, std::cos(ph), 2.5e-7) << ph;
    EXPECT_NEAR(a.im, std::sin(ph), 2.5e-7) << ph;
  }
  const Complex<double> d = phasor_cw<double>(12345.678);
  EXPECT_EQ(d.re, std::cos(12345.678));
  EXPECT_EQ(d.im, std::sin(12345.678));
}

// The float recurrence of the kernel over 8 equally spaced channels (a float group) against
// c_s evaluated directly in double: within 2e-6 of |c_s| (40 km baselines, 1 MHz channels,
// Gaussians with exponents down to ~-30, whose float exponent alone costs ~1e-6, as on the
// CPU's float path). Measured: points 1.1e-6, Gaussians 1.4e-6 at the 8th channel.
TEST(LikelihoodCudaMath, RecurrenceStaysAccurate) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worst = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    SourceTerm s{};
    s.l = 0.1 * u(rng);
    s.m = 0.1 * u(rng);
    s.n_minus_1 = -(s.l * s.l + s.m * s.m) / (1 + std::sqrt(1 - s.l * s.l - s.m * s.m));
    if (trial % 2) {  // a Gaussian of ~20 arcsec: exponents down to ~-30 (float: no denormals)
      s.a = 2e-8 * (1 + u(rng));
      s.b = 5e-9 * u(rng);
      s.c = 2e-8 * (1 + u(rng));
    }
    const double uu = 2e4 * u(rng), vv = 2e4 * u(rng), ww = 2e3 * u(rng);
    const double f0 = 100e6 + 50e6 * (1 + u(rng)), df = 1e6;
    const double il0 = f0 / fringe::kSpeedOfLight, dil = df / fringe::kSpeedOfLight;
    Complex<float> c = source_coefficient_cw<float>(s, uu, vv, ww, il0);
    Complex<float> step;
    float ratio_m1;
    coefficient_step<float>(s, uu, vv, ww, il0, dil, &step, &ratio_m1);
    for (int j = 0; j < 8; ++j) {
      const double il = (f0 + j * df) / fringe::kSpeedOfLight;
      const Complex<double> want = source_coefficient<double>(s, uu, vv, ww, il, 0.0);
      const double mag = std::hypot(want.re, want.im);
      const double err = std::hypot(c.re - want.re, c.im - want.im) / mag;
      worst = std::max(worst, err);
      c = c * step;
      step = advance_step(step, ratio_m1);
    }
  }
  EXPECT_LT(worst, 2e-6);
  std::printf("recurrence: worst relative error over 8 channels %.3g\n", worst);
}

// The lanes kernel's seeds (carry_seeds): c_s and the step R at the first channel of each of 8
// groups, evaluated once in double and carried across the groups in double, against a direct
// long-double evaluation (the phase's own double rounding, ~1e-16 of phases up to ~5e3 rad,
// is the floor: measured < 3e-12); then the float recurrence of the kernel over all 64 (float,
// G = 8) channels against the direct double c_s: within the 2e-6 of RecurrenceStaysAccurate
// (the carry adds nothing visible in float). q - 1 equals coefficient_step's bit for bit, and
// the swizzle only permutes the seeds.
template <int G>
void check_carried_seeds(double* worst_seed, double* worst_float) {
  std::mt19937_64 rng(11 + G);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  constexpr int L = 8;
  for (int trial = 0; trial < 1000; ++trial) {
    SourceTerm s{};
    s.l = 0.1 * u(rng);
    s.m = 0.1 * u(rng);
    s.n_minus_1 = -(s.l * s.l + s.m * s.m) / (1 + std::sqrt(1 - s.l * s.l - s.m * s.m));
    if (trial % 2) {
      s.a = 2e-8 * (1 + u(rng));
      s.b = 5e-9 * u(rng);
      s.c = 2e-8 * (1 + u(rng));
    }
    const double uu = 2e4 * u(rng), vv = 2e4 * u(rng), ww = 2e3 * u(rng);
    const double f0 = 100e6 + 50e6 * (1 + u(rng)), df = 1e6;
    const double il0 = f0 / fringe::kSpeedOfLight, dil = df / fringe::kSpeedOfLight;
    GroupSeed<double> sd[L], sw[L];
    const double qd = carry_seeds<double, G, L>(s, uu, vv, ww, il0, dil, sd, 0);
    (void)carry_seeds<double, G, L>(s, uu, vv, ww, il0, dil, sw, 5);
    GroupSeed<float> sf[L];
    const float qf = carry_seeds<float, G, L>(s, uu, vv, ww, il0, dil, sf, 0);
    Complex<float> step_ref;
    float qm1_ref = 0;
    coefficient_step<float>(s, uu, vv, ww, il0, dil, &step_ref, &qm1_ref);
    EXPECT_EQ(qf, qm1_ref);
    EXPECT_EQ(qd == 0.0, qm1_ref == 0.0f);
    const long double two_pi = 6.283185307179586476925286766559L;
    const auto direct = [&](long double il) {
      const long double ph =
          two_pi * il *
          ((long double)uu * s.l + (long double)vv * s.m + (long double)ww * s.n_minus_1);
      const long double g =
          -((long double)s.a * uu * uu + 2.0L * s.b * uu * vv + (long double)s.c * vv * vv);
      const long double amp = std::exp(g * il * il);
      return std::complex<long double>(amp * std::cos(ph), amp * std::sin(ph));
    };
    for (int j = 0; j < L; ++j) {
      EXPECT_EQ(sw[j ^ 5].c.re, sd[j].c.re);
      EXPECT_EQ(sw[j ^ 5].step.im, sd[j].step.im);
      const long double il = (long double)il0 + (long double)(j * G) * dil;
      const std::complex<long double> c = direct(il), c1 = direct(il + dil);
      const std::complex<long double> r = c1 / c;
      const double mag = double(std::abs(c));
      *worst_seed =
          std::max(*worst_seed,
                   double(std::abs(std::complex<long double>(sd[j].c.re, sd[j].c.im) - c)) / mag);
      *worst_seed =
          std::max(*worst_seed,
                   double(std::abs(std::complex<long double>(sd[j].step.re, sd[j].step.im) - r)) /
                       double(std::abs(r)));
      // The kernel's float recurrence along the group from the float seed.
      Complex<float> cf = sf[j].c, stf = sf[j].step;
      for (int jj = 0; jj < G; ++jj) {
        const double ilc = il0 + double(j * G + jj) * dil;
        const Complex<double> want = source_coefficient<double>(s, uu, vv, ww, ilc, 0.0);
        const double m = std::hypot(want.re, want.im);
        *worst_float = std::max(*worst_float, std::hypot(cf.re - want.re, cf.im - want.im) / m);
        cf = cf * stf;
        stf = advance_step(stf, qf);
      }
    }
  }
}

TEST(LikelihoodCudaMath, CarriedSeedsMatchDirect) {
  for (int which = 0; which < 2; ++which) {
    double worst_seed = 0, worst_float = 0;
    if (which == 0) {
      check_carried_seeds<8>(&worst_seed, &worst_float);
    } else {
      check_carried_seeds<4>(&worst_seed, &worst_float);
    }
    EXPECT_LT(worst_seed, 1e-11);
    EXPECT_LT(worst_float, 2e-6);
    std::printf("carried seeds (G = %d): double %.3g, float recurrence %.3g\n", which ? 4 : 8,
                worst_seed, worst_float);
  }
}

// The lanes kernel's gradient of one source over a group of 8 channels (GradientMoments: the
// position and shape terms from moments of z, every input in T) against the sum of
// likelihood_math.h's add_source_gradient per channel (double inputs), for random Y, c_s and
// ln(f / f0): in double to rounding (1e-12 of each quantity's scale), in float to 1e-5.
TEST(LikelihoodCudaMath, GradientMomentsMatchPerChannelSums) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto cplx = [&] { return Complex<double>{u(rng), u(rng)}; };
  const auto tf = [](Complex<double> c) { return Complex<float>{float(c.re), float(c.im)}; };
  constexpr int G = 8;
  for (int trial = 0; trial < 300; ++trial) {
    SourceTerm s{};
    s.l = 0.05 * u(rng);
    s.m = 0.05 * u(rng);
    const double n = std::sqrt(1 - s.l * s.l - s.m * s.m);
    s.n_minus_1 = n - 1;
    s.l_over_n = s.l / n;
    s.m_over_n = s.m / n;
    s.i = 2 + u(rng);
    s.q = 0.1 * u(rng);
    s.u = 0.1 * u(rng);
    s.v = 0.05 * u(rng);
    const double uu = 3e3 * u(rng), vv = 3e3 * u(rng), ww = 3e2 * u(rng);
    const double il0 = (1.2e8 + 3e7 * u(rng)) / fringe::kSpeedOfLight;
    const double dil = 1e6 / fringe::kSpeedOfLight;
    double want[kNumInter] = {}, want1[kNumInter] = {};
    GradientMoments<double> md, md1;
    GradientMoments<float> mf;
    const StokesT<double> b{s.i, s.q, s.u, s.v};
    const StokesT<float> bf{float(s.i), float(s.q), float(s.u), float(s.v)};
    for (int j = 0; j < G; ++j) {
      const double il = il0 + j * dil, lnr = 0.3 * u(rng);
      const fringe::Jones<double> y{cplx(), cplx(), cplx(), cplx()};
      const Complex<double> coef = cplx(), y1 = cplx();
      add_source_gradient<double, double>(want, s, y, coef, uu, vv, ww, il, lnr);
      add_source_gradient_scalar<double, double>(want1, s, y1, coef, uu, vv, ww, il, lnr);
      const fringe::Jones<double> ys = gradient_ysum(y);
      md.add(j, coef, ys, b, lnr);
      md1.add(j, coef, conj(y1), s.i, lnr);
      mf.add(j, tf(coef), {tf(ys.a), tf(ys.b), tf(ys.c), tf(ys.d)}, bf, float(lnr));
    }
    const double dl = uu - ww * s.l_over_n, dm = vv - ww * s.m_over_n;
    const double k0 = fringe::kTwoPi * il0, kd = fringe::kTwoPi * dil;
    double got[kNumInter], got1[kNumInter];
    float gotf[kNumInter];
    md.finish(got, dl, dm, k0, kd, uu * il0, uu * dil, vv * il0, vv * dil);
    md1.finish(got1, dl, dm, k0, kd, uu * il0, uu * dil, vv * il0, vv * dil);
    mf.finish(gotf, float(dl), float(dm), float(k0), float(kd), float(uu * il0), float(uu * dil),
              float(vv * il0), float(vv * dil));
    // Scales: |z| <= ~20 per channel (|c| |Y sums| |B|), times the quantity's factor, x G.
    const double zs = 20 * G, au = std::abs(uu) * (il0 + G * dil),
                 av = std::abs(vv) * (il0 + G * dil), k = k0 + G * kd;
    const double sc[kNumInter] = {8 * G,
                                  8 * G,
                                  8 * G,
                                  8 * G,
                                  zs,
                                  zs * k * 4e3,
                                  zs * k * 4e3,
                                  zs * (au * au + 1),
                                  zs * (au * av + 1),
                                  zs * (av * av + 1)};
    for (int i = 0; i < kNumInter; ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-12 * sc[i]) << i;
      EXPECT_NEAR(got1[i], want1[i], 1e-12 * sc[i]) << i;
      EXPECT_NEAR(gotf[i], want[i], 1e-5 * sc[i]) << i;
    }
  }
}

TEST(LikelihoodGpu, NoGpuIsAnError) {
  if (!fringe::cuda_devices().empty()) GTEST_SKIP() << "a GPU is present";
  const Problem pr = make_problem(4, false);
  EXPECT_THROW(make_likelihood_cuda(pr.data, pr.jones, pr.centre, Precision::Double),
               fringe::Error);
}

// --- GPU against CPU ---

double peak(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// Compares values of one kind (see the bounds at the top). cpu_f empty: double bound.
void expect_close(const std::string& what, const std::vector<double>& gpu,
                  const std::vector<double>& cpu, const std::vector<double>& cpu_f) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  const double pk = peak(cpu);
  double e_cpu = 0;
  for (std::size_t i = 0; i < cpu_f.size(); ++i)
    e_cpu = std::max(e_cpu, std::abs(cpu_f[i] - cpu[i]));
  int bad = 0;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    const double err = std::abs(gpu[i] - cpu[i]);
    const double bound =
        cpu_f.empty() ? kDoubleTol * std::max(std::abs(cpu[i]), 1e-2 * pk) : 10 * e_cpu + 1e-6 * pk;
    if (!(err <= bound) && bad++ < 5) {
      ADD_FAILURE() << what << "[" << i << "]: gpu " << gpu[i] << " cpu " << cpu[i] << " error "
                    << err << " bound " << bound << " (cpu float error " << e_cpu << ")";
    }
  }
  EXPECT_EQ(bad, 0) << what;
}

// Entries of parameter type p of a [source][kNumParams] gradient.
std::vector<double> of_param(const std::vector<double>& g, int p) {
  std::vector<double> out;
  for (std::size_t i = p; i < g.size(); i += kNumParams) out.push_back(g[i]);
  return out;
}

std::vector<double> flat(const std::vector<Complex<double>>& m) {
  std::vector<double> out;
  for (const auto& c : m) {
    out.push_back(c.re);
    out.push_back(c.im);
  }
  return out;
}

struct Result {
  double chi2 = 0;
  Gradient grad;
  std::vector<Complex<double>> model;
};

Result run(LikelihoodBackend& be, const Problem& pr, bool gains) {
  Result r;
  const StationGains none;
  const StationGains& g = gains ? pr.gains : none;
  be.evaluate({&pr.params, 1}, {&g, 1}, {true, true}, &r.chi2, &r.grad);
  r.model = be.model(pr.params, g);
  return r;
}

// gpu vs cpu double (and cpu float for the float bound).
void compare(const Result& gpu, const Result& cpu, const Result* cpu_f) {
  const auto f = [&](auto get) { return cpu_f ? get(*cpu_f) : std::vector<double>{}; };
  expect_close("chi2", {gpu.chi2}, {cpu.chi2},
               f([](const Result& r) { return std::vector<double>{r.chi2}; }));
  for (int p = 0; p < kNumParams; ++p) {
    expect_close(std::string("d chi2 / d ") + param_name(Param(p)), of_param(gpu.grad.source, p),
                 of_param(cpu.grad.source, p),
                 f([p](const Result& r) { return of_param(r.grad.source, p); }));
  }
  expect_close("d chi2 / d gains", gpu.grad.gains, cpu.grad.gains,
               f([](const Result& r) { return r.grad.gains; }));
  expect_close("model", flat(gpu.model), flat(cpu.model),
               f([](const Result& r) { return flat(r.model); }));
}

struct Case {
  int pols;
  bool jones, gains;
  Precision precision;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  return std::string(c.pols == 4 ? "Full" : "Scalar") + (c.jones ? "Jones" : "") +
         (c.gains ? "Gains" : "") + (c.precision == Precision::Double ? "Double" : "Float");
}

class LikelihoodGpuCase : public ::testing::TestWithParam<Case> {};

// 12 stations x 3 times = 198 rows (two row tiles), 11 channels (groups of 4, 8 and 16 with a
// partial last one), 37 sources (two source tiles), every second one Gaussian.
TEST_P(LikelihoodGpuCase, MatchesCpu) {
  SKIP_WITHOUT_GPU();
  const Case c = GetParam();
  const Problem pr = make_problem(c.pols, c.jones, 11, 12, 3, 11, 37);
  auto gpu = make_likelihood_cuda(pr.data, pr.jones, pr.centre, c.precision);
  auto cpu = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Double);
  EXPECT_STREQ(gpu->name(), "cuda");
  const Result rg = run(*gpu, pr, c.gains), rc = run(*cpu, pr, c.gains);
  if (c.precision == Precision::Double) {
    compare(rg, rc, nullptr);
  } else {
    auto cpu_f = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Single);
    const Result rf = run(*cpu_f, pr, c.gains);
    compare(rg, rc, &rf);
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (Precision p : {Precision::Double, Precision::Single})
    for (int pols : {4, 1})
      for (bool jones : {false, true})
        for (bool gains : {false, true}) out.push_back({pols, jones, gains, p});
  return out;
}
INSTANTIATE_TEST_SUITE_P(All, LikelihoodGpuCase, ::testing::ValuesIn(all_cases()), case_name);

// The lanes kernel (likelihood_cuda_lanes.cuh: >= 6 groups of channels, equally spaced, no
// smearing): 131 channels (float and one-product double: 17 groups of 8, three rounds, the last
// with 3 channels; four-product double: 33 groups of 4, five rounds), 12 stations x 2 times =
// 132 rows (9 tiles of 16, the last partial), 21 sources (three batches of 8, the last partial).
class LikelihoodGpuLanes : public ::testing::TestWithParam<Case> {};

TEST_P(LikelihoodGpuLanes, MatchesCpu) {
  SKIP_WITHOUT_GPU();
  const Case c = GetParam();
  const Problem pr = make_problem(c.pols, c.jones, 31, 12, 2, 131, 21);
  auto gpu = make_likelihood_cuda(pr.data, pr.jones, pr.centre, c.precision);
  auto cpu = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Double);
  const Result rg = run(*gpu, pr, c.gains), rc = run(*cpu, pr, c.gains);
  if (c.precision == Precision::Double) {
    compare(rg, rc, nullptr);
  } else {
    auto cpu_f = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Single);
    const Result rf = run(*cpu_f, pr, c.gains);
    compare(rg, rc, &rf);
  }
}
INSTANTIATE_TEST_SUITE_P(All, LikelihoodGpuLanes, ::testing::ValuesIn(all_cases()), case_name);

// Channels not equally spaced: each channel's c_s is evaluated directly.
TEST(LikelihoodGpu, UnequalChannels) {
  SKIP_WITHOUT_GPU();
  for (int pols : {4, 1}) {
    Problem pr = make_problem(pols, false, 13, 8, 2, 9, 10);
    for (std::size_t c = 0; c < pr.data.num_channels; ++c) pr.data.frequency_hz[c] += 3e4 * c * c;
    auto gpu = make_likelihood_cuda(pr.data, pr.jones, pr.centre, Precision::Double);
    auto cpu = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Double);
    compare(run(*gpu, pr, true), run(*cpu, pr, true), nullptr);
  }
}

// Smearing (ObservedData.channel_bandwidth_hz and time_smearing, the factor evaluated per
// channel): bandwidth, time and both, equally spaced channels and unequal ones, float and
// double, with Jones and gains. 5 MHz channels and ~300 m time coefficients: sinc arguments
// up to a few rad (both branches of the sinc).
TEST(LikelihoodGpu, Smearing) {
  SKIP_WITHOUT_GPU();
  struct Mode {
    int pols;
    bool unequal;
    double bandwidth;
    bool time;
  };
  for (const Mode m : {Mode{4, false, 5e6, false}, Mode{1, true, 5e6, false},
                       Mode{4, true, 0.0, true}, Mode{1, false, 5e6, true}}) {
    Problem pr = make_problem(m.pols, true, 29, 9, 2, 10, 9);
    pr.data.channel_bandwidth_hz = m.bandwidth;
    if (m.time) {
      std::mt19937_64 rng(99);
      std::normal_distribution<double> g(0.0, 300.0);
      for (std::size_t i = 0; i < 3 * pr.data.num_rows; ++i)
        pr.data.time_smearing.push_back(g(rng));
    }
    if (m.unequal) {
      for (std::size_t c = 0; c < pr.data.num_channels; ++c) pr.data.frequency_hz[c] += 2e4 * c * c;
    }
    SCOPED_TRACE(std::to_string(m.pols) + " products, bandwidth " + std::to_string(m.bandwidth) +
                 (m.time ? ", time smearing" : "") + (m.unequal ? ", unequal channels" : ""));
    auto cpu = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Double);
    auto cpu_f = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Single);
    const Result rc = run(*cpu, pr, true), rf = run(*cpu_f, pr, true);
    auto gpu = make_likelihood_cuda(pr.data, pr.jones, pr.centre, Precision::Double);
    compare(run(*gpu, pr, true), rc, nullptr);
    auto gpu_f = make_likelihood_cuda(pr.data, pr.jones, pr.centre, Precision::Single);
    compare(run(*gpu_f, pr, true), rc, &rf);
  }
}

// More row tiles than blocks (each block loops over several tiles): 60 stations x 170 times.
TEST(LikelihoodGpu, ManyRowTilesPerBlock) {
  SKIP_WITHOUT_GPU();
  const Problem pr = make_problem(1, false, 17, 60, 170, 2, 3);
  auto gpu = make_likelihood_cuda(pr.data, pr.jones, pr.centre, Precision::Double);
  auto cpu = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Double);
  Result rg, rc;
  gpu->evaluate({&pr.params, 1}, {&pr.gains, 1}, {true, true}, &rg.chi2, &rg.grad);
  cpu->evaluate({&pr.params, 1}, {&pr.gains, 1}, {true, true}, &rc.chi2, &rc.grad);
  compare(rg, rc, nullptr);
}

// K parameter sets in one call give exactly the numbers of K single calls (the blocks of a set
// and their order do not depend on K), and the CPU's numbers; the request's parts are honoured.
TEST(LikelihoodGpu, BatchEqualsSingleCalls) {
  SKIP_WITHOUT_GPU();
  // 7 channels: the one-thread-per-row kernel; 64: the lanes kernel.
  for (const auto& [prec, channels] :
       {std::pair{Precision::Double, 7}, std::pair{Precision::Single, 7},
        std::pair{Precision::Double, 64}, std::pair{Precision::Single, 64}}) {
    SCOPED_TRACE(std::to_string(channels) + " channels");
    const Problem pr = make_problem(4, false, 19, 10, 2, channels, 12);
    auto gpu = make_likelihood_cuda(pr.data, pr.jones, pr.centre, prec);
    auto cpu = make_likelihood_cpu(pr.data, pr.jones, pr.centre, Precision::Double);
    constexpr int K = 5;
    std::vector<SourceParameters> sets(K, pr.params);
    std::vector<StationGains> gains(K, pr.gains);
    std::mt19937_64 rng(23);
    std::normal_distribution<double> n01(0.0, 1.0);
    for (int k = 1; k < K; ++k) {
      for (std::size_t s = 0; s < pr.params.size(); ++s) {
        sets[k][Param::I][s] *= 1 + 0.1 * n01(rng);
        sets[k][Param::Ra][s] += 1e-4 * n01(rng);
        sets[k][Param::Major][s] *= 1.2;
      }
      gains[k].values[3].re += 0.05 * k;
    }
    gains[2] = StationGains{};  // unit gains for one set
    std::vector<double> chi(K), chi1(K), chi_c(K);
    std::vector<Gradient> gr(K), gr1(K), gr_c(K);
    gpu->evaluate(sets, gains, {true, true}, chi.data(), gr.data());
    cpu->evaluate(sets, gains, {true, true}, chi_c.data(), gr_c.data());
    for (int k = 0; k < K; ++k) {
      gpu->evaluate({&sets[k], 1}, {&gains[k], 1}, {true, true}, &chi1[k], &gr1[k]);
      EXPECT_EQ(chi[k], chi1[k]) << k;
      EXPECT_EQ(gr[k].source, gr1[k].source) << k;
      EXPECT_EQ(gr[k].gains, gr1[k].gains) << k;
      if (prec == Precision::Double) {
        Result a, b;
        a.chi2 = chi[k];
        a.grad = gr[k];
        b.chi2 = chi_c[k];
        b.grad = gr_c[k];
        compare(a, b, nullptr);
      }
    }
    // Chi2 only, and each gradient part alone: the same chi2, the other part empty.
    std::vector<double> chi0(K);
    gpu->evaluate(sets, gains, {}, chi0.data(), nullptr);
    EXPECT_EQ(chi0, chi);
    Gradient only_src, only_gain;
    double c1 = 0, c2 = 0;
    gpu->evaluate({&sets[1], 1}, {&gains[1], 1}, {true, false}, &c1, &only_src);
    gpu->evaluate({&sets[1], 1}, {&gains[1], 1}, {false, true}, &c2, &only_gain);
    EXPECT_EQ(c1, chi[1]);
    EXPECT_EQ(c2, chi[1]);
    EXPECT_EQ(only_src.source, gr[1].source);
    EXPECT_TRUE(only_src.gains.empty());
    EXPECT_EQ(only_gain.gains, gr[1].gains);
    EXPECT_TRUE(only_gain.source.empty());
    // Repeated: bit for bit (fixed-order reductions, no atomics).
    std::vector<double> again(K);
    gpu->evaluate(sets, gains, {}, again.data(), nullptr);
    EXPECT_EQ(again, chi);
  }
}

void expect_error(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(LikelihoodGpu, BadInputNamesTheParameter) {
  SKIP_WITHOUT_GPU();
  const Problem pr = make_problem(4, true);
  auto gpu = make_likelihood_cuda(pr.data, pr.jones, pr.centre, Precision::Double);
  double chi = 0;
  SourceParameters bad = pr.params;
  bad[Param::Ra][2] = std::nan("");
  expect_error([&] { gpu->evaluate({&bad, 1}, {}, {}, &chi, nullptr); }, "'ra' of source 2");
  SourceParameters fewer = pr.params;
  fewer.resize(pr.params.size() - 1);
  expect_error([&] { gpu->evaluate({&fewer, 1}, {}, {}, &chi, nullptr); }, "station Jones");
  StationGains short_gains;
  short_gains.values.resize(3, {1, 0});
  expect_error(
      [&] {
        gpu->evaluate({&pr.params, 1}, {&short_gains, 1}, {}, &chi, nullptr);
      },
      "station gains");
  const StationGains two[2] = {pr.gains, pr.gains};
  expect_error([&] { gpu->evaluate({&pr.params, 1}, two, {}, &chi, nullptr); }, "gains for 2");
  ObservedData d = pr.data;
  d.weight[5] = -1;
  expect_error([&] { make_likelihood_cuda(d, pr.jones, pr.centre, Precision::Double); }, "WEIGHT");
  expect_error([&] { make_likelihood_cuda(pr.data, pr.jones, pr.centre, Precision::Double, 999); },
               "999");
}

}  // namespace
