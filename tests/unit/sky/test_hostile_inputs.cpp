// Hostile sky model inputs (issue 16): a UTF-8 byte-order mark is accepted; absurd values
// (1e308 Jy, RA 400 deg) are malformed lines naming the file and line; unknown or duplicated
// named columns and unsupported source types are said (errors with strict); a FITS image's
// STOKES axis is honoured, its reference latitude checked, and a header whose sizes the file
// cannot hold is refused before anything is allocated.
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/sky/fits_image_reader.h"
#include "fringe/sky/healpix.h"
#include "fringe/sky/sky_text_reader.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

using test::kDeg;

const std::string kBom = "\xEF\xBB\xBF";

TextReadOptions collecting(std::vector<std::string>& warnings, bool strict = false) {
  TextReadOptions o;
  o.strict = strict;
  o.diagnostics.warnings = &warnings;
  return o;
}

std::string joined(const std::vector<std::string>& w) {
  std::string s;
  for (const auto& x : w) s += x + "\n";
  return s;
}

#define EXPECT_HAS(text, part) \
  EXPECT_NE((text).find(part), std::string::npos) << "missing '" << (part) << "' in: " << (text)

std::string error_of(const std::string& path, const TextReadOptions& options) {
  try {
    read_sky_text(path, options);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << path << " read without error";
  return "";
}

TEST(HostileSkyText, ByteOrderMarkIsSkipped) {
  const auto dir = test::temp_dir();
  std::vector<std::string> w;
  const auto fixed = test::write_file(dir / "bom.osm", kBom + "10 20 1.5\n");
  SkyModel sky = read_sky_text(fixed, collecting(w));
  ASSERT_EQ(sky.size(), 1u);
  EXPECT_EQ(sky.I[0], 1.5);
  const auto named =
      test::write_file(dir / "bom_named.txt", kBom + "Format = RaD, DecD, I\n10, 20, 2.5\n");
  EXPECT_EQ(detect_text_sky_format(named), TextSkyFormat::NamedColumns);
  sky = read_sky_text(named, collecting(w));
  ASSERT_EQ(sky.size(), 1u);
  EXPECT_EQ(sky.I[0], 2.5);
  EXPECT_TRUE(w.empty()) << joined(w);
}

TEST(HostileSkyText, AbsurdFixedColumnValuesAreMalformedLines) {
  const auto dir = test::temp_dir();
  const auto path = test::write_file(dir / "absurd.osm",
                                     "10 20 1\n"
                                     "10 20 1e308\n"
                                     "400 20 1\n"
                                     "10 20 1 0 0 0 100e6 1000\n"
                                     "-10 -20 2 0 0 0 100e6 -0.7\n");
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 2u);
  EXPECT_EQ(sky.I[1], 2.0);
  ASSERT_EQ(w.size(), 3u) << joined(w);
  EXPECT_HAS(w[0], "absurd.osm:2:");
  EXPECT_HAS(w[0], "1e+308 is out of range");
  EXPECT_HAS(w[1], "absurd.osm:3:");
  EXPECT_HAS(w[1], "RA 400 deg is outside [-360, 360]");
  EXPECT_HAS(w[2], "absurd.osm:4:");
  EXPECT_HAS(w[2], "spectral index 1000 is outside [-100, 100]");
  EXPECT_HAS(error_of(path, collecting(w, true)), "absurd.osm:2:");
}

TEST(HostileSkyText, AbsurdNamedColumnValuesAreMalformedLines) {
  const auto dir = test::temp_dir();
  const auto path = test::write_file(dir / "absurd.txt",
                                     "Format = Ra, Dec, I, SpectralIndex\n"
                                     "0.5, 0.1, 1, -0.7\n"
                                     "0.5, 0.1, [1, 1e308], -0.7\n"
                                     "20, 0.1, 1, -0.7\n"  // degrees in a radians column
                                     "0.5, 0.1, 1, [0, 500]\n");
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 1u);
  ASSERT_EQ(w.size(), 3u) << joined(w);
  EXPECT_HAS(w[0], "absurd.txt:3:");
  EXPECT_HAS(w[0], "within [-1e30, 1e30]");
  EXPECT_HAS(w[1], "absurd.txt:4:");
  EXPECT_HAS(w[1], "not a valid RA");
  EXPECT_HAS(w[2], "absurd.txt:5:");
  EXPECT_HAS(w[2], "spectral index 500");
}

TEST(HostileSkyText, UnknownAndDuplicatedColumnsWarnWithTheHeaderLine) {
  const auto dir = test::temp_dir();
  const auto path = test::write_file(dir / "cols.txt",
                                     "# a comment line\n"
                                     "Format = Name, RaD, DecD, Flux, I, RaD, Dec\n"
                                     "s1, 10, 20, 5, 1, 11, 0.1\n");
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 1u);
  ASSERT_EQ(w.size(), 3u) << joined(w);
  EXPECT_HAS(w[0], "cols.txt:2: column 4 'Flux' is not a known sky model column name");
  EXPECT_HAS(w[1], "cols.txt:2: column name 'RaD' appears twice (columns 2 and 6)");
  EXPECT_HAS(w[2], "cols.txt:2: columns 'DecD' and 'Dec' both give the Dec");
  EXPECT_NEAR(sky.ra[0], 11 * kDeg, 1e-15);  // the last RA column is used, as before
  EXPECT_HAS(error_of(path, collecting(w, true)), "cols.txt:2: column 4 'Flux'");
}

TEST(HostileSkyText, HugeHeaderIsCheckedQuicklyAndSummarised) {
  const auto dir = test::temp_dir();
  std::string header = "Format = RaD, DecD, I";
  // 200000 unknown names, 199000 of them repeats: 399000 warnings, 10 of them shown.
  for (int i = 0; i < 200000; ++i) header += ", x" + std::to_string(i % 1000);
  std::vector<std::string> w;
  read_sky_text(test::write_file(dir / "wide.txt", header + "\n"), collecting(w));
  ASSERT_EQ(w.size(), 11u);
  EXPECT_HAS(w[10], "wide.txt:1: 399000 warnings in all about the columns");
}

TEST(HostileSkyText, RepeatedStokesColumnsAreJoinedNotLost) {
  const auto dir = test::temp_dir();
  const auto path = test::write_file(dir / "fint.txt",
                                     "Format = RaD, DecD, Fint076, Fint084\n"
                                     "10, 20, 1, 2\n");
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 1u);
  EXPECT_TRUE(w.empty()) << joined(w);  // distinct names: no warning
}

TEST(HostileSkyText, UnsupportedSourceTypeWarnsWithItsLine) {
  const auto dir = test::temp_dir();
  const auto path =
      test::write_file(dir / "types.txt",
                       "Format = Name, Type, RaD, DecD, I, MajorAxis, MinorAxis, Orientation\n"
                       "a, POINT, 10, 20, 1, , ,\n"
                       "b, gaussian, 10, 20, 1, 60, 30, 10\n"
                       "c, SHAPELET, 10, 20, 1, , ,\n");
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 3u);  // kept: read as a point source, and said so
  ASSERT_EQ(w.size(), 1u) << joined(w);
  EXPECT_HAS(w[0], "types.txt:4: source type 'SHAPELET' is not supported");
  EXPECT_HAS(w[0], "point source");
  EXPECT_HAS(error_of(path, collecting(w, true)), "types.txt:4:");
}

TEST(HostileSkyText, ManyUnsupportedTypesAreSummarised) {
  const auto dir = test::temp_dir();
  std::string text = "Format = Type, RaD, DecD, I\n";
  for (int i = 0; i < 20; ++i) text += "SHAPELET, 10, 20, 1\n";
  std::vector<std::string> w;
  read_sky_text(test::write_file(dir / "many.txt", text), collecting(w));
  ASSERT_EQ(w.size(), 6u) << joined(w);
  EXPECT_HAS(w[5], "20 sources in all");
}

// ---------------------------------------------------------------- FITS

// A 3x2 image with a STOKES axis of `stokes` (codes, e.g. {2, 1} = Q then I); pixel values
// of plane k are k + 1 (so the plane read can be told from the fluxes).
std::string write_stokes_image(const std::filesystem::path& path, const std::vector<int>& stokes,
                               double crval2 = -40.0) {
  std::filesystem::remove(path);
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, path.c_str(), &status);
  long naxes[4] = {3, 2, 1, static_cast<long>(stokes.size())};
  fits_create_img(f, DOUBLE_IMG, 4, naxes, &status);
  auto key_s = [&](const char* k, const char* v) {
    fits_update_key(f, TSTRING, k, const_cast<char*>(v), nullptr, &status);
  };
  auto key_d = [&](const char* k, double v) {
    fits_update_key(f, TDOUBLE, k, &v, nullptr, &status);
  };
  key_s("CTYPE1", "RA---SIN");
  key_s("CTYPE2", "DEC--SIN");
  key_d("CRVAL1", 30.0);
  key_d("CRVAL2", crval2);
  key_d("CRPIX1", 2.0);
  key_d("CRPIX2", 1.0);
  key_d("CDELT1", -0.01);
  key_d("CDELT2", 0.01);
  key_s("CTYPE3", "FREQ");
  key_d("CRVAL3", 150e6);
  key_d("CDELT3", 1e6);
  key_d("CRPIX3", 1.0);
  key_s("CTYPE4", "STOKES");
  key_d("CRVAL4", stokes.front());
  key_d("CDELT4", stokes.size() > 1 ? stokes[1] - stokes[0] : 1.0);
  key_d("CRPIX4", 1.0);
  key_s("BUNIT", "JY/PIXEL");
  for (std::size_t k = 0; k < stokes.size(); ++k) {
    std::vector<double> px(6, static_cast<double>(k + 1));
    long first[4] = {1, 1, 1, static_cast<long>(k + 1)};
    fits_write_pix(f, TDOUBLE, first, 6, px.data(), &status);
  }
  fits_close_file(f, &status);
  EXPECT_EQ(status, 0);
  return path.string();
}

FitsImageReadOptions all_pixels(std::vector<std::string>& warnings) {
  FitsImageReadOptions o;
  o.min_peak_fraction = 0.0;
  o.diagnostics.warnings = &warnings;
  return o;
}

std::string fits_error(const std::string& path) {
  std::vector<std::string> w;
  try {
    read_fits_image_sky(path, all_pixels(w));
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << path << " read without error";
  return "";
}

TEST(HostileFits, StokesIPlaneIsSelected) {
  const auto dir = test::temp_dir();
  std::vector<std::string> w;
  // Q first, then I: the old reader took plane 1 (Q) as I.
  SkyModel sky = read_fits_image_sky(write_stokes_image(dir / "qi.fits", {2, 1}), all_pixels(w));
  ASSERT_EQ(sky.size(), 6u);
  for (std::size_t i = 0; i < sky.size(); ++i) EXPECT_EQ(sky.I[i], 2.0);  // plane 2 = I
  ASSERT_EQ(w.size(), 1u) << joined(w);
  EXPECT_HAS(w[0], "only Stokes I (STOKES pixel 2) is read");
  w.clear();
  sky = read_fits_image_sky(write_stokes_image(dir / "i.fits", {1}), all_pixels(w));
  ASSERT_EQ(sky.size(), 6u);
  EXPECT_EQ(sky.I[0], 1.0);
  EXPECT_TRUE(w.empty()) << joined(w);
}

TEST(HostileFits, ImageWithoutStokesIIsRefused) {
  const auto dir = test::temp_dir();
  const std::string e = fits_error(write_stokes_image(dir / "q.fits", {2}));
  EXPECT_HAS(e, "q.fits");
  EXPECT_HAS(e, "the STOKES axis (CTYPE4) holds Q but no Stokes I plane");
  EXPECT_HAS(fits_error(write_stokes_image(dir / "xxyy.fits", {-5, -6})), "holds XX, YY");
}

TEST(HostileFits, ReferenceLatitudeOutOfRangeIsRefused) {
  const auto dir = test::temp_dir();
  const std::string e = fits_error(write_stokes_image(dir / "dec.fits", {1}, 100.0));
  EXPECT_HAS(e, "dec.fits");
  EXPECT_HAS(e, "keyword CRVAL2 = 100");
  EXPECT_HAS(e, "[-90, 90]");
}

TEST(HostileFits, HugePixelIsRefusedNamingIt) {
  const auto dir = test::temp_dir();
  const auto path = (dir / "huge_pixel.fits").string();
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, path.c_str(), &status);
  long naxes[2] = {3, 2};
  fits_create_img(f, DOUBLE_IMG, 2, naxes, &status);
  auto key_s = [&](const char* k, const char* v) {
    fits_update_key(f, TSTRING, k, const_cast<char*>(v), nullptr, &status);
  };
  auto key_d = [&](const char* k, double v) {
    fits_update_key(f, TDOUBLE, k, &v, nullptr, &status);
  };
  key_s("CTYPE1", "RA---SIN");
  key_s("CTYPE2", "DEC--SIN");
  key_d("CDELT1", -0.01);
  key_d("CDELT2", 0.01);
  key_s("BUNIT", "JY/PIXEL");
  std::vector<double> px = {1, 1, 1, 1, 1e308, 1};
  long first[2] = {1, 1};
  fits_write_pix(f, TDOUBLE, first, 6, px.data(), &status);
  fits_close_file(f, &status);
  ASSERT_EQ(status, 0);
  EXPECT_HAS(fits_error(path), "huge_pixel.fits: pixel (2, 2) = 1e+308 is out of range");
}

// A FITS header card: 80 characters.
std::string card(const std::string& text) { return text + std::string(80 - text.size(), ' '); }

TEST(HostileFits, HeaderSizeBeyondTheFileIsRefusedBeforeAllocating) {
  const auto dir = test::temp_dir();
  std::string header;
  for (const char* c : {"SIMPLE  =                    T", "BITPIX  =                  -64",
                        "NAXIS   =                    2", "NAXIS1  =           1000000000",
                        "NAXIS2  =                    2", "CTYPE1  = 'RA---SIN'",
                        "CTYPE2  = 'DEC--SIN'", "CRVAL1  =                 30.0",
                        "CRVAL2  =                -40.0", "CDELT1  =                -0.01",
                        "CDELT2  =                 0.01", "BUNIT   = 'JY/PIXEL'", "END"})
    header += card(c);
  header += std::string(2880 - header.size(), ' ');
  const auto path = dir / "huge.fits";
  std::ofstream(path, std::ios::binary) << header << std::string(2880, '\0');
  const std::string e = fits_error(path.string());
  EXPECT_HAS(e, "huge.fits");
  EXPECT_HAS(e, "NAXIS1 = 1000000000, NAXIS2 = 2");
  EXPECT_HAS(e, "truncated");
  EXPECT_EQ(e.find("bad_alloc"), std::string::npos);
}

TEST(HostileFits, HealpixNsideOutOfRangeIsRefused) {
  const auto dir = test::temp_dir();
  const auto path = (dir / "nside.fits").string();
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_file(&f, path.c_str(), &status);
  fits_create_img(f, 8, 0, nullptr, &status);
  char* ttype[] = {const_cast<char*>("TEMPERATURE")};
  char* tform[] = {const_cast<char*>("1D")};
  char* tunit[] = {const_cast<char*>("K")};
  fits_create_tbl(f, BINARY_TBL, 12, 1, ttype, tform, tunit, "xtension", &status);
  fits_update_key(f, TSTRING, "ORDERING", const_cast<char*>("RING"), nullptr, &status);
  double nside = 1e300;  // was cast to an integer (undefined behaviour)
  fits_update_key(f, TDOUBLE, "NSIDE", &nside, nullptr, &status);
  std::vector<double> v(12, 1.0);
  fits_write_col(f, TDOUBLE, 1, 1, 1, 12, v.data(), &status);
  fits_close_file(f, &status);
  ASSERT_EQ(status, 0);
  HealpixReadOptions o;
  o.freq_hz = 100e6;
  try {
    read_healpix_sky(path, o);
    ADD_FAILURE() << "read without error";
  } catch (const Error& e) {
    EXPECT_HAS(std::string(e.what()), "nside.fits: keyword NSIDE = 1e+300");
  }
}

}  // namespace
}  // namespace fringe::sky
