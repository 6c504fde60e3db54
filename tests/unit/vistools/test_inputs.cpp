// The shared rules of the vis tools: OSKAR's output name of vis_add_noise (x.vis ->
// x_noise.vis), fringe's for Measurement Sets, and OSKAR's compatibility rule of vis_add.
#include <gtest/gtest.h>

#include "fringe/io/vis/vis_file.h"
#include "fringe/vistools/inputs.h"
#include "test_data.h"

namespace fringe::vistools {
namespace {

TEST(VisToolsInputs, NoiseOutputNames) {
  EXPECT_EQ(noise_output_path("a/b.vis", DataSetKind::VisFile), "a/b_noise.vis");
  EXPECT_EQ(noise_output_path("b.VIS", DataSetKind::VisFile), "b_noise.vis");
  EXPECT_EQ(noise_output_path("b", DataSetKind::VisFile), "b_noise.vis");
  EXPECT_EQ(noise_output_path("run.ms", DataSetKind::MeasurementSet), "run_noise.ms");
  EXPECT_EQ(noise_output_path("run.MS/", DataSetKind::MeasurementSet), "run_noise.MS");
  EXPECT_EQ(noise_output_path("run", DataSetKind::MeasurementSet), "run_noise.ms");
}

TEST(VisToolsInputs, CompatibilityIsOskars) {
  const io::VisFileHeader a = io::read_vis_header(test::vis_of("oskar_tiny_double"));
  EXPECT_EQ(incompatibility(a, a), "");
  // fringe's file of the same run: compatible (OSKAR's vis_add accepted it).
  EXPECT_EQ(incompatibility(a, io::read_vis_header(test::vis_of("fringe_tiny_double"))), "");
  io::VisFileHeader b = a;
  b.max_times_per_block = 1;
  EXPECT_NE(incompatibility(a, b).find("times per block"), std::string::npos);
  b = a;
  b.freq_inc_hz += 1.0;
  EXPECT_NE(incompatibility(a, b).find("channel spacing"), std::string::npos);
  b = a;
  b.precision = Precision::Single;
  EXPECT_NE(incompatibility(a, b).find("amplitude type"), std::string::npos);
  // Not part of OSKAR's rule: another phase centre may be added.
  b = a;
  b.phase_centre_deg[0] += 1.0;
  EXPECT_EQ(incompatibility(a, b), "");
}

TEST(VisToolsInputs, KindOfPath) {
  EXPECT_EQ(data_set_kind(test::vis_of("oskar_tiny_double")), DataSetKind::VisFile);
  EXPECT_EQ(data_set_kind(test::oskar_ref("oskar_tiny_double.ms")), DataSetKind::MeasurementSet);
  EXPECT_THROW(data_set_kind(test::data("noise_tel.tm")), Error);  // a folder, not an MS
  EXPECT_THROW(data_set_kind(test::data("absent.vis")), Error);
}

}  // namespace
}  // namespace fringe::vistools
