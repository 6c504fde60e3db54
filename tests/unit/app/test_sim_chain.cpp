// The simulate -> calibrate -> image chain (app/sim_chain.h) on a tiny run: 4 SKA-Low stations,
// one 1 Jy source at the phase centre, known station gains applied by the simulation. Truth
// from outside the chain: calibration must remove the gains (the residual after calibration
// is at the level of float rounding, far below the one before), and the dirty image of the
// corrected data must peak at the source's pixel with the source's flux (a point source at
// the phase centre gives 1 Jy there under natural weighting).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "fringe/app/sim_chain.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/fits/fits_file.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/telescope/tm_loader.h"

namespace {

namespace fs = std::filesystem;
constexpr double kDeg = std::numbers::pi / 180.0;

// One folder per test: ctest runs the tests of this file in parallel.
std::string out_dir() {
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "sim_chain_test" /
                       ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(dir);  // outputs of an earlier run
  fs::create_directories(dir);
  return dir.string();
}

fringe::app::ChainConfig chain(const std::string& dir) {
  fringe::app::ChainConfig c;
  fringe::sim::SimulationConfig& s = c.simulation;
  s.observation.phase_centre_ra = 60 * kDeg;
  s.observation.phase_centre_dec = -30 * kDeg;
  s.observation.start_frequency_hz = 100e6;
  s.observation.num_channels = 2;
  s.observation.frequency_inc_hz = 1e6;
  s.observation.start_mjd_utc = 60676.55;  // 2025-01-01 13:12: the field is up
  s.observation.start_time_text = "60676.55";
  s.observation.length_sec = 600;
  s.observation.num_time_steps = 3;
  s.beam.station_type = fringe::jones::StationType::Isotropic;
  s.devices.use_gpus = false;
  s.devices.num_devices = 1;
  s.corruption.enable = true;  // 0.1 log-amplitude and 30 deg phase errors per station
  s.corruption.seed = 7;
  s.corruption.time_variation = fringe::sim::GainTimeVariation::None;
  s.ms_path = dir + "/chain.ms";
  const std::string ms = fringe::io::ms_output_path(s.ms_path);

  fringe::calibrate::CalibrateMsConfig& cal = c.calibration.emplace();
  cal.ms_path = ms;
  cal.options.min_baselines = 3;  // every station of the four
  cal.devices.use_gpus = false;

  fringe::imager::ImagerConfig& im = c.imaging.emplace();
  im.input_ms = {ms};
  im.ms_column = "CORRECTED_DATA";
  im.root_path = dir + "/chain";
  im.devices.use_gpus = false;
  im.algorithm = fringe::imager::Algorithm::Dft2d;
  im.size = 32;
  im.cell_rad = 0.5 * kDeg;
  return c;
}

fringe::sky::SkyModel one_source() {
  fringe::sky::SkyModel sky;
  fringe::sky::Source src;
  src.ra = 60 * kDeg;
  src.dec = -30 * kDeg;
  src.I = 1.0;
  sky.push_back(src);
  return sky;
}

struct Peak {
  long x = 0, y = 0;  // 0-based pixel
  double value = 0;
};

Peak image_peak(const std::string& path, int size) {
  fringe::io::FitsFile f(path);
  std::vector<double> pixels(std::size_t(size) * std::size_t(size));
  int status = 0;
  const std::vector<long> first = {1, 1, 1, 1};
  f.read_pixels(first, pixels, 0.0, status);
  f.check(status, "read");
  const auto it = std::max_element(pixels.begin(), pixels.end());
  const long i = long(it - pixels.begin());
  return {i % size, i / size, *it};
}

TEST(SimChain, CalibrationRemovesTheGainsAndTheImagePeaksAtTheSource) {
  const std::string dir = out_dir();
  const fringe::app::ChainConfig config = chain(dir);
  const auto tel = fringe::telescope::load_telescope_model(
      std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm", nullptr);
  fringe::app::ChainContext context;
  const fringe::app::ChainResult r = fringe::app::run_chain(config, one_source(), tel, context);

  EXPECT_EQ(r.simulation.num_rows, 3u * 6u);  // 3 times x 6 baselines
  ASSERT_TRUE(r.calibration.has_value());
  const auto& cal = *r.calibration;
  EXPECT_EQ(cal.num_converged, cal.num_cells);
  EXPECT_GT(cal.rms_before, 0.05);  // the gains change the data by ~10% or more
  EXPECT_LT(cal.rms_after, 1e-4 * cal.rms_before);
  EXPECT_TRUE(fs::exists(cal.gains_path));

  ASSERT_TRUE(r.imaging.has_value());
  ASSERT_EQ(r.imaging->files.size(), 1u);
  const Peak p = image_peak(r.imaging->files.front(), config.imaging->size);
  EXPECT_EQ(p.x, config.imaging->size / 2);  // the phase centre (CRPIX = size/2 + 1)
  EXPECT_EQ(p.y, config.imaging->size / 2);
  EXPECT_NEAR(p.value, 1.0, 1e-3);
}

TEST(SimChain, WithoutCalibrationTheImageKeepsTheGainErrors) {
  const std::string dir = out_dir();
  fringe::app::ChainConfig config = chain(dir);
  config.calibration.reset();
  config.imaging->ms_column = "DATA";
  const auto tel = fringe::telescope::load_telescope_model(
      std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm", nullptr);
  const fringe::app::ChainResult r =
      fringe::app::run_chain(config, one_source(), tel, fringe::app::ChainContext{});
  EXPECT_FALSE(r.calibration.has_value());
  ASSERT_TRUE(r.imaging.has_value());
  const Peak p = image_peak(r.imaging->files.front(), config.imaging->size);
  EXPECT_GT(std::abs(p.value - 1.0), 1e-2);  // what the first test's calibration removed
}

}  // namespace
