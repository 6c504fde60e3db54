#include <gtest/gtest.h>

#include "fringe/core/error.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {
namespace {

Source make(double i, std::vector<double> spix = {}) {
  Source s;
  s.ra = 0.1 * i;
  s.dec = -0.05 * i;
  s.I = i;
  s.spectral_index = std::move(spix);
  return s;
}

TEST(SkyModel, PushBackAndSourceRoundTrip) {
  Source s = make(2.0, {-0.7, 0.1});
  s.Q = 0.5;
  s.has_rotation_measure = true;
  s.rotation_measure = 3.0;
  s.linear_spectral_index = true;
  s.chan_i = {1, 2, 3};
  s.chan_ref_freq = {1e8, 1.1e8, 1.2e8};
  s.line_width = {1e5};
  s.pol_angle = {0.3};
  SkyModel sky;
  sky.push_back(make(1.0));
  sky.push_back(s);
  sky.check_consistent();
  ASSERT_EQ(sky.size(), 2u);
  const Source t = sky.source(1);
  EXPECT_EQ(t.I, 2.0);
  EXPECT_EQ(t.Q, 0.5);
  EXPECT_EQ(t.spectral_index, (std::vector<double>{-0.7, 0.1}));
  EXPECT_TRUE(t.linear_spectral_index);
  EXPECT_TRUE(t.has_rotation_measure);
  EXPECT_FALSE(t.has_curvature);
  EXPECT_EQ(t.rotation_measure, 3.0);
  EXPECT_EQ(t.chan_i, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(t.line_width, (std::vector<double>{1e5}));
  EXPECT_EQ(t.pol_angle, (std::vector<double>{0.3}));
  EXPECT_TRUE(sky.source(0).spectral_index.empty());
}

TEST(SkyModel, AppendSelectSlice) {
  SkyModel a, b;
  for (int i = 0; i < 3; ++i) a.push_back(make(i, {double(i)}));
  for (int i = 3; i < 5; ++i) b.push_back(make(i, {double(i), 1.0}));
  a.append(b);
  a.check_consistent();
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a.source(4).spectral_index, (std::vector<double>{4.0, 1.0}));
  const std::vector<std::uint8_t> keep = {1, 0, 0, 1, 1};
  const SkyModel s = a.select(keep);
  s.check_consistent();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.I[1], 3.0);
  EXPECT_EQ(s.source(2).spectral_index, (std::vector<double>{4.0, 1.0}));
  const SkyModel sl = a.slice(1, 2);
  ASSERT_EQ(sl.size(), 2u);
  EXPECT_EQ(sl.I[0], 1.0);
  EXPECT_EQ(sl.source(1).spectral_index, (std::vector<double>{2.0}));
  EXPECT_THROW(a.select(std::vector<std::uint8_t>{1, 0}), Error);
}

TEST(SkyModel, Chunks) {
  SkyModel a;
  for (int i = 0; i < 10; ++i) a.push_back(make(i));
  EXPECT_EQ(num_chunks(10, 4), 3u);
  EXPECT_EQ(num_chunks(0, 4), 0u);
  const auto chunks = split_into_chunks(a, 4);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].size(), 4u);
  EXPECT_EQ(chunks[2].size(), 2u);
  EXPECT_EQ(chunks[2].I[1], 9.0);
  EXPECT_THROW(split_into_chunks(a, 0), Error);
}

}  // namespace
}  // namespace fringe::sky
