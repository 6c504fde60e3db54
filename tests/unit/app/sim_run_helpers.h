// Shared set-up of the simulator tests that compare with OSKAR's own .vis files
// (test_drift_scan.cpp, test_ionosphere.cpp, test_ionosphere_gpu.cpp): load a settings file of
// a test-data folder, run the simulation chain into a .vis file (and an MS), and compare two
// .vis files value by value.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>

#include "fringe/app/models.h"
#include "fringe/app/sim_chain.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"

namespace sim_test {

namespace fs = std::filesystem;
using fringe::settings::Settings;

// The settings of data_dir/ini (sim_interferometer's schema), on the CPU unless gpu.
inline Settings load_sim_settings(const std::string& data_dir, const std::string& ini,
                                  bool gpu = false) {
  Settings s(fringe::settings::Schema::load(fringe::settings::embedded_schemas(),
                                            "sim_interferometer.xml"));
  fringe::settings::load_ini(s, data_dir + "/" + ini);
  s.set("simulator/use_gpus", gpu ? "true" : "false");
  return s;
}

// Runs the simulation of `s` with its .vis file at out_dir/vis_name (and an MS at
// out_dir/ms_name when given), replacing an earlier run's outputs; returns the .vis path.
inline std::string simulate(Settings s, const fs::path& out_dir, const std::string& vis_name,
                            const std::string& ms_name = "") {
  fs::create_directories(out_dir);
  const std::string vis = (out_dir / vis_name).string();
  fs::remove(vis);  // an earlier run's output
  s.set("interferometer/oskar_vis_filename", vis);
  if (!ms_name.empty()) {
    fs::remove_all(out_dir / ms_name);
    s.set("interferometer/ms_filename", (out_dir / ms_name).string());
  }
  std::ostringstream sink;
  fringe::Logger log(sink);
  fringe::app::ChainContext context;
  context.simulation.logger = &log;
  fringe::app::run_chain(fringe::app::chain_config(s, false, false),
                         fringe::app::load_sky(s, log, false), fringe::app::load_telescope(s, log),
                         context);
  return vis;
}

struct Difference {
  double peak = 0.0;      // largest |V| of the first file (Jy)
  double max_diff = 0.0;  // largest |V_a - V_b| over the compared correlations (Jy)
  double max_uvw = 0.0;   // largest baseline UVW difference (m)
  double relative() const { return max_diff / peak; }
};

// Compares every cross correlation, polarisation, time and channel of two .vis files (and
// the autocorrelations when `autos`), and the baseline UVW.
template <typename T>
Difference compare_vis(const std::string& a_path, const std::string& b_path, bool autos = true) {
  const fringe::io::VisFileReader a(a_path), b(b_path);
  EXPECT_EQ(b.num_blocks(), a.num_blocks());
  EXPECT_EQ(b.header().num_stations, a.header().num_stations);
  Difference d;
  auto add = [&d](auto x, auto y) {
    d.peak = std::max(d.peak, double(std::hypot(x.re, x.im)));
    d.max_diff = std::max(d.max_diff, double(std::hypot(x.re - y.re, x.im - y.im)));
  };
  for (int k = 0; k < std::min(a.num_blocks(), b.num_blocks()); ++k) {
    const auto va = a.read_block<T>(k);
    const auto vb = b.read_block<T>(k);
    EXPECT_EQ(vb.num_times(), va.num_times());
    EXPECT_EQ(vb.num_channels(), va.num_channels());
    EXPECT_EQ(vb.num_pols(), va.num_pols());
    for (int t = 0; t < va.num_times(); ++t) {
      for (std::size_t bl = 0; bl < va.num_baselines(); ++bl) {
        for (int i = 0; i < 3; ++i) {
          d.max_uvw = std::max(d.max_uvw, std::abs(va.uvw(t, bl)[i] - vb.uvw(t, bl)[i]));
        }
      }
      for (int c = 0; c < va.num_channels(); ++c) {
        for (std::size_t bl = 0; bl < va.num_baselines(); ++bl) {
          for (int p = 0; p < va.num_pols(); ++p) add(va.cross(t, c, bl, p), vb.cross(t, c, bl, p));
        }
        if (!autos || !va.has_autos() || !vb.has_autos()) continue;
        for (int s = 0; s < va.num_stations(); ++s) {
          for (int p = 0; p < va.num_pols(); ++p) add(va.autos(t, c, s, p), vb.autos(t, c, s, p));
        }
      }
    }
  }
  return d;
}

}  // namespace sim_test
