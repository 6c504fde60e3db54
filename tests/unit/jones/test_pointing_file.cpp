// jones/pointing_file: OSKAR pointing files (docs/conventions.md, "Telescope model folders")
// against ska-low-aa1.tm (16 flat stations) and a small model written to a temporary folder with
// stations of tiles.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <optional>
#include <string>

#include "fringe/core/error.h"
#include "fringe/jones/pointing_file.h"
#include "fringe/telescope/tm_loader.h"

namespace fs = std::filesystem;
using fringe::jones::BeamDirection;
using fringe::jones::DirectionFrame;
using fringe::jones::load_pointing_file;
using fringe::jones::PointingOverrides;
using fringe::telescope::TelescopeModel;

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

// A folder of its own per test (CTest runs the tests of this binary in parallel processes).
fs::path temp_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::temp_directory_path() / (std::string("fringe_pointing_file_") +
                                                    info->test_suite_name() + "_" + info->name());
  return dir;
}

const TelescopeModel& ska_low() {
  static const TelescopeModel m = fringe::telescope::load_telescope_model(
      fs::path(FRINGE_SOURCE_DIR) / "telescope-models" / "ska-low-aa1.tm");
  return m;
}

// Station 0: 4 tiles sharing one tile folder; station 1: 2 tiles with a folder each;
// station 2: flat, 5 antennas.
TelescopeModel tiled_model() {
  const fs::path tm = temp_dir() / "tiles.tm";
  fs::remove_all(tm);
  write(tm / "position.txt", "20.0 -30.0\n");
  write(tm / "layout.txt", "0 0\n100 0\n0 100\n");
  write(tm / "s0" / "layout.txt", "-5 -5\n5 -5\n-5 5\n5 5\n");
  write(tm / "s0" / "tile" / "layout.txt", "0 0\n1 0\n");
  write(tm / "s1" / "layout.txt", "-5 0\n5 0\n");
  write(tm / "s1" / "t0" / "layout.txt", "0 0\n1 0\n");
  write(tm / "s1" / "t1" / "layout.txt", "0 0\n0 1\n");
  write(tm / "s2" / "layout.txt", "0 0\n1 0\n2 0\n3 0\n4 0\n");
  return fringe::telescope::load_telescope_model(tm);
}

std::string pointing_file(const std::string& text) {
  const fs::path p = temp_dir() / "pointing.txt";
  write(p, text);
  return p.string();
}

void expect_direction(const std::optional<BeamDirection>& d, DirectionFrame frame, double lon_deg,
                      double lat_deg, const std::string& what) {
  ASSERT_TRUE(d.has_value()) << what;
  EXPECT_EQ(d->frame, frame) << what;
  EXPECT_NEAR(d->lon_rad, lon_deg * kDeg, 1e-15) << what;
  EXPECT_NEAR(d->lat_rad, lat_deg * kDeg, 1e-15) << what;
}

// The error a file raises: file name, line and a phrase of the message are checked.
void expect_error(const TelescopeModel& model, const std::string& text, long line,
                  const std::string& phrase) {
  const std::string path = pointing_file(text);
  try {
    load_pointing_file(path, model);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const fringe::Error& e) {
    EXPECT_EQ(e.context().file, path) << text;
    EXPECT_EQ(e.context().line, line) << text << "\n" << e.what();
    EXPECT_NE(e.message().find(phrase), std::string::npos)
        << "expected '" << phrase << "' in: " << e.what();
    EXPECT_NE(std::string(e.what()).find(path + ":" + std::to_string(line) + ":"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace

TEST(PointingFile, StationRowsWildcardsAndFormat) {
  const auto p = load_pointing_file(pointing_file("# station frame lon lat\n"
                                                  "\n"
                                                  "*   RADEC 10.5 -30   # every station\n"
                                                  "3,azel,45,60\n"
                                                  "15\tRaDec\t+350\t-90\n"),
                                    ska_low());
  ASSERT_FALSE(p.empty());
  ASSERT_EQ(p.station.size(), 16u);
  ASSERT_EQ(p.tile.size(), 16u);
  for (std::size_t s = 0; s < 16; ++s) {
    EXPECT_TRUE(p.tile[s].empty()) << "flat station " << s << " has no tiles";
    if (s == 3 || s == 15) continue;
    expect_direction(p.station[s], DirectionFrame::RaDec, 10.5, -30, "wildcard");
  }
  expect_direction(p.station[3], DirectionFrame::AzEl, 45, 60, "station 3");
  expect_direction(p.station[15], DirectionFrame::RaDec, 350, -90, "station 15");
}

TEST(PointingFile, LaterRowsWin) {
  const auto p = load_pointing_file(
      pointing_file("2 AZEL 0 90\n* RADEC 1 2\n5 AZEL 30 40\n5 AZEL 31 41\n"), ska_low());
  expect_direction(p.station[2], DirectionFrame::RaDec, 1, 2, "wildcard after station 2");
  expect_direction(p.station[5], DirectionFrame::AzEl, 31, 41, "second row for station 5");
  expect_direction(p.station[0], DirectionFrame::RaDec, 1, 2, "wildcard");
}

TEST(PointingFile, NoRowsGiveEmptyOverrides) {
  EXPECT_TRUE(load_pointing_file(pointing_file(""), ska_low()).empty());
  EXPECT_TRUE(load_pointing_file(pointing_file("# only a comment\n\n  \n"), ska_low()).empty());
}

TEST(PointingFile, UnnamedStationsKeepTheDefault) {
  const auto p = load_pointing_file(pointing_file("7 AZEL 180 45\n"), ska_low());
  for (std::size_t s = 0; s < 16; ++s) {
    EXPECT_EQ(p.station[s].has_value(), s == 7) << s;
  }
}

TEST(PointingFile, TileRows) {
  const TelescopeModel m = tiled_model();
  ASSERT_EQ(m.num_stations(), 3u);
  ASSERT_TRUE(m.model_of(0).is_hierarchical());
  ASSERT_FALSE(m.model_of(2).is_hierarchical());

  const auto p = load_pointing_file(pointing_file("0 1 AZEL 10 80\n1 * RADEC 20 -20\n"), m);
  ASSERT_EQ(p.tile.size(), 3u);
  ASSERT_EQ(p.tile[0].size(), 4u);
  ASSERT_EQ(p.tile[1].size(), 2u);
  EXPECT_TRUE(p.tile[2].empty());
  for (const auto& s : p.station) EXPECT_FALSE(s.has_value());  // tile rows set tiles only
  expect_direction(p.tile[0][1], DirectionFrame::AzEl, 10, 80, "tile 0/1");
  EXPECT_FALSE(p.tile[0][0].has_value());
  EXPECT_FALSE(p.tile[0][2].has_value());
  expect_direction(p.tile[1][0], DirectionFrame::RaDec, 20, -20, "tile 1/0");
  expect_direction(p.tile[1][1], DirectionFrame::RaDec, 20, -20, "tile 1/1");
}

TEST(PointingFile, StationRowsClearTheirTiles) {
  const TelescopeModel m = tiled_model();
  const auto p = load_pointing_file(pointing_file("0 * AZEL 10 80\n"
                                                  "1 0 AZEL 11 81\n"
                                                  "0 RADEC 30 -40\n"
                                                  "0 3 AZEL 12 82\n"
                                                  "* RADEC 1 1\n"
                                                  "1 1 AZEL 13 83\n"),
                                    m);
  for (std::size_t s = 0; s < 3; ++s) {
    expect_direction(p.station[s], DirectionFrame::RaDec, 1, 1, "the last station row");
  }
  for (std::size_t t = 0; t < 4; ++t) EXPECT_FALSE(p.tile[0][t].has_value()) << t;
  EXPECT_FALSE(p.tile[1][0].has_value());
  expect_direction(p.tile[1][1], DirectionFrame::AzEl, 13, 83, "tile row after the station");

  const auto q =
      load_pointing_file(pointing_file("0 * AZEL 10 80\n0 RADEC 30 -40\n0 3 AZEL 12 82\n"), m);
  expect_direction(q.station[0], DirectionFrame::RaDec, 30, -40, "station 0");
  for (std::size_t t = 0; t < 3; ++t) EXPECT_FALSE(q.tile[0][t].has_value()) << t;
  expect_direction(q.tile[0][3], DirectionFrame::AzEl, 12, 82, "tile 0/3");
}

TEST(PointingFile, MalformedRowsNameFileLineAndExpectation) {
  const TelescopeModel& flat = ska_low();
  const TelescopeModel m = tiled_model();
  const std::string head = "# header\n0 AZEL 0 90\n";  // the bad row is on line 3
  expect_error(flat, head + "16 AZEL 0 90\n", 3, "station index 16 is out of range");
  expect_error(flat, head + "x AZEL 0 90\n", 3, "expected a 0-based station index or '*'");
  expect_error(flat, head + "-1 AZEL 0 90\n", 3, "expected a 0-based station index");
  expect_error(flat, head + "1.5 AZEL 0 90\n", 3, "expected a 0-based station index");
  expect_error(flat, head + "0 AZEL abc 90\n", 3, "expected the azimuth (East of North)");
  expect_error(flat, head + "0 RADEC 10 1e\n", 3, "expected the declination in degrees");
  expect_error(flat, head + "0 AZEL nan 10\n", 3, "expected the azimuth");
  expect_error(flat, head + "0 10 20\n", 3, "missing the frame word AZEL or RADEC");
  expect_error(flat, head + "0 GALACTIC 10 20\n", 3, "expected the frame word AZEL or RADEC");
  expect_error(flat, head + "0 AZEL 10\n", 3, "expected two angles");
  expect_error(flat, head + "0 AZEL 10 20 30\n", 3, "expected two angles");
  expect_error(flat, head + "AZEL 10 20\n", 3, "missing the station index");
  expect_error(flat, head + "0 AZEL 10 90.5\n", 3, "outside [-90, 90]");
  expect_error(flat, head + "0 RADEC 10 -91\n", 3, "outside [-90, 90]");
  expect_error(flat, head + "0 1 AZEL 10 20\n", 3, "station 0 has no tiles");
  expect_error(m, head + "2 0 AZEL 10 20\n", 3, "station 2 has no tiles");
  expect_error(m, head + "* * AZEL 10 20\n", 3, "station 2 has no tiles");
  expect_error(m, head + "0 4 AZEL 10 20\n", 3, "tile index 4 is out of range: station 0 has 4");
  expect_error(m, head + "1 2 AZEL 10 20\n", 3, "tile index 2 is out of range: station 1 has 2");
  expect_error(m, head + "* 2 AZEL 10 20\n", 3, "tile index 2 is out of range: station 1 has 2");
  expect_error(m, head + "0 y AZEL 10 20\n", 3, "expected a 0-based tile index or '*'");
  expect_error(m, head + "0 1 0 AZEL 10 20\n", 3, "not supported yet");
  expect_error(m, head + "3 AZEL 10 20\n", 3, "station index 3 is out of range");
}

TEST(PointingFile, MissingFileIsAnError) {
  const std::string path = (temp_dir() / "does_not_exist.txt").string();
  try {
    load_pointing_file(path, ska_low());
    ADD_FAILURE() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_EQ(e.context().file, path);
  }
}
