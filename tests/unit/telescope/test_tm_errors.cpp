// Every malformed telescope model gives a fringe::Error naming the file (and line where
// there is one) and saying what is wrong.
#include <gtest/gtest.h>

#include <string>

#include "fringe/core/error.h"
#include "fringe/telescope/tm_loader.h"

namespace fs = std::filesystem;
using fringe::telescope::load_telescope_model;

namespace {

fs::path fixture(const std::string& name) {
  return fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "telescope" / name;
}

// The error message of loading `name`, or "" (and a test failure) if it loads.
std::string load_error(const std::string& name) {
  try {
    load_telescope_model(fixture(name));
  } catch (const fringe::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << name << " loaded without error";
  return "";
}

#define EXPECT_HAS(text, part) \
  EXPECT_NE((text).find(part), std::string::npos) << "missing '" << (part) << "' in: " << (text)

}  // namespace

TEST(TmErrors, BadNumberNamesFileAndLine) {
  const auto e = load_error("bad_number.tm");
  EXPECT_HAS(e, "bad_number.tm/layout.txt:3:1");
  EXPECT_HAS(e, "'12.5x'");
  EXPECT_HAS(e, "expected a number");
}

TEST(TmErrors, TooManyColumns) {
  const auto e = load_error("bad_columns.tm");
  EXPECT_HAS(e, "layout.txt:2");
  EXPECT_HAS(e, "expected 2 to 6 columns");
  EXPECT_HAS(e, "found 7");
}

TEST(TmErrors, TooFewColumns) {
  const auto e = load_error("one_column.tm");
  EXPECT_HAS(e, "layout.txt:2");
  EXPECT_HAS(e, "found 1");
}

TEST(TmErrors, StationFolderCountMatchesNeitherOneNorStations) {
  const auto e = load_error("wrong_folder_count.tm");
  EXPECT_HAS(e, "wrong_folder_count.tm");
  EXPECT_HAS(e, "found 2 station folders (station_a, station_b)");
  EXPECT_HAS(e, "has 3 stations");
  EXPECT_HAS(e, "station_type_map.txt");
}

TEST(TmErrors, MissingPosition) {
  const auto e = load_error("missing_position.tm");
  EXPECT_HAS(e, "missing_position.tm/position.txt");
  EXPECT_HAS(e, "missing position.txt");
}

TEST(TmErrors, MissingStationLayout) {
  const auto e = load_error("missing_station_layout.tm");
  EXPECT_HAS(e, "missing_station_layout.tm/station/layout.txt");
  EXPECT_HAS(e, "missing station layout");
}

TEST(TmErrors, MissingArrayLayout) {
  const auto e = load_error("missing_layout.tm");
  EXPECT_HAS(e, "missing station layout");
  EXPECT_HAS(e, "layout_wgs84.txt");
}

TEST(TmErrors, EmptyArrayLayout) { EXPECT_HAS(load_error("empty_layout.tm"), "no stations"); }

TEST(TmErrors, PositionOutOfRangeOrRepeated) {
  EXPECT_HAS(load_error("bad_position.tm"), "position.txt:1: latitude -95");
  EXPECT_HAS(load_error("two_positions.tm"), "position.txt:2");
}

TEST(TmErrors, StationTypeMapIndexOutOfRange) {
  const auto e = load_error("bad_type_map.tm");
  EXPECT_HAS(e, "station_type_map.txt:2");
  EXPECT_HAS(e, "out of range");
}

TEST(TmErrors, StationTypeMapTooShort) {
  const auto e = load_error("short_type_map.tm");
  EXPECT_HAS(e, "station_type_map.txt");
  EXPECT_HAS(e, "has 2 entries");
  EXPECT_HAS(e, "3 stations");
}

TEST(TmErrors, ElementFileCountDiffersFromLayout) {
  const auto e = load_error("wrong_element_count.tm");
  EXPECT_HAS(e, "station/gain_phase.txt");
  EXPECT_HAS(e, "has 2 entries");
  EXPECT_HAS(e, "gives 3");
}

TEST(TmErrors, TileFolderCount) {
  const auto e = load_error("wrong_tile_count.tm");
  EXPECT_HAS(e, "found 2 tile folders (t0, t1)");
  EXPECT_HAS(e, "has 3 elements");
}

TEST(TmErrors, RmsCountDiffersFromFrequencies) {
  const auto e = load_error("bad_rms_count.tm");
  EXPECT_HAS(e, "rms.txt");
  EXPECT_HAS(e, "2 RMS values");
  EXPECT_HAS(e, "3 frequencies");
}

TEST(TmErrors, BadMountType) { EXPECT_HAS(load_error("bad_mount.tm"), "mount_types.txt:2"); }

TEST(TmErrors, XAndYLayoutsDiffer) {
  const auto e = load_error("bad_xy_count.tm");
  EXPECT_HAS(e, "layout_y.txt");
  EXPECT_HAS(e, "has 1 entries");
}

TEST(TmErrors, MissingDirectory) { EXPECT_HAS(load_error("no_such_model.tm"), "does not exist"); }
