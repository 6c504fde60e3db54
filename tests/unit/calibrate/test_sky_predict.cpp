// SkyPredictor (calibrate/sky_predict.h) against the analytic sum of point sources:
// V_pq = sum_s I_s exp(+2 pi i (U l + V m + W (n - 1)) / lambda) in XX and YY (unpolarised,
// no beam), with (U, V, W) the row's UVW, for rows in either station order (a row (q, p) holds
// V_pq^H), station uvw reconstructed from a set of baselines that does not contain station 0.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "fringe/astro/direction.h"
#include "fringe/calibrate/sky_predict.h"
#include "fringe/core/error.h"

namespace {

using fringe::Complex;
namespace fs = std::filesystem;
constexpr double kDeg = std::numbers::pi / 180.0;

std::string write_sky(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "test_sky_predict";
  fs::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

TEST(SkyPredict, PointSourcesMatchTheAnalyticSum) {
  const double ra0 = 60 * kDeg, dec0 = -30 * kDeg;
  const std::string sky = write_sky("two.osm", "60.0 -30.0 2.0\n60.5 -29.5 0.5\n");
  const std::vector<double> freqs = {100e6, 150e6};
  const fringe::calibrate::SkyPredictor pred(sky, ra0, dec0, freqs, 4);
  ASSERT_EQ(pred.num_sources(), 2u);
  // Stations 1, 2, 3 (station 0 absent); true station uvw [m].
  const double su[4] = {0, 120.0, -340.0, 75.0}, sv[4] = {0, 30.0, 210.0, -400.0},
               sw[4] = {0, 3.0, -8.0, 1.5};
  const int a1[] = {1, 3, 2}, a2[] = {2, 1, 3};  // (3, 1): the reversed order
  std::vector<std::array<double, 3>> uvw;
  for (int r = 0; r < 3; ++r) {
    uvw.push_back({su[a1[r]] - su[a2[r]], sv[a1[r]] - sv[a2[r]], sw[a1[r]] - sw[a2[r]]});
  }
  std::vector<Complex<float>> model(3 * freqs.size() * 4);
  pred.predict_time(4, a1, a2, uvw.data(), 3, model.data());
  double l[2], m[2], n[2];
  const double ra[2] = {60 * kDeg, 60.5 * kDeg}, dec[2] = {-30 * kDeg, -29.5 * kDeg};
  const double flux[2] = {2.0, 0.5};
  for (int s = 0; s < 2; ++s)
    fringe::astro::radec_to_lmn(ra[s], dec[s], ra0, dec0, l[s], m[s], n[s]);
  for (int r = 0; r < 3; ++r) {
    for (std::size_t c = 0; c < freqs.size(); ++c) {
      const double inv_lambda = freqs[c] / 299792458.0;
      double re = 0, im = 0;
      for (int s = 0; s < 2; ++s) {
        const double ph = 2 * std::numbers::pi * inv_lambda *
                          (uvw[r][0] * l[s] + uvw[r][1] * m[s] + uvw[r][2] * (n[s] - 1));
        re += flux[s] * std::cos(ph);
        im += flux[s] * std::sin(ph);
      }
      const Complex<float>* v = &model[(r * freqs.size() + c) * 4];
      for (int k : {0, 3}) {
        EXPECT_NEAR(v[k].re, re, 1e-5) << "row " << r << " channel " << c;
        EXPECT_NEAR(v[k].im, im, 1e-5) << "row " << r << " channel " << c;
      }
      EXPECT_NEAR(fringe::abs(v[1]), 0.0, 1e-6);
      EXPECT_NEAR(fringe::abs(v[2]), 0.0, 1e-6);
    }
  }
}

TEST(SkyPredict, GaussianSourcesAreRefusedNamingTheFile) {
  // RA Dec I Q U V ref_freq alpha RM FWHM_maj FWHM_min PA (OSKAR's fixed columns).
  const std::string sky = write_sky("gauss.osm", "60.0 -30.0 1 0 0 0 100e6 0 0 20 10 30\n");
  try {
    fringe::calibrate::SkyPredictor pred(sky, 60 * kDeg, -30 * kDeg, {100e6}, 4);
    FAIL() << "no error for a Gaussian source";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("gauss.osm"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Gaussian"), std::string::npos) << e.what();
  }
}

}  // namespace
