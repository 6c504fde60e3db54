#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fringe/sky/sky_assembly.h"
#include "fringe/sky/sky_text_reader.h"
#include "fringe/sky/sky_writer.h"
#include "test_helpers.h"

namespace fringe::sky {
namespace {

using test::fixture;

void expect_same(const SkyModel& a, const SkyModel& b, double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Source s = a.source(i), t = b.source(i);
    EXPECT_NEAR(s.ra, t.ra, tol);
    EXPECT_NEAR(s.dec, t.dec, tol);
    EXPECT_EQ(s.I, t.I);
    EXPECT_EQ(s.Q, t.Q);
    EXPECT_EQ(s.U, t.U);
    EXPECT_EQ(s.V, t.V);
    EXPECT_EQ(s.ref_freq, t.ref_freq);
    EXPECT_NEAR(s.fwhm_major, t.fwhm_major, tol);
    EXPECT_NEAR(s.fwhm_minor, t.fwhm_minor, tol);
    EXPECT_NEAR(s.position_angle, t.position_angle, tol);
  }
}

TEST(Writer, FixedColumnsRoundTrip) {
  const auto dir = test::temp_dir();
  const SkyModel sky = read_sky_text(fixture("example.osm"));
  ASSERT_EQ(sky.size(), 3u);
  const std::string out = (dir / "out.osm").string();
  write_sky_fixed_columns(sky, out);
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
  const SkyModel back = read_sky_text(out);
  expect_same(sky, back, 1e-15);
  EXPECT_EQ(back.source(1).spectral_index, (std::vector<double>{-0.7}));
}

TEST(Writer, NamedColumnsRoundTripKeepsEverything) {
  const auto dir = test::temp_dir();
  SkyModel sky = read_sky_text(fixture("named_basic.txt"));
  Source extra;
  extra.ra = 1.0;
  extra.dec = -0.5;
  extra.chan_i = {1, 2};
  extra.I = 1;
  extra.chan_ref_freq = {1e8, 2e8};
  extra.ref_freq = 1e8;
  extra.has_rotation_measure = true;
  extra.rotation_measure = -4.5;
  extra.has_curvature = true;
  extra.curvature = 0.25;
  extra.linear_spectral_index = true;
  extra.spectral_index = {0.3};
  extra.pol_angle = {0.2};
  extra.pol_fraction = {0.1};
  extra.line_width = {1e5};
  extra.ref_wavelength = 1.5;
  sky.push_back(extra);
  for (bool ska : {false, true}) {
    for (bool deg : {false, true}) {
      TextOutputConfig cfg;
      cfg.file = (dir / "named.txt").string();
      cfg.use_ska_convention = ska;
      cfg.use_degrees = deg;
      cfg.write_name = true;
      cfg.write_type = true;
      write_sky_text(sky, cfg);
      std::vector<std::string> w;
      TextReadOptions o;
      o.diagnostics.warnings = &w;
      const SkyModel back = read_sky_text(cfg.file, o);
      EXPECT_TRUE(w.empty()) << w.front();
      expect_same(sky, back, 1e-15);
      for (std::size_t i = 0; i < sky.size(); ++i) {
        const Source s = sky.source(i), t = back.source(i);
        EXPECT_EQ(s.spectral_index, t.spectral_index) << i;
        EXPECT_EQ(s.chan_i, t.chan_i);
        EXPECT_EQ(s.chan_ref_freq, t.chan_ref_freq);
        EXPECT_EQ(s.has_rotation_measure, t.has_rotation_measure);
        EXPECT_EQ(s.rotation_measure, t.rotation_measure);
        EXPECT_EQ(s.has_curvature, t.has_curvature);
        EXPECT_EQ(s.linear_spectral_index, t.linear_spectral_index);
        EXPECT_EQ(s.pol_fraction, t.pol_fraction);
        ASSERT_EQ(s.pol_angle.size(), t.pol_angle.size());
        if (!s.pol_angle.empty()) EXPECT_NEAR(s.pol_angle[0], t.pol_angle[0], 1e-15);
        EXPECT_EQ(s.line_width, t.line_width);
        EXPECT_EQ(s.ref_wavelength, t.ref_wavelength);
      }
    }
  }
}

TEST(Assembly, OrderFiltersAndOutput) {
  const auto dir = test::temp_dir();
  SkyConfig cfg;
  cfg.oskar_sky_model.file = {fixture("example.osm")};
  cfg.oskar_sky_model.filter.flux_max = 2.0;  // keeps the 1 Jy source only
  cfg.generator.grid.side_length = 2;
  cfg.generator.grid.fov_rad = 1 * test::kDeg;
  cfg.generator.grid.mean_flux_jy = 5;
  cfg.generator.grid.extended_sources.fwhm_major_rad = 10 * test::kArcsec;
  cfg.generator.grid.extended_sources.fwhm_minor_rad = 5 * test::kArcsec;
  cfg.generator.healpix.nside = 1;
  cfg.output_text_file.file = (dir / "final.txt").string();
  SkyGeometry g;
  g.phase_centre_ra = 20 * test::kDeg;
  g.phase_centre_dec = -30 * test::kDeg;
  const SkyModel sky = assemble_sky(cfg, g, false);
  ASSERT_EQ(sky.size(), 1u + 4u + 12u);
  EXPECT_EQ(sky.I[0], 1.0);
  EXPECT_EQ(sky.I[1], 5.0);
  EXPECT_TRUE(sky.is_gaussian(1));
  EXPECT_FALSE(sky.is_gaussian(5));
  EXPECT_EQ(read_sky_text(cfg.output_text_file.file).size(), sky.size());
}

}  // namespace
}  // namespace fringe::sky
