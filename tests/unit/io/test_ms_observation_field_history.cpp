// OBSERVATION, FIELD and HISTORY as OSKAR 2.13 writes them (issue 18; docs/ms_output.md). The
// expected values are OSKAR's rules as read in its source (oskar_ms_create.cpp,
// oskar_ms_accessors.cpp, oskar_ms_add_history.cpp): TIME_RANGE the first dump's start to the
// last dump's end, RELEASE_DATE one Julian year (365.25 d) later, LOG unset, OBSERVER from
// USERNAME, else USER, else "Unknown"; FIELD TIME and SOURCE_ID 0; HISTORY a creation row,
// the settings file one row per line (ORIGIN OSKAR_SETTINGS), OBSERVATION_ID -1, PRIORITY INFO,
// TIME in whole seconds. The end-to-end comparison with OSKAR's own MSs is the integration test
// integration.sim_interferometer.ms_metadata_* (ms_metadata_compare).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "fringe/io/ms/ms_cells.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;

std::string test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir =
      fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_io_ms_obs_field_history" / info->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

vis::VisMeta make_meta() {
  vis::VisMeta m;
  m.station_names = {"a", "b"};
  m.station_ecef_m = {{-2565044.0, 5085763.0, -2861062.0}, {-2565000.0, 5085800.0, -2861000.0}};
  m.array_centre_ecef_m = m.station_ecef_m[0];
  m.phase_centre_ra_rad = 0.5;
  m.phase_centre_dec_rad = -0.4;
  m.num_channels = 1;
  m.start_frequency_hz = 150e6;
  m.frequency_inc_hz = 1e6;
  m.num_times = 3;
  m.start_time_mjd_utc = 60384.25;
  m.time_inc_sec = 300.0;
  m.application = "fringe test";
  m.settings_lines = {"[General]", "app=oskar_sim_interferometer", "", "[observation]",
                      "num_time_steps=3"};
  m.log_lines = {"log line 1", "log line 2"};
  return m;
}

std::string write(const vis::VisMeta& meta) {
  MsWriter w(test_dir() + "/t.ms", meta);
  w.finish();
  return w.path();
}

const TableColumnCells& column(const std::vector<TableColumnCells>& t, const std::string& name) {
  for (const auto& c : t)
    if (c.name == name) return c;
  throw std::runtime_error("no column " + name);
}
double number(const std::vector<TableColumnCells>& t, const std::string& name,
              std::size_t row = 0) {
  return column(t, name).cells.at(row).numbers.at(0);
}
std::string text(const std::vector<TableColumnCells>& t, const std::string& name,
                 std::size_t row = 0) {
  return column(t, name).cells.at(row).strings.at(0);
}

TEST(MsObservationFieldHistory, ObservationAsOskar) {
  const vis::VisMeta m = make_meta();
  const double start = 60384.25 * 86400.0, end = start + 3 * 300.0;  // s, MJD(UTC)
  ::setenv("USERNAME", "someone", 1);
  const auto obs = read_subtable_cells(write(m), "OBSERVATION");
  ::unsetenv("USERNAME");
  const auto& range = column(obs, "TIME_RANGE").cells.at(0).numbers;
  ASSERT_EQ(range.size(), 2u);
  EXPECT_DOUBLE_EQ(range[0], start);
  EXPECT_DOUBLE_EQ(range[1], end);
  EXPECT_DOUBLE_EQ(number(obs, "RELEASE_DATE"), end + 365.25 * 86400.0);
  EXPECT_FALSE(column(obs, "LOG").cells.at(0).defined);
  EXPECT_EQ(column(obs, "SCHEDULE").cells.at(0).strings, std::vector<std::string>{""});
  EXPECT_EQ(text(obs, "OBSERVER"), "someone");
  EXPECT_EQ(text(obs, "PROJECT"), "");
  EXPECT_EQ(text(obs, "SCHEDULE_TYPE"), "");
  EXPECT_EQ(number(obs, "FLAG_ROW"), 0.0);
  EXPECT_EQ(column(obs, "TIME_RANGE").measure_ref, "UTC");
  EXPECT_EQ(column(obs, "RELEASE_DATE").measure_type, "epoch");
}

TEST(MsObservationFieldHistory, ObserverFallsBackToUserThenUnknown) {
  vis::VisMeta m = make_meta();
  const char* saved = std::getenv("USER");
  const std::string user = saved ? saved : "";
  ::unsetenv("USERNAME");
  ::setenv("USER", "u1", 1);
  EXPECT_EQ(text(read_subtable_cells(write(m), "OBSERVATION"), "OBSERVER"), "u1");
  ::unsetenv("USER");
  EXPECT_EQ(text(read_subtable_cells(write(m), "OBSERVATION"), "OBSERVER"), "Unknown");
  m.observer = "given";  // the writer's caller may name the observer
  EXPECT_EQ(text(read_subtable_cells(write(m), "OBSERVATION"), "OBSERVER"), "given");
  if (saved) ::setenv("USER", user.c_str(), 1);
}

TEST(MsObservationFieldHistory, FieldAsOskar) {
  const auto field = read_subtable_cells(write(make_meta()), "FIELD");
  ASSERT_EQ(column(field, "NAME").cells.size(), 1u);
  EXPECT_EQ(text(field, "NAME"), "");
  EXPECT_EQ(text(field, "CODE"), "");
  EXPECT_EQ(number(field, "TIME"), 0.0);
  EXPECT_EQ(number(field, "NUM_POLY"), 0.0);
  EXPECT_EQ(number(field, "SOURCE_ID"), 0.0);
  EXPECT_EQ(number(field, "FLAG_ROW"), 0.0);
  for (const char* dir : {"DELAY_DIR", "PHASE_DIR", "REFERENCE_DIR"}) {
    const auto& c = column(field, dir);
    EXPECT_EQ(c.cells.at(0).shape, (std::vector<long>{2, 1})) << dir;
    EXPECT_EQ(c.cells.at(0).numbers, (std::vector<double>{0.5, -0.4})) << dir;
    EXPECT_EQ(c.measure_type, "direction") << dir;
    EXPECT_EQ(c.measure_ref, "J2000") << dir;
  }
}

TEST(MsObservationFieldHistory, HistoryAsOskar) {
  const vis::VisMeta m = make_meta();
  const auto h = read_subtable_cells(write(m), "HISTORY");
  const std::size_t rows = column(h, "MESSAGE").cells.size();
  ASSERT_EQ(rows, 1 + m.settings_lines.size() + m.log_lines.size());
  const std::string created = text(h, "MESSAGE", 0);
  EXPECT_EQ(created.rfind("Measurement Set created at ", 0), 0u) << created;
  EXPECT_EQ(created.substr(created.size() - 6), " (UTC)") << created;
  EXPECT_EQ(created.size(),
            std::string("Measurement Set created at 2026-11-21, 13:53:19 (UTC)").size())
      << created;
  EXPECT_EQ(text(h, "ORIGIN", 0), "fringe test");
  for (std::size_t i = 0; i < m.settings_lines.size(); ++i) {
    EXPECT_EQ(text(h, "MESSAGE", 1 + i), m.settings_lines[i]);
    EXPECT_EQ(text(h, "ORIGIN", 1 + i), "OSKAR_SETTINGS");
  }
  for (std::size_t i = 0; i < m.log_lines.size(); ++i) {
    const std::size_t r = 1 + m.settings_lines.size() + i;
    EXPECT_EQ(text(h, "MESSAGE", r), m.log_lines[i]);
    EXPECT_EQ(text(h, "ORIGIN", r), "FRINGE_LOG");
  }
  for (std::size_t r = 0; r < rows; ++r) {
    EXPECT_EQ(text(h, "APPLICATION", r), "fringe test");
    EXPECT_EQ(text(h, "PRIORITY", r), "INFO");
    EXPECT_EQ(number(h, "OBSERVATION_ID", r), -1.0);
    EXPECT_EQ(number(h, "OBJECT_ID", r), 0.0);
    const double t = number(h, "TIME", r);
    EXPECT_EQ(t, std::floor(t)) << "whole seconds";
    EXPECT_GT(t, 61000.0 * 86400.0) << "MJD 61000 is 2025-11-21: the time of writing";
    for (const char* array : {"APP_PARAMS", "CLI_COMMAND"}) {
      EXPECT_TRUE(column(h, array).cells.at(r).defined) << array;
      EXPECT_TRUE(column(h, array).cells.at(r).strings.empty()) << array;
    }
  }
}

}  // namespace
}  // namespace fringe::io
