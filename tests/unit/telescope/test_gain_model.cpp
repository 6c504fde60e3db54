// OSKAR's gain_model.h5 (telescope/gain_model.h): reading a valid table (values stated by
// formula in tests/data/hdf5/make_files.py), OSKAR's channel and time selection, and a clear
// error naming the file and the dataset for each malformed table; a per-element table in a
// station folder of the wrong shape is refused (per-element tables: test_element_gain_model.cpp).
#include "fringe/telescope/gain_model.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/telescope/tm_loader.h"
#include "tests/support/error_of.h"

namespace {

namespace fs = std::filesystem;
using fringe::telescope::load_gain_model;

std::string data(const std::string& name) {
  return std::string(FRINGE_SOURCE_DIR) + "/tests/data/hdf5/" + name;
}

using fringe::test::error_of;

TEST(GainModel, ReadsTableRowMajorWithBothPolarisations) {
  const auto m = load_gain_model(data("gain_valid.h5"), 4);
  EXPECT_EQ(m.num_times, 2u);
  EXPECT_EQ(m.num_channels, 3u);
  EXPECT_EQ(m.num_stations, 4u);
  ASSERT_EQ(m.freq_hz.size(), 3u);
  EXPECT_EQ(m.freq_hz[1], 110e6);
  // g[t, c, p] = (1 + t) + i (c + 10 p) for X, its conjugate for Y (exact in float).
  for (std::size_t t = 0; t < 2; ++t)
    for (std::size_t c = 0; c < 3; ++c)
      for (std::size_t p = 0; p < 4; ++p) {
        const std::complex<double> gx(1.0 + t, c + 10.0 * p);
        EXPECT_EQ(m.gain(t, c, p, 0), gx);
        EXPECT_EQ(m.gain(t, c, p, 1), std::conj(gx));
      }
}

TEST(GainModel, SelectsClosestChannelAndClampsTime) {
  const auto m = load_gain_model(data("gain_valid.h5"), 3);  // 100, 110, 120 MHz
  EXPECT_EQ(m.channel_of(50e6), 0u);
  EXPECT_EQ(m.channel_of(104.9e6), 0u);
  EXPECT_EQ(m.channel_of(105e6), 0u);  // equally close: the first, as OSKAR
  EXPECT_EQ(m.channel_of(105.1e6), 1u);
  EXPECT_EQ(m.channel_of(1e9), 2u);
  EXPECT_EQ(m.time_of(0), 0u);
  EXPECT_EQ(m.time_of(1), 1u);
  EXPECT_EQ(m.time_of(7), 1u);  // past the table: its last time
}

TEST(GainModel, MalformedTablesNameFileAndDataset) {
  struct Bad {
    const char* file;
    std::size_t stations;
    const char* expect;
  };
  const Bad cases[] = {
      {"gain_missing_xpol.h5", 4, "dataset 'gain_xpol' is missing"},
      {"gain_missing_freq.h5", 4, "dataset 'freq (Hz)' is missing"},
      {"gain_2d.h5", 4, "dataset 'gain_xpol': expected 3 dimensions"},
      {"gain_chan_mismatch.h5", 4, "'gain_xpol' has 3 channels (its second dimension) but 'freq"},
      {"gain_real.h5", 4, "dataset 'gain_xpol': expected complex values"},
      {"gain_ypol_shape.h5", 4, "dataset 'gain_ypol' has dimensions (2, 3, 3)"},
      {"gain_nan.h5", 4, "dataset 'gain_xpol': value 23 (row-major) is not finite"},
      {"gain_valid.h5", 5,
       "gains for 4 stations (its third dimension) but the telescope model "
       "has 5 stations"},
  };
  for (const Bad& b : cases) {
    const std::string m = error_of([&] { load_gain_model(data(b.file), b.stations); });
    EXPECT_NE(m.find(data(b.file)), std::string::npos) << b.file << ": " << m;
    EXPECT_NE(m.find(b.expect), std::string::npos) << b.file << ": " << m;
  }
}

// A telescope model folder in the test's temporary folder.
fs::path make_model(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir / "station");
  std::ofstream(dir / "position.txt") << "116.76 -26.82\n";
  std::ofstream(dir / "layout.txt") << "0 0\n100 0\n0 100\n";
  std::ofstream(dir / "station" / "layout.txt") << "0 0\n1 0\n";
  return dir;
}

TEST(GainModel, LoaderReadsRootTableAndChecksStationTableShape) {
  const fs::path dir = make_model("fringe_gain_model_tm");
  EXPECT_FALSE(fringe::telescope::load_telescope_model(dir).gain_model.has_value());
  fs::copy_file(data("gain_valid.h5"), dir / "gain_model.h5");
  const auto tel = fringe::telescope::load_telescope_model(dir);
  ASSERT_TRUE(tel.gain_model.has_value());
  EXPECT_EQ(tel.gain_model->num_stations, 4u);
  EXPECT_TRUE(tel.unsupported_files.empty());
  // Per-element gains in a station folder weight its elements: a table of 4 entries for the
  // station's 2 elements is refused, naming the file and the expected shape.
  fs::copy_file(data("gain_valid.h5"), dir / "station" / "gain_model.h5");
  const std::string m = error_of([&] { fringe::telescope::load_telescope_model(dir); });
  EXPECT_NE(m.find((dir / "station" / "gain_model.h5").string()), std::string::npos) << m;
  EXPECT_NE(m.find("expected (times, channels, 2)"), std::string::npos) << m;
  fs::remove_all(dir);
}

TEST(GainModel, RootFileThatIsNotHdf5IsRefusedNamingIt) {
  const fs::path dir = make_model("fringe_gain_model_empty_tm");
  std::ofstream(dir / "gain_model.h5") << "";  // an empty placeholder, not an HDF5 file
  const std::string m = error_of([&] { fringe::telescope::load_telescope_model(dir); });
  EXPECT_NE(m.find((dir / "gain_model.h5").string() + ": cannot open HDF5 file"), std::string::npos)
      << m;
  fs::remove_all(dir);
}

TEST(GainModel, VirtualAntennaAngleIsIgnoredAsByOskar213) {
  const fs::path dir = make_model("fringe_virtual_angle_tm");
  std::ofstream(dir / "virtual_antenna_angle.txt") << "30\n";
  const auto tel = fringe::telescope::load_telescope_model(dir);
  ASSERT_EQ(tel.unsupported_files.size(), 1u);
  EXPECT_NE(tel.unsupported_files[0].reason.find("ignored, as by OSKAR 2.13"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
