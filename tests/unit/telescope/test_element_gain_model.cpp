// Per-element gain models (gain_model.h5 in a station or tile folder; StationModel::
// element_gains): loaded with the station, one entry per element required (the table's third
// dimension), malformed tables named with their file, which feed's gains the Y beam takes
// (StationModel::y_feed_files, OSKAR's rule), and the tile folders where a table is refused.
// The gains' effect on the visibilities is checked against OSKAR 2.13 by
// external.sim_vs_oskar.element_gain_model*.
#include <gtest/gtest.h>

#include <complex>
#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/telescope/station_model.h"
#include "fringe/telescope/tm_loader.h"
#include "tests/support/error_of.h"

namespace {

namespace fs = std::filesystem;
using fringe::telescope::load_station_model;
using fringe::telescope::load_telescope_model;

// Tables of tests/data/hdf5/make_files.py: gain_valid.h5 is 2 times x 3 channels x 4 entries,
// g[t, c, p] = (1 + t) + i (c + 10 p) for X and its conjugate for Y.
std::string data(const std::string& name) {
  return std::string(FRINGE_SOURCE_DIR) + "/tests/data/hdf5/" + name;
}

using fringe::test::error_of;

// A station folder of `n` elements in the test's temporary folder.
fs::path make_station(const std::string& name, int n) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream layout(dir / "layout.txt");
  for (int i = 0; i < n; ++i) layout << i << " 0\n";
  return dir;
}

TEST(ElementGainModel, StationTableIsLoadedWithOneEntryPerElement) {
  const fs::path dir = make_station("fringe_element_gains_station", 4);
  EXPECT_EQ(load_station_model(dir).element_gains, nullptr);
  fs::copy_file(data("gain_valid.h5"), dir / "gain_model.h5");
  const auto m = load_station_model(dir);
  ASSERT_NE(m.element_gains, nullptr);
  EXPECT_EQ(m.element_gains->path, (dir / "gain_model.h5").string());
  EXPECT_EQ(m.element_gains->num_times, 2u);
  EXPECT_EQ(m.element_gains->num_channels, 3u);
  EXPECT_EQ(m.element_gains->num_stations, 4u);  // one per element
  EXPECT_EQ(m.element_gains->gain(1, 2, 3, 0), std::complex<double>(2.0, 32.0));
  fs::remove_all(dir);
}

TEST(ElementGainModel, YBeamTakesYGainsOnlyWithYSpecificBeamformingFiles) {
  // OSKAR forms the Y beam with the Y weights only when the folder has Y-specific layout,
  // gain_phase, cable_length_error or apodisation data; feed_angle_y.txt does not count.
  const fs::path dir = make_station("fringe_element_gains_y", 4);
  fs::copy_file(data("gain_valid.h5"), dir / "gain_model.h5");
  EXPECT_FALSE(load_station_model(dir).y_feed_files);
  std::ofstream(dir / "feed_angle_y.txt") << "0\n0\n0\n0\n";
  EXPECT_FALSE(load_station_model(dir).y_feed_files);
  for (const char* name :
       {"gain_phase_y.txt", "cable_length_error_y.txt", "apodisation_y.txt", "layout_y.txt"}) {
    const std::string line = std::string(name) == "gain_phase_y.txt"    ? "1 0\n"
                             : std::string(name) == "apodisation_y.txt" ? "1 0\n"
                             : std::string(name) == "layout_y.txt"      ? "0 0\n"
                                                                        : "0\n";
    {
      std::ofstream f(dir / name);
      for (int i = 0; i < 4; ++i) f << line;
    }
    EXPECT_TRUE(load_station_model(dir).y_feed_files) << name;
    fs::remove(dir / name);
  }
  fs::remove_all(dir);
}

TEST(ElementGainModel, WrongShapesNameTheFileAndTheExpectedShape) {
  const fs::path dir = make_station("fringe_element_gains_shape", 3);
  // 4 entries for 3 elements (OSKAR would ignore the 4th silently).
  fs::copy_file(data("gain_valid.h5"), dir / "gain_model.h5");
  std::string m = error_of([&] { load_station_model(dir); });
  EXPECT_NE(m.find((dir / "gain_model.h5").string()), std::string::npos) << m;
  EXPECT_NE(m.find("has dimensions (2, 3, 4); expected (times, channels, 3)"), std::string::npos)
      << m;
  EXPECT_NE(m.find("layout.txt"), std::string::npos) << m;
  // 4 entries for 5 elements (OSKAR would leave the 5th element at weight zero).
  fs::remove_all(dir);
  const fs::path five = make_station("fringe_element_gains_shape5", 5);
  fs::copy_file(data("gain_valid.h5"), five / "gain_model.h5");
  m = error_of([&] { load_station_model(five); });
  EXPECT_NE(m.find("expected (times, channels, 5)"), std::string::npos) << m;
  // Channels unlike "freq (Hz)": the root loader's check, naming this file.
  fs::remove(five / "gain_model.h5");
  fs::copy_file(data("gain_chan_mismatch.h5"), five / "gain_model.h5");
  m = error_of([&] { load_station_model(five); });
  EXPECT_NE(m.find((five / "gain_model.h5").string()), std::string::npos) << m;
  EXPECT_NE(m.find("channels (its second dimension) but 'freq (Hz)'"), std::string::npos) << m;
  fs::remove_all(five);
}

// A telescope model whose one station has 4 elements that are tiles of 4 antennas each.
fs::path make_tiled_model(const std::string& name, int tile_folders) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir / "station");
  std::ofstream(dir / "position.txt") << "116.76 -26.82\n";
  std::ofstream(dir / "layout.txt") << "0 0\n";
  std::ofstream(dir / "station" / "layout.txt") << "0 0\n5 0\n0 5\n5 5\n";
  for (int t = 0; t < tile_folders; ++t) {
    const fs::path tile = dir / "station" / ("tile" + std::to_string(t));
    fs::create_directories(tile);
    std::ofstream(tile / "layout.txt") << "0 0\n1 0\n0 1\n1 1\n";
  }
  return dir;
}

TEST(ElementGainModel, SharedTileTableIsLoadedAtBothLevels) {
  const fs::path dir = make_tiled_model("fringe_element_gains_tile", 1);
  fs::copy_file(data("gain_valid.h5"), dir / "station" / "gain_model.h5");
  fs::copy_file(data("gain_valid.h5"), dir / "station" / "tile0" / "gain_model.h5");
  const auto tel = load_telescope_model(dir);
  const auto& st = tel.station_models.at(0);
  ASSERT_NE(st.element_gains, nullptr);
  ASSERT_EQ(st.tiles.size(), 1u);
  ASSERT_NE(st.tiles[0].element_gains, nullptr);
  EXPECT_FALSE(tel.gain_model.has_value());  // no root table
  EXPECT_TRUE(tel.unsupported_files.empty());
  fs::remove_all(dir);
}

TEST(ElementGainModel, TableInOneOfSeveralTileFoldersIsRefused) {
  // OSKAR 2.13 leaves gain tables out of its test for identical tiles, so it may evaluate the
  // first tile for all: fringe refuses rather than guess.
  const fs::path dir = make_tiled_model("fringe_element_gains_tiles", 4);
  const fs::path table = dir / "station" / "tile2" / "gain_model.h5";
  fs::copy_file(data("gain_valid.h5"), table);
  const std::string m = error_of([&] { load_telescope_model(dir); });
  EXPECT_NE(m.find(table.string()), std::string::npos) << m;
  EXPECT_NE(m.find("one of several tile folders is not supported"), std::string::npos) << m;
  fs::remove_all(dir);
}

}  // namespace
