// Shared helpers for the sky tests: fixture paths and a per-test temporary directory.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fringe::sky::test {

inline std::string fixture(const std::string& name) {
  return std::string(FRINGE_SOURCE_DIR) + "/tests/data/sky/" + name;
}

// A fresh directory under the build tree for one test.
inline std::filesystem::path temp_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir = std::filesystem::path(FRINGE_BINARY_DIR) / "tests_tmp" / "sky" /
                              (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

constexpr double kDeg = 3.14159265358979323846 / 180.0;
constexpr double kArcsec = kDeg / 3600.0;

}  // namespace fringe::sky::test
