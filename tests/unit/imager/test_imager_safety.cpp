// Unit tests of the imager's input safety (issue 16, docs/reliability/imager.md): NaN/Inf
// visibilities, weights and UVW are dropped and leave the image as without them; a NaN model
// pixel is named; ranges are named by settings key; outputs are checked before any work;
// runaway sizes are refused before allocating; SIGINT/SIGTERM stop the gridding.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <span>
#include <string>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/imager/dft.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/image_output.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/model_image.h"
#include "fringe/imager/non_finite.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/run_checks.h"
#include "fringe/io/fits/fits_image_writer.h"
#include "imager_test_data.h"

namespace fringe::imager {
namespace {

namespace fs = std::filesystem;
using test::make_tracks;
using test::set_point_sources;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

fs::path out_dir() {
  const fs::path d = fs::path(FRINGE_BINARY_DIR) / "imager_safety_test" /
                     ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(d);  // this test's own scratch folder in the build tree
  fs::create_directories(d);
  return d;
}

constexpr int kN = 64;
constexpr double kCell = 2.0 * std::numbers::pi / 180 / kN;  // 2 degrees across

GridGeometry geometry() {
  GridGeometry g;
  g.image_size = kN;
  g.grid_size = padded_grid_size(kN, 1.25);
  g.cell_rad = kCell;
  g.subgrid_size = 32;
  g.kernel_size = 9;
  g.taper_support = 7;
  return g;
}

template <typename T>
std::vector<Complex<double>> idg(VisBuffer<T> v) {
  const GridGeometry g = geometry();
  const Taper taper(TaperType::KaiserBessel, 7);
  const Plan plan = make_plan(
      g, {v.num_rows, v.num_channels, v.uvw_m, v.time_s, v.baseline, v.freq_hz}, v.weight, {});
  auto backend = make_cpu_backend<T>(2);
  return idg_image(g, taper, plan, v, *backend);
}

// Largest |a - b| relative to b's peak; infinity when a pixel of a is not finite.
double rel_diff(const std::vector<Complex<double>>& a, const std::vector<Complex<double>>& b) {
  double peak = 0, d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i].re) || !std::isfinite(a[i].im)) return kInf;
    peak = std::max(peak, std::abs(b[i].re));
    d = std::max(d, std::abs(a[i].re - b[i].re));
  }
  return d / peak;
}

// A buffer with one Inf visibility (row 5, channel 1) and one NaN UVW (row 17), and the same
// buffer with those visibilities at weight 0 instead (the reference: finite values).
template <typename T>
void bad_and_reference(VisBuffer<T>& bad, VisBuffer<T>& ref) {
  bad = make_tracks<T>(6, 8, 2, 300.0, 100e6, 1e6);
  set_point_sources(bad, {{0.0, 0.0, 1.0}, {0.01, -0.005, 0.5}});
  ref = bad;
  const std::size_t k = 5 * 2 + 1;
  ref.weight[k] = 0.0f;
  ref.weight[17 * 2] = ref.weight[17 * 2 + 1] = 0.0f;
  bad.vis[k] = {T(kInf), T(0)};
  bad.uvw_m[17][1] = kNaN;
}

template <typename T>
void check_dropped_like_flagged(double tolerance) {
  VisBuffer<T> bad, ref;
  bad_and_reference(bad, ref);
  // Without the check one Inf poisons every pixel (so this test can fail).
  EXPECT_EQ(rel_diff(dft_image(bad, kN, kCell), dft_image(ref, kN, kCell)), kInf);
  NonFiniteCount n;
  drop_non_finite(bad, n);
  EXPECT_EQ(n.visibilities, 1u);
  EXPECT_EQ(n.uvw_rows, 1u);
  EXPECT_EQ(describe(n), "1 visibility with a NaN/Inf value or weight, 1 row with a NaN/Inf UVW");
  EXPECT_LE(rel_diff(idg(bad), idg(ref)), tolerance);
  EXPECT_LE(rel_diff(dft_image(bad, kN, kCell), dft_image(ref, kN, kCell)), tolerance);
}

TEST(ImagerSafety, InfVisibilityAndNanUvwLeaveTheImageAsWithoutThemDouble) {
  check_dropped_like_flagged<double>(1e-12);
}

TEST(ImagerSafety, InfVisibilityAndNanUvwLeaveTheImageAsWithoutThemSingle) {
  check_dropped_like_flagged<float>(1e-6);
}

TEST(ImagerSafety, InfWeightIsDroppedAndFlaggedNanIsNotCounted) {
  auto v = make_tracks<double>(4, 3, 2, 300.0, 100e6, 1e6);
  set_point_sources(v, {{0.0, 0.0, 1.0}});
  v.weight[0] = std::numeric_limits<float>::infinity();
  v.weight[3] = 0.0f;  // flagged, and its value NaN: not counted, but zeroed
  v.vis[3] = {kNaN, kNaN};
  std::vector<std::uint8_t> rows;
  NonFiniteCount n;
  drop_non_finite(v, n, &rows);
  EXPECT_EQ(n.visibilities, 1u);
  EXPECT_EQ(n.uvw_rows, 0u);
  EXPECT_EQ(v.weight[0], 0.0f);
  EXPECT_EQ(v.vis[3].re, 0.0);
  EXPECT_EQ(rows, std::vector<std::uint8_t>(v.num_rows, 0));
  EXPECT_TRUE(std::isfinite(dft_image(v, kN, kCell)[0].re));
}

TEST(ImagerSafety, NanModelPixelIsNamed) {
  ImageCube cube;
  cube.size = 8;
  cube.cell_rad = kCell;
  cube.freq_hz = {100e6};
  cube.precision = Precision::Double;
  cube.pixels.assign(64, 0.0);
  cube.pixels[5 * 8 + 3] = kNaN;  // x = 3, y = 5 (0-based)
  const std::string path = (out_dir() / "model.fits").string();
  write_image_cube(path, cube);
  const std::vector<double> px = read_model_image(path, 8, kCell);
  try {
    check_model_pixels(path, px, 8);
    FAIL() << "a NaN model pixel was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("model.fits"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pixel (4, 6) is NaN"), std::string::npos) << e.what();
  }
}

// A model image with a STOKES axis: the I plane is the one read, wherever it lies on the axis;
// an image without an I plane is refused with what it holds.
void write_stokes_model(const std::string& path, double crval, double cdelt, int planes) {
  fringe::io::FitsImageHeader h;
  h.pixel_type = fringe::io::FitsPixelType::Float64;
  const double cell_deg = kCell * 180.0 / std::numbers::pi;
  h.axes.push_back({8, "RA---SIN", 0.0, -cell_deg, 5.0, "deg", ""});
  h.axes.push_back({8, "DEC--SIN", 0.0, cell_deg, 5.0, "deg", ""});
  h.axes.push_back({1, "FREQ", 100e6, 1e6, 1.0, "Hz", ""});
  h.axes.push_back({planes, "STOKES", crval, cdelt, 1.0, "", ""});
  std::vector<double> px;
  for (int p = 0; p < planes; ++p) px.insert(px.end(), 64, 10.0 * (p + 1));  // plane k: 10 k
  fringe::io::write_fits_image(path, h, std::span<const double>(px));
}

TEST(ImagerSafety, ModelImageStokesAxisIsHonoured) {
  const std::string path = (out_dir() / "stokes_model.fits").string();
  write_stokes_model(path, 2.0, -1.0, 2);  // planes Q, I: the second is read
  EXPECT_EQ(read_model_image(path, 8, kCell).at(0), 20.0);
  write_stokes_model(path, 2.0, 1.0, 2);  // planes Q, U: refused
  try {
    read_model_image(path, 8, kCell);
    FAIL() << "a model image without an I plane was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds Q, U, not Stokes I"), std::string::npos)
        << e.what();
  }
  write_stokes_model(path, 1.0, 1.0, 1);  // I only
  EXPECT_EQ(read_model_image(path, 8, kCell).at(0), 10.0);
}

ImagerConfig config() {
  ImagerConfig c;
  c.size = 64;
  c.cell_rad = kCell;
  c.devices.use_gpus = false;
  c.input_ms = {"absent.ms"};
  c.root_path = "img";
  return c;
}

// The config field an Error names, "" if none (the app layer maps it to the settings key:
// tests/unit/app/test_field_keys_imager.cpp).
std::string field_of(const ImagerConfig& c) {
  try {
    validate(c);
  } catch (const Error& e) {
    EXPECT_TRUE(e.context().key.empty()) << e.what();
    return e.context().field;
  }
  return "";
}

TEST(ImagerSafety, RangesAreNamedByConfigField) {
  EXPECT_EQ(field_of(config()), "");
  ImagerConfig c = config();
  c.rephase = true;
  c.centre_dec_rad = 100 * std::numbers::pi / 180;
  EXPECT_EQ(field_of(c), "ImagerConfig.centre_dec_rad");
  c.centre_dec_rad = 0;
  c.centre_ra_rad = kNaN;
  EXPECT_EQ(field_of(c), "ImagerConfig.centre_ra_rad");
  c = config();
  c.size = 4;  // a 6-cell grid cannot hold a 32-cell subgrid
  EXPECT_EQ(field_of(c), "ImagerConfig.size");
  try {
    validate(c);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("IdgConfig.subgrid_size 32"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).find("image/"), std::string::npos) << e.what();
  }
  c = config();
  c.idg.padding = kNaN;
  EXPECT_EQ(field_of(c), "IdgConfig.padding");
  c = config();
  c.idg.subgrid_size = 33;
  EXPECT_EQ(field_of(c), "IdgConfig.subgrid_size");
  c = config();
  c.cell_rad = kInf;
  EXPECT_EQ(field_of(c), "ImagerConfig.cell_rad");
}

TEST(ImagerSafety, OutputsAreTheProductFiles) {
  ImagerConfig c = config();
  c.image_type = ImageType::Stokes;
  const auto t = output_targets(c);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].path, "img_I.fits");
  EXPECT_EQ(t[3].path, "img_V.fits");
  EXPECT_EQ(t[0].key, "ImagerConfig.root_path");
  EXPECT_EQ(t[0].kind, OutputKind::Fits);
  c.model_image = "model.fits";  // prediction writes a column of its inputs, no FITS file
  EXPECT_TRUE(output_targets(c).empty());
  EXPECT_EQ(run_inputs(c), (std::vector<std::string>{"absent.ms", "model.fits"}));
}

TEST(ImagerSafety, AnOutputThatIsNotAFitsFileIsRefusedBeforeAnyWork) {
  const fs::path d = out_dir();
  const fs::path ms = d / "in.ms";
  fs::create_directories(ms);
  std::ofstream(ms / "table.dat") << "not really a table";
  const fs::path thesis = d / "thesis_I.fits";
  std::ofstream(thesis) << "my thesis\n";
  ImagerConfig c = config();
  c.input_ms = {ms.string()};
  c.root_path = (d / "thesis").string();
  EXPECT_THROW(run(c), Error);
  std::ifstream in(thesis);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "my thesis");
  // Inside the input: refused, and nothing is created there.
  c.root_path = (ms / "img").string();
  try {
    run(c);
    FAIL() << "an output inside the input was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ImagerConfig.root_path"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(ms / "img_I.fits"));
}

TEST(ImagerSafety, RunawayImageSizeIsRefusedBeforeAllocating) {
  ImagerConfig c = config();
  c.size = 100000;
  c.cell_rad = 1e-6;
  c.root_path = (out_dir() / "huge").string();
  const RunEstimate e = estimate_run(c);
  EXPECT_GT(e.memory_bytes, 1e11);  // the 125000^2 complex double grid alone is 250 GB
  EXPECT_GT(e.output_bytes, 7.9e10);
  EXPECT_NE(e.setting_hint.find("ImagerConfig.size"), std::string::npos);
  try {
    run(c);
    FAIL() << "a 100000^2 image was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos) << e.what();
  }
}

TEST(ImagerSafety, SignalStopsTheGridding) {
  auto v = make_tracks<double>(4, 3, 1, 300.0, 100e6, 1e6);
  interrupt::request(SIGTERM);
  EXPECT_THROW(idg(v), interrupt::Cancelled);
  EXPECT_THROW(dft_image(v, kN, kCell), interrupt::Cancelled);
  interrupt::reset_for_tests();
  EXPECT_NO_THROW(idg(v));
}

}  // namespace
}  // namespace fringe::imager
