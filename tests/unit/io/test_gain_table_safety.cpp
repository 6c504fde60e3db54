// Gain table and gain CSV output safety (issue 16): the writers replace only an earlier gain
// table (table.info Type "fringe gains") or gain CSV (first line "# fringe gains"); '.', a
// Measurement Set, a sky model or any other file is refused and left intact; a write failure
// (RLIMIT_FSIZE in a child process) is a fringe::Error with the temporary removed and the
// earlier output unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fault_injection.h"
#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_writer.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;
using test::count_entries_starting_with;
using test::run_in_child;
using test::snapshot;

std::string test_dir() { return test::fresh_test_dir("tmp_io_gain_safety"); }

GainTable gains(std::size_t rows, double value = 1.0) {
  GainTable t;
  t.station_names = {"a", "b"};
  for (std::size_t r = 0; r < rows; ++r) {
    GainTableRow row;
    row.time_mjd_sec = 5e9 + double(r);
    row.station = int(r % 2);
    row.gain = {{{value, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {value, 0.0}}};
    t.rows.push_back(row);
  }
  return t;
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(GainTableSafety, TableInfoTypeAndCsvSignatureAreWhatTheGuardReads) {
  const std::string dir = test_dir();
  write_gain_table(dir + "/g.tab", gains(2));
  write_gain_csv(dir + "/g.csv", gains(2));
  EXPECT_EQ(first_line(dir + "/g.tab/table.info"), "Type = fringe gains");
  EXPECT_EQ(first_line(dir + "/g.csv").rfind(kGainCsvSignature, 0), 0u);
  EXPECT_TRUE(is_output_of_kind(dir + "/g.tab", gain_table_target("k", dir + "/g.tab")));
  EXPECT_TRUE(is_output_of_kind(dir + "/g.csv", gain_csv_target("k", dir + "/g.csv")));
  EXPECT_EQ(describe_path(dir + "/g.tab"), "a casacore table of type 'fringe gains'");
}

TEST(GainTableSafety, EarlierGainOutputsAreReplaced) {
  const std::string dir = test_dir();
  write_gain_table(dir + "/g.tab", gains(2, 1.0));
  write_gain_csv(dir + "/g.csv", gains(2, 1.0));
  write_gain_table(dir + "/g.tab", gains(3, 2.0));
  write_gain_csv(dir + "/g.csv", gains(3, 2.0));
  const GainTable back = read_gain_table(dir + "/g.tab");
  ASSERT_EQ(back.rows.size(), 3u);
  EXPECT_EQ(back.rows[0].gain[0].re, 2.0);
  EXPECT_EQ(count_entries_starting_with(dir, ""), 2);  // no temporaries or old copies left
}

TEST(GainTableSafety, DotIsRefusedAndTheFolderKept) {
  const std::string dir = test_dir();
  const std::string work = dir + "/work";
  fs::create_directories(work + "/sub");
  std::ofstream(work + "/settings.ini") << "[calibrate]\n";
  std::ofstream(work + "/sub/data.txt") << "precious\n";
  const auto before = snapshot(dir);
  for (const std::string& p : {work + "/.", work, work + "/"}) {
    try {
      write_gain_table(p, gains(2));
      FAIL() << "expected fringe::Error for " << p;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("folder holding"), std::string::npos) << e.what();
    }
    EXPECT_THROW(write_gain_csv(p, gains(2)), Error);
  }
  EXPECT_EQ(snapshot(dir), before);
}

TEST(GainTableSafety, MeasurementSetSkyModelAndOtherFilesAreRefused) {
  const std::string dir = test_dir();
  {
    vis::VisMeta m;
    m.telescope_name = "t";
    m.station_names = {"a", "b"};
    m.station_ecef_m = {{{-1601614.0, -5042001.0, 3554652.0}},
                        {{-1601714.0, -5041901.0, 3554752.0}}};
    m.array_centre_ecef_m = m.station_ecef_m[0];
    m.feed_angles_rad = {{{0.0, 0.0}}, {{0.0, 0.0}}};
    m.num_channels = 1;
    m.start_frequency_hz = 1e8;
    m.num_times = 1;
    m.start_time_mjd_utc = 60000.0;
    m.time_inc_sec = 1.0;
    MsWriter w(dir + "/in.ms", m);
    w.finish();
  }
  std::ofstream(dir + "/sky.osm") << "# RA Dec I\n10 -30 1\n";
  std::ofstream(dir + "/other.csv") << "a,b\n1,2\n";
  const auto before = snapshot(dir);
  EXPECT_THROW(write_gain_table(dir + "/in.ms", gains(2)), Error);
  EXPECT_THROW(write_gain_table(dir + "/sky.osm", gains(2)), Error);
  EXPECT_THROW(write_gain_csv(dir + "/in.ms", gains(2)), Error);
  EXPECT_THROW(write_gain_csv(dir + "/sky.osm", gains(2)), Error);
  EXPECT_THROW(write_gain_csv(dir + "/other.csv", gains(2)), Error);
  EXPECT_EQ(snapshot(dir), before);
}

// Under a file-size limit: an error naming the output, the temporaries removed, the earlier
// table and CSV unchanged; no abort.
TEST(GainTableSafety, WriteFailureIsAnErrorAndChangesNothing) {
  const std::string dir = test_dir();
  write_gain_table(dir + "/g.tab", gains(2));
  write_gain_csv(dir + "/g.csv", gains(2));
  const auto before = snapshot(dir);
  for (const bool table : {true, false}) {
    const std::string path = dir + (table ? "/g.tab" : "/g.csv");
    const auto result = run_in_child(16L << 10, [&](std::string& message) {
      try {
        if (table) {
          write_gain_table(path, gains(4000));
        } else {
          write_gain_csv(path, gains(4000));
        }
      } catch (const Error& e) {
        message = e.what();
        return 0;
      }
      return 1;
    });
    EXPECT_TRUE(result.exited) << path << ": ended by signal " << result.signal;
    EXPECT_EQ(result.exit_code, 0) << path << ": " << result.message;
    EXPECT_NE(result.message.find(path), std::string::npos) << result.message;
    EXPECT_EQ(snapshot(dir), before) << path;
  }
}

}  // namespace
}  // namespace fringe::io
