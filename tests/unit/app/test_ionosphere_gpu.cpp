// GPU test (label gpu) of the ionospheric TEC screen (docs/ionosphere.md): the simulator's CUDA
// back end (jones/tec_screen_cuda.h through sim/gpu_unit) against its CPU back end, element by
// element, on the OSKAR reference case of tests/data/oskar-ionosphere (full and isoplanatic
// screens, double and single). Skips without a CUDA GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "fringe/app/models.h"
#include "fringe/app/sim_chain.h"
#include "fringe/core/device.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"

namespace {

namespace fs = std::filesystem;
using fringe::settings::Schema;
using fringe::settings::Settings;

const std::string kData = std::string(FRINGE_SOURCE_DIR) + "/tests/data/oskar-ionosphere";
const fs::path kOut = fs::path(FRINGE_BINARY_DIR) / "ionosphere_gpu_test";

std::string simulate(const std::string& ini, bool gpu) {
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
  fringe::settings::load_ini(s, kData + "/" + ini + ".ini");
  s.set("simulator/use_gpus", gpu ? "true" : "false");
  fs::create_directories(kOut);
  const std::string vis = (kOut / (ini + (gpu ? "_gpu.vis" : "_cpu.vis"))).string();
  fs::remove(vis);  // an earlier run's output
  s.set("interferometer/oskar_vis_filename", vis);
  std::ostringstream sink;
  fringe::Logger log(sink);
  fringe::app::ChainContext context;
  context.simulation.logger = &log;
  fringe::app::run_chain(fringe::app::chain_config(s, false, false),
                         fringe::app::load_sky(s, log, false), fringe::app::load_telescope(s, log),
                         context);
  return vis;
}

// Largest |V_gpu - V_cpu| over the largest |V_cpu| (cross correlations).
template <typename T>
double relative_difference(const std::string& cpu_path, const std::string& gpu_path) {
  const fringe::io::VisFileReader a(cpu_path), b(gpu_path);
  EXPECT_EQ(a.num_blocks(), b.num_blocks());
  double peak = 0, diff = 0;
  for (int k = 0; k < std::min(a.num_blocks(), b.num_blocks()); ++k) {
    const auto va = a.read_block<T>(k);
    const auto vb = b.read_block<T>(k);
    for (int t = 0; t < va.num_times(); ++t) {
      for (int c = 0; c < va.num_channels(); ++c) {
        for (std::size_t bl = 0; bl < va.num_baselines(); ++bl) {
          const auto x = va.cross(t, c, bl, 0), y = vb.cross(t, c, bl, 0);
          peak = std::max(peak, double(std::hypot(x.re, x.im)));
          diff = std::max(diff, double(std::hypot(x.re - y.re, x.im - y.im)));
        }
      }
    }
  }
  EXPECT_GT(peak, 1.0);
  return diff / peak;
}

TEST(IonosphereGpu, MatchesCpu) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU";
  // Double: the same formula in the same precision; only sincos/rounding of the libraries
  // differ. Single: float pierce points may fall on the other side of a pixel edge only at
  // float rounding; the bound is that of the single-precision predict.
  for (const std::string name : {"iono_double", "iono_double_iso"}) {
    const double r = relative_difference<double>(simulate(name, false), simulate(name, true));
    EXPECT_LT(r, 1e-9) << name;
    std::cout << name << ": max |GPU - CPU| / peak = " << r << "\n";
  }
  for (const std::string name : {"iono_single", "iono_single_iso"}) {
    const double r = relative_difference<float>(simulate(name, false), simulate(name, true));
    EXPECT_LT(r, 1e-4) << name;
    std::cout << name << ": max |GPU - CPU| / peak = " << r << "\n";
  }
}

}  // namespace
