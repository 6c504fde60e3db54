// Hostile telescope models (issue 16): symbolic-link loops, a UTF-8 byte-order mark, and
// finite but absurd numbers are refused (or, for the BOM, accepted) with the file and line.
// Each test writes a tiny model into its own folder under the build tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/telescope/tm_loader.h"

namespace fs = std::filesystem;
using fringe::telescope::load_telescope_model;

namespace {

// A fresh folder for one test: <build>/tests_tmp/telescope/<suite>.<test>/model.tm.
fs::path fresh_model() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests_tmp" / "telescope" /
                       (std::string(info->test_suite_name()) + "." + info->name());
  fs::remove_all(dir);  // our own scratch folder under the build tree
  fs::create_directories(dir / "model.tm");
  return dir / "model.tm";
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A valid two-station model with one shared station folder of two elements.
fs::path valid_model() {
  const fs::path tm = fresh_model();
  write(tm / "position.txt", "21.4 -30.7 1000\n");
  write(tm / "layout.txt", "0 0\n100 0\n");
  write(tm / "station" / "layout.txt", "0 0\n1.5 0\n");
  return tm;
}

std::string load_error(const fs::path& tm) {
  try {
    load_telescope_model(tm);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << tm << " loaded without error";
  return "";
}

#define EXPECT_HAS(text, part) \
  EXPECT_NE((text).find(part), std::string::npos) << "missing '" << (part) << "' in: " << (text)

}  // namespace

TEST(TmHostile, ValidModelLoads) {
  const auto model = load_telescope_model(valid_model());
  EXPECT_EQ(model.stations.size(), 2u);
}

TEST(TmHostile, SymlinkToItselfInAStationIsRefused) {
  const fs::path tm = valid_model();
  fs::create_directory_symlink(".", tm / "station" / "loop");  // ln -s . station/loop
  const std::string e = load_error(tm);
  EXPECT_HAS(e, "station/loop");
  EXPECT_HAS(e, "folder loop");
}

TEST(TmHostile, SymlinkToTheRootIsRefused) {
  const fs::path tm = valid_model();
  fs::create_directory_symlink("..", tm / "station" / "up");  // station/up -> model root
  const std::string e = load_error(tm);
  EXPECT_HAS(e, "station/up");
  EXPECT_HAS(e, "folder loop");
}

TEST(TmHostile, TwoLoopsDoNotExplode) {
  // Two self-links: the old loader nested 2^depth tiles without end.
  const fs::path tm = valid_model();
  fs::create_directory_symlink(".", tm / "station" / "a");
  fs::create_directory_symlink(".", tm / "station" / "b");
  EXPECT_HAS(load_error(tm), "folder loop");
}

TEST(TmHostile, DeepNestingIsCapped) {
  const fs::path tm = valid_model();
  fs::path dir = tm / "station";
  for (int i = 0; i < 12; ++i) {  // a chain of single tiles, one element each
    dir /= "t";
    write(dir / "layout.txt", "0 0\n");
  }
  write(tm / "station" / "layout.txt", "0 0\n");
  EXPECT_HAS(load_error(tm), "levels deep");
}

TEST(TmHostile, ByteOrderMarkIsSkippedEverywhere) {
  const std::string bom = "\xEF\xBB\xBF";
  const fs::path tm = fresh_model();
  write(tm / "position.txt", bom + "21.4 -30.7 1000\n");
  write(tm / "layout.txt", bom + "0 0\n100 0\n");
  write(tm / "station" / "layout.txt", bom + "# E N\n0 0\n1.5 0\n");
  write(tm / "station" / "gain_phase.txt", bom + "0.5 10\n1 0\n");
  const auto model = load_telescope_model(tm);
  ASSERT_EQ(model.stations.size(), 2u);
  EXPECT_NEAR(model.stations[1].measured_enu.x, 100.0, 1e-9);
  const auto& station = model.station_models.at(0);
  EXPECT_EQ(station.num_elements(), 2u);
  EXPECT_EQ(station.feeds[0].gain_phase.at(0).gain, 0.5);
}

TEST(TmHostile, AltitudeOutOfRangeNamesFileAndLine) {
  const fs::path tm = valid_model();
  write(tm / "position.txt", "21.4 -30.7 -1e7\n");
  const std::string e = load_error(tm);
  EXPECT_HAS(e, "position.txt:1:");
  EXPECT_HAS(e, "altitude -1e7 is outside [-10000, 100000] metres");
}

TEST(TmHostile, Wgs84LayoutRangesNameFileAndLine) {
  const fs::path tm = valid_model();
  fs::remove(tm / "layout.txt");
  write(tm / "layout_wgs84.txt", "21.4 -30.7 1000\n21.5 -30.7 -1e7\n");
  EXPECT_HAS(load_error(tm), "layout_wgs84.txt:2: altitude -1e7 is outside");
  write(tm / "layout_wgs84.txt", "21.4 -30.7\n400 -30.7\n");
  EXPECT_HAS(load_error(tm), "layout_wgs84.txt:2: longitude 400 is outside [-360, 360] degrees");
}

TEST(TmHostile, HugeStationPositionIsRefused) {
  const fs::path tm = valid_model();
  write(tm / "layout.txt", "0 0\n1e308 0\n");
  const std::string e = load_error(tm);
  EXPECT_HAS(e, "layout.txt:2:1");
  EXPECT_HAS(e, "out of range");
  write(tm / "layout.txt", "0 0\n2e8 0\n");
  EXPECT_HAS(load_error(tm), "layout.txt:2: coordinate 2e8 is outside [-1e+08, 1e+08] metres");
}

TEST(TmHostile, EcefDistanceErrorNamesFileAndLine) {
  const fs::path tm = valid_model();
  fs::remove(tm / "layout.txt");
  write(tm / "layout_ecef.txt", "5109360 2006852 -3238948\n1000 1000 1000\n");
  const std::string e = load_error(tm);
  EXPECT_HAS(e, "layout_ecef.txt:2:");
  EXPECT_HAS(e, "from the Earth's centre");
  EXPECT_EQ(e.find("000000000000"), std::string::npos) << e;  // no 300-digit numbers
}

TEST(TmHostile, ElementRangesNameFileAndLine) {
  const fs::path tm = valid_model();
  write(tm / "station" / "gain_phase.txt", "1 0\n1e308 0\n");
  EXPECT_HAS(load_error(tm), "gain_phase.txt:2:1");
  write(tm / "station" / "gain_phase.txt", "1 0\n1e6 0\n");
  EXPECT_HAS(load_error(tm), "gain_phase.txt:2: element gain G0 1e6 is outside [-1000, 1000]");
  write(tm / "station" / "gain_phase.txt", "1 0 -0.1\n1 0\n");
  EXPECT_HAS(load_error(tm), "gain_phase.txt:1: gain error sigma_G -0.1 is outside [0, 1000]");
  fs::remove(tm / "station" / "gain_phase.txt");
  write(tm / "station" / "layout.txt", "0 0\n0 -2e7\n");
  EXPECT_HAS(load_error(tm), "station/layout.txt:2: element coordinate -2e7 is outside");
}
