// Array<T> and the memory functions on the host; GPU and pinned requests without a CUDA
// build (or without a GPU) must fail with a clear fringe::Error.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "fringe/core/array.h"
#include "fringe/core/complex.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"

namespace fringe {
namespace {

TEST(Array, DefaultIsEmpty) {
  Array<float> a;
  EXPECT_EQ(a.size(), 0u);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.location(), MemoryLocation::host());
}

TEST(Array, HostAccessFillZero) {
  Array<double> a(5);
  EXPECT_EQ(a.size(), 5u);
  EXPECT_EQ(a.bytes(), 5 * sizeof(double));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 64, 0u);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 1.5 * static_cast<double>(i);
  EXPECT_EQ(a.at(3), 4.5);
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), 0.0), 15.0);
  a.zero();
  for (double v : a) EXPECT_EQ(v, 0.0);
  a.fill(-2.0);
  for (double v : a.span()) EXPECT_EQ(v, -2.0);
  EXPECT_THROW(a.at(5), Error);
}

TEST(Array, ComplexZeroIsZero) {
  Array<Complex<float>> a(3);
  a.fill({1, 2});
  a.zero();
  for (const auto& z : a) {
    EXPECT_EQ(z.re, 0.0f);
    EXPECT_EQ(z.im, 0.0f);
  }
}

TEST(Array, MoveOnly) {
  static_assert(!std::is_copy_constructible_v<Array<int>>);
  static_assert(!std::is_copy_assignable_v<Array<int>>);
  static_assert(std::is_nothrow_move_constructible_v<Array<int>>);
  auto a = Array<int>::from_host(std::vector<int>{1, 2, 3});
  const int* p = a.data();
  Array<int> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from state is defined
  EXPECT_EQ(a.data(), nullptr);
  Array<int> c(2);
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.to_vector(), (std::vector<int>{1, 2, 3}));
}

TEST(Array, ResizeKeepsPrefix) {
  auto a = Array<int>::from_host(std::vector<int>{4, 5, 6, 7});
  a.resize(2);
  EXPECT_EQ(a.to_vector(), (std::vector<int>{4, 5}));
  a.resize(3);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0], 4);
  EXPECT_EQ(a[1], 5);
  a.resize(0);
  EXPECT_TRUE(a.empty());
}

TEST(Array, HostCopiesAreDeep) {
  auto a = Array<float>::from_host(std::vector<float>{1, 2, 3});
  Array<float> b;
  b.copy_from(a);
  EXPECT_EQ(b.to_vector(), a.to_vector());
  EXPECT_NE(b.data(), a.data());
  b[0] = 10;
  EXPECT_EQ(a[0], 1);
  Array<float> c = a.to(MemoryLocation::host());
  EXPECT_EQ(c.to_vector(), a.to_vector());
  EXPECT_NE(c.data(), a.data());
  Array<float> d = a.clone();
  d[2] = 0;
  EXPECT_EQ(a[2], 3);
  d.copy_from_host(std::vector<float>{7, 8, 9});
  EXPECT_EQ(d.to_vector(), (std::vector<float>{7, 8, 9}));
  EXPECT_THROW(d.copy_from_host(std::vector<float>{1}), Error);
}

TEST(MemoryLocation, Names) {
  EXPECT_EQ(to_string(MemoryLocation::host()), "host");
  EXPECT_EQ(to_string(MemoryLocation::pinned_host()), "pinned host");
  EXPECT_EQ(to_string(MemoryLocation::gpu(2)), "gpu 2");
  const MemoryLocation gpu = MemoryKind::Gpu;
  EXPECT_EQ(gpu, MemoryLocation::gpu(0));
  EXPECT_FALSE(gpu.host_accessible());
  EXPECT_TRUE(MemoryLocation::pinned_host().host_accessible());
  EXPECT_NE(MemoryLocation::gpu(0), MemoryLocation::gpu(1));
}

// Without a CUDA build, or with one but no GPU, GPU memory cannot be had: the request must
// throw a fringe::Error that says so, never crash or hand back host memory.
TEST(Array, GpuWithoutCudaOrDeviceThrows) {
  if (cuda_built() && !cuda_devices().empty()) GTEST_SKIP() << "a GPU is present";
  try {
    Array<float> a(16, MemoryLocation::gpu(0));
    FAIL() << "GPU allocation succeeded without a usable GPU";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("gpu 0"), std::string::npos) << m;
    if (!cuda_built()) {
      EXPECT_NE(m.find("without CUDA"), std::string::npos) << m;
    }
  }
  auto host = Array<float>::from_host(std::vector<float>{1, 2});
  EXPECT_THROW(host.to(MemoryLocation::gpu(0)), Error);
}

TEST(Array, PinnedWithoutCudaThrows) {
  if (cuda_built()) GTEST_SKIP() << "CUDA build: pinned memory is tested in test_core_gpu";
  try {
    Array<double> a(4, MemoryLocation::pinned_host());
    FAIL() << "pinned allocation succeeded without CUDA";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("pinned host"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("without CUDA"), std::string::npos) << e.what();
  }
}

TEST(Array, GpuElementAccessIsRefusedWithoutCopy) {
  // span()/at() on non-host memory must throw; checked on a GPU array when one exists.
  if (cuda_devices().empty()) GTEST_SKIP() << "no GPU";
  Array<int> a(3, MemoryLocation::gpu(0));
  EXPECT_THROW(a.span(), Error);
  EXPECT_THROW(a.at(0), Error);
}

}  // namespace
}  // namespace fringe
