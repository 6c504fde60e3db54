// OSKAR's FEKO spherical-wave coefficients (telescope/spherical_wave_feko_h5.h and the *_feko*
// text files of spherical_wave_files.h): where each number goes, OSKAR's preference between
// conventions at one frequency, and errors that name the file and the dataset for malformed
// HDF5 files (fixtures: tests/data/hdf5/make_feko_files.py, whose docstring gives the values).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/telescope/spherical_wave_feko_h5.h"
#include "fringe/telescope/spherical_wave_files.h"

namespace fs = std::filesystem;
using namespace fringe::telescope;

namespace {

fs::path fixture(const std::string& name) {
  return fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "hdf5" / name;
}

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fringe_feko_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

std::string h5_error(const std::string& name, int max_order = 0) {
  std::vector<ElementTypePattern> types;
  try {
    load_feko_h5(fixture(name).string(), max_order, types);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << name << " loaded without error";
  return "";
}

#define EXPECT_HAS(text, part) \
  EXPECT_NE((text).find(part), std::string::npos) << "missing '" << (part) << "' in: " << (text)

// The fixture's value of (antenna a, mode j, TE or TM, frequency k) (make_feko_files.py).
std::complex<double> expected(int a, int j, bool tm, int k) {
  const double amp = j + 1 + 10 * a + (tm ? 1 : 0);
  const double deg = 10 * j + (tm ? 5 : 0) + k;
  return std::polar(amp, deg * fringe::kDegToRad);
}

void expect_close(std::complex<double> a, std::complex<double> b) {
  EXPECT_NEAR(a.real(), b.real(), 1e-12 * std::abs(b));
  EXPECT_NEAR(a.imag(), b.imag(), 1e-12 * std::abs(b));
}

}  // namespace

TEST(SphericalWaveFeko, H5ValuesGoToTheirSlots) {
  std::vector<ElementTypePattern> types;
  load_feko_h5(fixture("feko_valid.h5").string(), 0, types);
  ASSERT_EQ(types.size(), 2u);  // antennas 1 and 2: element types 0 and 1
  for (int a = 1; a <= 2; ++a) {
    ASSERT_EQ(types[std::size_t(a - 1)].by_freq.size(), 2u);
    for (int k = 0; k < 2; ++k) {
      const SphericalWaveCoeffs* c = types[std::size_t(a - 1)].nearest(k ? 70e6 : 50e6);
      ASSERT_NE(c, nullptr);
      EXPECT_DOUBLE_EQ(c->freq_hz, k ? 70e6 : 50e6);
      EXPECT_TRUE(c->feko);
      EXPECT_TRUE(c->common_phi);  // OSKAR: FEKO HDF5 patterns use the X azimuth
      EXPECT_FALSE(c->galileo);
      ASSERT_EQ(c->l_max, 2);  // the larger of X (2) and Y (1)
      ASSERT_EQ(c->coeff.size(), 4u * 8u);
      for (int j = 0; j < 8; ++j) {
        expect_close(c->coeff[std::size_t(4 * j + 0)], expected(a, j, false, k));  // X TE
        expect_close(c->coeff[std::size_t(4 * j + 1)], expected(a, j, true, k));   // X TM
        if (j < 3) {
          expect_close(c->coeff[std::size_t(4 * j + 2)], expected(a, j, false, k));  // Y TE
          expect_close(c->coeff[std::size_t(4 * j + 3)], expected(a, j, true, k));   // Y TM
        } else {  // Y has order 1 only: padded with zeros
          EXPECT_EQ(c->coeff[std::size_t(4 * j + 2)], std::complex<double>(0.0, 0.0));
          EXPECT_EQ(c->coeff[std::size_t(4 * j + 3)], std::complex<double>(0.0, 0.0));
        }
      }
    }
  }
}

TEST(SphericalWaveFeko, H5MaxOrderCaps) {
  std::vector<ElementTypePattern> types;
  load_feko_h5(fixture("feko_valid.h5").string(), 1, types);
  const SphericalWaveCoeffs* c = types[0].nearest(50e6);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->l_max, 1);
  EXPECT_EQ(c->coeff.size(), 4u * 3u);
  expect_close(c->coeff[4 * 2 + 1], expected(1, 2, true, 0));
}

TEST(SphericalWaveFeko, H5MalformedFilesNameFileAndDataset) {
  std::string e = h5_error("feko_missing_dataset.h5");
  EXPECT_HAS(e, "feko_missing_dataset.h5");
  EXPECT_HAS(e, "'Y2_70000000' is missing");
  e = h5_error("feko_1d.h5");
  EXPECT_HAS(e, "feko_1d.h5");
  EXPECT_HAS(e, "'X1_50000000'");
  EXPECT_HAS(e, "1 dimension(s)");
  e = h5_error("feko_three_rows.h5");
  EXPECT_HAS(e, "3 rows");
  EXPECT_HAS(e, "expected 2 rows");
  e = h5_error("feko_bad_length.h5");
  EXPECT_HAS(e, "14 numbers per row");
  e = h5_error("feko_nan.h5");
  EXPECT_HAS(e, "non-finite value at mode index 1");
  e = h5_error("feko_no_datasets.h5");
  EXPECT_HAS(e, "no coefficient datasets");
  e = h5_error("feko_antenna_zero.h5");
  EXPECT_HAS(e, "'X0_50000000'");
  EXPECT_HAS(e, "antenna numbers start at 1");
  // Not an HDF5 file at all.
  const fs::path d = scratch("not_h5");
  write(d / "element_pattern_FEKO_x.h5", "plain text\n");
  std::vector<ElementTypePattern> types;
  try {
    load_feko_h5((d / "element_pattern_FEKO_x.h5").string(), 0, types);
    ADD_FAILURE() << "no error";
  } catch (const fringe::Error& err) {
    EXPECT_HAS(std::string(err.what()), "element_pattern_FEKO_x.h5");
  }
}

TEST(SphericalWaveFeko, FileNamesAreRecognised) {
  EXPECT_TRUE(is_spherical_wave_file("element_pattern_spherical_wave_feko_x_te_re_0_100.txt"));
  EXPECT_TRUE(is_feko_h5_file("element_pattern_FEKO_coeffs.h5"));
  EXPECT_TRUE(is_feko_h5_file("SKALA4_FEKO.h5"));
  EXPECT_FALSE(is_feko_h5_file("element_pattern_feko.h5"));  // OSKAR: upper-case FEKO
  EXPECT_FALSE(is_feko_h5_file("HARP_FEKO.txt"));
  const fs::path d = scratch("names");
  write(d / "SKALA4_FEKO.h5", "");
  write(d / "element_pattern_spherical_wave_feko_te_re_0_100.txt", "1 2 3\n");
  write(d / "other.h5", "");
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map.count("other.h5"), 0u);
}

// A FEKO text file is read as the plain ones and flagged; at one frequency OSKAR prefers plain,
// then FEKO, then Galileo coefficients; the nearest frequency wins over the convention.
TEST(SphericalWaveFeko, TextFilesAndPreference) {
  const fs::path d = scratch("pref");
  write(d / "element_pattern_spherical_wave_feko_te_re_0_100.txt", "1 2 3\n");
  write(d / "element_pattern_spherical_wave_galileo_te_re_0_100.txt", "4 5 6\n");
  write(d / "element_pattern_spherical_wave_galileo_te_re_0_130.txt", "7 8 9\n");
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  auto types = load_spherical_wave_patterns(map, 0);
  ASSERT_EQ(types.size(), 1u);
  const SphericalWaveCoeffs* c = types[0].nearest(101e6);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->feko);
  EXPECT_FALSE(c->galileo);
  EXPECT_EQ(c->coeff[0], std::complex<double>(1.0, 0.0));  // X TE of (1, -1)
  EXPECT_EQ(c->coeff[2], std::complex<double>(1.0, 0.0));  // unlabelled: Y TE too
  c = types[0].nearest(125e6);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->galileo);
  write(d / "element_pattern_spherical_wave_te_re_0_100.txt", "10 11 12\n");
  add_spherical_wave_files(d, map);
  types = load_spherical_wave_patterns(map, 0);
  c = types[0].nearest(101e6);
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->feko);
  EXPECT_FALSE(c->galileo);
  EXPECT_EQ(c->coeff[0], std::complex<double>(10.0, 0.0));
}

// HDF5 files in the map are loaded after the text files; a malformed one names itself.
TEST(SphericalWaveFeko, MapLoadsH5AndReportsErrors) {
  const fs::path d = scratch("map");
  fs::copy_file(fixture("feko_valid.h5"), d / "element_pattern_FEKO_a.h5");
  PatternFileMap map;
  add_spherical_wave_files(d, map);
  const auto types = load_spherical_wave_patterns(map, 0);
  ASSERT_EQ(types.size(), 2u);
  EXPECT_TRUE(types[1].nearest(70e6)->feko);
  fs::copy_file(fixture("feko_missing_dataset.h5"), d / "element_pattern_FEKO_b.h5");
  add_spherical_wave_files(d, map);
  try {
    load_spherical_wave_patterns(map, 0);
    ADD_FAILURE() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_HAS(std::string(e.what()), "element_pattern_FEKO_b.h5");
  }
}
