// The FFT imager end to end on the GPU (image/fft/grid_on_gpu and use_gpu: ConvGridCuda plus
// the cuFFT transform, conv_fft_cuda.h) against the CPU path, pixel by pixel, in both precisions
// and for each combination of the two switches. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fringe/core/device.h"
#include "fringe/imager/conv_imager.h"
#include "imager_test_data.h"

namespace fringe::imager {
namespace {

template <typename T>
void check_gpu_matches_cpu(bool grid_gpu, bool fft_gpu, double tol, double norm_tol) {
  if (cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  // 4 polarisations, 24 stations x 30 times x 4 channels; some visibilities fall off the
  // 256 x 256 grid, so the outside counts are compared too.
  auto make = [] {
    auto v = test::make_tracks<T>(24, 30, 4, 2500.0, 100e6, 3e6, 4);
    test::set_point_sources(v, {{0.01, -0.02, 1.0}, {-0.05, 0.03, 0.5}});
    return v;
  };
  const int n = 256;
  const double cell = 1.0 / (2.2 * 1000.0);
  FftConfig cpu_cfg;
  FftConfig gpu_cfg = cpu_cfg;
  gpu_cfg.grid_on_gpu = grid_gpu;
  gpu_cfg.fft_on_gpu = fft_gpu;
  auto vc = make(), vg = make();
  GridTotals tc, tg;
  const auto a = fft_image(cpu_cfg, vc, n, cell, 2, tc);
  const auto b = fft_image(gpu_cfg, vg, n, cell, 2, tg);
  EXPECT_EQ(tc.gridded, tg.gridded);
  EXPECT_EQ(tc.outside, tg.outside);
  EXPECT_GT(tc.outside, 0u);
  EXPECT_NEAR(tg.norm, tc.norm, norm_tol * tc.norm);
  EXPECT_EQ(vc.weight, vg.weight);  // the same visibilities zeroed as outside
  ASSERT_EQ(a.size(), b.size());
  double peak = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    peak = std::max(peak, std::abs(a[i].re));
    diff = std::max(diff, std::hypot(a[i].re - b[i].re, a[i].im - b[i].im));
  }
  std::printf("grid on %s, FFT on %s: max |GPU - CPU| = %.3g of the peak\n",
              grid_gpu ? "GPU" : "CPU", fft_gpu ? "GPU" : "CPU", diff / peak);
  EXPECT_LT(diff, tol * peak);
}

// Tolerances: atomics reorder the grid sums (docs/gpu_gridding.md) and cuFFT rounds
// differently from FFTW; the gridding correction amplifies both towards the image corners by
// up to ~6e4 (docs/imager_fft.md), so the bound is that factor times a few rounding units.
// Measured on an H200: double 2.3e-13 (grid on GPU) and 8e-14 (FFT on GPU) of the peak;
// single, all on the GPU, 1.1e-4 of the peak and the norm (summed in the gridding precision
// in a different order) to 3e-9 relative.
TEST(FftImagerGpu, DoubleAllOnGpu) { check_gpu_matches_cpu<double>(true, true, 1e-10, 1e-9); }
TEST(FftImagerGpu, DoubleGridOnGpuOnly) { check_gpu_matches_cpu<double>(true, false, 1e-10, 1e-9); }
TEST(FftImagerGpu, DoubleFftOnGpuOnly) { check_gpu_matches_cpu<double>(false, true, 1e-10, 1e-9); }
TEST(FftImagerGpu, SingleAllOnGpu) { check_gpu_matches_cpu<float>(true, true, 1e-3, 1e-5); }

// Prediction (fft_predict) with the degridding on the GPU against the CPU's, visibility by
// visibility: the same cells and kernel samples (conv_cell.h), sums in another order.
template <typename T>
void check_predict_gpu_matches_cpu(double tol) {
  if (cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const int n = 256;
  const double cell = 1.0 / (2.2 * 1000.0);
  auto vc = test::make_tracks<T>(24, 30, 4, 2500.0, 100e6, 3e6, 1);
  auto vg = vc;
  std::vector<Complex<double>> model(std::size_t(n) * n, Complex<double>{0.0, 0.0});
  model[std::size_t(n / 2) * n + n / 2] = {1.0, 0.0};
  model[std::size_t(n / 2 + 40) * n + n / 2 - 31] = {0.5, 0.2};
  FftConfig cpu_cfg;
  FftConfig gpu_cfg = cpu_cfg;
  gpu_cfg.grid_on_gpu = true;
  const GridTotals tc = fft_predict(cpu_cfg, model, n, cell, 2, vc);
  const GridTotals tg = fft_predict(gpu_cfg, model, n, cell, 2, vg);
  EXPECT_EQ(tc.gridded, tg.gridded);
  EXPECT_EQ(tc.outside, tg.outside);
  EXPECT_GT(tc.outside, 0u);
  double worst = 0;
  for (std::size_t k = 0; k < vc.num_visibilities(); ++k)
    worst = std::max(worst, std::hypot(double(vc.vis[k].re - vg.vis[k].re),
                                       double(vc.vis[k].im - vg.vis[k].im)));
  std::printf("predict: max |GPU - CPU| = %.3g Jy\n", worst);
  EXPECT_LT(worst, tol);
}

TEST(FftPredictGpu, DoubleMatchesCpu) { check_predict_gpu_matches_cpu<double>(1e-12); }
TEST(FftPredictGpu, SingleMatchesCpu) { check_predict_gpu_matches_cpu<float>(1e-5); }

}  // namespace
}  // namespace fringe::imager
