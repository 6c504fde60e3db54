// Run-size checks: a request beyond the free disk or memory is refused unless forced.
#include "fringe/core/resources.h"

#include <gtest/gtest.h>

#include "fringe/core/error.h"

TEST(Resources, MachineReadings) {
  EXPECT_GT(fringe::free_disk_bytes("."), 0);
  EXPECT_GT(fringe::free_disk_bytes("/no/such/dir/below/root"), 0);  // nearest existing parent
  EXPECT_GT(fringe::available_memory_bytes(), 0);
  EXPECT_EQ(fringe::format_bytes(1.5e9), "1.5 GB");
  EXPECT_EQ(fringe::format_bytes(12), "12 bytes");
}

TEST(Resources, RunawayRefusedUnlessForced) {
  fringe::RunEstimate e;
  e.what = "simulation";
  e.output_dir = ".";
  e.output_bytes = 1e21;  // a zettabyte
  e.setting_hint = "observation/num_time_steps";
  try {
    fringe::check_run_size(e, false, nullptr);
    FAIL();
  } catch (const fringe::Error& err) {
    const std::string m = err.what();
    EXPECT_NE(m.find("observation/num_time_steps"), std::string::npos) << m;
    EXPECT_NE(m.find("--force"), std::string::npos) << m;
  }
  EXPECT_NO_THROW(fringe::check_run_size(e, true, nullptr));
  e.output_bytes = 10;
  e.memory_bytes = 1e21;
  EXPECT_THROW(fringe::check_run_size(e, false, nullptr), fringe::Error);
  e.memory_bytes = 1e3;
  EXPECT_NO_THROW(fringe::check_run_size(e, false, nullptr));
}
