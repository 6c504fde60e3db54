#include <erfa.h>
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <set>

#include "fringe/core/error.h"
#include "fringe/sky/healpix.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

constexpr double kPi = std::numbers::pi;

// Pixel centres from the HEALPix definition (Gorski et al. 2005): the north cap's first ring
// has 4 pixels at z = 1 - 1/(3 nside^2), phi = pi/4 (k + 1/2); the equator (nside 1, pixel 4)
// is at phi = 0; the last pixel is at z = -(1 - 1/(3 nside^2)), phi = 7 pi / 4.
TEST(Healpix, Pix2AngKnownPixels) {
  double t = 0, p = 0;
  healpix_pix2ang_ring(1, 0, t, p);
  EXPECT_NEAR(std::cos(t), 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(p, kPi / 4, 1e-15);
  healpix_pix2ang_ring(1, 4, t, p);
  EXPECT_NEAR(t, kPi / 2, 1e-15);
  EXPECT_NEAR(p, 0.0, 1e-15);
  healpix_pix2ang_ring(2, 0, t, p);
  EXPECT_NEAR(std::cos(t), 11.0 / 12.0, 1e-15);
  EXPECT_NEAR(p, kPi / 4, 1e-15);
  healpix_pix2ang_ring(2, 4, t, p);  // first pixel of the second ring (4 * 2 = 8 pixels)
  EXPECT_NEAR(std::cos(t), 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(p, kPi / 8, 1e-15);
  healpix_pix2ang_ring(2, 47, t, p);
  EXPECT_NEAR(std::cos(t), -11.0 / 12.0, 1e-15);
  EXPECT_NEAR(p, 7 * kPi / 4, 1e-15);
}

TEST(Healpix, PixelCentresAreDistinctAndBalanced) {
  for (std::uint64_t nside : {1u, 2u, 4u, 16u}) {
    const std::uint64_t npix = healpix_npix(nside);
    double sum_z = 0, sum_x = 0, sum_y = 0;
    std::set<std::pair<long long, long long>> seen;
    for (std::uint64_t i = 0; i < npix; ++i) {
      double t = 0, p = 0;
      healpix_pix2ang_ring(nside, i, t, p);
      ASSERT_GE(p, 0.0);
      ASSERT_LT(p, 2 * kPi);
      sum_z += std::cos(t);
      sum_x += std::sin(t) * std::cos(p);
      sum_y += std::sin(t) * std::sin(p);
      seen.insert({std::llround(t * 1e9), std::llround(p * 1e9)});
    }
    EXPECT_EQ(seen.size(), npix);
    EXPECT_NEAR(sum_z, 0.0, 1e-9);  // equal-area pixels: centres balance
    EXPECT_NEAR(sum_x, 0.0, 1e-9);
    EXPECT_NEAR(sum_y, 0.0, 1e-9);
  }
}

std::string write_healpix(const std::filesystem::path& path, long nside,
                          const std::vector<double>& values, const char* ordering,
                          const char* coordsys, const char* unit) {
  std::filesystem::remove(path);
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, path.c_str(), &status);
  fits_create_img(f, 8, 0, nullptr, &status);
  char* ttype[] = {const_cast<char*>("TEMPERATURE")};
  char* tform[] = {const_cast<char*>("1D")};
  char* tunit[] = {const_cast<char*>(unit)};
  fits_create_tbl(f, BINARY_TBL, static_cast<LONGLONG>(values.size()), 1, ttype, tform, tunit,
                  "xtension", &status);
  fits_update_key(f, TSTRING, "PIXTYPE", const_cast<char*>("HEALPIX"), nullptr, &status);
  fits_update_key(f, TSTRING, "ORDERING", const_cast<char*>(ordering), nullptr, &status);
  fits_update_key(f, TLONG, "NSIDE", &nside, nullptr, &status);
  if (coordsys)
    fits_update_key(f, TSTRING, "COORDSYS", const_cast<char*>(coordsys), nullptr, &status);
  std::vector<double> v = values;
  fits_write_col(f, TDOUBLE, 1, 1, 1, static_cast<LONGLONG>(v.size()), v.data(), &status);
  fits_close_file(f, &status);
  EXPECT_EQ(status, 0);
  return path.string();
}

TEST(Healpix, MapRoundTripEquatorialJyPerPixel) {
  const auto dir = test::temp_dir();
  std::vector<double> v(48);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1.0 + static_cast<double>(i);
  HealpixReadOptions o;
  o.spectral_index = -0.5;
  o.freq_hz = 200e6;
  const SkyModel sky =
      read_healpix_sky(write_healpix(dir / "eq.fits", 2, v, "RING", "C", "Jy/pixel"), o);
  ASSERT_EQ(sky.size(), 48u);
  for (std::size_t i : {0u, 4u, 47u}) {
    double t = 0, p = 0;
    healpix_pix2ang_ring(2, i, t, p);
    EXPECT_NEAR(sky.ra[i], p, 1e-15);
    EXPECT_NEAR(sky.dec[i], kPi / 2 - t, 1e-15);
    EXPECT_EQ(sky.I[i], v[i]);
  }
  EXPECT_EQ(sky.ref_freq[0], 200e6);
  EXPECT_EQ(sky.spectral_index.row(3)[0], -0.5);
}

TEST(Healpix, GalacticMapInKelvin) {
  const auto dir = test::temp_dir();
  std::vector<double> v(12, 0.0);
  v[4] = 2.0;  // nside 1 pixel 4: (l, b) = (0, 0), the Galactic centre
  HealpixReadOptions o;
  o.freq_hz = 408e6;
  const SkyModel sky = read_healpix_sky(write_healpix(dir / "g.fits", 1, v, "RING", "G", "K"), o);
  ASSERT_EQ(sky.size(), 1u);
  EXPECT_NEAR(sky.ra[0] / test::kDeg, 266.40499, 1e-4);
  EXPECT_NEAR(sky.dec[0] / test::kDeg, -28.93617, 1e-4);
  const double lambda = 299792458.0 / 408e6;
  EXPECT_NEAR(sky.I[0], 2.0 * 2 * 1.380649e-23 * (4 * kPi / 12) * 1e26 / (lambda * lambda), 1e-9);
  // Without COORDSYS the option decides.
  o.coord_sys = CoordSys::Equatorial;
  const SkyModel eq =
      read_healpix_sky(write_healpix(dir / "n.fits", 1, v, "RING", nullptr, "K"), o);
  EXPECT_NEAR(eq.ra[0], 0.0, 1e-15);
  EXPECT_NEAR(eq.dec[0], 0.0, 1e-15);
}

TEST(Healpix, NestedAndWrongSizesAreRefused) {
  const auto dir = test::temp_dir();
  EXPECT_THROW(
      read_healpix_sky(
          write_healpix(dir / "n.fits", 1, std::vector<double>(12, 1.0), "NESTED", "C", "K"), {}),
      Error);
  EXPECT_THROW(
      read_healpix_sky(
          write_healpix(dir / "s.fits", 2, std::vector<double>(12, 1.0), "RING", "C", "K"), {}),
      Error);
  EXPECT_THROW(
      read_healpix_sky(
          write_healpix(dir / "e.fits", 1, std::vector<double>(12, 1.0), "RING", "E", "K"), {}),
      Error);
}

}  // namespace
}  // namespace fringe::sky
