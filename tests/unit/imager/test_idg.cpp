// Unit tests of Image-Domain Gridding (CPU): the plan, the gridder/degridder against direct
// Fourier transforms, adjointness, analytic single-visibility and centre-source cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <numbers>
#include <random>
#include <set>

#include "fringe/core/error.h"
#include "fringe/imager/aterms.h"
#include "fringe/imager/dft.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/rephase.h"
#include "fringe/imager/taper.h"
#include "fringe/imager/weighting.h"
#include "imager_test_data.h"

namespace fringe::imager {
namespace {

using test::make_tracks;
using test::PointSource;
using test::set_point_sources;

GridGeometry geometry(int n, double cell, int padded, int ns = 32, int kernel = 9, int taper = 7) {
  GridGeometry g;
  g.image_size = n;
  g.grid_size = padded;
  g.cell_rad = cell;
  g.subgrid_size = ns;
  g.kernel_size = kernel;
  g.taper_support = taper;
  return g;
}

template <typename T>
PlanInput plan_input(const VisBuffer<T>& v) {
  return {v.num_rows, v.num_channels, v.uvw_m, v.time_s, v.baseline, v.freq_hz};
}

double max_abs_w(const auto& v) {
  double w = 0;
  for (const auto& uvw : v.uvw_m)
    w = std::max(w, std::abs(uvw[2]) * v.freq_hz.back() / kSpeedOfLight);
  return w;
}

// RMS of (a - b) over the inner 80 % of an n x n image (per pol plane 0), real parts.
double inner_rms(const std::vector<Complex<double>>& a, const std::vector<Complex<double>>& b,
                 int n) {
  const int lo = n / 10, hi = n - n / 10;
  double s = 0;
  int count = 0;
  for (int y = lo; y < hi; ++y)
    for (int x = lo; x < hi; ++x) {
      const double d = a[y * n + x].re - b[y * n + x].re;
      s += d * d;
      ++count;
    }
  return std::sqrt(s / count);
}
double peak(const std::vector<Complex<double>>& a, int n) {
  double p = 0;
  for (int i = 0; i < n * n; ++i) p = std::max(p, std::abs(a[i].re));
  return p;
}

TEST(ImagerPlan, CoversEveryVisibilityOnce) {
  auto v = make_tracks<double>(12, 40, 8, 3000.0, 100e6, 1e6);
  // Flag some visibilities.
  for (std::size_t k = 0; k < v.weight.size(); k += 7) v.weight[k] = 0.0f;
  const std::size_t flagged = (v.weight.size() + 6) / 7;
  // A grid small enough that the longest baselines fall outside.
  const GridGeometry g = geometry(96, 2.0 / 96 * std::numbers::pi / 180, 96, 24, 9, 7);
  PlanOptions opt;
  opt.max_times_per_subgrid = 16;
  const Plan plan = make_plan(g, plan_input(v), v.weight, opt);
  EXPECT_EQ(plan.num_flagged, flagged);
  EXPECT_GT(plan.num_outside, 0u);
  EXPECT_EQ(plan.num_gridded + plan.num_flagged + plan.num_outside, v.num_visibilities());
  std::vector<int> seen(v.num_visibilities(), 0);
  for (const Subgrid& s : plan.subgrids) {
    EXPECT_LE(s.num_rows, 16u);
    EXPECT_GE(s.x0, 0);
    EXPECT_LE(s.x0 + g.subgrid_size, g.grid_size);
    std::set<int> baselines;
    for (std::uint32_t r = s.row_begin; r < s.row_begin + s.num_rows; ++r) {
      baselines.insert(v.baseline[r]);
      for (std::uint32_t c = s.chan_begin; c < s.chan_begin + s.num_channels; ++c) {
        const std::size_t k = r * v.num_channels + c;
        if (v.weight[k] > 0) {
          ++seen[k];
          // The footprint (taper support) is inside the subgrid.
          const double f = v.freq_hz[c] / kSpeedOfLight;
          const double x = g.grid_x(v.uvw_m[r][0] * f), y = g.grid_y(v.uvw_m[r][1] * f);
          EXPECT_GE(std::ceil(x - 3.5), s.x0);
          EXPECT_LE(std::floor(x + 3.5), s.x0 + g.subgrid_size - 1);
          EXPECT_GE(std::ceil(y - 3.5), s.y0);
          EXPECT_LE(std::floor(y + 3.5), s.y0 + g.subgrid_size - 1);
        }
      }
    }
    EXPECT_EQ(baselines.size(), 1u);
  }
  std::size_t once = 0;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    if (v.weight[k] > 0) {
      EXPECT_EQ(seen[k], 1) << "visibility " << k;
      once += seen[k] == 1;
    } else {
      EXPECT_EQ(seen[k], 0);
    }
  }
  EXPECT_EQ(once, plan.num_gridded);
}

TEST(ImagerPlan, BadGeometryIsAnError) {
  auto v = make_tracks<double>(3, 2, 1, 100.0, 100e6, 1e6);
  EXPECT_THROW(make_plan(geometry(64, 1e-4, 64, 8, 9, 7), plan_input(v), v.weight), Error);
  EXPECT_THROW(make_plan(geometry(64, 1e-4, 63, 32, 9, 7), plan_input(v), v.weight), Error);
}

TEST(ImagerTaper, KaiserBesselAndSpheroidal) {
  const Taper kb(TaperType::KaiserBessel, 7);
  EXPECT_NEAR(kb(0.0), 1.0, 1e-15);
  EXPECT_LT(kb(0.5), kb(0.3));
  const Taper sph(TaperType::Spheroidal, 9);
  EXPECT_EQ(sph.support(), 6);
  EXPECT_NEAR(sph(0.0), 1.0, 1e-12);
  EXPECT_LT(spheroidal(1.0), 0.01);
  EXPECT_GT(spheroidal(0.5), spheroidal(0.9));
}

// Dirty image of a few point sources by IDG vs the DFT of the same visibilities.
template <typename T>
double idg_vs_dft(int n, double fov_deg, int padded, int kernel, int taper_support,
                  TaperType type = TaperType::KaiserBessel, bool wide = false) {
  auto v = make_tracks<T>(16, 24, 4, wide ? 150.0 : 1200.0, 100e6, 2e6);
  const double cell = std::sin(fov_deg * std::numbers::pi / 180 / n);
  const double f = cell * n / 2;
  set_point_sources(v, {{0.0, 0.0, 1.0}, {0.3 * f, -0.2 * f, 0.5}, {-0.7 * f, 0.6 * f, 0.8}});
  GridGeometry g = geometry(n, cell, padded, 32, kernel, taper_support);
  g.w_step = auto_w_step(g, max_abs_w(v));
  const Taper tp(type, taper_support);
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  EXPECT_EQ(plan.num_outside, 0u);
  auto backend = make_cpu_backend<T>();
  const auto idg = idg_image(g, tp, plan, v, *backend);
  const auto dft = dft_image(v, n, cell);
  const double err = inner_rms(idg, dft, n) / peak(dft, n);
  std::printf("n %d fov %.1f padded %d K %d Wt %d layers %zu subgrids %zu: rel rms %.3g\n", n,
              fov_deg, padded, kernel, taper_support, plan.layers.size(), plan.subgrids.size(),
              err);
  return err;
}

TEST(ImagerIdg, DirtyImageMatchesDftDouble) {
  // Default geometry (kernel 9, taper 7, no padding) and with 25 % padding.
  EXPECT_LT(idg_vs_dft<double>(96, 2.0, 96, 9, 7), 2e-5);
  EXPECT_LT(idg_vs_dft<double>(96, 2.0, 120, 9, 7), 1e-6);
}

TEST(ImagerIdg, DirtyImageMatchesDftSingle) {
  EXPECT_LT(idg_vs_dft<float>(96, 2.0, 96, 9, 7), 1e-4);
}

TEST(ImagerIdg, WideFieldUsesWLayers) {
  // 20 degrees: |w| needs several layers; still close to the DFT (with w).
  EXPECT_LT(idg_vs_dft<double>(96, 20.0, 120, 9, 7, TaperType::KaiserBessel, true), 1e-5);
}

// The w-layer stack of the streamed path (every layer held, gridded, transformed at the end)
// gives idg_image's image of the same plan: the same grids, FFTs and layer sums.
TEST(ImagerIdg, LayerStackEqualsLayerByLayer) {
  auto v = make_tracks<double>(16, 24, 4, 150.0, 100e6, 2e6);
  const int n = 96;
  const double cell = std::sin(20.0 * std::numbers::pi / 180 / n);
  set_point_sources(v, {{0.0, 0.0, 1.0}, {0.2 * cell * n, -0.1 * cell * n, 0.5}});
  GridGeometry g = geometry(n, cell, 120);
  g.w_step = auto_w_step(g, max_abs_w(v));
  const Taper tp(TaperType::KaiserBessel, 7);
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  ASSERT_GT(plan.layers.size(), 2u);
  auto backend = make_cpu_backend<double>();
  const auto ref = idg_image(g, tp, plan, v, *backend);
  const auto stack = test::layered_image(g, tp, plan, v, *backend);
  double d = 0;
  for (std::size_t i = 0; i < ref.size(); ++i)
    d = std::max(d, std::hypot(stack[i].re - ref[i].re, stack[i].im - ref[i].im));
  EXPECT_LE(d, 1e-13 * peak(ref, n));
  EXPECT_EQ(backend->layers_location(), "host");
}

TEST(ImagerIdg, SpheroidalTaper) {
  EXPECT_LT(idg_vs_dft<double>(96, 2.0, 120, 9, 6, TaperType::Spheroidal), 1e-3);
}

// One visibility of weight 1: the image is exp(-2 pi i (u l + v m + w (n - 1))).
TEST(ImagerIdg, SingleVisibilityFringe) {
  VisBuffer<double> v;
  v.resize(1, 1, 1);
  v.freq_hz = {150e6};
  v.uvw_m[0] = {412.0, -237.0, 55.0};
  v.vis[0] = {0.6, 0.8};
  v.weight[0] = 2.0f;
  const int n = 64;
  const double cell = std::sin(4.0 * std::numbers::pi / 180 / n);
  GridGeometry g = geometry(n, cell, 80);
  g.w_step = auto_w_step(g, 55.0 * 150e6 / kSpeedOfLight);
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  ASSERT_EQ(plan.num_gridded, 1u);
  auto backend = make_cpu_backend<double>();
  const auto img = idg_image(g, Taper(TaperType::KaiserBessel, 7), plan, v, *backend);
  const double s = 150e6 / kSpeedOfLight;
  double worst = 0;
  for (int y = n / 10; y < n - n / 10; ++y)
    for (int x = n / 10; x < n - n / 10; ++x) {
      const double l = -(x - n / 2) * cell, m = (y - n / 2) * cell;
      const double nm1 = std::sqrt(1 - l * l - m * m) - 1;
      const std::complex<double> e =
          2.0 * std::complex<double>(0.6, 0.8) *
          std::exp(
              std::complex<double>(0, -2 * std::numbers::pi * s * (412 * l - 237 * m + 55 * nm1)));
      worst =
          std::max(worst, std::abs(std::complex<double>(img[y * n + x].re, img[y * n + x].im) - e));
    }
  // Per-visibility error of the default taper at the edge of the inner 80 %: ~1e-4.
  EXPECT_LT(worst, 1e-3);
}

// A point source of 1 Jy at the phase centre predicts V = 1 everywhere (a flat grid).
TEST(ImagerIdg, CentreSourcePredictsFlatVisibilities) {
  auto v = make_tracks<double>(10, 16, 4, 1200.0, 100e6, 2e6);
  const int n = 64;
  const double cell = std::sin(2.0 * std::numbers::pi / 180 / n);
  const GridGeometry g = geometry(n, cell, 80);
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  std::vector<Complex<double>> model(n * n, Complex<double>{0, 0});
  model[(n / 2) * n + n / 2] = {1.0, 0.0};
  auto backend = make_cpu_backend<double>();
  idg_predict(g, Taper(TaperType::KaiserBessel, 7), plan, model, v, *backend);
  double worst = 0;
  for (std::size_t k = 0; k < v.num_visibilities(); ++k)
    worst = std::max(worst, std::hypot(v.vis[k].re - 1.0, v.vis[k].im));
  EXPECT_LT(worst, 1e-5);
}

// Degridding predicts what the DFT predicts from a model image.
TEST(ImagerIdg, PredictMatchesDft) {
  auto v = make_tracks<double>(10, 16, 4, 1200.0, 100e6, 2e6);
  auto ref = v;
  const int n = 64;
  const double cell = std::sin(2.0 * std::numbers::pi / 180 / n);
  const GridGeometry g = geometry(n, cell, 80);
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  std::vector<Complex<double>> model(n * n, Complex<double>{0, 0});
  model[20 * n + 37] = {1.0, 0.0};
  model[40 * n + 12] = {0.5, 0.0};
  auto backend = make_cpu_backend<double>();
  idg_predict(g, Taper(TaperType::KaiserBessel, 7), plan, model, v, *backend);
  dft_predict(model, n, cell, ref);
  double err = 0, norm = 0;
  for (std::size_t k = 0; k < v.num_visibilities(); ++k) {
    err += std::pow(v.vis[k].re - ref.vis[k].re, 2) + std::pow(v.vis[k].im - ref.vis[k].im, 2);
    norm += std::pow(ref.vis[k].re, 2) + std::pow(ref.vis[k].im, 2);
  }
  EXPECT_LT(std::sqrt(err / norm), 1e-5);
}

// <V, G I> = <G^H V, I>: degridding is the adjoint of gridding (single precision, 4 pols).
template <typename T>
double adjoint_mismatch() {
  auto v = make_tracks<T>(10, 16, 4, 1500.0, 100e6, 2e6, 4);
  const int n = 64;
  const double cell = std::sin(3.0 * std::numbers::pi / 180 / n);
  GridGeometry g = geometry(n, cell, 80);  // padded: the taper correction stays moderate
  g.w_step = auto_w_step(g, max_abs_w(v));
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  // Visibilities of point sources and a positive random image, so that the inner products
  // do not cancel (a relative test of a near-zero number would measure nothing).
  set_point_sources(v, {{0.01, -0.005, 1.0}, {-0.02, 0.015, 0.7}});
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> ud(0.0, 1.0);
  std::vector<Complex<double>> image(4 * n * n);
  for (auto& x : image) x = {ud(rng), 0.1 * ud(rng)};
  auto backend = make_cpu_backend<T>();
  const Taper taper(TaperType::KaiserBessel, 7);
  const auto gv = idg_image(g, taper, plan, v, *backend);  // G V
  auto pred = v;
  idg_predict(g, taper, plan, image, pred, *backend);  // G^H I
  std::complex<double> lhs = 0, rhs = 0;               // <I, G V> and <G^H I, V>
  for (std::size_t i = 0; i < image.size(); ++i)
    lhs += std::conj(std::complex<double>(image[i].re, image[i].im)) *
           std::complex<double>(gv[i].re, gv[i].im);
  for (std::size_t k = 0; k < v.vis.size(); ++k)
    if (v.weight[k / 4] > 0)
      rhs += std::conj(std::complex<double>(pred.vis[k].re, pred.vis[k].im)) *
             std::complex<double>(v.vis[k].re, v.vis[k].im);
  return std::abs(lhs - rhs) / std::abs(lhs);
}

TEST(ImagerIdg, GriddingAndDegriddingAreAdjoint) {
  EXPECT_LT(adjoint_mismatch<float>(), 1e-5);
  EXPECT_LT(adjoint_mismatch<double>(), 1e-12);
  std::printf("adjoint mismatch: single %.3g, double %.3g\n", adjoint_mismatch<float>(),
              adjoint_mismatch<double>());
}

}  // namespace
}  // namespace fringe::imager

namespace fringe::imager {
namespace {

// A source at the new centre has V' = its flux after re-phasing (RA/Dec -> new frame).
TEST(ImagerRephase, SourceAtNewCentreBecomesFlat) {
  auto v = test::make_tracks<double>(8, 10, 3, 2000.0, 150e6, 1e6);
  const std::array<double, 2> c0{1.0, -0.5}, c1{1.01, -0.49};
  // (l, m) of c1 about c0 (SIN projection).
  const double dra = c1[0] - c0[0];
  const double l = std::cos(c1[1]) * std::sin(dra);
  const double m =
      std::sin(c1[1]) * std::cos(c0[1]) - std::cos(c1[1]) * std::sin(c0[1]) * std::cos(dra);
  test::set_point_sources(v, {{l, m, 2.0}});
  const auto uvw0 = v.uvw_m;
  rephase(v, c0, c1);
  double worst = 0, len_change = 0;
  for (std::size_t k = 0; k < v.num_visibilities(); ++k)
    worst = std::max(worst, std::hypot(v.vis[k].re - 2.0, v.vis[k].im));
  for (std::size_t r = 0; r < v.num_rows; ++r)
    len_change =
        std::max(len_change, std::abs(std::hypot(uvw0[r][0], uvw0[r][1], uvw0[r][2]) -
                                      std::hypot(v.uvw_m[r][0], v.uvw_m[r][1], v.uvw_m[r][2])));
  EXPECT_LT(worst, 1e-9);
  EXPECT_LT(len_change, 1e-9);
}

}  // namespace
}  // namespace fringe::imager

namespace fringe::imager {
namespace {

// Uniform weighting: the weights of each uv cell (with the conjugate cell) sum to 1 x the
// number of times the cell is hit by (u, v) and (-u, -v) over its own density; Briggs with
// robust +5 is natural within 1e-3 (relative), robust -5 close to uniform.
TEST(ImagerWeighting, UniformBriggsAndTaper) {
  auto v = test::make_tracks<double>(10, 20, 4, 1500.0, 100e6, 1e6);
  GridGeometry g;
  g.image_size = g.grid_size = 64;
  g.cell_rad = std::sin(2.0 * std::numbers::pi / 180 / 64);
  auto cell_of = [&](std::size_t r, int c) {
    const double s = v.freq_hz[c] / kSpeedOfLight;
    return std::lround(g.grid_y(v.uvw_m[r][1] * s)) * g.grid_size +
           std::lround(g.grid_x(v.uvw_m[r][0] * s));
  };
  ImagerConfig cfg;
  cfg.weighting = Weighting::Uniform;
  auto u = v;
  apply_weighting(cfg, g, u);
  // Density of each cell counted from both (u, v) and (-u, -v) with natural weights 1.
  std::map<long, double> density;
  for (std::size_t r = 0; r < v.num_rows; ++r)
    for (int c = 0; c < v.num_channels; ++c) {
      density[cell_of(r, c)] += 1;
      const double s = v.freq_hz[c] / kSpeedOfLight;
      density[std::lround(g.grid_y(-v.uvw_m[r][1] * s)) * g.grid_size +
              std::lround(g.grid_x(-v.uvw_m[r][0] * s))] += 1;
    }
  for (std::size_t r = 0; r < v.num_rows; ++r)
    for (int c = 0; c < v.num_channels; ++c)
      ASSERT_NEAR(u.weight[r * v.num_channels + c], 1.0 / density[cell_of(r, c)], 1e-6);
  cfg.weighting = Weighting::Briggs;
  cfg.robust = 5;
  auto b = v;
  apply_weighting(cfg, g, b);
  const double w0 = b.weight[0];
  for (float w : b.weight) EXPECT_NEAR(w / w0, 1.0, 2e-3);
  cfg.robust = -5;
  b = v;
  apply_weighting(cfg, g, b);
  for (std::size_t k = 0; k < b.weight.size(); ++k)
    EXPECT_NEAR(b.weight[k] / b.weight[0], u.weight[k] / u.weight[0],
                0.02 * u.weight[k] / u.weight[0]);
  // Gaussian taper: 0.3 at u = u0.
  cfg.weighting = Weighting::Natural;
  cfg.taper_u_lambda = 100.0;
  auto t = v;
  apply_weighting(cfg, g, t);
  const double s = v.freq_hz[0] / kSpeedOfLight;
  EXPECT_NEAR(t.weight[0], std::exp(std::log(0.3) * std::pow(v.uvw_m[0][0] * s / 100.0, 2)), 1e-6);
}

}  // namespace
}  // namespace fringe::imager

namespace fringe::imager {
namespace {

// Random smooth-ish A-terms: 2x2 Jones per station and subgrid pixel.
template <typename T>
ATerms<T> random_aterms(int stations, int intervals, int ns, unsigned seed, bool constant) {
  ATerms<T> a;
  a.num_stations = stations;
  a.num_intervals = intervals;
  a.subgrid_size = ns;
  a.values.resize(std::size_t(stations) * intervals * ns * ns * 4);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ud(-0.3, 0.3);
  for (std::size_t j = 0; j < a.values.size() / (ns * ns * 4); ++j) {
    Complex<T> base[4];
    for (int k = 0; k < 4; ++k) base[k] = {T((k == 0 || k == 3 ? 1.0 : 0.0) + ud(rng)), T(ud(rng))};
    for (int p = 0; p < ns * ns; ++p)
      for (int k = 0; k < 4; ++k) {
        const double f = constant ? 1.0 : 1.0 + 0.2 * std::cos(0.1 * p + k);
        a.values[(j * ns * ns + p) * 4 + k] = {T(base[k].re * f), T(base[k].im * f)};
      }
  }
  return a;
}

// <I, G_A V> = <G_A^H I, V> with direction-dependent A-terms (4 polarisations, 2 intervals).
TEST(ImagerATerms, AdjointWithATerms) {
  auto v = test::make_tracks<double>(8, 16, 4, 1500.0, 100e6, 2e6, 4);
  const int n = 64;
  GridGeometry g = geometry(n, std::sin(2.0 * std::numbers::pi / 180 / n), 80);
  PlanOptions opt;
  opt.aterm_interval_s = 80.0;  // 16 times of 10 s: 2 intervals
  PlanInput in = plan_input(v);
  in.station1 = v.station1;
  in.station2 = v.station2;
  const Plan plan = make_plan(g, in, v.weight, opt);
  int max_interval = 0;
  for (const auto& s : plan.subgrids) max_interval = std::max(max_interval, s.aterm_index);
  EXPECT_EQ(max_interval, 1);
  test::set_point_sources(v, {{0.01, -0.005, 1.0}, {-0.02, 0.015, 0.7}});
  const ATerms<double> a = random_aterms<double>(8, 2, 32, 11, false);
  auto backend = make_cpu_backend<double>();
  backend->set_aterms(&a);
  const Taper taper(TaperType::KaiserBessel, 7);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> ud(0.0, 1.0);
  std::vector<Complex<double>> image(4 * n * n);
  for (auto& x : image) x = {ud(rng), 0.1 * ud(rng)};
  const auto gv = idg_image(g, taper, plan, v, *backend);
  auto pred = v;
  idg_predict(g, taper, plan, image, pred, *backend);
  std::complex<double> lhs = 0, rhs = 0;
  for (std::size_t i = 0; i < image.size(); ++i)
    lhs += std::conj(std::complex<double>(image[i].re, image[i].im)) *
           std::complex<double>(gv[i].re, gv[i].im);
  for (std::size_t k = 0; k < v.vis.size(); ++k)
    if (v.weight[k / 4] > 0)
      rhs += std::conj(std::complex<double>(pred.vis[k].re, pred.vis[k].im)) *
             std::complex<double>(v.vis[k].re, v.vis[k].im);
  EXPECT_LT(std::abs(lhs - rhs) / std::abs(lhs), 1e-12);
}

// Direction-independent A-terms: gridding V with A-terms equals gridding A_p^H V A_q without,
// and degridding with A-terms equals A_p V A_q^H of degridding without.
TEST(ImagerATerms, ConstantATermsAreJonesMatrices) {
  auto v = test::make_tracks<double>(6, 10, 3, 1200.0, 100e6, 2e6, 4);
  test::set_point_sources(v, {{0.01, -0.005, 1.0}, {-0.02, 0.015, 0.7}});
  const int n = 64;
  GridGeometry g = geometry(n, std::sin(2.0 * std::numbers::pi / 180 / n), 80);
  PlanInput in = plan_input(v);
  in.station1 = v.station1;
  in.station2 = v.station2;
  const Plan plan = make_plan(g, in, v.weight);
  const ATerms<double> a = random_aterms<double>(6, 1, 32, 3, true);
  auto corrected = v;
  for (std::size_t r = 0; r < v.num_rows; ++r)
    for (int c = 0; c < v.num_channels; ++c)
      aterm_adjoint(a.at(0, v.station1[r]), a.at(0, v.station2[r]),
                    &corrected.vis[(r * v.num_channels + c) * 4]);
  auto with_a = make_cpu_backend<double>();
  with_a->set_aterms(&a);
  auto plain = make_cpu_backend<double>();
  const Taper taper(TaperType::KaiserBessel, 7);
  const auto img_a = idg_image(g, taper, plan, v, *with_a);
  const auto img_c = idg_image(g, taper, plan, corrected, *plain);
  double d = 0, s = 0;
  for (std::size_t i = 0; i < img_a.size(); ++i) {
    d = std::max(d, std::hypot(img_a[i].re - img_c[i].re, img_a[i].im - img_c[i].im));
    s = std::max(s, std::hypot(img_c[i].re, img_c[i].im));
  }
  EXPECT_LT(d, 1e-12 * s);
  std::vector<Complex<double>> model(4 * n * n, Complex<double>{0, 0});
  for (int q = 0; q < 4; ++q) model[q * n * n + 20 * n + 37] = {1.0 + q, 0.5};
  auto pa = v, pp = v;
  idg_predict(g, taper, plan, model, pa, *with_a);
  idg_predict(g, taper, plan, model, pp, *plain);
  double dv = 0;
  for (std::size_t r = 0; r < v.num_rows; ++r)
    for (int c = 0; c < v.num_channels; ++c) {
      Complex<double>* x = &pp.vis[(r * v.num_channels + c) * 4];
      aterm_apply(a.at(0, v.station1[r]), a.at(0, v.station2[r]), x);
      for (int q = 0; q < 4; ++q) {
        const Complex<double> y = pa.vis[(r * v.num_channels + c) * 4 + q];
        dv = std::max(dv, std::hypot(x[q].re - y.re, x[q].im - y.im));
      }
    }
  EXPECT_LT(dv, 1e-12);
  // A-terms that do not cover the stations are an error.
  const ATerms<double> small = random_aterms<double>(2, 1, 32, 3, true);
  with_a->set_aterms(&small);
  EXPECT_THROW(idg_image(g, taper, plan, v, *with_a), Error);
}

}  // namespace
}  // namespace fringe::imager
