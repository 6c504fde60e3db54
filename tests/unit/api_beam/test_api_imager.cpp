// api::make_image: a unit point source at the phase centre gives a peak of 1 Jy/beam at pixel
// (n/2, n/2) (every visibility is 1, natural weights: sum w V / sum w); the DFT image of a
// small random case equals a direct sum written here from the convention of imager/dft.h
// (image(l, m) = Re sum_k w_k V_k exp(-2 pi i (u l + v m + w (n - 1))) / sum_k w_k, u, v, w in
// wavelengths, l = -(x - n/2) cell, m = (y - n/2) cell); IDG agrees with the DFT.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "fringe/api/imager.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace {

using namespace fringe;

struct Data {
  std::vector<double> uvw;
  std::vector<Complex<double>> vis;
  std::vector<double> weight;
  std::vector<double> freq{100e6};
};

Data random_data(std::size_t rows, double max_m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-max_m, max_m), w(0.1, 2.0), z(-1, 1);
  Data d;
  for (std::size_t r = 0; r < rows; ++r) {
    d.uvw.insert(d.uvw.end(), {u(rng), u(rng), 0.1 * u(rng)});
    d.vis.push_back({z(rng), z(rng)});
    d.weight.push_back(float(w(rng)));  // the imager keeps weights as float
  }
  return d;
}

api::VisibilityInput input_of(const Data& d) {
  api::VisibilityInput in;
  in.num_rows = d.vis.size();
  in.uvw_m = d.uvw;
  in.vis = d.vis;
  in.weight = d.weight;
  in.freq_hz = d.freq;
  return in;
}

TEST(ApiImager, CentrePointSourcePeaksAtOne) {
  Data d = random_data(300, 200.0, 1);
  for (auto& v : d.vis) v = {1.0, 0.0};
  for (auto alg : {imager::Algorithm::Dft2d, imager::Algorithm::Idg}) {
    api::ImagerConfig cfg;
    cfg.size = 64;
    cfg.cell_rad = 0.002;
    cfg.algorithm = alg;
    cfg.devices.use_gpus = false;
    const api::Image im = api::make_image(cfg, input_of(d));
    ASSERT_EQ(im.pixels.size(), 64u * 64u);
    const auto peak = std::max_element(im.pixels.begin(), im.pixels.end()) - im.pixels.begin();
    EXPECT_EQ(peak, 32 * 64 + 32);
    EXPECT_NEAR(im.pixels[32 * 64 + 32], 1.0, alg == imager::Algorithm::Idg ? 1e-3 : 1e-12);
  }
}

TEST(ApiImager, DftEqualsADirectSum) {
  const Data d = random_data(40, 100.0, 2);
  api::ImagerConfig cfg;
  cfg.size = 8;
  cfg.cell_rad = 0.01;
  cfg.algorithm = imager::Algorithm::Dft3d;
  const api::Image im = api::make_image(cfg, input_of(d));
  const int n = cfg.size;
  const double k = d.freq[0] / kSpeedOfLight;  // wavelengths per metre
  double wsum = 0;
  for (double w : d.weight) wsum += w;
  double max_err = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const double l = -(x - n / 2) * cfg.cell_rad, m = (y - n / 2) * cfg.cell_rad;
      const double nm1 = std::sqrt(1 - l * l - m * m) - 1;
      std::complex<double> sum = 0;
      for (std::size_t r = 0; r < d.vis.size(); ++r) {
        const double ph =
            -2 * kPi * k * (d.uvw[3 * r] * l + d.uvw[3 * r + 1] * m + d.uvw[3 * r + 2] * nm1);
        sum += d.weight[r] * std::complex<double>(d.vis[r].re, d.vis[r].im) * std::polar(1.0, ph);
      }
      max_err = std::max(max_err, std::abs(sum.real() / wsum - im.pixels[y * n + x]));
    }
  EXPECT_LT(max_err, 1e-12);
}

TEST(ApiImager, IdgAgreesWithDft) {
  const Data d = random_data(500, 150.0, 3);
  api::ImagerConfig cfg;
  cfg.size = 64;
  cfg.cell_rad = 0.003;
  cfg.devices.use_gpus = false;
  cfg.algorithm = imager::Algorithm::Dft3d;  // IDG includes the w term
  const api::Image dft = api::make_image(cfg, input_of(d));
  cfg.algorithm = imager::Algorithm::Idg;
  const api::Image idg = api::make_image(cfg, input_of(d));
  double peak = 0, err = 0;
  for (std::size_t i = 0; i < dft.pixels.size(); ++i) {
    peak = std::max(peak, std::abs(dft.pixels[i]));
    err = std::max(err, std::abs(dft.pixels[i] - idg.pixels[i]));
  }
  EXPECT_LT(err, 1e-2 * peak);
}

TEST(ApiImager, BadInputThrows) {
  const Data d = random_data(10, 10.0, 4);
  api::ImagerConfig cfg;
  cfg.size = 16;
  cfg.cell_rad = 0.01;
  api::VisibilityInput in = input_of(d);
  in.num_rows = 11;  // arrays hold 10
  EXPECT_THROW(api::make_image(cfg, in), Error);
  cfg.size = 15;  // odd
  EXPECT_THROW(api::make_image(cfg, input_of(d)), Error);
  cfg.size = 16;
  cfg.image_type = imager::ImageType::Stokes;  // four products from one value
  EXPECT_THROW(api::make_image(cfg, input_of(d)), Error);
  EXPECT_THROW(api::fov_to_cell_rad(0.0, 16), Error);
}

}  // namespace
