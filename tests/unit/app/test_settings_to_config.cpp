// app/settings_to_config: settings keys of settings/sim_interferometer.xml -> typed configs,
// and loading the bundled example's sky and telescope.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "fringe/app/models.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"

namespace {

using fringe::settings::Schema;
using fringe::settings::Settings;
constexpr double kDeg = std::numbers::pi / 180.0;

Settings make_settings() {
  return Settings(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
}

TEST(SettingsToConfig, ObservationUnitsAndDumpCentres) {
  Settings s = make_settings();
  s.set("observation/phase_centre_ra_deg", "60,70");
  s.set("observation/phase_centre_dec_deg", "-30");
  s.set("observation/start_frequency_hz", "100e6");
  s.set("observation/num_channels", "3");
  s.set("observation/frequency_inc_hz", "20e6");
  s.set("observation/start_time_utc", "01-01-2000 12:00:00.000");
  s.set("observation/length", "00:02:00");
  s.set("observation/num_time_steps", "4");
  const auto o = fringe::app::observation_config(s);
  EXPECT_DOUBLE_EQ(o.phase_centre_ra, 60 * kDeg);  // first value of the list
  EXPECT_DOUBLE_EQ(o.phase_centre_dec, -30 * kDeg);
  EXPECT_DOUBLE_EQ(o.channel_frequency_hz(2), 140e6);
  EXPECT_DOUBLE_EQ(o.interval_sec(), 30.0);
  // MJD 51544.5 at 2000-01-01 12:00 (OSKAR's value; docs/conventions.md, "Time"); first dump centre
  // 15 s later.
  EXPECT_NEAR(o.time_centre_mjd(0), 51544.5 + 15.0 / 86400.0, 1e-12);
  EXPECT_EQ(o.mode, fringe::astro::ObservationMode::Tracking);
}

TEST(SettingsToConfig, SkyFiltersAndExtendedSources) {
  Settings s = make_settings();
  s.set("sky/oskar_sky_model/filter/flux_min", "0.5");
  s.set("sky/oskar_sky_model/filter/radius_outer_deg", "10");
  s.set("sky/oskar_sky_model/extended_sources/FWHM_major", "3600");
  s.set("sky/generator/grid/side_length", "8");
  s.set("sky/generator/grid/fov_deg", "4");
  s.set("sky/healpix_fits/coord_sys", "eq");  // option prefix match
  const auto c = fringe::app::sky_config(s);
  EXPECT_DOUBLE_EQ(c.oskar_sky_model.filter.flux_min, 0.5);
  EXPECT_TRUE(std::isinf(c.oskar_sky_model.filter.flux_max));  // default word "max"
  EXPECT_DOUBLE_EQ(c.oskar_sky_model.filter.radius_outer_rad, 10 * kDeg);
  EXPECT_NEAR(c.oskar_sky_model.extended_sources.fwhm_major_rad, kDeg, 1e-15);
  EXPECT_EQ(c.generator.grid.side_length, 8u);
  EXPECT_DOUBLE_EQ(c.generator.grid.fov_rad, 4 * kDeg);
  EXPECT_EQ(c.healpix_fits.coord_sys, fringe::sky::CoordSys::Equatorial);
  EXPECT_EQ(c.healpix_fits.default_map_units, fringe::sky::MapUnits::K);
  EXPECT_DOUBLE_EQ(c.healpix_fits.spectral_index, -0.7);
}

TEST(SettingsToConfig, ZeroLengthObservationNamesTheKey) {
  Settings s = make_settings();
  s.set("observation/start_frequency_hz", "1e8");
  s.set("observation/start_time_utc", "2000-01-01 12:00:00");
  s.set("observation/length", "0");
  try {
    fringe::app::observation_config(s);
    FAIL() << "expected an error";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("observation/length"), std::string::npos) << e.what();
  }
}

// The bundled example loads: its sky file and a shipped telescope model, both found relative
// to the INI file's folder.
TEST(Models, BundledExampleLoads) {
  Settings s = make_settings();
  const std::string ini =
      std::string(FRINGE_SOURCE_DIR) + "/settings/examples/sim_interferometer.ini";
  fringe::settings::load_ini(s, ini);
  std::ostringstream log_text;
  fringe::Logger logger(log_text);
  const auto sky = fringe::app::load_sky(s, logger, true);
  EXPECT_GT(sky.size(), 0u);
  const auto tel = fringe::app::load_telescope(s, logger);
  EXPECT_GT(tel.num_stations(), 1u);
  const std::string summary = fringe::app::sky_summary(sky);
  EXPECT_NE(summary.find(std::to_string(sky.size()) + " source"), std::string::npos) << summary;
}

}  // namespace
