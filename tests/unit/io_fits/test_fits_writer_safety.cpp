// FITS writer output safety (issue 16): only nothing or an earlier FITS file may be at the
// final path (a text file, a folder or a FITS-looking name on another file is refused and
// left intact); nothing is created under the final name before finish(); a SIGKILL leaves
// only the temporary name; a write failure under a file-size limit (RLIMIT_FSIZE in a child
// process, as a full disk) is a fringe::Error with the temporary removed and the earlier
// file unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../io/fault_injection.h"
#include "fringe/core/error.h"
#include "fringe/io/fits/fits_image_writer.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;
using test::count_entries_starting_with;
using test::run_in_child;
using test::snapshot;

std::string test_dir() { return test::fresh_test_dir("tmp_io_fits_safety"); }

FitsImageHeader image(long width, long height) {
  FitsImageHeader h;
  h.pixel_type = FitsPixelType::Float64;
  h.axes = {{width, "", 0, 1, 1, "", ""}, {height, "", 0, 1, 1, "", ""}};
  return h;
}

TEST(FitsWriterSafety, NonFitsFilesAndFoldersAreRefusedAndKept) {
  const std::string dir = test_dir();
  std::ofstream(dir + "/notes.fits") << "my notes, not FITS\n";
  std::ofstream(dir + "/sky.osm") << "# RA Dec I\n10 -30 1\n";
  fs::create_directories(dir + "/results");
  std::ofstream(dir + "/results/thesis.tex") << "\\documentclass{book}\n";
  const auto before = snapshot(dir);
  const std::vector<double> px(4, 1.0);
  for (const std::string& name : {"/notes.fits", "/sky.osm", "/results", "/results/"}) {
    try {
      write_fits_image(dir + name, image(2, 2), px);
      FAIL() << "expected fringe::Error for " << name;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("refusing to replace"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(snapshot(dir), before);
}

TEST(FitsWriterSafety, NothingUnderTheFinalNameBeforeFinish) {
  const std::string dir = test_dir();
  const std::string path = dir + "/new.fits";
  FitsImageWriter w(path, image(4, 4));
  EXPECT_EQ(fs::path(w.temporary_path()).filename().string().rfind("new.fits.tmp-", 0), 0u);
  w.write(0, std::vector<double>(16, 3.0));
  EXPECT_FALSE(fs::exists(path));
  w.finish();
  EXPECT_TRUE(fs::is_regular_file(path));
  EXPECT_EQ(count_entries_starting_with(dir, ""), 1);
}

TEST(FitsWriterSafety, SigkillLeavesOnlyATemporaryName) {
  const std::string dir = test_dir();
  const std::string path = dir + "/killed.fits";
  const auto result = run_in_child(0, [&](std::string&) {
    FitsImageWriter w(path, image(4, 4));
    w.write(0, std::vector<double>(8, 3.0));
    ::kill(::getpid(), SIGKILL);
    return 0;
  });
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(count_entries_starting_with(dir, "killed.fits.tmp-"), 1);
  EXPECT_EQ(count_entries_starting_with(dir, ""), 1);
}

// A 256 x 256 float64 image (512 KiB) under a 64 KiB limit, written in one piece and
// plane-row by row with the file closed between writes: an error naming the file, no abort,
// the temporary removed, the earlier image unchanged.
TEST(FitsWriterSafety, WriteFailureIsAnErrorAndChangesNothing) {
  const std::string dir = test_dir();
  const std::string path = dir + "/img.fits";
  write_fits_image(path, image(2, 2), std::vector<double>(4, 1.0));
  const auto before = snapshot(dir);
  for (const bool keep_open : {true, false}) {
    const auto result = run_in_child(64L << 10, [&](std::string& message) {
      try {
        FitsImageWriter w(path, image(256, 256), keep_open);
        const std::vector<double> row(256, 2.0);
        for (std::size_t y = 0; y < 256; ++y) w.write(y * 256, row);
        w.finish();
      } catch (const Error& e) {
        message = e.what();
        return 0;
      }
      return 1;  // the limit was not reached
    });
    EXPECT_TRUE(result.exited) << "ended by signal " << result.signal;
    EXPECT_EQ(result.exit_code, 0) << result.message;
    EXPECT_NE(result.message.find(path), std::string::npos) << result.message;
    EXPECT_EQ(snapshot(dir), before) << "keep_open " << keep_open;
  }
}

}  // namespace
}  // namespace fringe::io
