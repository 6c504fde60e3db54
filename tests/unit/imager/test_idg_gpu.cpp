// GPU tests of the CUDA IDG back end (label gpu; skipped without a CUDA device): gridding and
// degridding element by element against the CPU back end, with the grid on the GPU and in the
// hybrid host-grid scheme, in double (1e-10) and single precision (vs the CPU in double:
// 1e-4 of the largest value), with A-terms, and the GPU single-precision dirty image against
// the DFT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/imager/dft.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/idg_cuda.h"
#include "fringe/imager/plan.h"
#include "imager_test_data.h"

namespace fringe::imager {
namespace {

using test::make_tracks;
using test::set_point_sources;

bool have_gpu() { return !cuda_devices().empty(); }

GridGeometry geometry(int n, double fov_deg, int padded) {
  GridGeometry g;
  g.image_size = n;
  g.grid_size = padded;
  g.cell_rad = std::sin(fov_deg * std::numbers::pi / 180 / n);
  return g;
}

template <typename T>
PlanInput plan_input(const VisBuffer<T>& v) {
  return {v.num_rows, v.num_channels, v.uvw_m, v.time_s, v.baseline, v.freq_hz};
}

double max_diff(const std::vector<Complex<double>>& a, const std::vector<Complex<double>>& b,
                double* scale) {
  double d = 0, s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::hypot(a[i].re - b[i].re, a[i].im - b[i].im));
    s = std::max(s, std::hypot(b[i].re, b[i].im));
  }
  *scale = s;
  return d;
}

// nchan < 8 (single) or < 4 (double) runs the one-channel-per-thread degridder; streams = 1
// runs the batches on one stream; variant, degridder_variant: CudaIdgOptions'
// gridder_variant and degridder_variant (default: its defaults); uneven: channels not evenly spaced
// (no channel recurrence).
template <typename T>
void compare_with_cpu(int npol, bool host_grid, double tol, int nchan = 8, int streams = 2,
                      int variant = CudaIdgOptions{}.gridder_variant, bool uneven = false,
                      int degridder_variant = CudaIdgOptions{}.degridder_variant) {
  auto v = make_tracks<T>(12, 24, nchan, 1500.0, 100e6, 1e6, npol, 0.8, 7);
  if (uneven) v.freq_hz[1] += 0.3e6;
  set_point_sources(v, {{0.0, 0.0, 1.0}, {0.004, -0.006, 0.5}});
  GridGeometry g = geometry(96, 2.0, 120);
  double wmax = 0;
  for (const auto& u : v.uvw_m)
    wmax = std::max(wmax, std::abs(u[2]) * v.freq_hz.back() / kSpeedOfLight);
  g.w_step = auto_w_step(g, wmax);
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  const Taper taper(TaperType::KaiserBessel, 7);
  auto vd = make_tracks<double>(12, 24, nchan, 1500.0, 100e6, 1e6, npol, 0.8, 7);  // reference
  if (uneven) vd.freq_hz[1] += 0.3e6;
  set_point_sources(vd, {{0.0, 0.0, 1.0}, {0.004, -0.006, 0.5}});
  vd.weight = v.weight;
  auto cpu = make_cpu_backend<double>();
  CudaIdgOptions o;
  o.force_host_grid = host_grid;
  o.max_subgrids_per_batch = 17;  // several batches on both streams
  o.num_streams = streams;
  o.gridder_variant = variant;
  o.degridder_variant = degridder_variant;
  auto gpu = make_cuda_backend<T>(o);
  const auto ref = idg_image(g, taper, plan, vd, *cpu);
  const auto out = idg_image(g, taper, plan, v, *gpu);
  double scale = 0;
  const double d = max_diff(out, ref, &scale);
  EXPECT_LT(d, tol * scale) << "gridding, npol " << npol << " host grid " << host_grid;
  // Degridding of a model image.
  std::vector<Complex<double>> model(npol * 96 * 96, Complex<double>{0, 0});
  for (int q = 0; q < npol; ++q) {
    model[q * 96 * 96 + 40 * 96 + 50] = {1.0, 0.0};
    model[q * 96 * 96 + 70 * 96 + 20] = {0.3, 0.1};
  }
  idg_predict(g, taper, plan, model, vd, *cpu);
  idg_predict(g, taper, plan, model, v, *gpu);
  double dv = 0, sv = 0;
  for (std::size_t k = 0; k < v.vis.size(); ++k) {
    dv = std::max(dv, std::hypot(v.vis[k].re - vd.vis[k].re, v.vis[k].im - vd.vis[k].im));
    sv = std::max(sv, std::hypot(vd.vis[k].re, vd.vis[k].im));
  }
  EXPECT_LT(dv, tol * sv) << "degridding, npol " << npol << " host grid " << host_grid;
  std::printf(
      "npol %d host grid %d %s variants %d/%d%s: grid max diff %.3g of %.3g, degrid %.3g of "
      "%.3g\n",
      npol, host_grid, sizeof(T) == 4 ? "single" : "double", variant, degridder_variant,
      uneven ? " uneven" : "", d, scale, dv, sv);
}

TEST(ImagerGpu, DoubleMatchesCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  compare_with_cpu<double>(1, false, 1e-10);
  compare_with_cpu<double>(4, false, 1e-10);
  compare_with_cpu<double>(4, true, 1e-10);
  compare_with_cpu<double>(4, false, 1e-10, 3, 1);
}

// The streamed path's w-layer stack on the GPU (grids kept there, cuFFT, image summed in
// double there) and in host memory (force_host_grid), against the CPU's layer-by-layer
// idg_image of the same plan (several w layers).
template <typename T>
void layer_stack_matches_cpu(bool host_grid, double tol) {
  auto v = make_tracks<T>(12, 24, 8, 150.0, 100e6, 1e6, 4, 0.8, 7);
  set_point_sources(v, {{0.0, 0.0, 1.0}, {0.04, -0.06, 0.5}});
  auto vd = make_tracks<double>(12, 24, 8, 150.0, 100e6, 1e6, 4, 0.8, 7);
  set_point_sources(vd, {{0.0, 0.0, 1.0}, {0.04, -0.06, 0.5}});
  GridGeometry g = geometry(96, 20.0, 120);
  double wmax = 0;
  for (const auto& u : v.uvw_m)
    wmax = std::max(wmax, std::abs(u[2]) * v.freq_hz.back() / kSpeedOfLight);
  g.w_step = auto_w_step(g, wmax);
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  vd.weight = v.weight;
  ASSERT_GT(plan.layers.size(), 2u);
  const Taper taper(TaperType::KaiserBessel, 7);
  auto cpu = make_cpu_backend<double>();
  const auto ref = idg_image(g, taper, plan, vd, *cpu);
  CudaIdgOptions o;
  o.force_host_grid = host_grid;
  o.max_subgrids_per_batch = 17;
  auto gpu = make_cuda_backend<T>(o);
  const auto out = test::layered_image(g, taper, plan, v, *gpu);
  EXPECT_EQ(gpu->layers_location(), "host");  // released after finish_layers
  double scale = 0;
  const double d = max_diff(out, ref, &scale);
  EXPECT_LT(d, tol * scale) << "host grid " << host_grid;
  std::printf("layer stack %s host grid %d, %zu layers: max diff %.3g of %.3g\n",
              sizeof(T) == 4 ? "single" : "double", host_grid, plan.layers.size(), d, scale);
}

TEST(ImagerGpu, LayerStackMatchesCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  layer_stack_matches_cpu<double>(false, 1e-10);
  layer_stack_matches_cpu<double>(true, 1e-10);
  layer_stack_matches_cpu<float>(false, 1e-4);
}

TEST(ImagerGpu, SingleMatchesCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  compare_with_cpu<float>(1, false, 1e-4);
  compare_with_cpu<float>(4, true, 1e-4);
  compare_with_cpu<float>(4, false, 1e-4, 5, 1);
}

// Every gridder and degridder variant (idg_cuda.h), 4 and 1 polarisations, with the channel
// recurrence (evenly spaced channels) and without (uneven channels), single precision; double
// ignores the variants (runs 0); 5 channels: the degridder variant falls back to 0; 6 channels:
// the remainder of variant 5's loop unrolled over 4 channels.
TEST(ImagerGpu, KernelVariantsMatchCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (int k = 0; k < std::max(kNumGridderVariants, kNumDegridderVariants); ++k) {
    const int g = k % kNumGridderVariants, d = k % kNumDegridderVariants;
    compare_with_cpu<float>(4, false, 1e-4, 8, 2, g, false, d);
    compare_with_cpu<float>(1, false, 1e-4, 8, 2, g, false, d);
    compare_with_cpu<float>(4, false, 1e-4, 8, 2, g, true, d);
    compare_with_cpu<float>(1, false, 1e-4, 8, 2, g, true, d);
  }
  compare_with_cpu<float>(4, false, 1e-4, 5, 2, 2, false, 1);
  compare_with_cpu<float>(4, false, 1e-4, 6, 2, 5, false, 2);
  compare_with_cpu<double>(4, false, 1e-10, 8, 2, 2, false, 1);
  CudaIdgOptions o;
  o.gridder_variant = kNumGridderVariants;
  EXPECT_THROW(make_cuda_backend<float>(o), Error);
  o.gridder_variant = 0;
  o.degridder_variant = kNumDegridderVariants;
  EXPECT_THROW(make_cuda_backend<float>(o), Error);
}

// Direction-dependent A-terms (2 intervals, 4 polarisations), device and host grid.
TEST(ImagerGpu, ATermsMatchCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  auto v = make_tracks<double>(8, 16, 4, 1500.0, 100e6, 1e6, 4, 0.8, 9);
  set_point_sources(v, {{0.0, 0.0, 1.0}, {0.004, -0.006, 0.5}});
  const GridGeometry g = geometry(64, 2.0, 80);
  PlanOptions opt;
  opt.aterm_interval_s = 80.0;
  PlanInput in = plan_input(v);
  in.station1 = v.station1;
  in.station2 = v.station2;
  const Plan plan = make_plan(g, in, v.weight, opt);
  ATerms<double> a;
  a.num_stations = 8;
  a.num_intervals = 2;
  a.subgrid_size = 32;
  a.values.resize(std::size_t(8) * 2 * 32 * 32 * 4);
  for (std::size_t i = 0; i < a.values.size(); ++i)
    a.values[i] = {(i % 4 == 0 || i % 4 == 3 ? 1.0 : 0.1) + 0.2 * std::cos(0.37 * i),
                   0.15 * std::sin(0.23 * i)};
  const Taper taper(TaperType::KaiserBessel, 7);
  auto cpu = make_cpu_backend<double>();
  cpu->set_aterms(&a);
  const auto ref = idg_image(g, taper, plan, v, *cpu);
  std::vector<Complex<double>> model(4 * 64 * 64, Complex<double>{0, 0});
  for (int q = 0; q < 4; ++q) model[q * 64 * 64 + 30 * 64 + 41] = {1.0, 0.2};
  auto vc = v;
  idg_predict(g, taper, plan, model, vc, *cpu);
  for (bool host_grid : {false, true}) {
    CudaIdgOptions o;
    o.force_host_grid = host_grid;
    auto gpu = make_cuda_backend<double>(o);
    gpu->set_aterms(&a);
    const auto out = idg_image(g, taper, plan, v, *gpu);
    double scale = 0;
    const double d = max_diff(out, ref, &scale);  // sets scale: evaluate before comparing
    EXPECT_LT(d, 1e-10 * scale) << "host grid " << host_grid;
    auto vg = v;
    idg_predict(g, taper, plan, model, vg, *gpu);
    double dv = 0, sv = 0;
    for (std::size_t k = 0; k < vg.vis.size(); ++k) {
      dv = std::max(dv, std::hypot(vg.vis[k].re - vc.vis[k].re, vg.vis[k].im - vc.vis[k].im));
      sv = std::max(sv, std::hypot(vc.vis[k].re, vc.vis[k].im));
    }
    EXPECT_LT(dv, 1e-10 * sv) << "host grid " << host_grid;
  }
}

TEST(ImagerGpu, SingleDirtyImageMatchesDft) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  auto v = make_tracks<float>(16, 24, 4, 1200.0, 100e6, 2e6);
  const int n = 96;
  GridGeometry g = geometry(n, 2.0, 96);
  const double f = g.cell_rad * n / 2;
  set_point_sources(v, {{0.0, 0.0, 1.0}, {0.3 * f, -0.2 * f, 0.5}, {-0.7 * f, 0.6 * f, 0.8}});
  const Plan plan = make_plan(g, plan_input(v), v.weight);
  auto gpu = make_cuda_backend<float>(0);
  const auto idg = idg_image(g, Taper(TaperType::KaiserBessel, 7), plan, v, *gpu);
  const auto dft = dft_image(v, n, g.cell_rad);
  double s = 0, peak = 0;
  int count = 0;
  for (int y = n / 10; y < n - n / 10; ++y)
    for (int x = n / 10; x < n - n / 10; ++x, ++count)
      s += std::pow(idg[y * n + x].re - dft[y * n + x].re, 2);
  for (const auto& x : dft) peak = std::max(peak, std::abs(x.re));
  EXPECT_LT(std::sqrt(s / count) / peak, 1e-4);
}

}  // namespace
}  // namespace fringe::imager
