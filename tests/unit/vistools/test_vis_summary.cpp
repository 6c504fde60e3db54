// vis_summary against oskar_vis_summary: for OSKAR's and fringe's .vis files the text fringe
// prints (-a -t, -l, -s, two files) equals what OSKAR 2.13 printed for the same files
// (tests/data/vis_tools/oskar/*.txt), byte for byte once the file names are the ones given to
// OSKAR. A Measurement Set gets the same layout.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/vistools/vis_summary.h"
#include "fringe/vistools/vis_to_ms.h"
#include "test_data.h"

namespace fringe::vistools {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The summary of `paths` with each path shown as its file name (as OSKAR was given them).
std::string summary(const std::vector<std::string>& paths, bool a, bool t, bool l, bool s) {
  VisSummaryConfig c;
  c.inputs = paths;
  c.header = a;
  c.stats = t;
  c.log = l;
  c.settings = s;
  std::ostringstream out, err;
  vis_summary(c, out, err);
  std::string text = out.str();
  for (const auto& p : paths) {
    const std::string name = p.substr(p.rfind('/') + 1);
    for (std::size_t at; (at = text.find(p)) != std::string::npos;)
      text.replace(at, p.size(), name);
  }
  return text;
}

class VisSummaryVsOskar : public ::testing::TestWithParam<const char*> {};

TEST_P(VisSummaryVsOskar, HeaderAndStatisticsEqualOskars) {
  const std::string name = GetParam();
  EXPECT_EQ(summary({test::vis_of(name)}, true, true, false, false),
            slurp(test::oskar_ref(name + ".summary_at.txt")));
}

INSTANTIATE_TEST_SUITE_P(Files, VisSummaryVsOskar,
                         ::testing::Values("oskar_tiny_double", "oskar_tiny_single",
                                           "fringe_tiny_double", "fringe_noncasa_single",
                                           "oskar_scalar_single"));

TEST(VisSummary, LogAndSettingsEqualOskars) {
  for (const std::string name : {"oskar_tiny_double", "fringe_tiny_double"}) {
    EXPECT_EQ(summary({test::vis_of(name)}, false, false, true, false),
              slurp(test::oskar_ref(name + ".summary_l.txt")))
        << name;
    EXPECT_EQ(summary({test::vis_of(name)}, false, false, false, true),
              slurp(test::oskar_ref(name + ".summary_s.txt")))
        << name;
  }
}

TEST(VisSummary, HeaderIsTheDefaultAndFilesAreNumbered) {
  EXPECT_EQ(summary({test::vis_of("oskar_tiny_double"), test::vis_of("fringe_tiny_double")}, false,
                    false, false, false),
            slurp(test::oskar_ref("two_files.summary.txt")));
}

TEST(VisSummary, MeasurementSetInTheSameLayout) {
  const std::string dir = test::fresh_dir();
  VisToMsConfig to_ms;
  to_ms.inputs = {test::vis_of("oskar_tiny_double")};
  to_ms.output = dir + "/t.ms";
  vis_to_ms(to_ms);
  const std::string text = summary({to_ms.output}, true, true, false, false);
  EXPECT_NE(text.find(" | + No. rows                            : 30\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find(" | + No. channels                        : 3\n"), std::string::npos);
  EXPECT_NE(text.find(" | + Start frequency (MHz)               : 100.000000\n"),
            std::string::npos);
  EXPECT_NE(text.find(" | + Start time (MJD, UTC)               : 51544.500000\n"),
            std::string::npos);
  // The cross-correlation statistics of the MS are those of the .vis file (DATA is complex
  // float; the tiny file's values print the same at 4 digits). The autos' standard deviation
  // is rounding noise (1e-16 in double, 0 in float), so they are not compared.
  const std::string vis = summary({test::vis_of("oskar_tiny_double")}, false, true, false, false);
  EXPECT_NE(text.find(vis.substr(vis.find("Stokes-I cross-correlations:"))), std::string::npos)
      << text << "\n---\n"
      << vis;
}

TEST(VisSummary, MissingFileNamesIt) {
  VisSummaryConfig c;
  c.inputs = {"/no/such/file.vis"};
  std::ostringstream out, err;
  try {
    vis_summary(c, out, err);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/file.vis"), std::string::npos);
  }
}

}  // namespace
}  // namespace fringe::vistools
