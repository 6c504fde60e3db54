// The astro per-element formulas (*_math.h) evaluated on the GPU agree with the same formulas
// on the CPU element by element (docs/architecture.md, "Tests and benchmarks"): double to 1e-12,
// float to 1e-5.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "astro_kernels.h"

namespace ft = fringe::astro::test;

namespace {

template <typename T>
void compare(double tol) {
  if (ft::gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  constexpr double kPi = std::numbers::pi;
  const std::size_t n = 4096;
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> off(-1.0, 1.0), ang(-kPi, kPi), lat(-1.5, 1.5),
      small(-0.3, 0.3);
  std::vector<T> in(n * ft::kNumInputs);
  for (std::size_t i = 0; i < n; ++i) {
    T* p = &in[i * ft::kNumInputs];
    p[0] = T(off(rng)), p[1] = T(off(rng)), p[2] = T(off(rng));  // offsets in units of 1
    p[3] = T(ang(rng)), p[4] = T(lat(rng)), p[5] = T(lat(rng));
    p[6] = T(small(rng)), p[7] = T(p[4] + T(small(rng)) / T(2));
  }
  std::vector<T> host(n * ft::kNumOutputs), gpu(n * ft::kNumOutputs);
  ft::host_eval_astro(in.data(), host.data(), n);
  const std::string err = ft::gpu_eval_astro(in.data(), gpu.data(), n);
  ASSERT_TRUE(err.empty()) << err;
  double max_diff = 0.0;
  for (std::size_t i = 0; i < host.size(); ++i) {
    double d = std::abs(double(host[i]) - double(gpu[i]));
    if (i % ft::kNumOutputs == 6) d = std::min(d, 2 * kPi - d);  // azimuth wraps at 0 / 2pi
    max_diff = std::max(max_diff, d);
    ASSERT_LE(d, tol) << "element " << i / ft::kNumOutputs << " output " << i % ft::kNumOutputs
                      << ": host " << host[i] << " gpu " << gpu[i];
  }
  std::cout << "max |host - gpu| = " << max_diff << '\n';
}

}  // namespace

TEST(AstroGpu, DoubleMatchesHost) { compare<double>(1e-12); }
TEST(AstroGpu, FloatMatchesHost) { compare<float>(1e-5); }
