// The streamed imaging path (stream_imager.h: FFT, W-projection and IDG read a slice of rows at
// a time) against the whole-input path (read_visibilities + image_in_memory) on the same
// Measurement Sets: the images must agree to rounding for every weighting, product and
// option, whatever the rows per read (a read of 1 or 37 rows: an input many times larger than
// the "memory budget"), and the counts must be the same. IDG plans each read on its own, so
// with small reads its subgrids differ from the whole path's: there the images agree to IDG's
// accuracy (both against the DFT).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "fringe/core/device.h"
#include "fringe/imager/idg_stream.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/model_image.h"
#include "fringe/imager/ms_input.h"
#include "fringe/imager/stream_imager.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/baseline.h"
#include "fringe/vis/vis_block.h"

namespace fringe::imager {
namespace {

namespace fs = std::filesystem;

constexpr int kStations = 12, kTimes = 9, kChannels = 3;

// This process's folder (ctest runs the tests of this file as parallel processes), removed
// with everything the process wrote there when it exits.
const fs::path& work_dir() {
  struct Dir {
    fs::path path = fs::path(FRINGE_BINARY_DIR) / "test_stream_imager" /
                    std::to_string(static_cast<long>(getpid()));
    Dir() {
      fs::remove_all(path);  // a folder of an earlier process with this id: this test's own
      fs::create_directories(path);
    }
    ~Dir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Dir d;
  return d.path;
}

// An MS with autocorrelations, stations spread over ~3 km, made-up Earth-rotation-like uv
// tracks, random visibilities (all four correlations) and a point source at the centre.
std::string write_ms(const std::string& name, unsigned seed) {
  vis::VisMeta m;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<std::array<double, 3>> st;
  for (int p = 0; p < kStations; ++p) {
    m.station_names.push_back("s" + std::to_string(p));
    m.station_ecef_m.push_back(
        {-1601614.0 + 1500 * uni(rng), -5042001.0 + 1500 * uni(rng), 3554652.0 + 1500 * uni(rng)});
    st.push_back({1500 * uni(rng), 1500 * uni(rng), 100 * uni(rng)});
  }
  m.array_centre_ecef_m = {-1601614.0, -5042001.0, 3554652.0};
  m.phase_centre_ra_rad = 1.0;
  m.phase_centre_dec_rad = -0.6;
  m.num_channels = kChannels;
  m.start_frequency_hz = 150e6;
  m.frequency_inc_hz = 5e6;
  m.num_times = kTimes;
  m.start_time_mjd_utc = 60000.0;
  m.time_inc_sec = 60.0;
  m.pol_mode = vis::PolMode::Full;
  m.write_autocorrelations = true;
  const fs::path dir = work_dir();
  const std::string path = (dir / name).string();
  io::MsWriter w(path, m);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (int t = 0; t < kTimes; ++t) {
    vis::VisBlock<double> b(1, kChannels, kStations, m.pol_mode, true, true);
    b.set_axes(m, t, 0);
    const double h = 0.1 * (t - kTimes / 2);
    for (int p = 0; p < kStations; ++p)
      for (int q = p + 1; q < kStations; ++q) {
        const std::size_t bl = vis::baseline_index(kStations, p, q);
        const double x = st[p][0] - st[q][0], y = st[p][1] - st[q][1], z = st[p][2] - st[q][2];
        b.uvw(0, bl) = {std::cos(h) * x - std::sin(h) * y, std::sin(h) * x + std::cos(h) * y, z};
        for (int c = 0; c < kChannels; ++c)
          for (int pol = 0; pol < 4; ++pol)
            b.cross(0, c, bl, pol) = {(pol == 0 || pol == 3 ? 2.0 : 0.0) + noise(rng), noise(rng)};
      }
    for (int c = 0; c < kChannels; ++c)
      for (int s = 0; s < kStations; ++s)
        for (int pol = 0; pol < 4; ++pol) b.autos(0, c, s, pol) = {100.0, 0.0};
    w.append_block(b);
  }
  w.finish();
  return path;
}

const std::string& ms_a() {
  static const std::string p = write_ms("a.ms", 3);
  return p;
}
const std::string& ms_b() {
  static const std::string p = write_ms("b.ms", 5);
  return p;
}

ImagerConfig base_config(Algorithm a) {
  ImagerConfig c;
  c.input_ms = {ms_a()};
  c.algorithm = a;
  c.size = 128;
  c.cell_rad = 20.0 / 206265.0;
  c.precision = Precision::Double;
  c.devices.use_gpus = false;
  c.num_threads = 2;
  return c;
}

struct Images {
  std::vector<double> pixels;  // [product][y][x]
  ImagerResult result;
};

// The streamed run's images, read back from its FITS files.
Images streamed(ImagerConfig c, const std::string& root) {
  c.root_path = (work_dir() / root).string();
  EXPECT_TRUE(streams(c));
  Images out;
  out.result = run(c);
  for (const auto& f : out.result.files) {
    const std::vector<double> p = read_model_image(f, c.size, c.cell_rad);
    out.pixels.insert(out.pixels.end(), p.begin(), p.end());
  }
  return out;
}

// The whole-input path's images of the same config.
Images whole(const ImagerConfig& c) {
  InputSummary in;
  VisBuffer<double> vis = read_visibilities<double>(c, in);
  ImagerConfig mem = c;
  mem.rephase = false;  // read_visibilities re-phased already
  const ImageArrays a = image_in_memory(mem, vis, in.phase_centre_rad);
  return {a.pixels, a.result};
}

// max |a - b| / max |b|.
double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double peak = 0, d = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    peak = std::max(peak, std::abs(b[i]));
    d = std::max(d, std::abs(a[i] - b[i]));
  }
  EXPECT_GT(peak, 0.0);
  return d / peak;
}

void expect_same(const ImagerConfig& c, const std::string& root, double tol = 1e-12) {
  const Images s = streamed(c, root), w = whole(c);
  EXPECT_LE(rel_diff(s.pixels, w.pixels), tol) << root;
  EXPECT_EQ(s.result.num_gridded, w.result.num_gridded) << root;
  EXPECT_NEAR(s.result.sum_weights, w.result.sum_weights, 1e-9 * w.result.sum_weights) << root;
}

TEST(StreamImager, FftNaturalEqualsWholeInputForAnyRowsPerRead) {
  for (std::size_t rows : {std::size_t(1), std::size_t(37), std::size_t(0)}) {
    ImagerConfig c = base_config(Algorithm::Fft);
    c.read_rows = rows;
    expect_same(c, "fft_natural_" + std::to_string(rows));
  }
}

TEST(StreamImager, FftUniformBriggsRadialAndTaper) {
  for (Weighting w : {Weighting::Uniform, Weighting::Briggs, Weighting::Radial}) {
    ImagerConfig c = base_config(Algorithm::Fft);
    c.read_rows = 37;
    c.weighting = w;
    c.robust = 0.5;
    c.taper_u_lambda = 800.0;
    expect_same(c, "fft_weight_" + std::to_string(int(w)));
  }
}

TEST(StreamImager, WProjectionStokesUniformSinglePrecision) {
  ImagerConfig c = base_config(Algorithm::WProjection);
  c.read_rows = 37;
  c.image_type = ImageType::Stokes;
  c.weighting = Weighting::Uniform;
  expect_same(c, "wproj_stokes");
  c.precision = Precision::Single;
  c.image_type = ImageType::I;
  expect_same(c, "wproj_single", 1e-5);
}

TEST(StreamImager, PsfUvRangeTimeRangeAndRephase) {
  ImagerConfig c = base_config(Algorithm::Fft);
  c.read_rows = 50;
  c.image_type = ImageType::Psf;
  c.uv_min_lambda = 50.0;
  expect_same(c, "psf");
  c.image_type = ImageType::XY;
  c.time_min_s = 60000.0 * 86400.0 + 100.0;
  c.rephase = true;
  c.centre_ra_rad = 1.0 + 2e-3;
  c.centre_dec_rad = -0.6 + 1e-3;
  expect_same(c, "rephase");
}

TEST(StreamImager, SeveralInputs) {
  ImagerConfig c = base_config(Algorithm::WProjection);
  c.input_ms = {ms_a(), ms_b()};
  c.read_rows = 100;
  c.weighting = Weighting::Briggs;
  expect_same(c, "two_inputs");
}

TEST(StreamImager, CountsMatchTheWholeRead) {
  ImagerConfig c = base_config(Algorithm::Fft);
  c.read_rows = 7;
  c.uv_max_lambda = 1000.0;
  const Images s = streamed(c, "counts");
  InputSummary in;
  read_visibilities<double>(c, in);
  EXPECT_EQ(s.result.num_visibilities, in.visibilities);
  EXPECT_EQ(s.result.num_visibilities, std::size_t(kTimes) * kChannels * 66);  // 66 baselines
  EXPECT_GT(in.uv_filtered, 0u);
  EXPECT_EQ(s.result.num_outside, in.uv_filtered);  // none off this grid
  // The log's stage times: every stage of the streamed path, none negative.
  ASSERT_EQ(s.result.stages.size(), 8u);
  for (const auto& [name, sec] : s.result.stages) EXPECT_GE(sec, 0.0) << name;
}

// The GPU gridders and cuFFT in the streamed path (grids kept on the device across reads)
// against the CPU's streamed images, element by element. Skipped without a CUDA device.
TEST(StreamImager, GpuEqualsCpu) {
  if (cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  for (Algorithm a : {Algorithm::Fft, Algorithm::WProjection})
    for (Precision p : {Precision::Single, Precision::Double}) {
      ImagerConfig c = base_config(a);
      c.read_rows = 37;
      c.precision = p;
      c.weighting = Weighting::Uniform;
      c.image_type = ImageType::Stokes;
      const std::string name = std::to_string(int(a)) + "_" + std::to_string(int(p));
      const Images cpu = streamed(c, "cpu_" + name);
      c.devices.use_gpus = true;
      c.fft.grid_on_gpu = c.fft.fft_on_gpu = true;
      c.wproj.grid_on_gpu = c.wproj.fft_on_gpu = true;
      const Images gpu = streamed(c, "gpu_" + name);
      EXPECT_NE(gpu.result.device.find("GPU"), std::string::npos) << gpu.result.device;
      // Atomic additions change the order of the grid sums, cuFFT and FFTW round differently,
      // and the gridding correction amplifies rounding near the image edges (W-projection's
      // padded grid: up to ~1e4): a few rounding units times that. Measured on an H200:
      // single 2.6e-4 (W-projection), double 1.5e-12.
      EXPECT_LE(rel_diff(gpu.pixels, cpu.pixels), p == Precision::Single ? 1e-3 : 1e-11) << name;
      EXPECT_EQ(gpu.result.num_gridded, cpu.result.num_gridded) << name;
    }
}

TEST(StreamImager, ChannelSnapshotsPredictionAndATermsUseTheWholeInputPath) {
  ImagerConfig c = base_config(Algorithm::Fft);
  EXPECT_TRUE(streams(c));
  c.channel_snapshots = true;
  EXPECT_FALSE(streams(c));
  c.channel_snapshots = false;
  c.algorithm = Algorithm::Idg;
  EXPECT_TRUE(streams(c));
  c.idg.aterms.mode = ATermMode::StationBeams;
  EXPECT_FALSE(streams(c));
}

// IDG with several w layers (a w step of 10 wavelengths: |w| reaches ~110 here).
ImagerConfig idg_config() {
  ImagerConfig c = base_config(Algorithm::Idg);
  c.idg.w_step_lambda = 10.0;
  c.image_type = ImageType::Stokes;
  return c;
}

// One read holding every row: the same plan as the whole path's, so the same image to
// rounding, and the same counts.
// Natural weighting bounds the layers from the UVW column alone (stored_uvw_layer_range),
// uniform from the full first pass; re-phasing (UVW changed after reading) takes the full
// pass too.
TEST(StreamImager, IdgOneReadEqualsWholeInput) {
  for (Weighting wt : {Weighting::Natural, Weighting::Uniform}) {
    ImagerConfig c = idg_config();
    c.weighting = wt;
    const std::string name = "idg_one_read_" + std::to_string(int(wt));
    expect_same(c, name);
    const Images s = streamed(c, name + "_counts"), w = whole(c);
    EXPECT_EQ(s.result.num_subgrids, w.result.num_subgrids);
    EXPECT_GT(s.result.num_w_layers, 5);
  }
  ImagerConfig c = idg_config();
  c.rephase = true;
  c.centre_ra_rad = 1.0 + 2e-3;
  c.centre_dec_rad = -0.6 + 1e-3;
  expect_same(c, "idg_rephase");
}

// The UVW-only bound holds every layer the selected, weighted rows fall on.
TEST(StreamImager, StoredUvwRangeBoundsTheSelection) {
  ImagerConfig c = idg_config();
  c.uv_max_lambda = 500.0;
  const std::optional<LayerRange> stored = stored_uvw_layer_range(c);
  ASSERT_TRUE(stored.has_value());
  LayerRange exact;
  InputSummary in;
  exact.add(read_visibilities<double>(c, in));
  ASSERT_TRUE(exact.any && stored->any);
  EXPECT_LE(stored->w_lo_lambda, exact.w_lo_lambda);
  EXPECT_GE(stored->w_hi_lambda, exact.w_hi_lambda);
  EXPECT_LE(stored->first(10.0), exact.first(10.0));
  EXPECT_GE(stored->last(10.0), exact.last(10.0));
  c.rephase = true;
  EXPECT_FALSE(stored_uvw_layer_range(c).has_value());
}

// Small reads split the subgrids at the reads' edges: the image is then as close to the DFT's
// as the whole path's (largest pixel difference over the four Stokes images: whole 3.4e-5 of
// the peak, streamed 2.7e-5: one-row subgrids have less w spread), and the two agree to that.
TEST(StreamImager, IdgSmallReadsAgreeWithWholeInputAndDft) {
  for (std::size_t rows : {std::size_t(1), std::size_t(37)}) {
    ImagerConfig c = idg_config();
    c.read_rows = rows;
    const Images s = streamed(c, "idg_rows_" + std::to_string(rows)), w = whole(c);
    EXPECT_EQ(s.result.num_gridded, w.result.num_gridded) << rows;
    EXPECT_GT(s.result.num_subgrids, w.result.num_subgrids) << rows;
    ImagerConfig d = c;
    d.algorithm = Algorithm::Dft3d;
    const Images dft = whole(d);
    const double err_whole = rel_diff(w.pixels, dft.pixels);
    EXPECT_LE(err_whole, 1e-4);
    EXPECT_LE(rel_diff(s.pixels, dft.pixels), 1.5 * err_whole) << rows;
    EXPECT_LE(rel_diff(s.pixels, w.pixels), 2 * err_whole) << rows;
  }
}

// Layers held one at a time (a memory limit below two layers' grids): one pass over the
// inputs per layer, the same image as one pass holding them all.
TEST(StreamImager, IdgLayersInSeveralPassesEqualOnePass) {
  ImagerConfig c = idg_config();
  c.read_rows = 50;
  const Images one = streamed(c, "idg_one_pass");
  const double layer_bytes = 4.0 * 160 * 160 * sizeof(Complex<double>);  // 4 pols, grid 160
  c.idg.max_layer_bytes = 1.5 * layer_bytes;
  const Images many = streamed(c, "idg_many_passes");
  EXPECT_LE(rel_diff(many.pixels, one.pixels), 1e-13);
  EXPECT_EQ(many.result.num_gridded, one.result.num_gridded);
  EXPECT_NEAR(many.result.sum_weights, one.result.sum_weights, 1e-12 * one.result.sum_weights);
}

// The CUDA back end's w-layer stack (grids on the GPU across reads, cuFFT, the image summed
// there) against the CPU's streamed IDG, element by element. Skipped without a CUDA device.
TEST(StreamImager, IdgGpuEqualsCpu) {
  if (cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  for (Precision p : {Precision::Single, Precision::Double}) {
    ImagerConfig c = idg_config();
    c.read_rows = 37;
    c.precision = p;
    const std::string name = "idg_" + std::to_string(int(p));
    const Images cpu = streamed(c, "cpu_" + name);
    c.devices.use_gpus = true;
    const Images gpu = streamed(c, "gpu_" + name);
    EXPECT_NE(gpu.result.device.find("GPU"), std::string::npos) << gpu.result.device;
    EXPECT_LE(rel_diff(gpu.pixels, cpu.pixels), p == Precision::Single ? 1e-4 : 1e-11) << name;
    EXPECT_EQ(gpu.result.num_gridded, cpu.result.num_gridded) << name;
  }
}

}  // namespace
}  // namespace fringe::imager
