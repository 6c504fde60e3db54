// MsWriter and output safety (issue 16, docs/reliability/io.md): what may be at the final
// path (nothing or an earlier Measurement Set; a folder of other files or a regular file is
// refused and left intact), nothing ever created under the final name before finish(), a
// SIGKILL leaving only a temporary-named folder, and write failures (RLIMIT_FSIZE in a child
// process, as a full disk) ending in fringe::Error, never an abort, with the temporary removed
// and an earlier MS at the final path unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fault_injection.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/vis_block.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;
using test::count_entries_starting_with;
using test::run_in_child;
using test::snapshot;

std::string test_dir() { return test::fresh_test_dir("tmp_io_safety"); }

// 3 stations, 2 channels, `times` dumps, full polarisation, cross-correlations only.
vis::VisMeta small_meta(int times = 2) {
  vis::VisMeta m;
  m.telescope_name = "test";
  m.station_names = {"a", "b", "c"};
  m.station_ecef_m = {{{-1601614.0, -5042001.0, 3554652.0}},
                      {{-1601714.0, -5041901.0, 3554752.0}},
                      {{-1601514.0, -5042101.0, 3554552.0}}};
  m.array_centre_ecef_m = {{-1601614.0, -5042001.0, 3554652.0}};
  m.feed_angles_rad = {{{0.0, 0.0}}, {{0.0, 0.0}}, {{0.0, 0.0}}};
  m.phase_centre_ra_rad = 1.0;
  m.phase_centre_dec_rad = -0.5;
  m.num_channels = 2;
  m.start_frequency_hz = 100e6;
  m.frequency_inc_hz = 1e6;
  m.channel_bandwidth_hz = 1e6;
  m.num_times = times;
  m.start_time_mjd_utc = 60000.5;
  m.time_inc_sec = 10.0;
  m.time_average_sec = 10.0;
  m.pol_mode = vis::PolMode::Full;
  m.write_autocorrelations = false;
  m.write_crosscorrelations = true;
  return m;
}

vis::VisBlock<float> block_of(const vis::VisMeta& m, float value) {
  vis::VisBlock<float> b(m.num_times, m.num_channels, 3, m.pol_mode, true, false);
  b.set_axes(m, 0, 0);
  for (int t = 0; t < m.num_times; ++t) {
    for (std::size_t bl = 0; bl < b.num_baselines(); ++bl) {
      b.uvw(t, bl) = {100.0 * double(bl + 1), 10.0, 1.0};
      for (int c = 0; c < m.num_channels; ++c) {
        for (int p = 0; p < 4; ++p) b.cross(t, c, bl, p) = {value, 0.0f};
      }
    }
  }
  return b;
}

void write_ms(const std::string& path, int times, float value) {
  const vis::VisMeta meta = small_meta(times);
  MsWriter w(path, meta);
  w.append_block(block_of(meta, value));
  w.finish();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(MsWriterSafety, FolderOfOtherFilesIsRefusedAndKept) {
  const std::string dir = test_dir();
  const std::string target = dir + "/results.ms";
  fs::create_directories(target + "/chapter1");
  std::ofstream(target + "/thesis.tex") << "\\documentclass{book}\n";
  std::ofstream(target + "/chapter1/intro.tex") << "Once upon a time\n";
  const auto before = snapshot(dir);
  try {
    MsWriter w(target, small_meta());
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), target)) << e.what();
    EXPECT_TRUE(contains(e.what(), "folder holding 2 entries")) << e.what();
  }
  EXPECT_EQ(snapshot(dir), before);  // thesis.tex, the sub-folder, nothing else
}

TEST(MsWriterSafety, RegularFileAndOtherTableAreRefused) {
  const std::string dir = test_dir();
  std::ofstream(dir + "/notes.ms") << "my notes\n";
  // A casacore table that is not a Measurement Set (a table.dat and a table.info of another
  // type are all the guard reads).
  fs::create_directories(dir + "/other.ms");
  std::ofstream(dir + "/other.ms/table.dat") << "x";
  std::ofstream(dir + "/other.ms/table.info") << "Type = Calibration\nSubType = G\n";
  const auto before = snapshot(dir);
  EXPECT_THROW(MsWriter(dir + "/notes.ms", small_meta()), Error);
  EXPECT_THROW(MsWriter(dir + "/other.ms", small_meta()), Error);
  EXPECT_EQ(snapshot(dir), before);
}

TEST(MsWriterSafety, EarlierMsIsReplacedOnlyAfterCompletion) {
  const std::string dir = test_dir();
  const std::string path = dir + "/out.MS";
  write_ms(path, 1, 1.0f);  // the earlier output: 1 dump (3 rows)
  const auto earlier = snapshot(dir);
  const auto earlier_ms = snapshot(path);
  {
    const vis::VisMeta meta = small_meta(2);
    MsWriter w(path, meta);
    w.append_block(block_of(meta, 2.0f));
    EXPECT_EQ(snapshot(path), earlier_ms);     // untouched while writing
    EXPECT_EQ(MsReader(path).num_rows(), 3u);  // still the earlier MS
    w.finish();
  }
  EXPECT_EQ(MsReader(path).num_rows(), 6u);
  EXPECT_NE(snapshot(dir), earlier);
  EXPECT_EQ(count_entries_starting_with(dir, "out.MS.tmp-"), 0);
  EXPECT_EQ(count_entries_starting_with(dir, ""), 1);
}

TEST(MsWriterSafety, NothingUnderTheFinalNameBeforeFinish) {
  const std::string dir = test_dir();
  const std::string path = dir + "/fresh.ms";
  const vis::VisMeta meta = small_meta();
  MsWriter w(path, meta);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(fs::path(w.temporary_path()).filename().string().rfind("fresh.ms.tmp-", 0), 0u);
  w.append_block(block_of(meta, 1.0f));
  w.add_history({"more"});
  EXPECT_FALSE(fs::exists(path));
  w.finish();
  EXPECT_TRUE(fs::is_directory(path));
}

TEST(MsWriterSafety, FolderThatAppearsDuringTheRunIsNotReplaced) {
  const std::string dir = test_dir();
  const std::string path = dir + "/late.ms";
  const vis::VisMeta meta = small_meta();
  MsWriter w(path, meta);
  w.append_block(block_of(meta, 1.0f));
  fs::create_directories(path);  // the user makes a folder of that name meanwhile
  std::ofstream(path + "/thesis.tex") << "\\documentclass{book}\n";
  const auto before = snapshot(dir + "/late.ms");
  try {
    w.finish();
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "appeared there during the run")) << e.what();
  }
  EXPECT_EQ(snapshot(path), before);
  EXPECT_EQ(count_entries_starting_with(dir, "late.ms.tmp-"), 0);
}

TEST(MsWriterSafety, SigkillLeavesOnlyATemporaryName) {
  const std::string dir = test_dir();
  const std::string path = dir + "/killed.ms";
  const auto result = run_in_child(0, [&](std::string&) {
    const vis::VisMeta meta = small_meta();
    MsWriter w(path, meta);
    w.append_block(block_of(meta, 1.0f));
    ::kill(::getpid(), SIGKILL);  // as `kill -9` in the middle of a run
    return 0;
  });
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(count_entries_starting_with(dir, "killed.ms.tmp-"), 1);
  EXPECT_EQ(count_entries_starting_with(dir, ""), 1);
}

// Under a file-size limit: an error naming the MS, no abort, the temporary removed and the
// earlier MS unchanged. The limits hit the creation of the tables (4 KiB), the HISTORY and
// small subtables (40 KiB) and the flush of the 1 MiB DATA tile in finish() (300 KiB).
TEST(MsWriterSafety, WriteFailureIsAnErrorAndChangesNothing) {
  const std::string dir = test_dir();
  const std::string path = dir + "/out.ms";
  write_ms(path, 1, 1.0f);
  const auto before = snapshot(dir);
  for (long limit : {4L << 10, 40L << 10, 300L << 10}) {
    const auto result = run_in_child(limit, [&](std::string& message) {
      try {
        const vis::VisMeta meta = small_meta(2);
        MsWriter w(path, meta);
        w.append_block(block_of(meta, 2.0f));
        w.add_history({"run log"});
        w.finish();
      } catch (const Error& e) {
        message = e.what();
        return 0;
      }
      return 1;  // no error: the limit was not reached
    });
    EXPECT_TRUE(result.exited) << "limit " << limit << ": ended by signal " << result.signal;
    EXPECT_EQ(result.exit_code, 0) << "limit " << limit << ": " << result.message;
    EXPECT_TRUE(contains(result.message, path)) << result.message;
    EXPECT_EQ(snapshot(dir), before) << "limit " << limit;
  }
}

// Many dumps of 64 channels (DATA 1.5 MiB in 1 MiB tiles): the write of the first full tile
// fails inside append_block(); an error, no abort, the writer's temporary removed at once.
TEST(MsWriterSafety, WriteFailureWhileAppendingIsAnError) {
  const std::string dir = test_dir();
  const std::string path = dir + "/big.ms";
  const auto result = run_in_child(600L << 10, [&](std::string& message) {
    try {
      vis::VisMeta meta = small_meta(250);
      meta.num_channels = 64;
      meta.frequency_inc_hz = 1e5;
      MsWriter w(path, meta);
      for (int t = 0; t < meta.num_times; ++t) {
        vis::VisBlock<float> b(1, meta.num_channels, 3, meta.pol_mode, true, false);
        b.set_axes(meta, t, 0);
        for (std::size_t bl = 0; bl < b.num_baselines(); ++bl) b.uvw(0, bl) = {100.0, 10.0, 1.0};
        w.append_block(b);
      }
      w.finish();
    } catch (const Error& e) {
      message = e.what();
      return 0;
    }
    return 1;
  });
  EXPECT_TRUE(result.exited) << "ended by signal " << result.signal;
  EXPECT_EQ(result.exit_code, 0) << result.message;
  EXPECT_NE(result.message.find(path), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("writing the Measurement Set failed"), std::string::npos)
      << result.message;
  EXPECT_EQ(count_entries_starting_with(dir, ""), 0);
}

// The same failure with the writer destroyed by the caller after the error (the pipeline
// catches it and unwinds later): still no abort.
TEST(MsWriterSafety, DestroyingAFailedWriterDoesNotAbort) {
  const std::string dir = test_dir();
  const std::string path = dir + "/late.ms";
  const auto result = run_in_child(300L << 10, [&](std::string& message) {
    const vis::VisMeta meta = small_meta(2);
    auto w = std::make_unique<MsWriter>(path, meta);
    w->append_block(block_of(meta, 2.0f));
    try {
      w->finish();
    } catch (const Error& e) {
      message = e.what();
    }
    try {
      w->append_block(block_of(meta, 2.0f));
      return 2;  // a failed writer must refuse further blocks
    } catch (const Error&) {
    }
    w.reset();
    return message.empty() ? 1 : 0;
  });
  EXPECT_TRUE(result.exited) << "ended by signal " << result.signal;
  EXPECT_EQ(result.exit_code, 0) << result.message;
  EXPECT_EQ(count_entries_starting_with(dir, ""), 0);
}

}  // namespace
}  // namespace fringe::io
