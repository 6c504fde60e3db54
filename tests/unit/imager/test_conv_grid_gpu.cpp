// Placeholder: filled in by its engineer this session.
#include <gtest/gtest.h>
TEST(Placeholder, test_conv_grid_gpu) { GTEST_SKIP() << "not written yet"; }
