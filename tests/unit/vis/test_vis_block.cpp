// VisBlock layout: [time][channel][baseline][pol] for crosses and [time][channel][station][pol]
// for autos, pol fastest (OSKAR's .vis block order; fringe writes no .vis files yet,
// docs/conventions.md, "Measurement Set output").
#include <gtest/gtest.h>

#include "fringe/core/error.h"
#include "fringe/vis/vis_block.h"

namespace fringe::vis {
namespace {

TEST(VisBlock, SizesAndZeroFill) {
  VisBlock<double> b(2, 3, 4, PolMode::Full, true, true);
  EXPECT_EQ(b.num_times(), 2);
  EXPECT_EQ(b.num_channels(), 3);
  EXPECT_EQ(b.num_stations(), 4);
  EXPECT_EQ(b.num_baselines(), 6u);
  EXPECT_EQ(b.num_pols(), 4);
  EXPECT_EQ(b.cross_data().size(), 2u * 3 * 6 * 4);
  EXPECT_EQ(b.auto_data().size(), 2u * 3 * 4 * 4);
  EXPECT_EQ(b.uvw_data().size(), 2u * 6);
  for (const auto& v : b.cross_data()) EXPECT_TRUE(v.re == 0.0 && v.im == 0.0);

  VisBlock<float> s(1, 2, 3, PolMode::Scalar, true, false);
  EXPECT_EQ(s.num_pols(), 1);
  EXPECT_EQ(s.cross_data().size(), 2u * 3);
  EXPECT_TRUE(s.auto_data().empty());
}

TEST(VisBlock, CrossIndexIsTimeChannelBaselinePol) {
  const int nt = 2, nc = 3, ns = 4, np = 4;
  const std::size_t nb = 6;
  VisBlock<float> b(nt, nc, ns, PolMode::Full, true, false);
  std::size_t expected = 0;
  for (int t = 0; t < nt; ++t)
    for (int c = 0; c < nc; ++c)
      for (std::size_t bl = 0; bl < nb; ++bl)
        for (int p = 0; p < np; ++p) EXPECT_EQ(b.cross_index(t, c, bl, p), expected++);
  // Element access writes the flat array at that index.
  b.cross(1, 2, 5, 3) = {7.0f, -1.0f};
  EXPECT_EQ(b.cross_data().back().re, 7.0f);
  EXPECT_EQ(b.cross_data().back().im, -1.0f);
}

TEST(VisBlock, AutoIndexIsTimeChannelStationPol) {
  VisBlock<double> b(2, 2, 3, PolMode::Scalar, false, true);
  std::size_t expected = 0;
  for (int t = 0; t < 2; ++t)
    for (int c = 0; c < 2; ++c)
      for (int s = 0; s < 3; ++s) EXPECT_EQ(b.auto_index(t, c, s, 0), expected++);
  b.autos(0, 1, 2, 0) = {3.0, 0.0};
  EXPECT_EQ(b.auto_data()[5].re, 3.0);
}

TEST(VisBlock, AxesFromMetaAreCentres) {
  VisMeta meta;
  meta.start_frequency_hz = 100e6;
  meta.frequency_inc_hz = 1e6;
  meta.start_time_mjd_utc = 60000.25;
  meta.time_inc_sec = 10.0;
  VisBlock<double> b(2, 2, 3, PolMode::Full, true, false);
  b.set_axes(meta, 3, 1);
  EXPECT_EQ(b.start_time_index, 3);
  EXPECT_EQ(b.start_channel_index, 1);
  // Dump t of the observation is centred at start + (t + 1/2) dt; channel c at f0 + c df.
  EXPECT_DOUBLE_EQ(b.time_mjd_utc_sec(0), 60000.25 * 86400.0 + 35.0);
  EXPECT_DOUBLE_EQ(b.time_mjd_utc_sec(1), 60000.25 * 86400.0 + 45.0);
  EXPECT_DOUBLE_EQ(b.frequency_hz(0), 101e6);
  EXPECT_DOUBLE_EQ(b.frequency_hz(1), 102e6);
}

TEST(VisBlock, ClearKeepsAxes) {
  VisBlock<double> b(1, 1, 2, PolMode::Full, true, true);
  b.cross(0, 0, 0, 1) = {1.0, 2.0};
  b.autos(0, 0, 1, 3) = {4.0, 0.0};
  b.uvw(0, 0) = {1.0, 2.0, 3.0};
  b.clear_data();
  EXPECT_EQ(b.cross(0, 0, 0, 1).re, 0.0);
  EXPECT_EQ(b.autos(0, 0, 1, 3).re, 0.0);
  EXPECT_EQ(b.uvw(0, 0)[2], 3.0);
}

TEST(VisBlock, NegativeDimensionThrows) {
  EXPECT_THROW(VisBlock<float>(-1, 1, 2, PolMode::Full, true, false), Error);
}

VisMeta valid_meta() {
  VisMeta m;
  m.station_names = {"a", "b"};
  m.station_ecef_m = {{{1.0, 2.0, 3.0}}, {{4.0, 5.0, 6.0}}};
  m.num_channels = 1;
  m.num_times = 1;
  m.start_frequency_hz = 1e8;
  m.time_inc_sec = 1.0;
  return m;
}

TEST(VisMeta, ValidateAcceptsConsistentMeta) { EXPECT_NO_THROW(validate(valid_meta())); }

TEST(VisMeta, ValidateRejectsInconsistentMeta) {
  auto m = valid_meta();
  m.station_ecef_m.pop_back();
  EXPECT_THROW(validate(m), Error);
  m = valid_meta();
  m.feed_angles_rad = {{{0.0, 0.0}}};
  EXPECT_THROW(validate(m), Error);
  m = valid_meta();
  m.num_channels = 0;
  EXPECT_THROW(validate(m), Error);
  m = valid_meta();
  m.write_crosscorrelations = false;
  EXPECT_THROW(validate(m), Error);
  m = valid_meta();
  m.start_frequency_hz = -1.0;
  EXPECT_THROW(validate(m), Error);
}

}  // namespace
}  // namespace fringe::vis
