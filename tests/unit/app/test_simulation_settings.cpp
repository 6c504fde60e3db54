// app/simulation_settings: settings keys -> SimulationConfig (units, words, refusals).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "fringe/app/simulation_settings.h"
#include "fringe/core/error.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/settings.h"

namespace {

using fringe::settings::Schema;
using fringe::settings::Settings;
constexpr double kDeg = std::numbers::pi / 180.0;

Settings valid_settings() {
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
  s.set("observation/start_frequency_hz", "100e6");
  s.set("observation/num_channels", "20");
  s.set("observation/start_time_utc", "01-01-2000 12:00:00.000");
  s.set("observation/length", "00:10:00");
  s.set("observation/num_time_steps", "3");
  s.set("telescope/input_directory", "/tmp");
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "2");
  s.set("interferometer/ms_filename", "/tmp/x.ms");
  return s;
}

std::string error_of(const Settings& s) {
  try {
    fringe::app::simulation_config(s);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  return "";
}

TEST(SimulationConfig, DefaultsAndUnits) {
  Settings s = valid_settings();
  s.set("interferometer/correlation_type", "Both");
  s.set("interferometer/uv_filter_max", "1000");
  s.set("interferometer/uv_filter_units", "Metres");
  const auto c = fringe::app::simulation_config(s);
  EXPECT_EQ(c.precision, fringe::Precision::Double);
  EXPECT_EQ(c.devices.num_devices, 0);  // auto
  EXPECT_EQ(c.max_sources_per_chunk, 16384u);
  EXPECT_EQ(c.channels_per_block(), 8);  // auto = min(20, 8)
  EXPECT_EQ(c.times_per_block(), 3);     // 8, but only 3 times
  EXPECT_TRUE(c.write_cross);
  EXPECT_TRUE(c.write_autos);
  EXPECT_EQ(c.uv_filter_min, 0.0);
  EXPECT_EQ(c.uv_filter_max, 1000.0);
  EXPECT_FALSE(c.uv_filter_in_wavelengths);
  EXPECT_EQ(c.beam.station_type, fringe::jones::StationType::Gaussian);
  EXPECT_NEAR(c.beam.gaussian.fwhm_rad, 2 * kDeg, 1e-15);
  EXPECT_EQ(c.ms_dish_diameter_m, 1.0);
  EXPECT_EQ(c.pol_mode, fringe::sim::PolarisationMode::Full);
}

TEST(SimulationConfig, ExplicitValues) {
  Settings s = valid_settings();
  s.set("simulator/double_precision", "false");
  s.set("simulator/num_devices", "3");
  s.set("interferometer/max_channels_per_block", "5");
  s.set("interferometer/max_time_samples_per_block", "2");
  s.set("telescope/pol_mode", "Scalar");
  s.set("interferometer/correlation_type", "Auto-correlations");
  const auto c = fringe::app::simulation_config(s);
  EXPECT_EQ(c.precision, fringe::Precision::Single);
  EXPECT_EQ(c.devices.num_devices, 3);
  EXPECT_EQ(c.channels_per_block(), 5);
  EXPECT_EQ(c.times_per_block(), 2);
  EXPECT_FALSE(c.write_cross);
  EXPECT_TRUE(c.write_autos);
  EXPECT_EQ(c.pol_mode, fringe::sim::PolarisationMode::Scalar);
}

TEST(SimulationConfig, RefusesWhatCannotRunYet) {
  Settings s = valid_settings();
  s.set("telescope/station_type", "Aperture array");
  s.set("telescope/aperture_array/element_pattern/dipole_length", "0");
  EXPECT_NE(error_of(s).find("telescope/aperture_array/element_pattern/dipole_length"),
            std::string::npos)
      << error_of(s);
  s = valid_settings();
  s.set("interferometer/noise/enable", "true");
  s.set("interferometer/noise/freq", "Range");  // number 0: refused
  EXPECT_NE(error_of(s).find("interferometer/noise/freq/number"), std::string::npos);
  s = valid_settings();
  s.set("interferometer/ms_filename", "");
  EXPECT_NE(error_of(s).find("interferometer/ms_filename"), std::string::npos);
  s.set("interferometer/oskar_vis_filename", "/tmp/x.vis");  // a .vis file alone is an output
  EXPECT_EQ(error_of(s), "");
  s.set("interferometer/gain_corruption/enable", "true");  // but corruption needs the MS
  EXPECT_NE(error_of(s).find("interferometer/gain_corruption/enable"), std::string::npos);
  s = valid_settings();
  s.set("telescope/gaussian_beam/fwhm_deg", "0");
  EXPECT_NE(error_of(s).find("telescope/gaussian_beam/fwhm_deg"), std::string::npos);
}

// Drift scan runs (it was refused before), and time_average_sec does not apply to it (OSKAR
// 2.13 leaves its telescope's time average at 0 in drift-scan mode).
TEST(SimulationConfig, DriftScanIgnoresTimeAverage) {
  Settings s = valid_settings();
  s.set("interferometer/time_average_sec", "10");
  EXPECT_EQ(fringe::app::simulation_config(s).time_average_sec, 10.0);
  s.set("observation/mode", "Drift scan");
  EXPECT_EQ(error_of(s), "");
  const auto c = fringe::app::simulation_config(s);
  EXPECT_EQ(c.observation.mode, fringe::astro::ObservationMode::DriftScan);
  EXPECT_EQ(c.time_average_sec, 0.0);
}

}  // namespace
