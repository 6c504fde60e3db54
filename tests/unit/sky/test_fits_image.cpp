#include <erfa.h>
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fringe/core/error.h"
#include "fringe/sky/fits_image_reader.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

using test::kDeg;

struct Image {
  long nx = 5, ny = 4;
  std::string ctype1 = "RA---SIN", ctype2 = "DEC--SIN";
  double crval1 = 30.0, crval2 = -40.0, crpix1 = 3.0, crpix2 = 2.0;
  double cdelt1 = -0.5, cdelt2 = 0.5;  // large pixels make projection effects visible
  bool freq_axis = true;
  double freq = 150e6;
  std::string bunit = "JY/PIXEL";
  double bmaj = 0, bmin = 0;
  std::string history;
  std::vector<double> pixels;  // nx * ny, x fastest
};

std::string write_image(const std::filesystem::path& path, const Image& im) {
  std::filesystem::remove(path);
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, path.c_str(), &status);
  long naxes[3] = {im.nx, im.ny, 1};
  fits_create_img(f, DOUBLE_IMG, im.freq_axis ? 3 : 2, naxes, &status);
  auto key_s = [&](const char* k, const std::string& v) {
    fits_update_key(f, TSTRING, k, const_cast<char*>(v.c_str()), nullptr, &status);
  };
  auto key_d = [&](const char* k, double v) {
    fits_update_key(f, TDOUBLE, k, &v, nullptr, &status);
  };
  key_s("CTYPE1", im.ctype1);
  key_s("CTYPE2", im.ctype2);
  key_d("CRVAL1", im.crval1);
  key_d("CRVAL2", im.crval2);
  key_d("CRPIX1", im.crpix1);
  key_d("CRPIX2", im.crpix2);
  key_d("CDELT1", im.cdelt1);
  key_d("CDELT2", im.cdelt2);
  if (im.freq_axis) {
    key_s("CTYPE3", "FREQ");
    key_d("CRVAL3", im.freq);
    key_d("CDELT3", 1e6);
    key_d("CRPIX3", 1.0);
  }
  if (!im.bunit.empty()) key_s("BUNIT", im.bunit);
  if (im.bmaj > 0) {
    key_d("BMAJ", im.bmaj);
    key_d("BMIN", im.bmin);
  }
  if (!im.history.empty()) fits_write_history(f, im.history.c_str(), &status);
  long first[3] = {1, 1, 1};
  std::vector<double> px = im.pixels;
  fits_write_pix(f, TDOUBLE, first, im.nx * im.ny, px.data(), &status);
  fits_close_file(f, &status);
  EXPECT_EQ(status, 0);
  return path.string();
}

Image sparse_image() {
  Image im;
  im.pixels.assign(im.nx * im.ny, 0.0);
  im.pixels[1 * im.nx + 2] = 10.0;  // reference pixel (3, 2)
  im.pixels[0 * im.nx + 0] = 4.0;   // corner (1, 1)
  im.pixels[3 * im.nx + 4] = 2.0;   // corner (5, 4)
  im.pixels[2 * im.nx + 1] = 0.1;   // below 2% of the peak -> dropped
  im.pixels[2 * im.nx + 3] = -3.0;  // negative -> dropped
  return im;
}

FitsImageReadOptions jy_pixel() {
  FitsImageReadOptions o;
  o.min_peak_fraction = 0.02;
  o.spectral_index = -0.7;
  return o;
}

// Truth for SIN from ERFA: gnomonic (xi, eta) of the source about CRVAL, converted to the
// orthographic plane: l = xi / sqrt(1 + xi^2 + eta^2) (same for m).
void expect_at_pixel(const Source& s, const Image& im, double px, double py, bool tan) {
  double xi = 0, eta = 0;
  ASSERT_EQ(eraTpxes(s.ra, s.dec, im.crval1 * kDeg, im.crval2 * kDeg, &xi, &eta), 0);
  const double x = im.cdelt1 * (px - im.crpix1) * kDeg, y = im.cdelt2 * (py - im.crpix2) * kDeg;
  if (tan) {
    EXPECT_NEAR(xi, x, 1e-12);
    EXPECT_NEAR(eta, y, 1e-12);
  } else {
    const double r = std::sqrt(1 + xi * xi + eta * eta);
    EXPECT_NEAR(xi / r, x, 1e-12);
    EXPECT_NEAR(eta / r, y, 1e-12);
  }
}

TEST(FitsImage, SinRoundTripPositionsAndFluxes) {
  const auto dir = test::temp_dir();
  const Image im = sparse_image();
  const SkyModel sky = read_fits_image_sky(write_image(dir / "sin.fits", im), jy_pixel());
  ASSERT_EQ(sky.size(), 3u);  // row order: (1,1), (3,2), (5,4)
  EXPECT_EQ(sky.I[0], 4.0);
  EXPECT_EQ(sky.I[1], 10.0);
  EXPECT_EQ(sky.I[2], 2.0);
  EXPECT_NEAR(sky.ra[1], 30 * kDeg, 1e-14);
  EXPECT_NEAR(sky.dec[1], -40 * kDeg, 1e-14);
  expect_at_pixel(sky.source(0), im, 1, 1, false);
  expect_at_pixel(sky.source(2), im, 5, 4, false);
  EXPECT_GT(sky.ra[0], sky.ra[1]);  // CDELT1 < 0: RA increases to the left
  EXPECT_EQ(sky.ref_freq[0], 150e6);
  EXPECT_EQ(sky.spectral_index.row(0)[0], -0.7);
}

TEST(FitsImage, TanIsHandledExactly) {
  const auto dir = test::temp_dir();
  Image im = sparse_image();
  im.ctype1 = "RA---TAN";
  im.ctype2 = "DEC--TAN";
  const SkyModel sky = read_fits_image_sky(write_image(dir / "tan.fits", im), jy_pixel());
  ASSERT_EQ(sky.size(), 3u);
  // ERFA's inverse gnomonic projection as the truth.
  double ra = 0, dec = 0;
  eraTpsts(im.cdelt1 * (1 - im.crpix1) * kDeg, im.cdelt2 * (1 - im.crpix2) * kDeg, im.crval1 * kDeg,
           im.crval2 * kDeg, &ra, &dec);
  EXPECT_NEAR(sky.ra[0], ra, 1e-12);
  EXPECT_NEAR(sky.dec[0], dec, 1e-12);
  expect_at_pixel(sky.source(2), im, 5, 4, true);
}

TEST(FitsImage, GalacticIsConvertedToEquatorial) {
  const auto dir = test::temp_dir();
  Image im = sparse_image();
  im.ctype1 = "GLON-SIN";
  im.ctype2 = "GLAT-SIN";
  im.crval1 = 0.0;
  im.crval2 = 0.0;
  const SkyModel sky = read_fits_image_sky(write_image(dir / "gal.fits", im), jy_pixel());
  ASSERT_EQ(sky.size(), 3u);
  // The Galactic centre (l, b) = (0, 0) is at ICRS RA 266.40499 deg, Dec -28.93617 deg
  // (Reid & Brunthaler 2004 / IAU definition).
  EXPECT_NEAR(sky.ra[1] / kDeg, 266.40499, 1e-4);
  EXPECT_NEAR(sky.dec[1] / kDeg, -28.93617, 1e-4);
}

TEST(FitsImage, UnsupportedProjectionsAndFramesAreRefused) {
  const auto dir = test::temp_dir();
  for (auto [c1, c2] : {std::pair{"RA---CAR", "DEC--CAR"}, std::pair{"ELON-SIN", "ELAT-SIN"},
                        std::pair{"DEC--SIN", "RA---SIN"}, std::pair{"X", "Y"}}) {
    Image im = sparse_image();
    im.ctype1 = c1;
    im.ctype2 = c2;
    const std::string path = write_image(dir / "bad.fits", im);
    try {
      read_fits_image_sky(path, jy_pixel());
      FAIL() << c1;
    } catch (const Error& e) {
      EXPECT_EQ(e.context().file, path);
      EXPECT_NE(std::string(e.what()).find(c1), std::string::npos) << e.what();
    }
  }
}

TEST(FitsImage, JyPerBeamWithKeywordsAndAipsHistory) {
  const auto dir = test::temp_dir();
  Image im = sparse_image();
  im.bunit = "JY/BEAM";
  const double bmaj = 1.0, bmin = 0.5;  // deg
  const double beam_pixels = std::numbers::pi * bmaj * bmin / (4 * std::log(2.0) * 0.25);
  im.bmaj = bmaj;
  im.bmin = bmin;
  SkyModel sky = read_fits_image_sky(write_image(dir / "beam.fits", im), jy_pixel());
  ASSERT_EQ(sky.size(), 3u);
  EXPECT_NEAR(sky.I[1], 10.0 / beam_pixels, 1e-12);
  im.bmaj = 0;
  im.history = "AIPS   CLEAN BMAJ=  1.0000E+00 BMIN=  5.0000E-01 BPA=   0.00";
  sky = read_fits_image_sky(write_image(dir / "aips.fits", im), jy_pixel());
  EXPECT_NEAR(sky.I[1], 10.0 / beam_pixels, 1e-12);
  im.history.clear();
  EXPECT_THROW(read_fits_image_sky(write_image(dir / "nobeam.fits", im), jy_pixel()), Error);
}

TEST(FitsImage, KelvinAndOverrideUnits) {
  const auto dir = test::temp_dir();
  Image im = sparse_image();
  im.bunit = "K";
  const std::string path = write_image(dir / "k.fits", im);
  const SkyModel sky = read_fits_image_sky(path, jy_pixel());
  const double omega = std::pow(0.5 * kDeg, 2);
  const double lambda = 299792458.0 / 150e6;
  EXPECT_NEAR(sky.I[1], 10.0 * 2 * 1.380649e-23 * omega * 1e26 / (lambda * lambda), 1e-12);
  FitsImageReadOptions o = jy_pixel();
  o.override_map_units = true;
  o.default_map_units = MapUnits::mK;
  EXPECT_NEAR(read_fits_image_sky(path, o).I[1], 1e-3 * sky.I[1], 1e-15);
  im.bunit = "furlongs";
  EXPECT_THROW(read_fits_image_sky(write_image(dir / "u.fits", im), jy_pixel()), Error);
  im.bunit = "K";
  im.freq_axis = false;
  EXPECT_THROW(read_fits_image_sky(write_image(dir / "nofreq.fits", im), jy_pixel()), Error);
}

TEST(FitsImage, MinimumValueAndUnreadableFile) {
  const auto dir = test::temp_dir();
  FitsImageReadOptions o = jy_pixel();
  o.min_abs_val = 3.0;
  EXPECT_EQ(read_fits_image_sky(write_image(dir / "m.fits", sparse_image()), o).size(), 2u);
  o.min_abs_val = 0.0;
  o.min_peak_fraction = 0.0;
  EXPECT_EQ(read_fits_image_sky(dir / "m.fits", o).size(), 4u);  // 0.1 kept, -3 and 0 dropped
  EXPECT_THROW(read_fits_image_sky((dir / "missing.fits").string(), o), Error);
}

}  // namespace
}  // namespace fringe::sky
