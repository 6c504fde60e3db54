// The simulator's OSKAR .vis output (interferometer/oskar_vis_filename) against a file OSKAR
// 2.13 wrote for the same settings, sky and telescope (tests/unit/io_vis/data: 4 stations,
// isotropic beams, two sources, 3 times x 3 channels in blocks of 2 x 2, cross and auto
// correlations). Truth from outside fringe: OSKAR's own visibilities, to 1e-6 of the largest
// amplitude in double precision and 1e-4 in single (the bounds are 1e-6 in double).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/app/models.h"
#include "fringe/app/sim_chain.h"
#include "fringe/imager/imager.h"
#include "fringe/io/fits/fits_file.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"

namespace {

namespace fs = std::filesystem;
using fringe::settings::Schema;
using fringe::settings::Settings;

const std::string kData = std::string(FRINGE_SOURCE_DIR) + "/tests/unit/io_vis/data";

// Simulates `ini` (with its .vis written into a fresh folder) and returns the output path.
std::string simulate(const std::string& ini, const std::string& name) {
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "vis_output_test";
  fs::create_directories(dir);
  const std::string out = (dir / name).string();
  fs::remove(out);  // an earlier run's output
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
  fringe::settings::load_ini(s, kData + "/" + ini);
  s.set("interferometer/oskar_vis_filename", out);
  s.set("simulator/use_gpus", "false");
  std::ostringstream sink;
  fringe::Logger log(sink);
  const fringe::app::ChainConfig chain = fringe::app::chain_config(s, false, false);
  EXPECT_TRUE(chain.simulation.ms_path.empty());  // the .vis file is the only output
  fringe::app::ChainContext context;
  context.simulation.logger = &log;
  const auto result = fringe::app::run_chain(chain, fringe::app::load_sky(s, log, false),
                                             fringe::app::load_telescope(s, log), context);
  EXPECT_EQ(result.simulation.vis_path, out);
  EXPECT_TRUE(result.simulation.ms_path.empty());
  return out;
}

// Largest |difference| over every cross and auto correlation of every block, relative to the
// largest amplitude of OSKAR's file.
template <typename T>
double max_relative_difference(const std::string& oskar, const std::string& ours) {
  const fringe::io::VisFileReader a(oskar), b(ours);
  const auto& ha = a.header();
  const auto& hb = b.header();
  EXPECT_EQ(hb.num_stations, ha.num_stations);
  EXPECT_EQ(hb.num_times_total, ha.num_times_total);
  EXPECT_EQ(hb.num_channels_total, ha.num_channels_total);
  EXPECT_EQ(hb.max_times_per_block, ha.max_times_per_block);
  EXPECT_EQ(hb.max_channels_per_block, ha.max_channels_per_block);
  EXPECT_EQ(hb.write_autocorrelations, ha.write_autocorrelations);
  EXPECT_EQ(hb.pol_type, ha.pol_type);
  EXPECT_NEAR(hb.freq_start_hz, ha.freq_start_hz, 1e-6);
  EXPECT_NEAR(hb.time_start_mjd_utc, ha.time_start_mjd_utc, 1e-9);
  EXPECT_EQ(b.num_blocks(), a.num_blocks());
  double peak = 0.0, diff = 0.0;
  for (int k = 0; k < std::min(a.num_blocks(), b.num_blocks()); ++k) {
    const auto va = a.read_block<T>(k);
    const auto vb = b.read_block<T>(k);
    EXPECT_EQ(vb.num_times(), va.num_times());
    EXPECT_EQ(vb.num_channels(), va.num_channels());
    for (int t = 0; t < va.num_times(); ++t) {
      for (int c = 0; c < va.num_channels(); ++c) {
        for (std::size_t bl = 0; bl < va.num_baselines(); ++bl) {
          for (int p = 0; p < va.num_pols(); ++p) {
            const auto x = va.cross(t, c, bl, p);
            const auto y = vb.cross(t, c, bl, p);
            peak = std::max(peak, double(std::hypot(x.re, x.im)));
            diff = std::max(diff, double(std::hypot(x.re - y.re, x.im - y.im)));
          }
        }
        for (int s = 0; s < va.num_stations(); ++s) {
          for (int p = 0; p < va.num_pols(); ++p) {
            const auto x = va.autos(t, c, s, p);
            const auto y = vb.autos(t, c, s, p);
            peak = std::max(peak, double(std::hypot(x.re, x.im)));
            diff = std::max(diff, double(std::hypot(x.re - y.re, x.im - y.im)));
          }
        }
      }
    }
  }
  EXPECT_GT(peak, 0.0);
  return diff / peak;
}

TEST(VisOutput, DoubleRunMatchesOskarsVisFile) {
  const std::string out = simulate("sim_double.ini", "fringe_double.vis");
  const double d = max_relative_difference<double>(kData + "/oskar_tiny_double.vis", out);
  EXPECT_LT(d, 1e-6);
  std::cout << "double: max |fringe - OSKAR| / peak = " << d << "\n";
}

TEST(VisOutput, SingleRunMatchesOskarsVisFile) {
  const std::string out = simulate("sim_single.ini", "fringe_single.vis");
  const double d = max_relative_difference<float>(kData + "/oskar_tiny_single.vis", out);
  EXPECT_LT(d, 1e-4);
  std::cout << "single: max |fringe - OSKAR| / peak = " << d << "\n";
}

// The imager reads a .vis file as it reads the Measurement Set of the same run: one simulation
// writes both, and the dirty images (DFT, so the comparison is not limited by gridding) of the
// two agree to float rounding (both hold the data as complex float in the imager).
std::vector<double> dirty_image(const std::string& input, const std::string& root) {
  fringe::imager::ImagerConfig im;
  im.input_ms = {input};
  im.root_path = root;
  im.devices.use_gpus = false;
  im.algorithm = fringe::imager::Algorithm::Dft2d;
  im.size = 32;
  im.cell_rad = 0.2 * std::acos(-1.0) / 180.0;
  for (const char* product : {"_I.fits"}) fs::remove(root + product);
  const fringe::imager::ImagerResult r = fringe::imager::run(im);
  EXPECT_EQ(r.files.size(), 1u);
  fringe::io::FitsFile f(r.files.front());
  std::vector<double> pixels(32 * 32);
  int status = 0;
  const std::vector<long> first = {1, 1, 1, 1};
  f.read_pixels(first, pixels, 0.0, status);
  f.check(status, "read");
  return pixels;
}

TEST(VisOutput, ImagerReadsTheVisFileAsTheMeasurementSet) {
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "vis_output_test";
  fs::create_directories(dir);
  const std::string vis = (dir / "both.vis").string();
  const std::string ms_name = (dir / "both.ms").string();
  fs::remove(vis);
  fs::remove_all(ms_name);
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
  fringe::settings::load_ini(s, kData + "/sim_double.ini");
  s.set("interferometer/oskar_vis_filename", vis);
  s.set("interferometer/ms_filename", ms_name);
  s.set("simulator/use_gpus", "false");
  std::ostringstream sink;
  fringe::Logger log(sink);
  fringe::app::ChainContext context;
  context.simulation.logger = &log;
  const auto r = fringe::app::run_chain(fringe::app::chain_config(s, false, false),
                                        fringe::app::load_sky(s, log, false),
                                        fringe::app::load_telescope(s, log), context);
  ASSERT_FALSE(r.simulation.ms_path.empty());
  const std::vector<double> a = dirty_image(r.simulation.ms_path, (dir / "from_ms").string());
  const std::vector<double> b = dirty_image(vis, (dir / "from_vis").string());
  ASSERT_EQ(a.size(), b.size());
  double peak = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    peak = std::max(peak, std::abs(a[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  EXPECT_GT(peak, 0.5);  // two sources of 1 Jy in the field
  EXPECT_LT(diff, 1e-6 * peak);
  std::cout << "image from .vis vs from MS: max |diff| / peak = " << diff / peak << "\n";
}

}  // namespace
