// MsColumnWriter under write failures (issue 16, "Faults": calibrate on a full disk died with
// SIGABRT from a casacore destructor): a column write into an existing MS that fails under a
// file-size limit (RLIMIT_FSIZE in a child process) is a fringe::Error, and destroying the
// writer afterwards does not abort; the MS stays readable.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fault_injection.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/vis_block.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;
using test::run_in_child;

std::string test_dir() { return test::fresh_test_dir("tmp_io_column_safety"); }

// An MS of 3 stations, 64 channels and 40 dumps (120 rows; DATA 240 KiB).
void write_input_ms(const std::string& path) {
  vis::VisMeta m;
  m.telescope_name = "test";
  m.station_names = {"a", "b", "c"};
  m.station_ecef_m = {{{-1601614.0, -5042001.0, 3554652.0}},
                      {{-1601714.0, -5041901.0, 3554752.0}},
                      {{-1601514.0, -5042101.0, 3554552.0}}};
  m.array_centre_ecef_m = m.station_ecef_m[0];
  m.feed_angles_rad = {{{0.0, 0.0}}, {{0.0, 0.0}}, {{0.0, 0.0}}};
  m.num_channels = 64;
  m.start_frequency_hz = 100e6;
  m.frequency_inc_hz = 1e5;
  m.num_times = 40;
  m.start_time_mjd_utc = 60000.5;
  m.time_inc_sec = 10.0;
  m.time_average_sec = 10.0;
  MsWriter w(path, m);
  vis::VisBlock<float> b(m.num_times, m.num_channels, 3, m.pol_mode, true, false);
  b.set_axes(m, 0, 0);
  for (int t = 0; t < m.num_times; ++t) {
    for (std::size_t bl = 0; bl < b.num_baselines(); ++bl) b.uvw(t, bl) = {100.0, 10.0, 1.0};
  }
  w.append_block(b);
  w.finish();
}

// Names in the MS folder that belong to the new column's storage (table.f7*: the input MS
// has data managers 0..6).
int new_column_files(const std::string& ms) {
  return test::count_entries_starting_with(ms, "table.f7");
}

// Under a limit above every file of the input MS but below a new 1 MiB column tile: the
// explicit flush() fails with an error, or, without it, the destructor's flush fails; either
// way no abort, the added column and its files are removed and the MS reads as before.
TEST(MsColumnWriterSafety, WriteFailureIsAnErrorAndTheMsStaysReadable) {
  const std::string dir = test_dir();
  const std::string path = dir + "/in.ms";
  write_input_ms(path);
  const std::size_t rows = MsReader(path).num_rows();
  for (const bool explicit_flush : {true, false}) {
    const auto result = run_in_child(600L << 10, [&](std::string& message) {
      try {
        MsColumnWriter w(path, "CORRECTED_DATA");
        const std::vector<Complex<float>> values(rows * 64 * 4, Complex<float>{1.0f, 0.0f});
        w.write(0, rows, values);
        if (explicit_flush) w.flush();
      } catch (const Error& e) {
        message = e.what();
        return 0;
      }
      return explicit_flush ? 1 : 0;  // 1: no error, the limit was not reached
    });
    EXPECT_TRUE(result.exited) << "ended by signal " << result.signal;
    EXPECT_EQ(result.exit_code, 0) << result.message;
    if (explicit_flush) {
      EXPECT_NE(result.message.find(path), std::string::npos) << result.message;
      EXPECT_NE(result.message.find("was removed"), std::string::npos) << result.message;
    }
    MsReader r(path);  // opens and reads
    EXPECT_EQ(r.num_rows(), rows);
    EXPECT_FALSE(r.has_column("CORRECTED_DATA"));
    EXPECT_EQ(r.read_data().size(), rows * 64 * 4);
    EXPECT_EQ(new_column_files(path), 0);
  }
}

// A SIGKILL right after the column was added, and again halfway through writing it: the MS
// still opens and reads, and every storage file in it belongs to a column (SIGKILL cannot be
// caught; the new column holds whatever casacore had written).
TEST(MsColumnWriterSafety, SigkillLeavesAReadableMs) {
  const std::string dir = test_dir();
  const std::string path = dir + "/in.ms";
  write_input_ms(path);
  const std::size_t rows = MsReader(path).num_rows();
  for (const bool halfway : {false, true}) {
    const auto result = run_in_child(0, [&](std::string&) {
      MsColumnWriter w(path, halfway ? "CORRECTED_DATA" : "MODEL_DATA");
      if (halfway) {
        const std::vector<Complex<float>> values(rows / 2 * 64 * 4, Complex<float>{1.0f, 0.0f});
        w.write(0, rows / 2, values);
      }
      ::kill(::getpid(), SIGKILL);
      return 0;
    });
    EXPECT_EQ(result.signal, SIGKILL);
    const std::string column = halfway ? "CORRECTED_DATA" : "MODEL_DATA";
    MsReader r(path);
    EXPECT_EQ(r.num_rows(), rows);
    EXPECT_EQ(r.read_data().size(), rows * 64 * 4);
    EXPECT_TRUE(r.has_column(column)) << "orphan storage files of " << column;
    EXPECT_EQ(r.read_data(0, MsReader::kAllRows, column).size(), rows * 64 * 4);
  }
}

}  // namespace
}  // namespace fringe::io
