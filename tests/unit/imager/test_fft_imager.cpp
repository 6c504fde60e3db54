// Placeholder: filled in by its engineer this session.
#include <gtest/gtest.h>
TEST(Placeholder, test_fft_imager) { GTEST_SKIP() << "not written yet"; }
