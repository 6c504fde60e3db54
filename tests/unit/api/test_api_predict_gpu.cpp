// fringe/api/predict.h on a GPU against the CPU, value by value (label gpu; skips without a
// CUDA device): the same sums in the same order up to rounding (docs/gpu_predict.md: double
// agrees to ~1e-14 relative).
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "fringe/api/predict.h"
#include "fringe/core/device.h"

namespace {

namespace api = fringe::api;
const std::vector<double> kUvw = {0, 0, 0, 1234.5, -2345.6, 12.3, -3456.7, 987.6, -45.6};
const std::vector<double> kFreqs = {1.0e8, 1.4e9};

TEST(ApiPredictGpu, GpuEqualsCpu) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU";
  api::PredictOptions o;
  o.phase_centre_dec = 0.5;
  o.autocorrelations = true;
  api::Sky sky;
  for (int i = 0; i < 40; ++i) {
    fringe::sky::Source s;
    s.ra = 0.002 * i;
    s.dec = 0.5 - 0.001 * i;
    s.I = 1 + i;
    s.Q = 0.1 * i;
    sky.push_back(s);
  }
  const auto cpu = api::predict(sky, {}, kUvw, kFreqs, o);
  o.use_gpu = true;
  const auto gpu = api::predict(sky, {}, kUvw, kFreqs, o);
  ASSERT_EQ(cpu.cross.size(), gpu.cross.size());
  for (std::size_t i = 0; i < cpu.cross.size(); ++i)
    EXPECT_NEAR(std::abs(cpu.cross[i] - gpu.cross[i]), 0, 1e-9);
  for (std::size_t i = 0; i < cpu.autos.size(); ++i)
    EXPECT_NEAR(std::abs(cpu.autos[i] - gpu.autos[i]), 0, 1e-9);
}

}  // namespace
