// Shared by the GPU-vs-CPU simulation tests of this folder (test_interferometer_gpu.cpp,
// test_gain_model_gpu.cpp): a simulation case, one run of it on either back end into a
// Measurement Set under the build tree, and the element-by-element comparison of the DATA
// both runs wrote. Header-only; each test binary compiles its own copy.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/device.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe_sim_test {

struct SimCase {
  fringe::telescope::TelescopeModel tel;
  fringe::sim::SimulationConfig config;
  fringe::sky::SkyModel sky;
};

// Runs `c` on the GPU (all devices) or the CPU (2 threads) into
// <build>/<folder>/<name>_{gpu,cpu}.ms (replaced) and returns the MS's DATA.
inline std::vector<fringe::Complex<float>> run_case(SimCase& c, bool gpu, const std::string& folder,
                                                    const std::string& name) {
  namespace fs = std::filesystem;
  c.config.devices.use_gpus = gpu;
  c.config.devices.num_devices = gpu ? 0 : 2;
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / folder;
  fs::create_directories(dir);
  const fs::path ms = dir / (name + (gpu ? "_gpu.ms" : "_cpu.ms"));
  fs::remove_all(ms);
  c.config.ms_path = ms.string();
  fringe::sim::RunContext ctx;
  const auto result = fringe::sim::simulate_interferometer(c.config, c.sky, c.tel, ctx);
  EXPECT_EQ(result.gpus.empty(), !gpu);
  return fringe::io::MsReader(result.ms_path).read_data();
}

// sqrt(sum |a - b|^2 / sum |b|^2).
inline double rel_rms(const std::vector<fringe::Complex<float>>& a,
                      const std::vector<fringe::Complex<float>>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += std::norm(std::complex<double>(a[i].re - b[i].re, a[i].im - b[i].im));
    den += std::norm(std::complex<double>(b[i].re, b[i].im));
  }
  return std::sqrt(num / den);
}

// max |a - b| / max |b| (every element held to the scale of the largest).
inline double max_rel(const std::vector<fringe::Complex<float>>& a,
                      const std::vector<fringe::Complex<float>>& b) {
  double max_diff = 0, max_ref = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::complex<double> x(a[i].re, a[i].im), y(b[i].re, b[i].im);
    max_diff = std::max(max_diff, std::abs(x - y));
    max_ref = std::max(max_ref, std::abs(y));
  }
  return max_ref > 0 ? max_diff / max_ref : HUGE_VAL;
}

enum class Metric { RelativeRms, MaxOverMax };

// Runs `c` on the CPU and on the GPU and expects `metric` of GPU against CPU below `tol`;
// skips without a CUDA device. Prints the measured value.
inline void compare_gpu_cpu(SimCase c, const std::string& folder, const std::string& name,
                            double tol, Metric metric) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const auto cpu = run_case(c, false, folder, name);
  const auto gpu = run_case(c, true, folder, name);
  ASSERT_EQ(cpu.size(), gpu.size());
  ASSERT_FALSE(cpu.empty());
  const bool rms = metric == Metric::RelativeRms;
  const double err = rms ? rel_rms(gpu, cpu) : max_rel(gpu, cpu);
  EXPECT_LT(err, tol) << name;
  std::printf("[ gpu vs cpu ] %-32s %s %.3e\n", name.c_str(),
              rms ? "relative RMS" : "max |diff| / max |cpu|", err);
}

}  // namespace fringe_sim_test
