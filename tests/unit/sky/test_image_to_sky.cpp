// read_image_as_sky (fits_image_to_sky_model's reader): the options and defaults of OSKAR
// 2.13's oskar_fits_image_to_sky_model, as read in its source (oskar_sky_from_fits_file.c,
// oskar_convert_brightness_to_jy.c): Jy/beam when BUNIT is absent, reference frequency 0
// without a FREQ axis, the peak rule only for a positive fraction, the noise floor applied to
// signed values (so a negative floor keeps negative pixels above it). The comparison with
// OSKAR's own outputs is integration.fits_image_to_sky_model.oskar_*.
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/sky/image_to_sky.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

// A 3 x 2 SIN image of 10 arcsec pixels; BUNIT, BMAJ/BMIN only when given; no FREQ axis.
std::string write_image(const std::string& path, const std::vector<double>& pixels,
                        const std::string& bunit, double bmaj_deg, long naxis = 2) {
  std::filesystem::remove(path);
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, path.c_str(), &status);
  long naxes[2] = {naxis == 1 ? 6 : 3, 2};
  fits_create_img(f, DOUBLE_IMG, static_cast<int>(naxis), naxes, &status);
  auto key_s = [&](const char* k, const char* v) {
    fits_update_key(f, TSTRING, k, const_cast<char*>(v), nullptr, &status);
  };
  auto key_d = [&](const char* k, double v) {
    fits_update_key(f, TDOUBLE, k, &v, nullptr, &status);
  };
  key_s("CTYPE1", "RA---SIN");
  key_s("CTYPE2", "DEC--SIN");
  key_d("CRVAL1", 10.0);
  key_d("CRVAL2", -30.0);
  key_d("CRPIX1", 2.0);
  key_d("CRPIX2", 1.0);
  key_d("CDELT1", -10.0 / 3600.0);
  key_d("CDELT2", 10.0 / 3600.0);
  if (!bunit.empty()) key_s("BUNIT", bunit.c_str());
  if (bmaj_deg > 0) {
    key_d("BMAJ", bmaj_deg);
    key_d("BMIN", bmaj_deg);
  }
  long first[2] = {1, 1};
  std::vector<double> px = pixels;
  fits_write_pix(f, TDOUBLE, first, static_cast<long>(px.size()), px.data(), &status);
  fits_close_file(f, &status);
  EXPECT_EQ(status, 0);
  return path;
}

const std::vector<double> kPixels = {4.0, -0.5, 1.0, -2.0, 0.0, 3.0};  // Jy/pixel

std::vector<double> fluxes(const SkyModel& sky) { return sky.I; }

TEST(ImageToSky, NoiseFloorAndPeakFractionAsOskar) {
  const auto dir = test::temp_dir();
  const std::string path = write_image((dir / "a.fits").string(), kPixels, "JY/PIXEL", 0);
  ImageToSkyOptions o;  // defaults -f 0, -n 0: zero and negative pixels are dropped
  EXPECT_EQ(fluxes(read_image_as_sky(path, o)), (std::vector<double>{4.0, 1.0, 3.0}));
  o.min_abs_val = -1.0;  // a negative floor keeps -0.5 (OSKAR applies no peak rule with -f 0)
  EXPECT_EQ(fluxes(read_image_as_sky(path, o)), (std::vector<double>{4.0, -0.5, 1.0, 3.0}));
  o.min_peak_fraction = 0.5;  // below 0.5 x 4 Jy dropped
  EXPECT_EQ(fluxes(read_image_as_sky(path, o)), (std::vector<double>{4.0, 3.0}));
}

TEST(ImageToSky, JyPerBeamByDefaultAndNoFrequency) {
  const auto dir = test::temp_dir();
  // No BUNIT: Jy/beam (OSKAR's tool). Beam FWHM 30 arcsec, pixels 10 arcsec: beam area
  // pi 30^2 / (4 ln 2 10^2) pixels (a Gaussian's integral, pi a b / (4 ln 2) for FWHMs a, b).
  const double beam_pixels = M_PI * 900.0 / (4.0 * std::log(2.0) * 100.0);
  const std::string path = write_image((dir / "b.fits").string(), kPixels, "", 30.0 / 3600.0);
  ImageToSkyOptions o;
  o.spectral_index = -0.7;
  const SkyModel sky = read_image_as_sky(path, o);
  ASSERT_EQ(sky.size(), 3u);
  EXPECT_NEAR(sky.I[0], 4.0 / beam_pixels, 1e-12);
  EXPECT_EQ(sky.ref_freq[0], 0.0);  // no FREQ axis: 0, as OSKAR
  EXPECT_EQ(sky.spectral_index.row(0)[0], -0.7);
  // The reference pixel (2, 1) holds -0.5 (dropped); pixel (1, 1) is one cell East of it.
  EXPECT_NEAR(sky.dec[0], -30.0 * test::kDeg, 1e-8);  // m = 0: Dec0 to O(l^2)
  EXPECT_GT(sky.ra[0], 10.0 * test::kDeg);
}

TEST(ImageToSky, JyPerBeamWithoutBeamIsRefused) {
  const auto dir = test::temp_dir();
  const std::string path = write_image((dir / "c.fits").string(), kPixels, "JY/BEAM", 0);
  try {
    read_image_as_sky(path, {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("c.fits"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("BMAJ"), std::string::npos) << e.what();
  }
}

TEST(ImageToSky, OneAxisIsNotAnImage) {
  const auto dir = test::temp_dir();
  const std::string path = write_image((dir / "d.fits").string(), kPixels, "JY/PIXEL", 0, 1);
  try {
    read_image_as_sky(path, {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not an image: NAXIS = 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fringe::sky
