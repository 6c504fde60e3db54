// Sky model text output safety (issue 16): the writer's files start with kSkyTextSignature;
// only such an earlier output may be replaced. A user's .osm (even an OSKAR-style one), a
// folder or any other file at the path is refused and left intact.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fault_injection.h"
#include "fringe/core/error.h"
#include "fringe/sky/sky_text_reader.h"
#include "fringe/sky/sky_writer.h"

namespace fringe::sky {
namespace {

namespace fs = std::filesystem;
using test::count_entries_starting_with;
using test::snapshot;

std::string test_dir() { return test::fresh_test_dir("tmp_io_sky_safety"); }

SkyModel one_source(double flux) {
  SkyModel sky;
  Source s;
  s.ra = 0.1;
  s.dec = -0.5;
  s.I = flux;
  sky.push_back(s);
  return sky;
}

TEST(SkyWriterSafety, EarlierOutputIsReplacedBothFormats) {
  const std::string dir = test_dir();
  const std::string path = dir + "/out.osm";
  write_sky_fixed_columns(one_source(1.0), path);
  write_sky_fixed_columns(one_source(2.0), path);
  EXPECT_EQ(read_sky_text(path).I.at(0), 2.0);
  TextOutputConfig named;
  named.file = path;
  named.use_named_columns = true;
  write_sky_text(one_source(3.0), named);  // replaces the fixed-column output
  EXPECT_EQ(read_sky_text(path).I.at(0), 3.0);
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first.rfind(kSkyTextSignature, 0), 0u) << first;
  EXPECT_EQ(count_entries_starting_with(dir, ""), 1);
}

TEST(SkyWriterSafety, UserFilesAndFoldersAreRefusedAndKept) {
  const std::string dir = test_dir();
  std::ofstream(dir + "/input.osm") << "# Number of sources: 1\n10 -30 1\n";
  std::ofstream(dir + "/thesis.tex") << "\\documentclass{book}\n";
  fs::create_directories(dir + "/models");
  std::ofstream(dir + "/models/a.osm") << "10 -30 1\n";
  const auto before = snapshot(dir);
  for (const std::string& name : {"/input.osm", "/thesis.tex", "/models", "/."}) {
    try {
      write_sky_fixed_columns(one_source(1.0), dir + name);
      FAIL() << "expected fringe::Error for " << name;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("refusing to replace"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(snapshot(dir), before);
}

}  // namespace
}  // namespace fringe::sky
