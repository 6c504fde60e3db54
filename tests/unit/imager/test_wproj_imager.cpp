// image/algorithm = W-projection (wproj_kernels.h, wproj_grid.h, conv_imager.h's wproj_image):
// against OSKAR 2.13's own images and log (tests/data/oskar-reference/imager_wproj/README.md),
// against the direct transform with w ("DFT 3D") for a source far from the centre with large
// w, and the kernels' and gridder's properties.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/dft.h"
#include "fringe/imager/ms_input.h"
#include "fringe/imager/wproj_grid.h"
#include "fringe/imager/wproj_kernels.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::imager {
namespace {

namespace fs = std::filesystem;
using Cd = Complex<double>;

const fs::path kRefDir =
    fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "oskar-reference" / "imager_wproj";

// OSKAR's cell for a field of view (its fov -> cellsize conversion): asin(2 sin(fov/2) / n).
double oskar_cell(double fov_deg, int n) {
  return std::asin(2.0 * std::sin(0.5 * fov_deg * kDegToRad) / n);
}

// The MWA Measurement Set of tests/data/oskar-reference/mwa_scalar_single, unpacked into a
// folder of this test's own (CTest runs the tests of this program in parallel processes).
std::string mwa_ms() {
  const fs::path archive = fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "oskar-reference" /
                           "mwa_scalar_single" / "mwa_scalar_single.ms.tar.gz";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_imager_wproj" /
                       (std::string(info->test_suite_name()) + "_" + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string cmd = "tar xzf '" + archive.string() + "' -C '" + dir.string() + "'";
  if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "could not unpack " << archive;
  return (dir / "mwa_scalar_single.ms").string();
}

template <typename T>
VisBuffer<T> read_mwa() {
  ImagerConfig cfg;
  cfg.input_ms = {mwa_ms()};
  cfg.image_type = ImageType::I;
  InputSummary summary;
  return read_visibilities<T>(cfg, summary);
}

std::vector<double> read_fits_image(const fs::path& path, int n) {
  io::FitsFile f(path.string());
  std::vector<double> pix(std::size_t(n) * n);
  int status = 0;
  const long first[3] = {1, 1, 1};
  f.read_pixels(first, pix, 0.0, status);
  f.check(status, "reading pixels");
  return pix;
}

// wproj_image normalised as the imager does: real part / sum of the imaged weights.
template <typename T>
std::vector<double> normalised(const std::vector<Cd>& image, const VisBuffer<T>& vis) {
  double sum_w = 0.0;
  for (float w : vis.weight)
    if (w > 0.0f) sum_w += w;
  std::vector<double> out(image.size());
  for (std::size_t i = 0; i < image.size(); ++i) out[i] = image[i].re / sum_w;
  return out;
}

// RMS of a - b over the peak |b|.
double rms_over_peak(const std::vector<double>& a, const std::vector<double>& b) {
  double sq = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sq += (a[i] - b[i]) * (a[i] - b[i]);
    peak = std::max(peak, std::fabs(b[i]));
  }
  return std::sqrt(sq / double(a.size())) / peak;
}

// ---- OSKAR truth (the numbers below are from OSKAR's log; README.md) ----

TEST(WProjOskar, PlaneCountAndSupportsAsOskar) {
  // OSKAR's coordinate scan of mwa_scalar_single.ms: |w| min, max, rms [wavelengths].
  const WStats w{6.687976396032e-04, 1.175009962733e+02, 2.690005624184e+01, 1};
  const double cell40 = oskar_cell(40.0, 128), cell65 = oskar_cell(6.5, 128);
  const WPlanes wide = wproj_planes(0, w, cell40, 128);
  EXPECT_EQ(wide.num_planes, 41);  // "Using 41 W-projection planes."
  EXPECT_EQ(wproj_planes(0, w, cell65, 128).num_planes, 16);
  const int g = wproj_grid_size(128, 1.2);
  EXPECT_EQ(g, 160);
  const int conv = wproj_conv_size(128, 1.2, wide.num_planes, std::size_t(1) << 36);
  const WKernels k = make_w_kernels(wide, 4, 128, g, conv, cell40, 0);
  EXPECT_EQ(k.support.front(), 4);  // "Convolution kernel support range 4 to 18."
  EXPECT_EQ(k.support.back(), 18);
}

TEST(WProjOskar, OutsideCountAsOskar) {
  VisBuffer<double> vis = read_mwa<double>();
  GridTotals t;
  (void)wproj_image(WProjConfig{}, vis, 128, oskar_cell(6.5, 128), 0, t);
  // OSKAR: "Skipped 5924 visibility points" and "Skipped 5929 ..." (two blocks of the MS).
  EXPECT_EQ(t.outside, std::size_t(5924 + 5929));
  std::size_t zero = 0;
  for (float w : vis.weight) zero += !(w > 0.0f);
  EXPECT_EQ(zero, t.outside);
  EXPECT_EQ(t.gridded + t.outside, vis.num_visibilities());
}

void expect_matches_oskar(double fov_deg, const char* file) {
  VisBuffer<double> vis = read_mwa<double>();
  GridTotals t;
  const auto image = wproj_image(WProjConfig{}, vis, 128, oskar_cell(fov_deg, 128), 0, t);
  const std::vector<double> ours = normalised(image, vis);
  const std::vector<double> ref = read_fits_image(kRefDir / file, 128);
  const double r = rms_over_peak(ours, ref);
  EXPECT_LE(r, 1e-5) << file;
  std::printf("%s: RMS difference / peak = %.3g\n", file, r);
}

TEST(WProjOskar, ImageMatchesOskar) { expect_matches_oskar(6.5, "oskar_wproj_mwa_128_I.fits.gz"); }

TEST(WProjOskar, WideFieldImageMatchesOskar) {
  expect_matches_oskar(40.0, "oskar_wproj_mwa_wide_128_I.fits.gz");
}

// ---- Against the direct transform with w ----

// A point source of flux 1 at pixel (px, py) of an n x n image (cell_rad), seen by random
// baselines with |u|, |v| <= uv_max and |w| <= w_max (wavelengths: frequency = c).
template <typename T>
VisBuffer<T> point_source(int n, double cell, int px, int py, double uv_max, double w_max, int rows,
                          unsigned seed) {
  VisBuffer<T> vis;
  vis.resize(rows, 1, 1);
  vis.freq_hz = {kSpeedOfLight};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uv(-uv_max, uv_max), w(-w_max, w_max);
  for (int r = 0; r < rows; ++r) {
    vis.uvw_m[r] = {uv(rng), uv(rng), w(rng)};
    vis.baseline[r] = r;
    vis.weight[r] = 1.0f;
  }
  std::vector<Cd> model(std::size_t(n) * n, Cd{0.0, 0.0});
  model[std::size_t(py) * n + px] = {1.0, 0.0};
  dft_predict(model, n, cell, vis, true);
  return vis;
}

// Errors relative to the DFT's peak: at the peak pixel, RMS and largest over the image.
struct Errors {
  double at_peak = 0.0, rms = 0.0, max = 0.0;
};

Errors compare(const std::vector<double>& a, const std::vector<double>& d) {
  std::size_t ip = 0;
  for (std::size_t i = 0; i < d.size(); ++i)
    if (std::fabs(d[i]) > std::fabs(d[ip])) ip = i;
  const double peak = std::fabs(d[ip]);
  Errors e;
  double sq = 0.0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    sq += (a[i] - d[i]) * (a[i] - d[i]);
    e.max = std::max(e.max, std::fabs(a[i] - d[i]) / peak);
  }
  e.at_peak = std::fabs(a[ip] - d[ip]) / peak;
  e.rms = std::sqrt(sq / double(d.size())) / peak;
  return e;
}

// W-projection (planes: 0 automatic) and the same imager with w = 0 (a 2-D FFT imager)
// against the DFT with w, for vis0.
std::pair<Errors, Errors> errors_vs_dft3d(int n, double cell, const VisBuffer<double>& vis0,
                                          int planes = 0) {
  WProjConfig cfg;
  cfg.num_w_planes = planes;
  VisBuffer<double> vis = vis0, flat = vis0;
  for (auto& uvw : flat.uvw_m) uvw[2] = 0.0;
  GridTotals t1, t2;
  const auto a = normalised(wproj_image(cfg, vis, n, cell, 0, t1), vis);
  const auto b = normalised(wproj_image(cfg, flat, n, cell, 0, t2), flat);
  EXPECT_EQ(t1.outside, 0u);
  EXPECT_EQ(t2.outside, 0u);
  const auto d = normalised(dft_image(vis, n, cell, true), vis);
  return {compare(a, d), compare(b, d)};
}

// W-projection's own errors (OSKAR's design, reproduced): the w planes are p^2 / w_scale
// apart, so a visibility's w is off by up to half a spacing (16 automatic planes over
// 0..40 wavelengths: up to +-2.9 wavelengths, a phase error up to 0.6 rad for n - 1 = -0.033,
// about 5 % of the peak); kernels sampled every 1/4 cell; and a ~1 % flux scale from the
// taper's normalisation.
TEST(WProjVsDft, FarSourceLargeWBeatsFlatFft) {
  // 128 pixels of 0.004 (field +-0.256 in l, m); source at l = -0.2, m = 0.16:
  // n - 1 = -0.033, so w up to 40 wavelengths turns its phase by up to 8.4 rad: a 2-D FFT
  // imager loses the source.
  const int n = 128;
  const double cell = 0.004;
  const VisBuffer<double> vis =
      point_source<double>(n, cell, 64 + 50, 64 + 40, 50.0, 40.0, 3000, 7);
  const auto [wp, flat] = errors_vs_dft3d(n, cell, vis);
  EXPECT_GT(flat.at_peak, 0.5);  // the w term matters here
  EXPECT_LT(wp.at_peak, 0.07);
  EXPECT_LT(wp.rms, 0.25 * flat.rms);
  EXPECT_LT(wp.max, 0.1 * flat.max);
  // 64 planes (4 times closer at the top): the w error shrinks.
  const auto [wp64, flat64] = errors_vs_dft3d(n, cell, vis, 64);
  EXPECT_LT(wp64.at_peak, 0.035);
  EXPECT_LT(wp64.at_peak, 0.6 * wp.at_peak);
  EXPECT_LT(wp64.rms, wp.rms);
}

TEST(WProjVsDft, NearSourceSmallW) {
  // Near the centre and with small w all agree (orientation, sign and scale): the error is
  // the convolutional gridding's (1/4-cell kernel sampling, taper normalisation).
  const int n = 64;
  const double cell = 0.002;
  const VisBuffer<double> vis = point_source<double>(n, cell, 32 + 5, 32 - 3, 60.0, 2.0, 800, 3);
  const auto [wp, flat] = errors_vs_dft3d(n, cell, vis);
  EXPECT_LT(wp.at_peak, 0.015);
  EXPECT_LT(wp.rms, 0.01);
  EXPECT_LT(wp.max, 0.05);
}

// ---- Kernels ----

WKernels test_kernels(int* grid = nullptr) {
  const int n = 128;
  const double cell = 0.004;
  const WStats w{0.0, 100.0, 50.0, 1};
  const WPlanes p = wproj_planes(0, w, cell, n);
  const int g = wproj_grid_size(n, 1.2);
  if (grid) *grid = g;
  return make_w_kernels(p, 4, n, g, wproj_conv_size(n, 1.2, p.num_planes, std::size_t(1) << 36),
                        cell, 2);
}

TEST(WProjKernels, NormalisedSymmetricAndGrowing) {
  const WKernels k = test_kernels();
  ASSERT_GE(k.num_planes, 16);
  // Plane 0 sums to 1 over whole-cell offsets of its support (OSKAR's normalisation).
  const int s0 = k.support[0], e0 = k.extent(0), os = k.oversample;
  double sum = 0.0;
  for (int y = -s0; y <= s0; ++y)
    for (int x = -s0; x <= s0; ++x)
      sum += k.values[k.start[0] + std::size_t(std::abs(y) * os) * e0 + std::abs(x) * os].re;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  for (int p = 0; p < k.num_planes; ++p) {
    const int e = k.extent(p);
    const Cd* q = &k.values[k.start[p]];
    // The screen is the same along l and m, so the kernel is symmetric under u <-> v.
    double asym = 0.0, peak = std::hypot(q[0].re, q[0].im);
    // (Samples past the quadrant's side, read as OSKAR does from the next row, excluded.)
    const int side = std::min(e, k.conv_size / 2 - 1);
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        const Cd a = q[std::size_t(y) * e + x], b = q[std::size_t(x) * e + y];
        asym = std::max(asym, std::hypot(a.re - b.re, a.im - b.im));
        // The origin (the screen's sum) is the largest value of each plane.
        EXPECT_LE(std::hypot(a.re, a.im), peak * (1 + 1e-12)) << p;
      }
    EXPECT_LT(asym, 1e-12 * peak) << p;
    // Larger w: a wider chirp in the uv plane, up to OSKAR's cap (the screen's half side).
    const int cap = k.conv_size / 2 / os - 1;
    EXPECT_LE(k.support[p], cap + 1) << p;
    if (p > 0 && k.support[p] != cap) EXPECT_GE(k.support[p], k.support[p - 1]) << p;
  }
  EXPECT_GT(k.support.back(), k.support.front());
}

TEST(WProjGrid, PositiveWConjugatesKernel) {
  int g = 0;
  const WKernels k = test_kernels(&g);
  const WKernelRows<double> rows = kernel_rows<double>(k);
  const double uu = 3.3, vv = -7.9, w = 60.0;
  const Complex<double> one{1.0, 0.0};
  std::vector<Complex<double>> ga(std::size_t(g) * g), gb(ga.size());
  for (double sign : {1.0, -1.0}) {
    const double ww = sign * w;
    float weight = 1.0f;
    ConvVisView<double> v;
    v.num_vis = 1;
    v.uu = &uu;
    v.vv = &vv;
    v.ww = &ww;
    v.vis = &one;
    v.weight = &weight;
    const GridTotals t = grid_wproj_cpu(rows, v, 0.004, g, sign > 0 ? ga.data() : gb.data(), 1);
    EXPECT_EQ(t.gridded, 1u);
  }
  double maxim = 0.0;
  for (std::size_t i = 0; i < ga.size(); ++i) {
    EXPECT_EQ(ga[i].re, gb[i].re);
    EXPECT_EQ(ga[i].im, -gb[i].im);
    maxim = std::max(maxim, std::fabs(ga[i].im));
  }
  EXPECT_GT(maxim, 1e-3);  // the kernel at this w is complex: the test can fail
}

TEST(WProjGrid, FarAndNanPositionsCountedOutside) {
  int g = 0;
  const WKernels k = test_kernels(&g);
  const WKernelRows<double> rows = kernel_rows<double>(k);
  // u far beyond any int cell index, a NaN v, one just outside (support 4+ at the edge), one in.
  const double uu[4] = {1e15, 0.0, 0.5 * g * 1.5625 - 1.0, 3.0};
  const double vv[4] = {0.0, std::nan(""), 0.0, 3.0};
  const double ww[4] = {0.0, 0.0, 0.0, std::nan("")};
  const Complex<double> val[4] = {{1, 0}, {1, 0}, {1, 0}, {1, 0}};
  float weight[4] = {1, 1, 1, 1};
  ConvVisView<double> v;
  v.num_vis = 4;
  v.uu = uu;
  v.vv = vv;
  v.ww = ww;
  v.vis = val;
  v.weight = weight;
  std::vector<Complex<double>> grid(std::size_t(g) * g);
  const GridTotals t = grid_wproj_cpu(rows, v, 0.004, g, grid.data(), 1);  // du = 1.5625
  EXPECT_EQ(t.outside, 3u);
  EXPECT_EQ(t.gridded, 1u);  // a NaN w takes the last plane, as a w beyond the last
  EXPECT_EQ(weight[0], 0.0f);
  EXPECT_EQ(weight[1], 0.0f);
  EXPECT_EQ(weight[2], 0.0f);
  EXPECT_EQ(weight[3], 1.0f);
}

// ---- Precision and threads ----

TEST(WProjImage, FloatMatchesDouble) {
  const int n = 128;
  const double cell = 0.004;
  VisBuffer<double> vd = point_source<double>(n, cell, 100, 30, 50.0, 100.0, 2000, 11);
  VisBuffer<float> vf;
  vf.resize(vd.num_rows, 1, 1);
  vf.freq_hz = vd.freq_hz;
  vf.uvw_m = vd.uvw_m;
  vf.weight = vd.weight;
  for (std::size_t i = 0; i < vd.vis.size(); ++i)
    vf.vis[i] = {float(vd.vis[i].re), float(vd.vis[i].im)};
  GridTotals td, tf;
  const auto a = normalised(wproj_image(WProjConfig{}, vd, n, cell, 0, td), vd);
  const auto b = normalised(wproj_image(WProjConfig{}, vf, n, cell, 0, tf), vf);
  EXPECT_EQ(td.gridded, tf.gridded);
  EXPECT_LT(rms_over_peak(b, a), 1e-5);
}

TEST(WProjGrid, ThreadCountDoesNotChangeGrid) {
  int g = 0;
  const WKernels k = test_kernels(&g);
  const WKernelRows<double> rows = kernel_rows<double>(k);
  const VisBuffer<double> vis = point_source<double>(128, 0.004, 90, 20, 50.0, 100.0, 3000, 5);
  std::vector<double> uu(vis.num_rows), vv(vis.num_rows), ww(vis.num_rows);
  for (std::size_t r = 0; r < vis.num_rows; ++r) {
    uu[r] = vis.uvw_m[r][0];
    vv[r] = vis.uvw_m[r][1];
    ww[r] = vis.uvw_m[r][2];
  }
  std::vector<std::vector<Complex<double>>> grids;
  for (int threads : {1, 2, 3}) {
    std::vector<float> weight = vis.weight;
    ConvVisView<double> v;
    v.num_vis = vis.num_rows;
    v.uu = uu.data();
    v.vv = vv.data();
    v.ww = ww.data();
    v.vis = vis.vis.data();
    v.weight = weight.data();
    grids.emplace_back(std::size_t(g) * g, Complex<double>{0.0, 0.0});
    const GridTotals t = grid_wproj_cpu(rows, v, 0.004, g, grids.back().data(), threads);
    EXPECT_EQ(t.gridded, vis.num_rows);
  }
  for (std::size_t i = 0; i < grids[0].size(); ++i)
    for (int m = 1; m < 3; ++m) {
      ASSERT_EQ(grids[0][i].re, grids[m][i].re) << i;
      ASSERT_EQ(grids[0][i].im, grids[m][i].im) << i;
    }
}

TEST(WProjImage, BadOversampleRefused) {
  VisBuffer<double> vis = point_source<double>(32, 0.01, 16, 16, 10.0, 1.0, 10, 1);
  WProjConfig cfg;
  cfg.oversample = 0;
  GridTotals t;
  EXPECT_THROW((void)wproj_image(cfg, vis, 32, 0.01, 1, t), Error);
}

}  // namespace
}  // namespace fringe::imager
