// fft_image against OSKAR 2.13's own FFT images (tests/data/oskar-reference/imager_fft/README.md:
// 128 x 128 images of two packed reference Measurement Sets, Spheroidal with OSKAR's default
// support 3 / oversample 100 and with support 4 / oversample 64, and Pillbox). The
// visibilities are read with the imager's reader and the image divided by the sum of the
// imaged weights, as the imager does. Target (issue 22): RMS difference <= 1e-5 of the peak in
// double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "fringe/imager/conv_imager.h"
#include "fringe/imager/ms_input.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::imager {
namespace {

namespace fs = std::filesystem;

const fs::path kRef = fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "oskar-reference";

// The packed MS unpacked into a folder of this test's own (CTest runs tests in parallel).
std::string unpack_ms(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_imager_fft" / info->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path archive = kRef / name / (name + ".ms.tar.gz");
  const std::string cmd = "tar xzf '" + archive.string() + "' -C '" + dir.string() + "'";
  if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "could not unpack " << archive;
  return (dir / (name + ".ms")).string();
}

std::vector<double> read_fits(const std::string& path, int n) {
  io::FitsFile f(path, io::FitsOpen::ReadOnlyImage);
  int status = 0;
  const std::vector<long> dims = f.image_size(2, status);
  f.check(status, "reading the image size");
  EXPECT_EQ(dims[0], n);
  EXPECT_EQ(dims[1], n);
  std::vector<double> px(std::size_t(n) * n);
  const long first[4] = {1, 1, 1, 1};
  f.read_pixels(std::span<const long>(first, f.image_dim(status)), px, 0.0, status);
  f.check(status, "reading the pixels");
  return px;
}

struct Case {
  std::string ms, fits;
  double fov_deg;
  FftConfig fft;
  std::size_t outside;  // OSKAR's log: "Skipped ... visibility points"
};

void check_against_oskar(const Case& c) {
  const int n = 128;
  ImagerConfig cfg;
  cfg.input_ms = {unpack_ms(c.ms)};
  cfg.size = n;
  // OSKAR's cell from the field of view: asin(2 sin(fov / 2) / size).
  cfg.cell_rad = std::asin(2.0 * std::sin(0.5 * c.fov_deg * M_PI / 180.0) / n);
  cfg.image_type = ImageType::I;
  InputSummary summary;
  VisBuffer<double> vis = read_visibilities<double>(cfg, summary);
  GridTotals t;
  const std::vector<Complex<double>> img = fft_image(c.fft, vis, n, cfg.cell_rad, 0, t);
  EXPECT_EQ(t.outside, c.outside);
  EXPECT_EQ(t.gridded + t.outside, vis.num_visibilities());
  double sum_w = 0;
  for (float w : vis.weight) sum_w += w > 0 ? w : 0;
  ASSERT_GT(sum_w, 0.0);

  const std::vector<double> ref =
      read_fits((kRef / "imager_fft" / c.fits).string(), n);  // OSKAR: pixel (x, y) at [y][x]
  double peak = 0, sq = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    peak = std::max(peak, std::abs(ref[i]));
    const double d = img[i].re / sum_w - ref[i];
    sq += d * d;
  }
  const double rms = std::sqrt(sq / ref.size());
  ::testing::Test::RecordProperty("rms_over_peak", std::to_string(rms / peak));
  std::printf("%s: peak %.6g, RMS difference %.3g of the peak\n", c.fits.c_str(), peak, rms / peak);
  EXPECT_GT(peak, 0.0);
  EXPECT_LE(rms, 1e-5 * peak);
}

TEST(FftImagerOskar, VlaSpheroidal) {
  check_against_oskar(
      {"vla_gauss_beam_smear", "oskar_vla_spheroidal_I.fits.gz", 0.0175, FftConfig{}, 0});
}

TEST(FftImagerOskar, VlaPillbox) {
  FftConfig f;
  f.kernel = ConvKernelType::Pillbox;
  check_against_oskar({"vla_gauss_beam_smear", "oskar_vla_pillbox_I.fits.gz", 0.0175, f, 0});
}

// Support 4, oversample 64 (OSKAR's general gridding loop rather than its default one), and
// 144 of the 720 visibilities off the grid (OSKAR logs "Skipped 48" for each of 3 blocks).
TEST(FftImagerOskar, LowSpheroidalSupport4Oversample64) {
  FftConfig f;
  f.support = 4;
  f.oversample = 64;
  check_against_oskar(
      {"low_aa1_dipole_gauss", "oskar_low_spheroidal_s4_os64_I.fits.gz", 1.5, f, 144});
}

}  // namespace
}  // namespace fringe::imager
