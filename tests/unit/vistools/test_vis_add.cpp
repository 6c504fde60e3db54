// vis_add against oskar_vis_add: OSKAR's sum of oskar_tiny_double.vis and fringe_tiny_double.vis
// (tests/data/vis_tools/oskar/add_*.vis) equals fringe's block for block (the first file's
// header, autos and station uvw; summed crosses), files of other dimensions are refused naming
// the file, and Measurement Sets add column DATA row by row.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/vistools/vis_add.h"
#include "fringe/vistools/vis_to_ms.h"
#include "test_data.h"

namespace fringe::vistools {
namespace {

TEST(VisAdd, EqualsOskarVisAdd) {
  const std::string dir = test::fresh_dir();
  VisAddConfig cfg;
  cfg.inputs = {test::vis_of("oskar_tiny_double"), test::vis_of("fringe_tiny_double")};
  cfg.output = dir + "/sum.vis";
  const VisAddResult r = vis_add(cfg);
  EXPECT_EQ(r.output, cfg.output);
  io::VisFileReader ours(r.output),
      ref(test::oskar_ref("add_oskar_tiny_double_fringe_tiny_double.vis"));
  const io::VisFileHeader &ho = ours.header(), &hr = ref.header();
  EXPECT_EQ(ho.num_blocks(), hr.num_blocks());
  EXPECT_EQ(ho.num_stations, hr.num_stations);
  EXPECT_EQ(ho.amp_type(), hr.amp_type());
  EXPECT_EQ(ho.freq_start_hz, hr.freq_start_hz);
  EXPECT_EQ(ho.time_start_mjd_utc, hr.time_start_mjd_utc);
  EXPECT_EQ(ho.station_names, hr.station_names);
  EXPECT_TRUE(ho.settings.empty());  // OSKAR clears the settings of the sum
  EXPECT_EQ(ho.settings, hr.settings);
  for (int b = 0; b < ho.num_blocks(); ++b) {
    const auto bo = ours.read_block<double>(b), br = ref.read_block<double>(b);
    // The same doubles added in the same order: equal.
    ASSERT_EQ(bo.cross_data().size(), br.cross_data().size());
    for (std::size_t k = 0; k < bo.cross_data().size(); ++k) {
      EXPECT_EQ(bo.cross_data()[k].re, br.cross_data()[k].re) << "block " << b << " value " << k;
      EXPECT_EQ(bo.cross_data()[k].im, br.cross_data()[k].im) << "block " << b << " value " << k;
    }
    ASSERT_EQ(bo.auto_data().size(), br.auto_data().size());
    for (std::size_t k = 0; k < bo.auto_data().size(); ++k) {
      EXPECT_EQ(bo.auto_data()[k].re, br.auto_data()[k].re);
      EXPECT_EQ(bo.auto_data()[k].im, br.auto_data()[k].im);
    }
    EXPECT_EQ(ours.read_station_uvw(b), ref.read_station_uvw(b));
  }
}

TEST(VisAdd, RefusesMismatchedDimensionsNamingTheFile) {
  const std::string dir = test::fresh_dir();
  VisAddConfig cfg;
  const std::string single = test::vis_of("oskar_tiny_single");
  cfg.inputs = {test::vis_of("oskar_tiny_double"), single};
  cfg.output = dir + "/sum.vis";
  try {
    vis_add(cfg);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(single), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("same dimensions"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(cfg.output));
  cfg.inputs = {test::vis_of("oskar_tiny_double")};
  EXPECT_THROW(vis_add(cfg), Error);  // one file is not a sum
}

TEST(VisAdd, MeasurementSetsAddData) {
  const std::string dir = test::fresh_dir();
  VisToMsConfig a, b;
  a.inputs = {test::vis_of("oskar_tiny_double")};
  a.output = dir + "/a.ms";
  b.inputs = {test::vis_of("fringe_tiny_double")};
  b.output = dir + "/b.ms";
  vis_to_ms(a);
  vis_to_ms(b);
  VisAddConfig cfg;
  cfg.inputs = {a.output, b.output};
  cfg.output = dir + "/sum.ms";
  vis_add(cfg);
  io::MsReader ra(a.output), rb(b.output), rs(cfg.output);
  const auto da = ra.read_data(), db = rb.read_data(), ds = rs.read_data();
  ASSERT_EQ(ds.size(), da.size());
  for (std::size_t k = 0; k < ds.size(); ++k) {
    // Float sums of float values, formed the same way here.
    EXPECT_EQ(ds[k].re, da[k].re + db[k].re);
    EXPECT_EQ(ds[k].im, da[k].im + db[k].im);
  }
  EXPECT_EQ(rs.read_uvw(), ra.read_uvw());
  // A .vis file and an MS cannot be added.
  cfg.inputs = {a.output, test::vis_of("fringe_tiny_double")};
  cfg.output = dir + "/mixed.ms";
  EXPECT_THROW(vis_add(cfg), Error);
}

}  // namespace
}  // namespace fringe::vistools
