// OSKAR's MS naming rule (docs/conventions.md, "Measurement Set output"): ".MS" appended unless the
// name ends in .ms/.MS.
#include <gtest/gtest.h>

#include "fringe/core/error.h"
#include "fringe/io/ms/ms_path.h"

namespace fringe::io {
namespace {

TEST(MsPath, AppendsSuffixUnlessPresent) {
  EXPECT_EQ(ms_output_path("out"), "out.MS");
  EXPECT_EQ(ms_output_path("dir/out.ms"), "dir/out.ms");
  EXPECT_EQ(ms_output_path("dir/out.MS"), "dir/out.MS");
  EXPECT_EQ(ms_output_path("out.Ms"), "out.Ms.MS");
  EXPECT_EQ(ms_output_path("out.vis"), "out.vis.MS");
  EXPECT_EQ(ms_output_path("out.ms/"), "out.ms");
}

TEST(MsPath, EmptyNameIsAnError) {
  EXPECT_THROW(ms_output_path(""), Error);
  EXPECT_THROW(ms_output_path("/"), Error);
}

TEST(MsPath, TemporaryIsBesideTheFinalPathAndFresh) {
  const std::string a = ms_temporary_path("some/dir/x.MS");
  const std::string b = ms_temporary_path("some/dir/x.MS");
  EXPECT_EQ(a.rfind("some/dir/x.MS.tmp-", 0), 0u) << a;
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace fringe::io
