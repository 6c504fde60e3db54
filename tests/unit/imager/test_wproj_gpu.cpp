// W-projection gridding on a CUDA device (grid_wproj_cuda, wproj_grid.h) against the CPU
// gridder, element by element, in double and single precision: same cells, kernel samples and
// planes (one placement formula, wproj_place.h), same skipped visibilities and norm; grid
// values equal to rounding (the GPU adds with atomics in another order).
// The GPU tests skip without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/imager/conv_config.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/wproj_grid.h"
#include "fringe/imager/wproj_kernels.h"

namespace fringe::imager {
namespace {

bool have_gpu() { return !cuda_devices().empty(); }

// 128-pixel image of 0.004 (a 0.5 rad field) with |w| up to 150 wavelengths: 16+ planes whose
// supports grow from 4 to the cap, and baselines long enough that some leave the grid.
struct Case {
  int n = 128;
  double cell = 0.004;
  int grid = 0;
  WKernels kernels;
  std::vector<double> uu, vv, ww;
  std::vector<float> weight;
  std::vector<Complex<double>> vis;  // [vis][pol]
  int npol = 4;
};

Case make_case(std::size_t num_vis) {
  Case c;
  c.grid = wproj_grid_size(c.n, 1.2);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> uv(-110.0, 110.0), w(-150.0, 150.0), a(-1.0, 1.0);
  std::uniform_real_distribution<float> wt(0.5f, 2.0f);
  for (std::size_t i = 0; i < num_vis; ++i) {
    c.uu.push_back(uv(rng));
    c.vv.push_back(uv(rng));
    c.ww.push_back(i % 7 == 0 ? 0.0 : w(rng));
    c.weight.push_back(i % 11 == 0 ? 0.0f : wt(rng));  // some not to be gridded
    for (int q = 0; q < c.npol; ++q) c.vis.push_back({a(rng), a(rng)});
  }
  WStats s = w_stats(c.ww.data(), c.weight.data(), num_vis);
  const WPlanes p = wproj_planes(0, s, c.cell, c.n);
  c.kernels = make_w_kernels(
      p, 4, c.n, c.grid, wproj_conv_size(c.n, 1.2, p.num_planes, std::size_t(1) << 36), c.cell, 0);
  return c;
}

template <typename T>
void compare_gpu_cpu(double tol) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Case c = make_case(20000);
  const WKernelRows<T> rows = kernel_rows<T>(c.kernels);
  std::vector<Complex<T>> vis(c.vis.size());
  for (std::size_t i = 0; i < vis.size(); ++i) vis[i] = {T(c.vis[i].re), T(c.vis[i].im)};
  std::vector<float> w_cpu = c.weight, w_gpu = c.weight;
  auto view = [&](std::vector<float>& w) {
    ConvVisView<T> v;
    v.num_vis = c.uu.size();
    v.num_pols = c.npol;
    v.uu = c.uu.data();
    v.vv = c.vv.data();
    v.ww = c.ww.data();
    v.vis = vis.data();
    v.weight = w.data();
    return v;
  };
  const std::size_t len = std::size_t(c.npol) * c.grid * c.grid;
  std::vector<Complex<T>> g_cpu(len, Complex<T>{T(0), T(0)}), g_gpu(len, Complex<T>{T(1), T(-1)});
  const GridTotals tc = grid_wproj_cpu(rows, view(w_cpu), c.cell, c.grid, g_cpu.data(), 0);
  const GridTotals tg = grid_wproj_cuda(rows, view(w_gpu), c.cell, c.grid, g_gpu.data(), 0);
  EXPECT_EQ(tg.gridded, tc.gridded);
  EXPECT_EQ(tg.outside, tc.outside);
  EXPECT_GT(tc.outside, 0u);    // the case does exercise skipping
  EXPECT_EQ(tg.norm, tc.norm);  // the same host sum
  EXPECT_EQ(w_gpu, w_cpu);
  // The GPU grid started at 1 - i everywhere (it is added to).
  double peak = 0.0;
  for (const auto& g : g_cpu) peak = std::max(peak, std::hypot(double(g.re), double(g.im)));
  ASSERT_GT(peak, 0.0);
  double worst = 0.0;
  for (std::size_t i = 0; i < len; ++i)
    worst = std::max(worst, std::hypot(double(g_gpu[i].re) - 1.0 - double(g_cpu[i].re),
                                       double(g_gpu[i].im) + 1.0 - double(g_cpu[i].im)));
  EXPECT_LE(worst, tol * peak);
}

TEST(WProjGpu, DoubleMatchesCpu) { compare_gpu_cpu<double>(1e-12); }

TEST(WProjGpu, SingleMatchesCpu) { compare_gpu_cpu<float>(5e-5); }

// wproj_image with image/fft/grid_on_gpu: the same image as on the CPU.
TEST(WProjGpu, ImageOnGpuMatchesCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Case c = make_case(5000);
  VisBuffer<double> vis;
  vis.resize(c.uu.size(), 1, c.npol);
  vis.freq_hz = {kSpeedOfLight};  // uvw in metres = wavelengths
  for (std::size_t i = 0; i < c.uu.size(); ++i) {
    vis.uvw_m[i] = {c.uu[i], c.vv[i], c.ww[i]};
    vis.weight[i] = c.weight[i];
  }
  vis.vis = c.vis;
  VisBuffer<double> vis_gpu = vis;
  WProjConfig cpu, gpu;
  gpu.grid_on_gpu = true;
  GridTotals tc, tg;
  const auto a = wproj_image(cpu, vis, c.n, c.cell, 0, tc);
  const auto b = wproj_image(gpu, vis_gpu, c.n, c.cell, 0, tg);
  EXPECT_EQ(tg.outside, tc.outside);
  double peak = 0.0, worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    peak = std::max(peak, std::hypot(a[i].re, a[i].im));
    worst = std::max(worst, std::hypot(a[i].re - b[i].re, a[i].im - b[i].im));
  }
  ASSERT_GT(peak, 0.0);
  EXPECT_LE(worst, 1e-11 * peak);
}

}  // namespace
}  // namespace fringe::imager
