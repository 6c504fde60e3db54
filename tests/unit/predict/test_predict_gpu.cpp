// GPU tests of the direct predict (label gpu): predict_direct_cuda / PredictCuda against
// predict_direct_cpu<double> element by element, in every mode (Full/Scalar x float/double x
// point/Gaussian x bandwidth smearing x time smearing, crosses and autos, uv filter, source
// chunks, accumulation into non-zero output, device pointers on user streams).
//
// Error metric (docs/gpu_predict.md "Accuracy"). For baseline (p, q) let
//   A0_pq = sum_s |J_p|_F |B_s|_F |J_q|_F     (magnitude scale; |V_pq elements| <= A0_pq)
//   A_pq  = sum_s |J_p|_F |B_s|_F |J_q|_F |g s_bw s_t|   (the same with the source factors)
// (autos: J_q = J_p, no factors). Double: |gpu - cpu| / max(|cpu|, 1e-3 A) < 1e-10, i.e. the
// plain relative error for every element that does not cancel to below a thousandth of its
// magnitude sum (docs/architecture.md, "Tests and benchmarks"). Float: |gpu_float - cpu_double| <=
// 2e-6 A0; the CPU-only test FloatBoundHoldsForCpuFloat shows the bound is a property of float
// arithmetic here (the CPU float path meets it too). Tests that need a GPU skip without one.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fringe/core/array.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/predict/predict.h"
#include "fringe/predict/predict_cuda.h"
#include "fringe/predict/predict_cuda_layout.h"
#include "predict_cuda_emulation.h"

namespace {

using fringe::Complex;
using fringe::Jones;
using namespace fringe::predict;
using cd = std::complex<double>;

constexpr double kC = 299792458.0;
constexpr double kPi_ = 3.14159265358979323846;
constexpr double kDoubleBound = 1e-10;  // relative, docs/architecture.md
constexpr double kFloatBound = 2e-6;    // of A0, docs/gpu_predict.md

#define SKIP_WITHOUT_GPU()                                             \
  do {                                                                 \
    if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU"; \
  } while (0)

struct Flags {
  Polarisation pol;
  bool gauss, bw, time;
};

std::string flags_name(const Flags& f) {
  return std::string(f.pol == Polarisation::Full ? "Full" : "Scalar") +
         (f.gauss ? "Gaussian" : "Point") + (f.bw ? "Bw" : "") + (f.time ? "Time" : "");
}

void PrintTo(const Flags& f, std::ostream* os) { *os << flags_name(f); }

// One predict problem in double (converted for float runs).
struct Problem {
  Flags flags{Polarisation::Full, false, false, false};
  double freq = 150e6, bandwidth = 0;
  std::vector<double> u, v, w, x, y;                    // stations (m)
  std::vector<double> I, Q, U, V, l, m, n, ga, gb, gc;  // sources
  std::vector<Jones<double>> jones;                     // [station][source]
  std::vector<Complex<double>> jones_scalar;            // [station][source]
  TimeSmearing ts;
  UvFilter uvf;
  std::size_t ns() const { return u.size(); }
  std::size_t nsrc() const { return I.size(); }
  std::size_t np() const { return num_pols(flags.pol); }
};

// ns stations uniformly in a disk of radius_m (w: a few % of that), S sources within
// ~3 deg, polarised, random Jones matrices near identity, arcminute Gaussians, 1 MHz channels
// at 150 MHz, 60 s dumps: smearing arguments span the series and the separable branch.
Problem random_problem(std::size_t ns, std::size_t S, Flags flags, unsigned seed = 7,
                       double radius_m = 35e3) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(-1, 1);
  Problem pr;
  pr.flags = flags;
  for (std::size_t p = 0; p < ns; ++p) {
    const double r = radius_m * std::sqrt(0.5 * (1 + uni(rng))), a = kPi_ * uni(rng);
    pr.u.push_back(r * std::cos(a));
    pr.v.push_back(r * std::sin(a));
    pr.w.push_back(0.03 * radius_m * uni(rng));
    pr.x.push_back(radius_m * uni(rng));
    pr.y.push_back(radius_m * uni(rng));
  }
  for (std::size_t s = 0; s < S; ++s) {
    const double i = 1 + uni(rng), ll = 0.05 * uni(rng), mm = 0.05 * uni(rng);
    pr.I.push_back(i);
    pr.Q.push_back(0.3 * i * uni(rng));
    pr.U.push_back(0.3 * i * uni(rng));
    pr.V.push_back(0.1 * i * uni(rng));
    pr.l.push_back(ll);
    pr.m.push_back(mm);
    pr.n.push_back(std::sqrt(1 - ll * ll - mm * mm));
    if (flags.gauss) {
      // Positive-definite (a, b, c) (rad^2), arcminute scale; every fourth source a point.
      const bool point = s % 4 == 3;
      const double a = point ? 0 : 1e-8 * (1.5 + uni(rng)), c = point ? 0 : 1e-8 * (1.5 + uni(rng));
      pr.ga.push_back(a);
      pr.gc.push_back(c);
      pr.gb.push_back(0.5 * std::sqrt(a * c) * uni(rng));
    }
  }
  for (std::size_t k = 0; k < ns * S; ++k) {
    if (flags.pol == Polarisation::Full)
      pr.jones.push_back({{1 + 0.2 * uni(rng), 0.2 * uni(rng)},
                          {0.2 * uni(rng), 0.2 * uni(rng)},
                          {0.2 * uni(rng), 0.2 * uni(rng)},
                          {1 + 0.2 * uni(rng), 0.2 * uni(rng)}});
    else
      pr.jones_scalar.push_back({1 + 0.2 * uni(rng), 0.2 * uni(rng)});
  }
  if (flags.bw) pr.bandwidth = 1e6;
  if (flags.time) pr.ts = {60.0, 1.1, 0.3, -0.5, nullptr, nullptr};
  return pr;
}

template <typename T>
std::vector<T> cast(const std::vector<double>& a) {
  return std::vector<T>(a.begin(), a.end());
}

// The problem's arrays in precision T and a PredictInput<T> pointing at them.
template <typename T>
struct HostInput {
  std::vector<T> I, Q, U, V, ga, gb, gc;
  std::vector<Jones<T>> jones;
  std::vector<Complex<T>> js;
  PredictInput<T> in;
  explicit HostInput(const Problem& pr)
      : I(cast<T>(pr.I)),
        Q(cast<T>(pr.Q)),
        U(cast<T>(pr.U)),
        V(cast<T>(pr.V)),
        ga(cast<T>(pr.ga)),
        gb(cast<T>(pr.gb)),
        gc(cast<T>(pr.gc)) {
    for (const auto& j : pr.jones) jones.push_back(fringe::jones_cast<T>(j));
    for (const auto& j : pr.jones_scalar) js.push_back(fringe::complex_cast<T>(j));
    in.polarisation = pr.flags.pol;
    in.frequency_hz = pr.freq;
    in.channel_bandwidth_hz = pr.bandwidth;
    in.sources = {pr.nsrc(),
                  I.data(),
                  Q.data(),
                  U.data(),
                  V.data(),
                  pr.l.data(),
                  pr.m.data(),
                  pr.n.data(),
                  ga.empty() ? nullptr : ga.data(),
                  gb.empty() ? nullptr : gb.data(),
                  gc.empty() ? nullptr : gc.data()};
    in.stations = {pr.ns(),
                   pr.u.data(),
                   pr.v.data(),
                   pr.w.data(),
                   jones.empty() ? nullptr : jones.data(),
                   js.empty() ? nullptr : js.data()};
    in.time_smearing = pr.ts;
    if (pr.ts.tau_s > 0) {
      in.time_smearing.station_x = pr.x.data();
      in.time_smearing.station_y = pr.y.data();
    }
    in.uv_filter = pr.uvf;
  }
};

// Output buffers (cross, autos) as complex double, starting from the given values.
struct Outputs {
  std::vector<cd> cross, autos;
};

// Random starting values (|re|, |im| <= 1) so that += is tested.
Outputs initial_outputs(const Problem& pr, unsigned seed = 3) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(-1, 1);
  Outputs o;
  for (std::size_t k = 0; k < num_baselines(pr.ns()) * pr.np(); ++k)
    o.cross.emplace_back(static_cast<float>(uni(rng)), static_cast<float>(uni(rng)));
  for (std::size_t k = 0; k < pr.ns() * pr.np(); ++k)
    o.autos.emplace_back(static_cast<float>(uni(rng)), static_cast<float>(uni(rng)));
  return o;
}

template <typename T>
std::vector<Complex<T>> to_buffer(const std::vector<cd>& a) {
  std::vector<Complex<T>> r;
  for (const cd& z : a) r.push_back({static_cast<T>(z.real()), static_cast<T>(z.imag())});
  return r;
}
template <typename T>
std::vector<cd> from_buffer(const std::vector<Complex<T>>& a) {
  std::vector<cd> r;
  for (const auto& z : a) r.emplace_back(z.re, z.im);
  return r;
}

// Cpu: predict_direct_cpu; Gpu: predict_direct_cuda; Emulated: the CUDA kernels run on the
// CPU (predict_cuda_emulation.h).
enum class Backend { Cpu, Gpu, Emulated };

// Runs one back end in precision T from the initial outputs; returns the outputs.
template <typename T>
Outputs run(const Problem& pr, Backend backend, const Outputs& init, std::size_t scratch = 0) {
  HostInput<T> hi(pr);
  auto cross = to_buffer<T>(init.cross), autos = to_buffer<T>(init.autos);
  const PredictOutput<T> out{cross.data(), autos.data()};
  if (backend == Backend::Cpu)
    predict_direct_cpu(hi.in, out);
  else if (backend == Backend::Gpu)
    predict_direct_cuda(hi.in, out, 0, scratch);
  else
    fringe::predict::test::predict_direct_emulated(hi.in, out, scratch);
  return {from_buffer(cross), from_buffer(autos)};
}

// ---- magnitude scales of the error metric (independent double evaluation) ----
double frob(const Jones<double>& j) { return std::sqrt(fringe::jones_norm2(j)); }
double station_norm(const Problem& pr, std::size_t p, std::size_t s) {
  const std::size_t k = p * pr.nsrc() + s;
  return pr.flags.pol == Polarisation::Full
             ? frob(pr.jones[k])
             : std::abs(cd(pr.jones_scalar[k].re, pr.jones_scalar[k].im));
}
double brightness_norm(const Problem& pr, std::size_t s) {
  if (pr.flags.pol == Polarisation::Scalar) return std::abs(pr.I[s]);
  return std::sqrt(2 *
                   (pr.I[s] * pr.I[s] + pr.Q[s] * pr.Q[s] + pr.U[s] * pr.U[s] + pr.V[s] * pr.V[s]));
}
double sinc_ref(double x) { return x == 0 ? 1.0 : std::sin(x) / x; }

// |g s_bw s_t| of source s on baseline (p, q), from docs/conventions.md, "Smearing".
double source_factor_ref(const Problem& pr, std::size_t p, std::size_t q, std::size_t s) {
  const double lambda = kC / pr.freq;
  const double uu = (pr.u[p] - pr.u[q]) / lambda, vv = (pr.v[p] - pr.v[q]) / lambda,
               ww = (pr.w[p] - pr.w[q]) / lambda, n1 = pr.n[s] - 1;
  double f = 1;
  if (pr.flags.gauss)
    f *= std::exp(-(pr.ga[s] * uu * uu + 2 * pr.gb[s] * uu * vv + pr.gc[s] * vv * vv));
  if (pr.bandwidth > 0)
    f *= sinc_ref(kPi_ * pr.bandwidth / pr.freq * (uu * pr.l[s] + vv * pr.m[s] + ww * n1));
  if (pr.ts.tau_s > 0) {
    const double dx = (pr.x[p] - pr.x[q]) * kPi_ / lambda, dy = (pr.y[p] - pr.y[q]) * kPi_ / lambda;
    const double h0 = pr.ts.gast - pr.ts.ra0, r = 7.272205217e-5 * pr.ts.tau_s;
    const double du = (dx * std::cos(h0) - dy * std::sin(h0)) * r;
    const double dv = (dx * std::sin(h0) + dy * std::cos(h0)) * r * std::sin(pr.ts.dec0);
    const double dw = -(dx * std::sin(h0) + dy * std::cos(h0)) * r * std::cos(pr.ts.dec0);
    f *= sinc_ref(du * pr.l[s] + dv * pr.m[s] + dw * n1);
  }
  return std::abs(f);
}

struct Scales {
  std::vector<double> a0, a;  // per baseline
  std::vector<double> autos;  // per station
};

Scales magnitude_scales(const Problem& pr) {
  Scales sc;
  const std::size_t ns = pr.ns(), S = pr.nsrc();
  for (std::size_t p = 0; p < ns; ++p) {
    for (std::size_t q = p + 1; q < ns; ++q) {
      double a0 = 0, a = 0;
      for (std::size_t s = 0; s < S; ++s) {
        const double t = station_norm(pr, p, s) * brightness_norm(pr, s) * station_norm(pr, q, s);
        a0 += t;
        a += t * source_factor_ref(pr, p, q, s);
      }
      sc.a0.push_back(a0);
      sc.a.push_back(a);
    }
  }
  for (std::size_t p = 0; p < ns; ++p) {
    double a = 0;
    for (std::size_t s = 0; s < S; ++s)
      a += station_norm(pr, p, s) * brightness_norm(pr, s) * station_norm(pr, p, s);
    sc.autos.push_back(a);
  }
  return sc;
}

// Largest error of got vs want under the double metric (relative, floored at 1e-3 scale) or
// the float metric (absolute / A0); scale index = element / pols.
struct Errors {
  double worst = 0;
  std::size_t where = 0;
};
Errors double_errors(const std::vector<cd>& got, const std::vector<cd>& want,
                     const std::vector<double>& scale, std::size_t np) {
  Errors e;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const double err =
        std::abs(got[k] - want[k]) / std::max(std::abs(want[k]), 1e-3 * scale[k / np]);
    if (err > e.worst) e = {err, k};
  }
  return e;
}
Errors float_errors(const std::vector<cd>& got, const std::vector<cd>& want,
                    const std::vector<double>& scale0, std::size_t np) {
  Errors e;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const double err = std::abs(got[k] - want[k]) / scale0[k / np];
    if (err > e.worst) e = {err, k};
  }
  return e;
}

void record(const std::string& key, double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", value);
  testing::Test::RecordProperty(key, buf);
  std::printf("  %s = %s\n", key.c_str(), buf);
}

// Checks a GPU run (precision T) against the CPU double reference.
template <typename T>
void expect_matches(const Problem& pr, const Outputs& got, const Outputs& want, const Scales& sc,
                    const std::string& what) {
  const std::size_t np = pr.np();
  ASSERT_EQ(got.cross.size(), want.cross.size());
  ASSERT_EQ(got.autos.size(), want.autos.size());
  if constexpr (std::is_same_v<T, double>) {
    const Errors c = double_errors(got.cross, want.cross, sc.a, np);
    const Errors a = double_errors(got.autos, want.autos, sc.autos, np);
    EXPECT_LT(c.worst, kDoubleBound) << what << ": cross element " << c.where;
    EXPECT_LT(a.worst, kDoubleBound) << what << ": auto element " << a.where;
    record(what + "_double_cross_rel", c.worst);
  } else {
    const Errors c = float_errors(got.cross, want.cross, sc.a0, np);
    const Errors a = float_errors(got.autos, want.autos, sc.autos, np);
    EXPECT_LT(c.worst, kFloatBound) << what << ": cross element " << c.where;
    EXPECT_LT(a.worst, kFloatBound) << what << ": auto element " << a.where;
    record(what + "_float_cross_of_A0", c.worst);
  }
}

const Flags kAllModes[] = {
    {Polarisation::Full, false, false, false},   {Polarisation::Full, false, false, true},
    {Polarisation::Full, false, true, false},    {Polarisation::Full, false, true, true},
    {Polarisation::Full, true, false, false},    {Polarisation::Full, true, false, true},
    {Polarisation::Full, true, true, false},     {Polarisation::Full, true, true, true},
    {Polarisation::Scalar, false, false, false}, {Polarisation::Scalar, false, false, true},
    {Polarisation::Scalar, false, true, false},  {Polarisation::Scalar, false, true, true},
    {Polarisation::Scalar, true, false, false},  {Polarisation::Scalar, true, false, true},
    {Polarisation::Scalar, true, true, false},   {Polarisation::Scalar, true, true, true},
};

// 40 stations in a 35 km disk and 333 sources (10 full tiles of 32 and a partial one).
constexpr std::size_t kStations = 40, kSources = 333;

class PredictGpuModes : public testing::TestWithParam<Flags> {};

// ------------------------------------------------------------------ GPU vs CPU, every mode

TEST_P(PredictGpuModes, MatchesCpuDouble) {
  SKIP_WITHOUT_GPU();
  const Problem pr = random_problem(kStations, kSources, GetParam());
  const Outputs init = initial_outputs(pr);
  const Outputs ref = run<double>(pr, Backend::Cpu, init);
  const Scales sc = magnitude_scales(pr);
  const std::string name = flags_name(GetParam());
  expect_matches<double>(pr, run<double>(pr, Backend::Gpu, init), ref, sc, name);
  expect_matches<float>(pr, run<float>(pr, Backend::Gpu, init), ref, sc, name);
}

// Several source chunks: the three smallest chunk sizes (whole tiles of 32 sources) that
// scratch budgets of 2^k bytes give, each with more than one chunk.
template <typename T>
std::vector<std::size_t> small_budgets(const Problem& pr) {
  HostInput<T> hi(pr);
  PredictCuda<T> eval;
  std::vector<std::size_t> budgets, chunks;
  for (int k = 0; k < 40 && budgets.size() < 3; ++k) {
    eval.set_max_scratch_bytes(std::size_t(1) << k);
    const std::size_t c = eval.chunk_sources(hi.in);
    EXPECT_EQ(c % 32, 0u);
    if (c < pr.nsrc() && (chunks.empty() || c != chunks.back())) {
      budgets.push_back(std::size_t(1) << k);
      chunks.push_back(c);
    }
  }
  EXPECT_EQ(chunks.size(), 3u);
  if (!chunks.empty()) {
    EXPECT_EQ(chunks.front(), 32u);
  }
  return budgets;
}

TEST_P(PredictGpuModes, SourceChunksMatchCpuDouble) {
  SKIP_WITHOUT_GPU();
  const Problem pr = random_problem(kStations, kSources, GetParam(), 11);
  const Outputs init = initial_outputs(pr);
  const Outputs ref = run<double>(pr, Backend::Cpu, init);
  const Scales sc = magnitude_scales(pr);
  const std::string name = flags_name(GetParam()) + "_chunked";
  for (std::size_t bytes : small_budgets<double>(pr))
    expect_matches<double>(pr, run<double>(pr, Backend::Gpu, init, bytes), ref, sc, name);
  for (std::size_t bytes : small_budgets<float>(pr))
    expect_matches<float>(pr, run<float>(pr, Backend::Gpu, init, bytes), ref, sc, name);
}

// The kernels on the CPU (no GPU needed): 13 stations (partly filled and diagonal block
// tiles), 70 sources (three tiles, the last partial), one chunk and chunks of 32 sources
// (scratch budget 1 byte: one tile per chunk).
TEST_P(PredictGpuModes, EmulatedKernelsMatchCpuDouble) {
  const Problem pr = random_problem(13, 70, GetParam(), 29);
  const Outputs init = initial_outputs(pr);
  const Outputs ref = run<double>(pr, Backend::Cpu, init);
  const Scales sc = magnitude_scales(pr);
  const std::string name = flags_name(GetParam()) + "_emulated";
  for (std::size_t budget : {std::size_t(0), std::size_t(1)}) {
    expect_matches<double>(pr, run<double>(pr, Backend::Emulated, init, budget), ref, sc, name);
    expect_matches<float>(pr, run<float>(pr, Backend::Emulated, init, budget), ref, sc, name);
  }
}

INSTANTIATE_TEST_SUITE_P(AllModes, PredictGpuModes, testing::ValuesIn(kAllModes),
                         [](const testing::TestParamInfo<Flags>& info) {
                           return flags_name(info.param);
                         });

// ------------------------------------------------------------------ uv filter

TEST(PredictGpu, UvFilterLeavesExcludedBaselinesUntouched) {
  SKIP_WITHOUT_GPU();
  for (const Flags f : {Flags{Polarisation::Full, true, true, true},
                        Flags{Polarisation::Scalar, false, true, false}}) {
    for (const bool lambda : {false, true}) {
      Problem pr = random_problem(kStations, 100, f, 5);
      // metres: 5 km .. 40 km; wavelengths (lambda = 2 m): 2.5e3 .. 2e4.
      pr.uvf = lambda ? UvFilter{2.5e3, 2e4, true} : UvFilter{5e3, 40e3, false};
      const Outputs init = initial_outputs(pr);
      const Outputs ref = run<double>(pr, Backend::Cpu, init);
      const Outputs gd = run<double>(pr, Backend::Gpu, init);
      const Scales sc = magnitude_scales(pr);
      const std::string name = flags_name(f) + (lambda ? "_uv_wavelengths" : "_uv_metres");
      expect_matches<double>(pr, gd, ref, sc, name);
      expect_matches<float>(pr, run<float>(pr, Backend::Gpu, init), ref, sc, name);
      std::size_t excluded = 0, kept = 0;
      for (std::size_t k = 0; k < ref.cross.size(); ++k) {
        if (ref.cross[k] == init.cross[k]) {
          ++excluded;
          EXPECT_EQ(gd.cross[k], init.cross[k]) << name << " element " << k;
        } else {
          ++kept;
        }
      }
      EXPECT_GT(excluded, 10u) << name;
      EXPECT_GT(kept, 10u) << name;
    }
  }
}

// ------------------------------------------------------------------ shapes

// Sizes that leave block tiles, warps and source tiles partly empty: 2 stations (one
// baseline), 1 source, station counts around the block tile sizes, more sources than a tile.
TEST(PredictGpu, EdgeSizesMatchCpuDouble) {
  SKIP_WITHOUT_GPU();
  const std::size_t shapes[][2] = {{2, 1}, {2, 33}, {3, 31}, {9, 64}, {17, 65}, {33, 7}, {70, 200}};
  for (const Flags f :
       {Flags{Polarisation::Full, false, false, false}, Flags{Polarisation::Full, true, true, true},
        Flags{Polarisation::Scalar, false, false, false},
        Flags{Polarisation::Scalar, true, true, true}}) {
    for (const auto& sh : shapes) {
      const Problem pr = random_problem(sh[0], sh[1], f, 17);
      const Outputs init = initial_outputs(pr);
      const Outputs ref = run<double>(pr, Backend::Cpu, init);
      const Scales sc = magnitude_scales(pr);
      const std::string name =
          flags_name(f) + "_" + std::to_string(sh[0]) + "x" + std::to_string(sh[1]);
      expect_matches<double>(pr, run<double>(pr, Backend::Gpu, init), ref, sc, name);
      expect_matches<float>(pr, run<float>(pr, Backend::Gpu, init), ref, sc, name);
    }
  }
}

// One station: autos only; identity Jones (nullptr); unpolarised (Q, U, V nullptr).
TEST(PredictGpu, OneStationAndIdentityJones) {
  SKIP_WITHOUT_GPU();
  Problem pr = random_problem(1, 50, {Polarisation::Full, false, false, false});
  HostInput<double> hi(pr);
  hi.in.stations.jones = nullptr;
  hi.in.sources.stokes_q = hi.in.sources.stokes_u = hi.in.sources.stokes_v = nullptr;
  std::vector<Complex<double>> autos(4, {0, 0});
  predict_direct_cuda(hi.in, PredictOutput<double>{nullptr, autos.data()});
  double sum_i = 0;
  for (double i : pr.I) sum_i += i;
  EXPECT_NEAR(autos[0].re, sum_i, 1e-12 * sum_i);
  EXPECT_NEAR(autos[3].re, sum_i, 1e-12 * sum_i);
  EXPECT_EQ(autos[1].re, 0);
  EXPECT_EQ(autos[2].im, 0);
  // Two stations, identity Jones, a source at the phase centre: V = B exactly.
  Problem two = random_problem(2, 1, {Polarisation::Full, false, false, false});
  two.l = {0}, two.m = {0}, two.n = {1};
  HostInput<double> h2(two);
  h2.in.stations.jones = nullptr;
  std::vector<Complex<double>> cross(4, {0, 0});
  predict_direct_cuda(h2.in, PredictOutput<double>{cross.data(), nullptr});
  EXPECT_NEAR(cross[0].re, two.I[0] + two.Q[0], 1e-14);
  EXPECT_NEAR(cross[1].re, two.U[0], 1e-14);
  EXPECT_NEAR(cross[1].im, two.V[0], 1e-14);
  EXPECT_NEAR(cross[3].re, two.I[0] - two.Q[0], 1e-14);
}

// ------------------------------------------------------------------ device-pointer API

// PredictCuda on device arrays and two user streams, one tile per source chunk: the second
// run (other stream, same scratch) adds the same sums again, so the output is
// init + 2 x predict.
TEST(PredictGpu, DevicePointersOnTwoStreams) {
  SKIP_WITHOUT_GPU();
  const Flags f{Polarisation::Full, true, true, true};
  Problem pr = random_problem(kStations, kSources, f, 23);
  const Outputs init = initial_outputs(pr);
  const Outputs once = run<double>(pr, Backend::Cpu, init);
  HostInput<double> hi(pr);
  const auto gpu = fringe::MemoryLocation::gpu(0);
  using fringe::Array;
  const std::size_t S = pr.nsrc(), N = pr.ns();
  auto up = [&](const auto* p, std::size_t n) {
    using U = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
    return Array<U>::from_host(std::span<const U>(p, n), gpu);
  };
  auto dI = up(hi.I.data(), S), dQ = up(hi.Q.data(), S), dU = up(hi.U.data(), S),
       dV = up(hi.V.data(), S), dga = up(hi.ga.data(), S), dgb = up(hi.gb.data(), S),
       dgc = up(hi.gc.data(), S);
  auto dl = up(pr.l.data(), S), dm = up(pr.m.data(), S), dn = up(pr.n.data(), S);
  auto du = up(pr.u.data(), N), dv = up(pr.v.data(), N), dw = up(pr.w.data(), N),
       dx = up(pr.x.data(), N), dy = up(pr.y.data(), N);
  auto dj = up(hi.jones.data(), N * S);
  auto cross = up(to_buffer<double>(init.cross).data(), init.cross.size());
  auto autos = up(to_buffer<double>(init.autos).data(), init.autos.size());
  DevicePredictInput<double> din;
  static_cast<PredictInput<double>&>(din) = hi.in;
  din.sources = {S,         dI.data(), dQ.data(),  dU.data(),  dV.data(), dl.data(),
                 dm.data(), dn.data(), dga.data(), dgb.data(), dgc.data()};
  din.stations = {N, du.data(), dv.data(), dw.data(), dj.data(), nullptr};
  din.time_smearing.station_x = dx.data();
  din.time_smearing.station_y = dy.data();
  DevicePredictOutput<double> dout;
  dout.cross = cross.data();
  dout.autos = autos.data();
  cudaStream_t s1 = nullptr, s2 = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s1), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&s2), cudaSuccess);
  {
    PredictCuda<double> eval(0);
    eval.set_max_scratch_bytes(1);  // one tile per chunk: many chunks
    eval.run(din, dout, s1);
    eval.run(din, dout, s2);
    eval.synchronize();
  }
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  Outputs twice{from_buffer(cross.to_vector()), from_buffer(autos.to_vector())};
  Outputs want = once;
  for (std::size_t k = 0; k < want.cross.size(); ++k)
    want.cross[k] += once.cross[k] - init.cross[k];
  for (std::size_t k = 0; k < want.autos.size(); ++k)
    want.autos[k] += once.autos[k] - init.autos[k];
  Scales sc = magnitude_scales(pr);
  for (double& a : sc.a) a *= 2;
  for (double& a : sc.autos) a *= 2;
  expect_matches<double>(pr, twice, want, sc, "two_streams");
}

// uv filter and edge sizes through the emulated kernels (no GPU needed).
TEST(PredictGpuEmulation, UvFilterAndEdgeSizes) {
  for (const Flags f : {Flags{Polarisation::Full, true, true, true},
                        Flags{Polarisation::Scalar, false, true, false}}) {
    Problem pr = random_problem(11, 40, f, 5);
    pr.uvf = UvFilter{15e3, 45e3, false};
    const Outputs init = initial_outputs(pr);
    const Outputs ref = run<double>(pr, Backend::Cpu, init);
    const Outputs got = run<double>(pr, Backend::Emulated, init);
    const Scales sc = magnitude_scales(pr);
    expect_matches<double>(pr, got, ref, sc, flags_name(f) + "_emulated_uv");
    std::size_t excluded = 0;
    for (std::size_t k = 0; k < ref.cross.size(); ++k) {
      if (ref.cross[k] == init.cross[k]) {
        ++excluded;
        EXPECT_EQ(got.cross[k], init.cross[k]) << k;
      }
    }
    EXPECT_GT(excluded, 0u);
    EXPECT_LT(excluded, ref.cross.size());
  }
  const std::size_t shapes[][2] = {{2, 1}, {3, 33}, {1, 5}, {17, 2}};
  for (const Flags f : {Flags{Polarisation::Full, false, false, false},
                        Flags{Polarisation::Scalar, true, true, true}}) {
    for (const auto& sh : shapes) {
      const Problem pr = random_problem(sh[0], sh[1], f, 31);
      const Outputs init = initial_outputs(pr);
      const Outputs ref = run<double>(pr, Backend::Cpu, init);
      const Scales sc = magnitude_scales(pr);
      const std::string name =
          flags_name(f) + "_emulated_" + std::to_string(sh[0]) + "x" + std::to_string(sh[1]);
      expect_matches<double>(pr, run<double>(pr, Backend::Emulated, init), ref, sc, name);
      expect_matches<float>(pr, run<float>(pr, Backend::Emulated, init), ref, sc, name);
    }
  }
}

// ------------------------------------------------------------------ errors (any machine)

TEST(PredictGpu, InvalidInputThrowsBeforeUsingTheGpu) {
  Problem pr = random_problem(4, 10, {Polarisation::Full, false, false, false});
  pr.freq = 0;
  HostInput<double> hi(pr);
  std::vector<Complex<double>> cross(6 * 4);
  try {
    predict_direct_cuda(hi.in, PredictOutput<double>{cross.data(), nullptr});
    FAIL() << "no error for a zero frequency";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("frequency"), std::string::npos) << e.what();
  }
}

// A device index past the last GPU (device 0 on a machine without one) is a fringe::Error
// naming the CUDA call, never a crash or silent zeros (OSKAR issue #31).
TEST(PredictGpu, MissingDeviceIsAFringeError) {
  const Problem pr = random_problem(4, 10, {Polarisation::Scalar, false, false, false});
  HostInput<float> hi(pr);
  std::vector<Complex<float>> cross(6);
  const int missing = static_cast<int>(fringe::cuda_devices().size());
  try {
    predict_direct_cuda(hi.in, PredictOutput<float>{cross.data(), nullptr}, missing);
    FAIL() << "no error for missing device " << missing;
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------ the metric itself (CPU)

// The float bound is a property of float arithmetic with double phases, not of the GPU: the
// CPU float path meets it on the same problems, and every element obeys |V| <= A0 (so the
// scale is a true magnitude bound) in every mode.
TEST(PredictGpuMetric, FloatBoundHoldsForCpuFloat) {
  double worst = 0;
  for (const Flags& f : kAllModes) {
    const Problem pr = random_problem(kStations, kSources, f);
    const Outputs zero{std::vector<cd>(num_baselines(pr.ns()) * pr.np()),
                       std::vector<cd>(pr.ns() * pr.np())};
    const Outputs ref = run<double>(pr, Backend::Cpu, zero);
    const Outputs got = run<float>(pr, Backend::Cpu, zero);
    const Scales sc = magnitude_scales(pr);
    for (std::size_t k = 0; k < ref.cross.size(); ++k) {
      ASSERT_LE(std::abs(ref.cross[k]), sc.a[k / pr.np()] * (1 + 1e-12)) << flags_name(f);
      ASSERT_LE(sc.a[k / pr.np()], sc.a0[k / pr.np()] * (1 + 1e-12)) << flags_name(f);
    }
    const Errors e = float_errors(got.cross, ref.cross, sc.a0, pr.np());
    const Errors a = float_errors(got.autos, ref.autos, sc.autos, pr.np());
    EXPECT_LT(e.worst, kFloatBound) << flags_name(f);
    EXPECT_LT(a.worst, kFloatBound) << flags_name(f);
    worst = std::max({worst, e.worst, a.worst});
  }
  record("cpu_float_worst_of_A0", worst);
}

// The double metric separates a correct result from one with a 1e-8 relative error in one
// source's flux (of 40).
TEST(PredictGpuMetric, DoubleMetricDetectsSmallErrors) {
  Problem pr = random_problem(10, 40, {Polarisation::Full, true, true, true});
  const Outputs zero{std::vector<cd>(num_baselines(pr.ns()) * 4), std::vector<cd>(pr.ns() * 4)};
  const Outputs ref = run<double>(pr, Backend::Cpu, zero);
  const Scales sc = magnitude_scales(pr);
  EXPECT_LT(double_errors(run<double>(pr, Backend::Cpu, zero).cross, ref.cross, sc.a, 4).worst,
            1e-14);
  pr.I[17] *= 1 + 1e-8;
  EXPECT_GT(double_errors(run<double>(pr, Backend::Cpu, zero).cross, ref.cross, sc.a, 4).worst,
            kDoubleBound);
}

// ------------------------------------------------------------------ kernel geometry (CPU)

namespace cd_ = fringe::predict::cuda_detail;

// Every baseline p < q of every station count lies in exactly one block tile of the mode's
// shape, each tile holds at least one, and the scratch rows of a chunk do not overlap.
template <class M>
void check_geometry() {
  for (int n = 1; n <= 90; ++n) {
    std::vector<int> hits(static_cast<std::size_t>(n) * n, 0);
    const long long tiles = cd_::num_block_tiles(n, M::block_p, M::block_q);
    for (long long b = 0; b < tiles; ++b) {
      const cd_::BlockTile t = cd_::block_tile(static_cast<int>(b), n, M::block_p, M::block_q);
      ASSERT_EQ(t.p0 % M::block_p, 0);
      ASSERT_EQ(t.q0 % M::block_q, 0);
      int inside = 0;
      for (int p = t.p0; p < t.p0 + M::block_p; ++p)
        for (int q = t.q0; q < t.q0 + M::block_q; ++q)
          if (p < q && q < n) ++hits[p * n + q], ++inside;
      ASSERT_GT(inside, 0) << "empty tile " << b << " of " << n << " stations";
    }
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) ASSERT_EQ(hits[p * n + q], 1) << p << "," << q << " of " << n;
  }
  const std::size_t N = 37, C = 96;
  const cd_::ScratchLayout lay = cd_::scratch_layout<M>(N, C);
  using T = typename M::Real;
  EXPECT_EQ(lay.station_offset % cd_::kAlign, 0u);
  EXPECT_EQ(lay.p_offset % cd_::kAlign, 0u);
  EXPECT_EQ(lay.source_offset % cd_::kAlign, 0u);
  EXPECT_GE(lay.station_offset, N * 3 * sizeof(double));
  EXPECT_GE(lay.p_offset - lay.station_offset, N * M::station_rows * C * sizeof(T));
  EXPECT_GE(lay.source_offset - lay.p_offset, N * M::jones_rows * C * sizeof(T));
  EXPECT_GE(lay.bytes - lay.source_offset, M::source_rows * C * sizeof(T));
  // Two blocks per SM fit the shared memory of sm_80 (164 KB per SM) and sm_90 (228 KB).
  EXPECT_LE(cd_::cross_shared_bytes<M>(), std::size_t(80) << 10);
  EXPECT_EQ(M::threads, M::warps * 32);
  EXPECT_LE(M::tile_p * M::tile_q, 32);
}

template <typename T, std::size_t... I>
void check_all_geometries(std::index_sequence<I...>) {
  (check_geometry<cd_::Mode<T, (I & 8) != 0, (I & 4) != 0, (I & 2) != 0, (I & 1) != 0>>(), ...);
}

TEST(PredictGpuGeometry, TilesCoverEveryBaselineOnce) {
  check_all_geometries<float>(std::make_index_sequence<16>{});
  check_all_geometries<double>(std::make_index_sequence<16>{});
}

}  // namespace
