// fringe::Error message formatting with file/line/column and settings key/value, and the
// CUDA error wording.
#include <gtest/gtest.h>

#include <string>

#include "fringe/core/cuda_check.h"
#include "fringe/core/error.h"

namespace fringe {
namespace {

TEST(Error, PlainMessage) {
  const Error e("something is wrong");
  EXPECT_STREQ(e.what(), "something is wrong");
  EXPECT_EQ(e.message(), "something is wrong");
  EXPECT_TRUE(e.context().file.empty());
}

TEST(Error, FileAndLine) {
  const Error e = Error::in_file("sky.osm", 12, "expected 3 or more columns, found 2");
  EXPECT_STREQ(e.what(), "sky.osm:12: expected 3 or more columns, found 2");
  EXPECT_EQ(e.message(), "expected 3 or more columns, found 2");
  EXPECT_EQ(e.context().file, "sky.osm");
  EXPECT_EQ(e.context().line, 12);
}

TEST(Error, FileLineColumnAndFileOnly) {
  ErrorContext c;
  c.file = "layout.txt";
  c.line = 3;
  c.column = 7;
  EXPECT_STREQ(Error("bad number 'x'", c).what(), "layout.txt:3:7: bad number 'x'");
  EXPECT_STREQ(Error::in_file("missing.tm", 0, "not found").what(), "missing.tm: not found");
}

TEST(Error, SettingKeyValue) {
  const Error e = Error::in_setting("observation/num_time_steps", "-3", "expected an integer >= 1");
  EXPECT_STREQ(e.what(), "setting 'observation/num_time_steps' = '-3': expected an integer >= 1");
  EXPECT_EQ(e.context().key, "observation/num_time_steps");
  EXPECT_EQ(e.context().value, "-3");
}

TEST(Error, IsARuntimeError) {
  try {
    throw Error::in_file("a.ini", 2, "oops");
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "a.ini:2: oops");
  }
}

TEST(Error, CudaErrorNamesTheCall) {
  try {
    throw_cuda_error(2, "cudaErrorMemoryAllocation", "out of memory", "cudaMalloc(&p, bytes)",
                     "/some/dir/memory.cpp", 42);
    FAIL() << "throw_cuda_error returned";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "CUDA error in cudaMalloc(&p, bytes) (memory.cpp:42): "
                 "cudaErrorMemoryAllocation (2): out of memory");
  }
}

}  // namespace
}  // namespace fringe
