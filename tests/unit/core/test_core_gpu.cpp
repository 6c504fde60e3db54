// GPU tests (label gpu): Jones products on the device against the host, element by element,
// Array round trips host -> pinned -> GPU -> host, and CUDA errors becoming fringe::Error.
// Every test skips when no CUDA GPU is found.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "fringe/core/array.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/jones.h"
#include "jones_kernel.h"

namespace fringe {
namespace {

#define SKIP_WITHOUT_GPU()                                     \
  do {                                                         \
    if (cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU"; \
  } while (0)

template <typename T>
std::vector<Jones<T>> random_jones(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  std::vector<Jones<T>> v(n);
  for (auto& j : v) {
    for (Complex<T>* z : {&j.a, &j.b, &j.c, &j.d}) {
      z->re = static_cast<T>(u(rng));
      z->im = static_cast<T>(u(rng));
    }
  }
  return v;
}

template <typename T>
void check_products(double tolerance) {
  const std::size_t n = 1000;
  const auto p = random_jones<T>(n, 1), b = random_jones<T>(n, 2), q = random_jones<T>(n, 3);
  const auto gpu = MemoryLocation::gpu(0);
  auto dp = Array<Jones<T>>::from_host(p, gpu);
  auto db = Array<Jones<T>>::from_host(b, gpu);
  auto dq = Array<Jones<T>>::from_host(q, gpu);
  Array<Jones<T>> dsandwich(n, gpu), dprod(n, gpu);
  test::gpu_jones_products(dp.data(), db.data(), dq.data(), dsandwich.data(), dprod.data(), n);
  const auto sandwich = dsandwich.to_vector();
  const auto prod = dprod.to_vector();
  auto near = [&](Complex<T> got, Complex<T> want) {
    const double scale = std::max(1.0, static_cast<double>(abs(want)));
    EXPECT_NEAR(got.re, want.re, tolerance * scale);
    EXPECT_NEAR(got.im, want.im, tolerance * scale);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Jones<T> s = jones_sandwich(p[i], b[i], q[i]);
    const Jones<T> m = p[i] * b[i];
    near(sandwich[i].a, s.a);
    near(sandwich[i].b, s.b);
    near(sandwich[i].c, s.c);
    near(sandwich[i].d, s.d);
    near(prod[i].a, m.a);
    near(prod[i].b, m.b);
    near(prod[i].c, m.c);
    near(prod[i].d, m.d);
  }
}

TEST(CoreGpu, JonesDoubleMatchesHost) {
  SKIP_WITHOUT_GPU();
  check_products<double>(1e-12);  // FMA contraction may differ from the host in the last bits
}

TEST(CoreGpu, JonesFloatMatchesHost) {
  SKIP_WITHOUT_GPU();
  check_products<float>(1e-5);
}

TEST(CoreGpu, ArrayRoundTrip) {
  SKIP_WITHOUT_GPU();
  std::vector<double> values(12345);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::sin(0.001 * double(i));
  auto host = Array<double>::from_host(values);
  Array<double> pinned = host.to(MemoryLocation::pinned_host());
  EXPECT_TRUE(pinned.host_accessible());
  EXPECT_EQ(pinned[17], values[17]);
  Array<double> device = pinned.to(MemoryLocation::gpu(0));
  EXPECT_EQ(device.location(), MemoryLocation::gpu(0));
  EXPECT_THROW(device.span(), Error);
  Array<double> device2 = device.clone();  // GPU -> GPU
  Array<double> back(3);
  back.copy_from(device2);
  EXPECT_EQ(back.to_vector(), values);
  EXPECT_EQ(device2.to_vector(), values);

  device.resize(5);  // keeps the prefix on the device
  EXPECT_EQ(device.to_vector(), std::vector<double>(values.begin(), values.begin() + 5));
  device.zero();
  EXPECT_EQ(device.to_vector(), std::vector<double>(5, 0.0));
  device.fill(2.5);
  EXPECT_EQ(device.to_vector(), std::vector<double>(5, 2.5));
}

TEST(CoreGpu, BadDeviceIndexThrows) {
  SKIP_WITHOUT_GPU();
  const int count = static_cast<int>(cuda_devices().size());
  try {
    Array<float> a(4, MemoryLocation::gpu(count));
    FAIL() << "allocation on a missing GPU succeeded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gpu " + std::to_string(count)), std::string::npos)
        << e.what();
  }
}

TEST(CoreGpu, LaunchErrorNamesKernel) {
  SKIP_WITHOUT_GPU();
  try {
    test::gpu_bad_launch();
    FAIL() << "an invalid launch was not reported";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("empty_kernel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cudaError"), std::string::npos) << e.what();
  }
}

TEST(CoreGpu, DeviceInfo) {
  SKIP_WITHOUT_GPU();
  const auto gpus = cuda_devices();
  EXPECT_GT(gpus[0].total_memory, std::size_t{1} << 30);
  EXPECT_GT(gpus[0].free_memory, 0u);
  std::cout << describe_devices();
}

}  // namespace
}  // namespace fringe
