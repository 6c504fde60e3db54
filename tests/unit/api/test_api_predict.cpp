// fringe/api/predict.h: the direct predict of a sky against the closed form of
// docs/conventions.md ("Phase sign and the measurement equation"): a point source of flux S
// at (l, m) gives V_pq = S exp(+2 pi i (U l + V m + W (n - 1)) / lambda) on baseline
// (U, V, W) = uvw_p - uvw_q, XX = YY, XY = YX = 0 when unpolarised; autos equal S; station
// Jones J scale V_pq to J_p B J_q^H.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "fringe/api/predict.h"
#include "fringe/core/error.h"

namespace {

namespace api = fringe::api;
using cd = std::complex<double>;
constexpr double kDeg = std::numbers::pi / 180.0;
constexpr double kC = 299792458.0;

api::Sky one_source(double ra, double dec, double flux) {
  api::Sky sky;
  fringe::sky::Source s;
  s.ra = ra;
  s.dec = dec;
  s.I = flux;
  sky.push_back(s);
  return sky;
}

// Three stations with (u, v, w) up to a few km: phases of many turns.
const std::vector<double> kUvw = {0, 0, 0, 1234.5, -2345.6, 12.3, -3456.7, 987.6, -45.6};
const std::vector<double> kFreqs = {1.0e8, 1.4e9};

TEST(ApiPredict, PointSourceEqualsClosedForm) {
  api::PredictOptions o;
  o.phase_centre_ra = 30 * kDeg;
  o.phase_centre_dec = -40 * kDeg;
  o.autocorrelations = true;
  const double ra = 30.3 * kDeg, dec = -39.8 * kDeg, flux = 2.5;
  const api::PredictResult r = api::predict(one_source(ra, dec, flux), {}, kUvw, kFreqs, o);
  ASSERT_EQ(r.num_baselines, 3u);
  // Direction cosines (SIN projection about the phase centre).
  const double da = ra - o.phase_centre_ra;
  const double l = std::cos(dec) * std::sin(da);
  const double m = std::sin(dec) * std::cos(o.phase_centre_dec) -
                   std::cos(dec) * std::sin(o.phase_centre_dec) * std::cos(da);
  const double n = std::sqrt(1 - l * l - m * m);
  for (std::size_t c = 0; c < kFreqs.size(); ++c) {
    const double lambda = kC / kFreqs[c];
    std::size_t b = 0;
    for (int p = 0; p < 3; ++p) {
      for (int q = p + 1; q < 3; ++q, ++b) {
        const double U = kUvw[3 * p] - kUvw[3 * q], V = kUvw[3 * p + 1] - kUvw[3 * q + 1],
                     W = kUvw[3 * p + 2] - kUvw[3 * q + 2];
        const cd expected =
            flux * std::exp(cd(0, 2 * std::numbers::pi * (U * l + V * m + W * (n - 1)) / lambda));
        const cd* v = &r.cross[(c * 3 + b) * 4];
        EXPECT_NEAR(std::abs(v[0] - expected), 0, 1e-9) << c << " " << b;
        EXPECT_NEAR(std::abs(v[3] - expected), 0, 1e-9);
        EXPECT_EQ(std::abs(v[1]), 0.0);
        EXPECT_EQ(std::abs(v[2]), 0.0);
      }
    }
    for (int p = 0; p < 3; ++p) EXPECT_NEAR(std::abs(r.autos[(c * 3 + p) * 4] - flux), 0, 1e-12);
  }
}

TEST(ApiPredict, StationJonesScaleTheVisibility) {
  // Source at the phase centre: K = 1, so V_pq = g_p S conj(g_q) for diagonal J = g I.
  api::PredictOptions o;
  o.polarised = false;
  const std::vector<cd> g = {cd(1, 0), cd(0, 2), cd(0.5, -0.5)};
  const api::PredictResult r =
      api::predict(one_source(0, 0, 3.0), g, kUvw, std::vector<double>{1e8}, o);
  ASSERT_EQ(r.num_pols, 1);
  std::size_t b = 0;
  for (int p = 0; p < 3; ++p) {
    for (int q = p + 1; q < 3; ++q, ++b)
      EXPECT_NEAR(std::abs(r.cross[b] - g[p] * 3.0 * std::conj(g[q])), 0, 1e-12);
  }
}

TEST(ApiPredict, SingleAgreesWithDouble) {
  api::PredictOptions o;
  o.phase_centre_dec = 0.5;
  const api::Sky sky = one_source(0.01, 0.49, 1.0);
  const auto d = api::predict(sky, {}, kUvw, kFreqs, o);
  o.precision = fringe::Precision::Single;
  const auto f = api::predict(sky, {}, kUvw, kFreqs, o);
  for (std::size_t i = 0; i < d.cross.size(); ++i)
    EXPECT_NEAR(std::abs(d.cross[i] - f.cross[i]), 0, 1e-5);
}

TEST(ApiPredict, BadArgumentsThrow) {
  api::PredictOptions o;
  const api::Sky sky = one_source(0, 0, 1);
  EXPECT_THROW(api::predict(api::Sky(), {}, kUvw, kFreqs, o), fringe::Error);
  EXPECT_THROW(api::predict(sky, {}, std::vector<double>{1.0, 2.0}, kFreqs, o), fringe::Error);
  EXPECT_THROW(api::predict(sky, {}, kUvw, std::vector<double>{-1.0}, o), fringe::Error);
  EXPECT_THROW(api::predict(sky, std::vector<cd>(5), kUvw, kFreqs, o), fringe::Error);
}

}  // namespace
