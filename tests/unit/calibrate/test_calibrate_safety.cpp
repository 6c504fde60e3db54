// calibrate's data-safety rules (issue 16, docs/reliability.md) on small Measurement Sets
// (cal_test_ms.h: 10 stations, 3 times, 4 channels): an output gain table that would replace
// the folder holding the MS, the MS itself or another file is refused before the MS is
// touched; settings that do not fit the MS (reference station, minimum baselines) are refused
// with the key and range; a run that solves nothing fails without writing FLAG or a gain
// table; a signal stops the run between solution intervals with the MS readable.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cal_test_ms.h"
#include "fringe/calibrate/calibrate_checks.h"
#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/log.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"

namespace {

namespace fs = std::filesystem;
using fringe::Complex;
using namespace fringe::calibrate;
using cal_test::kChannels;
using cal_test::kStations;
using cal_test::kTimes;

// A fresh folder build/test_calibrate_safety/<name> holding a copy of a test MS ("in.ms").
struct Workspace {
  fs::path dir;
  std::string ms;
};

Workspace workspace(const std::string& name) {
  static const cal_test::TestMs source = cal_test::write_ms("safety_source.MS", true, true);
  Workspace w;
  w.dir = fs::path(FRINGE_BINARY_DIR) / "test_calibrate_safety" / name;
  fs::remove_all(w.dir);  // (this test's own scratch folder)
  fs::create_directories(w.dir);
  w.ms = (w.dir / "in.ms").string();
  fs::copy(source.path, w.ms, fs::copy_options::recursive);
  return w;
}

CalibrateMsConfig config_for(const Workspace& w) {
  CalibrateMsConfig c;
  c.ms_path = w.ms;
  c.gains_path = (w.dir / "out.gains").string();
  c.options.type = GainType::Diagonal;
  c.devices.use_gpus = false;
  return c;
}

// The error calibrate_ms throws (fails the test when none).
std::string error_of(const CalibrateMsConfig& c) {
  try {
    calibrate_ms(c, nullptr);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

std::size_t count_set(const std::vector<std::uint8_t>& v) {
  std::size_t n = 0;
  for (auto x : v) n += x ? 1 : 0;
  return n;
}

void poke(const std::string& ms, const std::string& column, const std::string& value) {
  const std::string cmd = std::string(CAL_MS_POKE) + " '" + ms + "' " + column + " " + value;
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

// The MS is readable and has no CORRECTED_DATA: nothing was changed.
void expect_untouched(const std::string& ms) {
  const fringe::io::MsReader r(ms);
  EXPECT_FALSE(r.has_column("CORRECTED_DATA"));
  EXPECT_EQ(count_set(r.read_flag()), 0u);
}

TEST(CalibrateSafety, GainsOverTheFolderHoldingTheMsAreRefused) {
  const Workspace w = workspace("dot");
  std::ofstream(w.dir / "thesis.tex") << "keep me\n";
  CalibrateMsConfig c = config_for(w);
  c.gains_path = w.dir.string();
  const std::string e = error_of(c);
  expect_contains(e, "CalibrateMsConfig.gains_path");
  expect_contains(e, w.dir.string());
  EXPECT_TRUE(fs::exists(w.dir / "thesis.tex"));
  expect_untouched(w.ms);
  // The same from the app's check (nothing opened for writing).
  EXPECT_THROW(check_calibration(c), fringe::Error);
}

TEST(CalibrateSafety, GainsOverTheInputMsAreRefused) {
  const Workspace w = workspace("over_ms");
  CalibrateMsConfig c = config_for(w);
  c.gains_path = w.ms;
  const std::string e = error_of(c);
  expect_contains(e, "CalibrateMsConfig.gains_path");
  expect_contains(e, "in.ms");
  expect_untouched(w.ms);
  EXPECT_EQ(fringe::io::MsReader(w.ms).num_stations(), kStations);
}

TEST(CalibrateSafety, GainsOverAnotherFileAreRefused) {
  const Workspace w = workspace("over_file");
  const fs::path sky = w.dir / "sky.osm";
  std::ofstream(sky) << "0 0 1\n";
  CalibrateMsConfig c = config_for(w);
  c.gains_path = sky.string();
  expect_contains(error_of(c), "CalibrateMsConfig.gains_path");
  EXPECT_TRUE(fs::is_regular_file(sky));
  EXPECT_EQ(fs::file_size(sky), 6u);
  expect_untouched(w.ms);
  // ... and the sky model of the same run (an input) too.
  c.sky_model_path = sky.string();
  EXPECT_THROW(check_calibration(c), fringe::Error);
}

TEST(CalibrateSafety, DefaultGainsGoBesideTheMs) {
  CalibrateMsConfig c;
  c.ms_path = "/data/obs.ms/";
  EXPECT_EQ(gains_path_of(c), "/data/obs.ms.gains");
  c.gains_path = "g.gains";
  EXPECT_EQ(gains_path_of(c), "g.gains");
  EXPECT_EQ(calibration_outputs(c).size(), 2u);
  EXPECT_EQ(calibration_outputs(c)[1].path, "g.gains.csv");
}

// A solution interval of a whole large observation: refused (memory) unless forced.
TEST(CalibrateSafety, RunawayIntervalIsRefusedUnlessForced) {
  CalibrateMsConfig c;
  c.times_per_solution = 0;  // all times in one interval
  const auto all = calibration_estimate(c, 1'000'000'000, 512, 1000, 4);
  EXPECT_GT(all.memory_bytes, 1e14);
  try {
    fringe::check_run_size(all, false, nullptr);
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    expect_contains(e.what(), "CalibrateMsConfig.times_per_solution");
    expect_contains(e.what(), "--force");
  }
  EXPECT_NO_THROW(fringe::check_run_size(all, true, nullptr));
  c.times_per_solution = 1;  // one time: N(N+1)/2 rows
  const auto one = calibration_estimate(c, 1'000'000'000, 512, 1000, 4);
  EXPECT_LT(one.memory_bytes, 1e-3 * all.memory_bytes);
  EXPECT_GT(one.memory_bytes, 512.0 * 513 / 2 * 1000 * 4 * 8);
}

TEST(CalibrateSafety, AnEarlierGainTableIsReplaced) {
  const Workspace w = workspace("rerun");
  const CalibrateMsConfig c = config_for(w);
  calibrate_ms(c, nullptr);
  const CalibrateMsResult r = calibrate_ms(c, nullptr);
  EXPECT_EQ(fringe::io::read_gain_table(r.gains_path).rows.size(), std::size_t(kTimes) * kStations);
}

TEST(CalibrateSafety, ReferenceStationOutsideTheMsIsRefused) {
  const Workspace w = workspace("reference");
  CalibrateMsConfig c = config_for(w);
  c.options.reference_station = 99;
  const std::string e = error_of(c);
  expect_contains(e, "CalOptions.reference_station' = '99'");
  expect_contains(e, "0.." + std::to_string(kStations - 1));
  expect_untouched(w.ms);
  EXPECT_FALSE(fs::exists(c.gains_path));
}

TEST(CalibrateSafety, MinBaselinesOutsideTheMsAreRefused) {
  const Workspace w = workspace("min_baselines");
  CalibrateMsConfig c = config_for(w);
  for (int bad : {-5, kStations}) {
    c.options.min_baselines = bad;
    const std::string e = error_of(c);
    expect_contains(e, "CalOptions.min_baselines' = '" + std::to_string(bad) + "'");
    expect_contains(e, "0.." + std::to_string(kStations - 1));
  }
  expect_untouched(w.ms);
  c.options.min_baselines = kStations - 1;  // every station has all its baselines
  EXPECT_EQ(calibrate_ms(c, nullptr).num_flagged_station_cells, 0);
}

// Data that solve nothing: the run fails with the reason, FLAG is not written, no gain table.
void expect_nothing_solved(const Workspace& w, const std::string& reason) {
  const CalibrateMsConfig c = config_for(w);
  const std::string e = error_of(c);
  expect_contains(e, "nothing could be solved");
  expect_contains(e, reason);
  const fringe::io::MsReader r(w.ms);
  EXPECT_EQ(count_set(r.read_flag()), 0u) << "FLAG was written";
  EXPECT_FALSE(fs::exists(c.gains_path));
  EXPECT_FALSE(fs::exists(c.gains_path + ".csv"));
}

TEST(CalibrateSafety, NanWeightSolvesNothingAndFails) {
  const Workspace w = workspace("nan_weight");
  poke(w.ms, "WEIGHT", "nan");
  expect_nothing_solved(w, "have a NaN, infinite, zero or negative WEIGHT");
}

TEST(CalibrateSafety, NegativeWeightSolvesNothingAndFails) {
  const Workspace w = workspace("negative_weight");
  poke(w.ms, "WEIGHT", "-1");
  expect_nothing_solved(w, "have a NaN, infinite, zero or negative WEIGHT");
}

TEST(CalibrateSafety, ZeroModelSolvesNothingAndFails) {
  const Workspace w = workspace("zero_model");
  {
    fringe::io::MsColumnWriter model(w.ms, "MODEL_DATA");
    const std::size_t n = model.num_rows();
    model.write(0, n, std::vector<Complex<float>>(n * kChannels * 4, Complex<float>{0, 0}));
  }
  expect_nothing_solved(w, "a zero model");
}

TEST(CalibrateSafety, NanTimeFailsNamingTheRow) {
  const Workspace w = workspace("nan_time");
  poke(w.ms, "TIME", "nan");
  const std::string e = error_of(config_for(w));
  expect_contains(e, "row 0 has TIME = nan");
  EXPECT_EQ(count_set(fringe::io::MsReader(w.ms).read_flag()), 0u);
}

TEST(CalibrateSafety, ReadOnlyMsIsRefusedBeforeAnyWrite) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes to read-only files";
  const Workspace w = workspace("read_only");
  fs::permissions(w.ms, fs::perms::owner_write, fs::perm_options::remove);
  const std::string e = error_of(config_for(w));
  fs::permissions(w.ms, fs::perms::owner_write, fs::perm_options::add);
  expect_contains(e, "CalibrateMsConfig.ms_path");
  expect_contains(e, "not writable");
  expect_untouched(w.ms);
}

// A stream buffer that asks for SIGTERM when the log reports the first interval: the run
// must stop before the next interval, finish its writes and close the MS.
class InterruptAfterFirstInterval : public std::stringbuf {
 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const std::streamsize written = std::stringbuf::xsputn(s, n);
    if (str().find("times 0..0") != std::string::npos) fringe::interrupt::request(SIGTERM);
    return written;
  }
};

TEST(CalibrateSafety, SignalStopsBetweenIntervalsWithTheMsReadable) {
  const Workspace w = workspace("signal");
  InterruptAfterFirstInterval buf;
  std::ostream out(&buf);
  fringe::Logger log(out);
  const CalibrateMsConfig c = config_for(w);
  bool cancelled = false;
  try {
    calibrate_ms(c, &log);
  } catch (const fringe::interrupt::Cancelled& e) {
    cancelled = e.signal_number() == SIGTERM;
  }
  fringe::interrupt::reset_for_tests();
  EXPECT_TRUE(cancelled) << buf.str();
  EXPECT_EQ(buf.str().find("times 1..1"), std::string::npos) << "did not stop";
  // Readable, with a complete CORRECTED_DATA column (the first interval corrected).
  const fringe::io::MsReader r(w.ms);
  ASSERT_TRUE(r.has_column("CORRECTED_DATA"));
  const auto corrected = r.read_data(0, fringe::io::MsReader::kAllRows, "CORRECTED_DATA");
  ASSERT_EQ(corrected.size(), r.num_rows() * kChannels * 4);
  // The first time's rows corrected, the last time's zero (never written).
  const std::size_t per_time = corrected.size() / kTimes;
  bool first_nonzero = false, last_zero = true;
  for (std::size_t i = 0; i < per_time; ++i) {
    first_nonzero = first_nonzero || corrected[i].re != 0;
    const Complex<float> v = corrected[corrected.size() - 1 - i];
    last_zero = last_zero && v.re == 0 && v.im == 0;
  }
  EXPECT_TRUE(first_nonzero);
  EXPECT_TRUE(last_zero);
  EXPECT_FALSE(fs::exists(c.gains_path));
  // A later run completes.
  EXPECT_EQ(calibrate_ms(c, nullptr).num_cells, kTimes);
}

}  // namespace
