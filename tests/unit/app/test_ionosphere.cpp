// telescope/ionosphere_screen_type = External (the TEC screen Z, docs/ionosphere.md) in the
// simulator against OSKAR 2.13's own .vis files for the same settings
// (tests/data/oskar-ionosphere, README.md there gives the commands): 6 isotropic stations over
// about 5 km, 4 sources within 1.5 deg of the phase centre, 3 times, 2 channels, Scalar mode,
// a 96 x 96 x 3 Kolmogorov screen (scripts/make-tec-screen) at 300 km, with and without the
// isoplanatic option. Truth from outside fringe: OSKAR's visibilities. Also: a run without the
// screen differs from OSKAR's by about the data's size (so the comparison can fail); bad
// screens and unsupported modes are refused naming the file or the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/app/models.h"
#include "fringe/app/sim_chain.h"
#include "fringe/core/error.h"
#include "fringe/io/fits/fits_file.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/jones/tec_screen.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"

namespace {

namespace fs = std::filesystem;
using fringe::settings::Schema;
using fringe::settings::Settings;

const std::string kData = std::string(FRINGE_SOURCE_DIR) + "/tests/data/oskar-ionosphere";
const fs::path kOut = fs::path(FRINGE_BINARY_DIR) / "ionosphere_test";

Settings load(const std::string& ini) {
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
  fringe::settings::load_ini(s, kData + "/" + ini);
  s.set("simulator/use_gpus", "false");
  return s;
}

std::string simulate(Settings s, const std::string& vis_name) {
  fs::create_directories(kOut);
  const std::string vis = (kOut / vis_name).string();
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

struct Difference {
  double peak = 0.0;      // largest |V| of the first file (Jy)
  double max_diff = 0.0;  // largest |V_a - V_b| over every cross and auto correlation (Jy)
  double relative() const { return max_diff / peak; }
};

template <typename T>
Difference compare(const std::string& a_path, const std::string& b_path) {
  const fringe::io::VisFileReader a(a_path), b(b_path);
  EXPECT_EQ(b.num_blocks(), a.num_blocks());
  Difference d;
  for (int k = 0; k < std::min(a.num_blocks(), b.num_blocks()); ++k) {
    const auto va = a.read_block<T>(k);
    const auto vb = b.read_block<T>(k);
    EXPECT_EQ(vb.num_times(), va.num_times());
    EXPECT_EQ(vb.num_channels(), va.num_channels());
    for (int t = 0; t < va.num_times(); ++t) {
      for (int c = 0; c < va.num_channels(); ++c) {
        for (std::size_t bl = 0; bl < va.num_baselines(); ++bl) {
          for (int p = 0; p < va.num_pols(); ++p) {
            const auto x = va.cross(t, c, bl, p), y = vb.cross(t, c, bl, p);
            d.peak = std::max(d.peak, double(std::hypot(x.re, x.im)));
            d.max_diff = std::max(d.max_diff, double(std::hypot(x.re - y.re, x.im - y.im)));
          }
        }
      }
    }
  }
  return d;
}

TEST(Ionosphere, DoubleMatchesOskar) {
  // iono_double_keys: height 250 km, pixel size 300 m (not CDELT1) and interval 0 (plane t
  // at time step t) from the keys instead of the file.
  for (const std::string name : {"iono_double", "iono_double_iso", "iono_double_keys"}) {
    const std::string ours = simulate(load(name + ".ini"), name + ".vis");
    const Difference d = compare<double>(kData + "/oskar_" + name + ".vis", ours);
    EXPECT_GT(d.peak, 1.0) << name;  // 5.3 Jy of sources
    EXPECT_LT(d.relative(), 1e-6) << name;
    std::cout << name << ": max |fringe - OSKAR| / peak = " << d.relative() << "\n";
  }
}

// Without the screen the data differ from OSKAR's by a large fraction of the peak: the screen
// (phases of a few rad at 100 MHz across the array) is what the comparison above checks. The
// isoplanatic and the full screen also differ from each other.
TEST(Ionosphere, WithoutScreenDiffers) {
  Settings s = load("iono_double.ini");
  s.set("telescope/ionosphere_screen_type", "None");
  const std::string ours = simulate(s, "no_screen.vis");
  const Difference d = compare<double>(kData + "/oskar_iono_double.vis", ours);
  EXPECT_GT(d.relative(), 0.1);
  const Difference iso =
      compare<double>(kData + "/oskar_iono_double.vis", kData + "/oskar_iono_double_iso.vis");
  EXPECT_GT(iso.relative(), 0.1);
  const Difference keys =
      compare<double>(kData + "/oskar_iono_double.vis", kData + "/oskar_iono_double_keys.vis");
  EXPECT_GT(keys.relative(), 0.1);  // the keys change the result
  std::cout << "no screen vs OSKAR: " << d.relative()
            << ", isoplanatic vs not (OSKAR): " << iso.relative() << "\n";
}

// Single precision: pierce-point pixels and phases in float, as OSKAR (docs/ionosphere.md). The
// bound 1e-3 of the peak holds when no pierce point sits within float rounding of a pixel
// edge (a different pixel would be a large jump): measured 3.1e-4 here (float phases of the
// screen and of the predict).
TEST(Ionosphere, SingleMatchesOskar) {
  for (const std::string name : {"iono_single", "iono_single_iso"}) {
    const std::string ours = simulate(load(name + ".ini"), name + ".vis");
    const Difference d = compare<float>(kData + "/oskar_" + name + ".vis", ours);
    EXPECT_GT(d.peak, 1.0) << name;
    EXPECT_LT(d.relative(), 1e-3) << name;
    std::cout << name << ": max |fringe - OSKAR| / peak = " << d.relative() << "\n";
  }
}

std::string error_of(Settings s, const std::string& vis_name) {
  try {
    simulate(std::move(s), vis_name);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Ionosphere, MissingScreenNamesTheFile) {
  Settings s = load("iono_double.ini");
  const std::string missing = (kOut / "no_such_screen.fits").string();
  s.set("telescope/external_tec_screen/input_fits_file", missing);
  const std::string e = error_of(s, "missing.vis");
  EXPECT_NE(e.find("no_such_screen.fits"), std::string::npos) << e;
  EXPECT_NE(e.find("FITS cube"), std::string::npos) << e;
}

// A FITS image of the given axes (float zeros) at kOut/name, written fresh.
std::string write_image(const std::string& name, const std::vector<long>& axes) {
  fs::create_directories(kOut);
  const std::string path = (kOut / name).string();
  fs::remove(path);
  fringe::io::FitsFile f;
  int status = 0;
  f.create(path, status);
  f.create_image(fringe::io::FitsPixelType::Float32, axes, status);
  long n = 1;
  for (long a : axes) n *= a;
  std::vector<float> zeros(std::size_t(n), 0.0f);
  if (n > 0) f.write_pixels(1, zeros, status);
  EXPECT_EQ(f.close(), 0);
  EXPECT_EQ(status, 0);
  return path;
}

TEST(Ionosphere, WrongShapeNamesTheFileAndTheAxes) {
  Settings s = load("iono_double.ini");
  const std::string path = write_image("four_axes.fits", {4, 4, 2, 2});
  s.set("telescope/external_tec_screen/input_fits_file", path);
  const std::string e = error_of(s, "shape.vis");
  EXPECT_NE(e.find("four_axes.fits"), std::string::npos) << e;
  EXPECT_NE(e.find("NAXIS = 4"), std::string::npos) << e;
  EXPECT_NE(e.find("NAXIS = 3"), std::string::npos) << e;  // what was expected
}

TEST(Ionosphere, MissingPixelSizeNamesCdelt1) {
  Settings s = load("iono_double.ini");
  const std::string path = write_image("no_cdelt.fits", {4, 4, 2});  // no CDELT keywords
  s.set("telescope/external_tec_screen/input_fits_file", path);
  const std::string e = error_of(s, "cdelt.vis");
  EXPECT_NE(e.find("no_cdelt.fits"), std::string::npos) << e;
  EXPECT_NE(e.find("CDELT1"), std::string::npos) << e;
}

// OSKAR adds Faraday rotation (IGRF field model) in Full mode: refused, naming the field (the
// app maps it to telescope/ionosphere_screen_type: field_keys_sim.cpp).
TEST(Ionosphere, FullPolarisationRefused) {
  Settings s = load("iono_double.ini");
  s.set("telescope/pol_mode", "Full");
  const std::string e = error_of(s, "full.vis");
  EXPECT_NE(e.find("IonosphereConfig.enable"), std::string::npos) << e;
  EXPECT_NE(e.find("Scalar"), std::string::npos) << e;
}

// The formula itself on a hand-made plane (tec_screen_math.h): one pixel of 2 TECU at
// (nx/2 + 2, ny/2 - 1), pixels of 100 m, screen at 300 km. A station at (u, v) = (200, -100) m
// pierces it straight up (isoplanatic, or a source at l = m = 0); a source at l = 1e-3 moves
// the pierce point by 300 m = 3 pixels. Phase = -8.44797245e9 * TEC / f (OSKAR's constant).
TEST(Ionosphere, PiercePointAndPhase) {
  const int nx = 8, ny = 6;
  std::vector<double> tec(nx * ny, 0.0);
  tec[(nx / 2 + 2) + (ny / 2 - 1) * nx] = 2.0;
  fringe::jones::TecPlaneView<double> view{tec.data(), nx, ny, 300e3, 1.0 / 100.0, false};
  EXPECT_EQ(fringe::jones::tec_at_pierce_point(view, 200.0, -100.0, 0.0, 0.0), 2.0);
  EXPECT_EQ(fringe::jones::tec_at_pierce_point(view, -100.0, -100.0, 1e-3, 0.0), 2.0);
  EXPECT_EQ(fringe::jones::tec_at_pierce_point(view, 200.0, -100.0, 1e-3, 0.0), 0.0);
  EXPECT_EQ(fringe::jones::tec_at_pierce_point(view, 1e5, 0.0, 0.0, 0.0), 0.0);  // off screen
  view.isoplanatic = true;
  EXPECT_EQ(fringe::jones::tec_at_pierce_point(view, 200.0, -100.0, 1e-3, 0.0), 2.0);
  const double f = 100e6;
  const auto z = fringe::jones::tec_phase_factor(2.0, 1.0 / f);
  EXPECT_NEAR(std::atan2(z.im, z.re), std::remainder(-8.44797245e9 * 2.0 / f, 2 * M_PI), 1e-12);
  const auto one = fringe::jones::tec_phase_factor(0.0, 1.0 / f);
  EXPECT_EQ(one.re, 1.0);
  EXPECT_EQ(one.im, 0.0);
}

}  // namespace
