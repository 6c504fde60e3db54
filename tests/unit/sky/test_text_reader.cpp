#include <gtest/gtest.h>

#include <cmath>

#include "fringe/core/error.h"
#include "fringe/sky/sky_text_reader.h"
#include "fringe/sky/text_parse.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

using test::fixture;
using test::kArcsec;
using test::kDeg;

TextReadOptions collecting(std::vector<std::string>& warnings, bool strict = false) {
  TextReadOptions o;
  o.strict = strict;
  o.diagnostics.warnings = &warnings;
  return o;
}

TEST(FixedColumns, EveryColumnCount) {
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(fixture("fixed_good.osm"), collecting(w));
  EXPECT_TRUE(w.empty()) << w.front();
  ASSERT_EQ(sky.size(), 9u);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_NEAR(sky.ra[i], 10 * kDeg, 1e-15);
    EXPECT_NEAR(sky.dec[i], 20 * kDeg, 1e-15);
    EXPECT_EQ(sky.I[i], double(i + 1));
  }
  EXPECT_EQ(sky.Q[1], 0.5);
  EXPECT_EQ(sky.U[2], 0.25);
  EXPECT_EQ(sky.V[2], 0.125);
  EXPECT_EQ(sky.ref_freq[3], 150e6);
  EXPECT_EQ(sky.ref_freq[2], 0.0);
  EXPECT_EQ(sky.spectral_index.row(4)[0], -0.8);
  // 9 columns: RM.
  EXPECT_TRUE(sky.flags[5] & kHasRotationMeasure);
  EXPECT_EQ(sky.rotation_measure[5], 2.5);
  // 11 columns: legacy, no RM, then maj min pa.
  EXPECT_FALSE(sky.flags[6] & kHasRotationMeasure);
  EXPECT_NEAR(sky.fwhm_major[6], 60 * kArcsec, 1e-18);
  EXPECT_NEAR(sky.fwhm_minor[6], 30 * kArcsec, 1e-18);
  EXPECT_NEAR(sky.position_angle[6], 45 * kDeg, 1e-15);
  // 12 columns.
  EXPECT_EQ(sky.rotation_measure[7], 2.5);
  EXPECT_NEAR(sky.fwhm_major[7], 60 * kArcsec, 1e-18);
  EXPECT_NEAR(sky.position_angle[7], 45 * kDeg, 1e-15);
  EXPECT_NEAR(sky.ra[8], -10.5 * kDeg, 1e-15);
  EXPECT_NEAR(sky.dec[8], -89.5 * kDeg, 1e-15);
  EXPECT_EQ(sky.num_gaussian(), 2u);
}

TEST(FixedColumns, MalformedLinesWarnWithFileAndLine) {
  std::vector<std::string> w;
  const std::string path = fixture("fixed_malformed.osm");
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 2u);
  EXPECT_EQ(sky.I[0], 1.0);
  EXPECT_EQ(sky.I[1], 2.0);
  // Lines 3 (10 columns), 4 (2 values), 5 (word), 6 (13 columns), 7 (Dec 95), 8 (negative FWHM).
  ASSERT_EQ(w.size(), 6u);
  const int lines[] = {3, 4, 5, 6, 7, 8};
  for (std::size_t k = 0; k < w.size(); ++k)
    EXPECT_NE(w[k].find(path + ":" + std::to_string(lines[k]) + ":"), std::string::npos) << w[k];
  EXPECT_NE(w[0].find("10 values"), std::string::npos) << w[0];
  EXPECT_NE(w[2].find("'zero' is not a number"), std::string::npos) << w[2];
}

TEST(FixedColumns, StrictMakesMalformedLinesErrors) {
  std::vector<std::string> w;
  try {
    read_sky_text(fixture("fixed_malformed.osm"), collecting(w, true));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().line, 3);
    EXPECT_EQ(e.context().file, fixture("fixed_malformed.osm"));
  }
}

TEST(TextReader, UnreadableFileIsAnError) {
  EXPECT_THROW(read_sky_text(fixture("does_not_exist.osm")), Error);
}

TEST(TextReader, FormatWordInCommentSwitchesToNamedReader) {
  EXPECT_EQ(detect_text_sky_format(fixture("comment_format.osm")), TextSkyFormat::NamedColumns);
  const SkyModel sky = read_sky_text(fixture("comment_format.osm"));
  ASSERT_EQ(sky.size(), 1u);
  EXPECT_NEAR(sky.ra[0], 10 * kDeg, 1e-15);
  EXPECT_EQ(sky.I[0], 5.0);
  EXPECT_EQ(detect_text_sky_format(fixture("fixed_good.osm")), TextSkyFormat::FixedColumns);
}

TEST(TextReader, MalformedFormatHeaderIsAnError) {
  try {
    read_sky_text(fixture("comment_bad_format.osm"));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().line, 1);
    EXPECT_NE(std::string(e.what()).find("format"), std::string::npos);
  }
}

TEST(TextReader, HeaderBeyondFourKiBIsNotSeen) {
  const auto dir = test::temp_dir();
  std::string text;
  while (text.size() < 5000) text += "# padding comment line without the keyword\n";
  text += "# (RaD, DecD, I) = format\n10 20 3\n";
  const std::string path = test::write_file(dir / "late.osm", text);
  EXPECT_EQ(detect_text_sky_format(path), TextSkyFormat::FixedColumns);
  const SkyModel sky = read_sky_text(path);
  ASSERT_EQ(sky.size(), 1u);  // read as fixed columns
  EXPECT_EQ(sky.I[0], 3.0);
}

TEST(NamedColumns, BasicFileWithAliasesDefaultsSexagesimalVectors) {
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(fixture("named_basic.txt"), collecting(w));
  EXPECT_TRUE(w.empty()) << w.front();
  ASSERT_EQ(sky.size(), 5u);
  EXPECT_NEAR(sky.ra[0], 20 * kDeg, 1e-15);
  EXPECT_NEAR(sky.dec[0], -30 * kDeg, 1e-15);
  EXPECT_EQ(sky.ref_freq[0], 100e6);  // column default
  EXPECT_EQ(sky.source(0).spectral_index, (std::vector<double>{-0.7}));
  EXPECT_EQ(sky.ref_freq[1], 150e6);
  EXPECT_EQ(sky.source(1).spectral_index, (std::vector<double>{-0.7, 0.1}));
  EXPECT_NEAR(sky.fwhm_major[1], 600 * kArcsec, 1e-18);
  EXPECT_NEAR(sky.fwhm_minor[1], 50 * kArcsec, 1e-18);
  EXPECT_NEAR(sky.position_angle[1], 45 * kDeg, 1e-15);
  // 01:20:00 h = 20 deg; -30:30:00 = -30.5 deg; also 1h20m00s / -30d30m00s.
  for (std::size_t i : {2u, 3u}) {
    EXPECT_NEAR(sky.ra[i], 20 * kDeg, 1e-14);
    EXPECT_NEAR(sky.dec[i], -30.5 * kDeg, 1e-14);
    EXPECT_EQ(sky.V[i], 2.0);
    EXPECT_EQ(sky.ref_freq[i], 100e6);
  }
  EXPECT_EQ(sky.source(2).spectral_index, (std::vector<double>{-0.7, 0.1, 0.01}));
  EXPECT_TRUE(sky.source(3).spectral_index.empty());
  EXPECT_NEAR(sky.ra[4], 1.3963, 1e-15);
  EXPECT_NEAR(sky.dec[4], -30.5 * kDeg, 1e-14);
}

TEST(NamedColumns, FormatFirstHeaderRadiansUnitsAndLinearSI) {
  const SkyModel sky = read_sky_text(fixture("named_header_format.txt"));
  ASSERT_EQ(sky.size(), 2u);
  EXPECT_EQ(sky.ra[0], 0.5);  // radians by default
  EXPECT_EQ(sky.dec[0], -0.25);
  EXPECT_TRUE(sky.flags[0] & kLinearSpectralIndex);
  EXPECT_EQ(sky.source(0).spectral_index, (std::vector<double>{0.5, -0.25}));
  EXPECT_NEAR(sky.ra[1], 0.5 * kDeg, 1e-16);  // explicit deg suffix
  EXPECT_NEAR(sky.dec[1], -0.25 * kDeg, 1e-16);
  EXPECT_FALSE(sky.flags[1] & kLinearSpectralIndex);  // LogarithmicSI defaults to true
}

TEST(NamedColumns, MalformedRowsWarnWithFileAndLine) {
  std::vector<std::string> w;
  const std::string path = fixture("named_malformed.txt");
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 2u);
  EXPECT_EQ(sky.I[1], 2.0);
  const int lines[] = {4, 5, 6, 7, 8, 10};
  ASSERT_EQ(w.size(), 6u);
  for (std::size_t k = 0; k < w.size(); ++k)
    EXPECT_NE(w[k].find(path + ":" + std::to_string(lines[k]) + ":"), std::string::npos) << w[k];
  EXPECT_NE(w[0].find("3 fields for 4 columns"), std::string::npos) << w[0];
  EXPECT_THROW(read_sky_text(path, collecting(w, true)), Error);
}

TEST(NamedColumns, NumericSuffixGivesReferenceFrequenciesInMHz) {
  const SkyModel sky = read_sky_text(fixture("named_spectra.txt"));
  ASSERT_EQ(sky.size(), 1u);
  const Source s = sky.source(0);
  EXPECT_EQ(s.chan_i, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(s.chan_ref_freq, (std::vector<double>{76e6, 84e6, 92e6}));
  EXPECT_EQ(s.I, 1.0);
  EXPECT_EQ(s.ref_freq, 76e6);
}

TEST(NamedColumns, SemiAxesRmCurvaturePolarisationLines) {
  const auto dir = test::temp_dir();
  const std::string path = test::write_file(
      dir / "more.txt",
      "# (ra_deg, dec_deg, stokes_i, a, b, pa, RotationMeasure, SpectralCurvature, "
      "PolarizationAngle, pol_frac, ReferenceWavelength, LineWidth, RefFreq, FreqInc) = format\n"
      "10 20 [1,2] 30 15 10 5.5 -0.2 30 0.4 2.0 [1e5,2e5] 1e8 1e6\n");
  std::vector<std::string> w;
  const SkyModel sky = read_sky_text(path, collecting(w));
  ASSERT_EQ(sky.size(), 1u) << (w.empty() ? "" : w[0]);
  const Source s = sky.source(0);
  EXPECT_NEAR(s.fwhm_major, 60 * kArcsec, 1e-18);
  EXPECT_NEAR(s.fwhm_minor, 30 * kArcsec, 1e-18);
  EXPECT_NEAR(s.position_angle, 10 * kDeg, 1e-16);
  EXPECT_TRUE(s.has_rotation_measure);
  EXPECT_EQ(s.rotation_measure, 5.5);
  EXPECT_TRUE(s.has_curvature);
  EXPECT_EQ(s.curvature, -0.2);
  ASSERT_EQ(s.pol_angle.size(), 1u);
  EXPECT_NEAR(s.pol_angle[0], 30 * kDeg, 1e-16);
  EXPECT_EQ(s.pol_fraction, (std::vector<double>{0.4}));
  EXPECT_EQ(s.ref_wavelength, 2.0);
  EXPECT_EQ(s.line_width, (std::vector<double>{1e5, 2e5}));
  EXPECT_EQ(s.chan_i, (std::vector<double>{1, 2}));
  EXPECT_EQ(s.freq_inc, 1e6);
}

TEST(NamedColumns, MultiIWithoutFrequenciesIsMalformed) {
  const auto dir = test::temp_dir();
  const std::string path =
      test::write_file(dir / "m.txt", "Format = RaD, DecD, I, RefFreq\n1 2 [1,2,3] 1e8\n");
  std::vector<std::string> w;
  EXPECT_EQ(read_sky_text(path, collecting(w)).size(), 0u);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find(":2:"), std::string::npos);
}

TEST(TextParse, AnglesAndFields) {
  using namespace text;
  EXPECT_NEAR(*parse_ra("12:00:00", false), 180 * kDeg, 1e-15);
  EXPECT_NEAR(*parse_ra("6h30m", false), 97.5 * kDeg, 1e-14);
  EXPECT_NEAR(*parse_dec("-00:30:00", true), -0.5 * kDeg, 1e-15);
  EXPECT_NEAR(*parse_dec("45d", false), 45 * kDeg, 1e-15);
  EXPECT_NEAR(*parse_dec("12.5deg", false), 12.5 * kDeg, 1e-15);
  EXPECT_FALSE(parse_dec("91", true));
  EXPECT_FALSE(parse_dec("10:60:00", true));
  EXPECT_FALSE(parse_ra("25:00:00", true));
  EXPECT_FALSE(parse_number("1.5x"));
  EXPECT_EQ(*parse_number("+2e3"), 2000.0);
  EXPECT_EQ(split_fields("a, b ,c"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(split_fields("a,,c,"), (std::vector<std::string>{"a", "", "c", ""}));
  EXPECT_EQ(split_fields("\"x y\" [1, 2] (3 4)"),
            (std::vector<std::string>{"x y", "[1, 2]", "(3 4)"}));
  EXPECT_EQ(*parse_vector("(1 2,3)"), (std::vector<double>{1, 2, 3}));
  EXPECT_FALSE(parse_vector("[1, 2"));
}

}  // namespace
}  // namespace fringe::sky
