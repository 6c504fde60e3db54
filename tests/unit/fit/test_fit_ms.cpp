// load_ms_observation (fringe/fit/fit_ms.h) on a Measurement Set written by OSKAR 2.13 (the
// vis tools' reference MS): rows, channels, weights and flags as python-casacore reads them.
#include <gtest/gtest.h>

#include "fringe/core/error.h"
#include "fringe/fit/fit_ms.h"

namespace {

TEST(FitMs, MissingFileNamesThePath) {
  try {
    fringe::fit::load_ms_observation("/nonexistent/fit.ms");
    FAIL();
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/fit.ms"), std::string::npos);
  }
}

}  // namespace
