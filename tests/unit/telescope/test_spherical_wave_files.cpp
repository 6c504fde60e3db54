// OSKAR's spherical-wave coefficient files (telescope/spherical_wave_files.h): where each
// file's numbers go, the nearest frequency, inheritance by name, max_order, and errors that
// name the file (and line) for malformed files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/telescope/spherical_wave_files.h"

namespace fs = std::filesystem;
using namespace fringe::telescope;

namespace {

// A fresh folder under the test's temporary directory.
fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fringe_sw_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

// Orders 1 and 2 (3 + 5 numbers), padded as OSKAR's files are.
const char* kTwoOrders = "# comment\n1 2 3 0 0\n4 5 6 7 8\n";

std::string error_of(const PatternFileMap& map, int max_order = 0) {
  try {
    load_spherical_wave_patterns(map, max_order);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "loaded without error";
  return "";
}

#define EXPECT_HAS(text, part) \
  EXPECT_NE((text).find(part), std::string::npos) << "missing '" << (part) << "' in: " << (text)

}  // namespace

TEST(SphericalWaveFiles, PartsGoToTheirSlots) {
  const fs::path d = scratch("slots");
  write(d / "element_pattern_spherical_wave_x_te_re_0_100.txt", kTwoOrders);
  write(d / "element_pattern_spherical_wave_tm_im_0_100.txt", kTwoOrders);
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  ASSERT_EQ(map.size(), 2u);
  const auto types = load_spherical_wave_patterns(map, 0);
  ASSERT_EQ(types.size(), 1u);
  const SphericalWaveCoeffs* c = types[0].nearest(100e6);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->l_max, 2);
  EXPECT_DOUBLE_EQ(c->freq_hz, 100e6);
  ASSERT_EQ(c->coeff.size(), 4u * 8u);  // (2 + 1)^2 - 1 modes, 4 parts each
  // Mode index 4 is (l = 2, m = -2), the 4th number of the file (line 2, first value).
  EXPECT_EQ(c->coeff[4 * 3 + 0], std::complex<double>(4.0, 0.0));  // X TE (x file, real)
  EXPECT_EQ(c->coeff[4 * 3 + 2], std::complex<double>(0.0, 0.0));  // Y TE: no file
  EXPECT_EQ(c->coeff[4 * 3 + 1], std::complex<double>(0.0, 4.0));  // X TM (both feeds, imag)
  EXPECT_EQ(c->coeff[4 * 3 + 3], std::complex<double>(0.0, 4.0));  // Y TM
}

TEST(SphericalWaveFiles, NearestFrequencyTypesAndMaxOrder) {
  const fs::path d = scratch("freq");
  write(d / "element_pattern_spherical_wave_te_re_0_100.txt", kTwoOrders);
  write(d / "element_pattern_spherical_wave_te_re_0_120.txt", kTwoOrders);
  write(d / "element_pattern_spherical_wave_te_re_2_110.txt", kTwoOrders);
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  const auto types = load_spherical_wave_patterns(map, 1);
  ASSERT_EQ(types.size(), 3u);
  EXPECT_TRUE(types[1].empty());
  EXPECT_DOUBLE_EQ(types[0].nearest(109e6)->freq_hz, 100e6);
  EXPECT_DOUBLE_EQ(types[0].nearest(111e6)->freq_hz, 120e6);
  EXPECT_DOUBLE_EQ(types[2].nearest(50e6)->freq_hz, 110e6);
  EXPECT_EQ(types[0].nearest(100e6)->l_max, 1);  // max_order = 1
}

TEST(SphericalWaveFiles, DeeperFolderReplacesByName) {
  const fs::path root = scratch("inherit");
  fs::create_directories(root / "station");
  write(root / "element_pattern_spherical_wave_te_re_0_100.txt", kTwoOrders);
  write(root / "station" / "element_pattern_spherical_wave_te_re_0_100.txt", "9 9 9\n");
  PatternFileMap map;
  add_spherical_wave_files(root, map);
  add_spherical_wave_files(root / "station", map);
  const auto types = load_spherical_wave_patterns(map, 0);
  EXPECT_EQ(types[0].nearest(100e6)->l_max, 1);
  EXPECT_EQ(types[0].nearest(100e6)->coeff[0], std::complex<double>(9.0, 0.0));
}

// At one frequency plain files win over Galileo ones (OSKAR's order); otherwise the nearest.
TEST(SphericalWaveFiles, GalileoFilesAreKeptApart) {
  const fs::path d = scratch("galileo");
  write(d / "element_pattern_spherical_wave_galileo_te_re_0_100.txt", kTwoOrders);
  write(d / "element_pattern_spherical_wave_te_re_0_100.txt", "1 1 1\n");
  write(d / "element_pattern_spherical_wave_galileo_te_re_0_150.txt", kTwoOrders);
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  const auto types = load_spherical_wave_patterns(map, 0);
  ASSERT_EQ(types[0].by_freq.size(), 3u);
  EXPECT_FALSE(types[0].nearest(100e6)->galileo);
  EXPECT_EQ(types[0].nearest(100e6)->l_max, 1);
  EXPECT_TRUE(types[0].nearest(140e6)->galileo);
}

TEST(SphericalWaveFiles, ShortLineNamesFileAndLine) {
  const fs::path d = scratch("short");
  write(d / "element_pattern_spherical_wave_te_re_0_100.txt", "1 2 3\n4 5 6 7\n");
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  const std::string e = error_of(map);
  EXPECT_HAS(e, "element_pattern_spherical_wave_te_re_0_100.txt:2");
  EXPECT_HAS(e, "order l = 2 needs at least 5 numbers");
}

TEST(SphericalWaveFiles, BadNumberNamesFileLineAndColumn) {
  const fs::path d = scratch("number");
  write(d / "element_pattern_spherical_wave_te_re_0_100.txt", "1 2x 3\n");
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  const std::string e = error_of(map);
  EXPECT_HAS(e, "element_pattern_spherical_wave_te_re_0_100.txt:1:2");
}

TEST(SphericalWaveFiles, NameWithoutPartIsRefused) {
  const fs::path d = scratch("name");
  write(d / "element_pattern_spherical_wave_x_0_100.txt", kTwoOrders);
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  const std::string e = error_of(map);
  EXPECT_HAS(e, "element_pattern_spherical_wave_x_0_100.txt");
  EXPECT_HAS(e, "[te|tm]_[re|im]");
}

TEST(SphericalWaveFiles, DifferentOrdersAreRefused) {
  const fs::path d = scratch("orders");
  write(d / "element_pattern_spherical_wave_te_re_0_100.txt", kTwoOrders);
  write(d / "element_pattern_spherical_wave_te_im_0_100.txt", "1 2 3\n");
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  const std::string e = error_of(map);
  EXPECT_HAS(e, "element_pattern_spherical_wave_te_re_0_100.txt");
  EXPECT_HAS(e, "expected the same number of lines");
}

TEST(SphericalWaveFiles, EmptyFileIsRefused) {
  const fs::path d = scratch("empty");
  write(d / "element_pattern_spherical_wave_te_re_0_100.txt", "# nothing\n");
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  EXPECT_HAS(error_of(map), "no coefficient lines");
}

TEST(SphericalWaveFiles, PlainFekoAndGalileoAreSphericalWaveFiles) {
  EXPECT_TRUE(is_spherical_wave_file("element_pattern_spherical_wave_x_te_re_0_100.txt"));
  EXPECT_TRUE(is_spherical_wave_file("element_pattern_spherical_wave_feko_x_te_re_0_100.txt"));
  EXPECT_TRUE(is_spherical_wave_file("element_pattern_spherical_wave_galileo_te_re_0_1.txt"));
  EXPECT_FALSE(is_spherical_wave_file("element_pattern_fit_x_0_100.bin"));
}
