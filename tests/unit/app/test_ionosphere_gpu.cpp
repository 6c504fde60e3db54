// GPU test (label gpu) of the ionospheric TEC screen (docs/ionosphere.md): the simulator's CUDA
// back end (jones/tec_screen_cuda.h through sim/gpu_unit) against its CPU back end, element by
// element, on the OSKAR reference cases of tests/data/oskar-ionosphere: Scalar mode (full and
// isoplanatic screens), Full mode with Faraday rotation, and drift scans in both modes, in
// double and single precision. Skips without a CUDA GPU.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "fringe/core/device.h"
#include "sim_run_helpers.h"

namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(FRINGE_SOURCE_DIR) + "/tests/data/oskar-ionosphere";
const fs::path kOut = fs::path(FRINGE_BINARY_DIR) / "ionosphere_gpu_test";

std::string simulate(const std::string& ini, bool gpu) {
  return sim_test::simulate(sim_test::load_sim_settings(kData, ini + ".ini", gpu), kOut,
                            ini + (gpu ? "_gpu.vis" : "_cpu.vis"));
}

// Largest |V_gpu - V_cpu| over the largest |V_cpu| (cross and auto correlations, every
// polarisation).
template <typename T>
double relative_difference(const std::string& ini) {
  const sim_test::Difference d =
      sim_test::compare_vis<T>(simulate(ini, false), simulate(ini, true));
  EXPECT_GT(d.peak, 0.5) << ini;
  return d.relative();
}

TEST(IonosphereGpu, MatchesCpu) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU";
  // Double: the same formulas in the same precision; only sincos/rounding of the libraries
  // differ. Single: float pierce points may fall on the other side of a pixel edge only at
  // float rounding; the bound is that of the single-precision predict.
  for (const std::string name : {"iono_double", "iono_double_iso", "iono_full_double",
                                 "iono_drift_double", "iono_drift_full_double"}) {
    const double r = relative_difference<double>(name);
    EXPECT_LT(r, 1e-9) << name;
    std::cout << name << ": max |GPU - CPU| / peak = " << r << "\n";
  }
  for (const std::string name : {"iono_single", "iono_single_iso", "iono_full_single",
                                 "iono_drift_single", "iono_drift_full_single"}) {
    const double r = relative_difference<float>(name);
    EXPECT_LT(r, 1e-4) << name;
    std::cout << name << ": max |GPU - CPU| / peak = " << r << "\n";
  }
}

}  // namespace
