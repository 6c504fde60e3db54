// Data safety of the simulators (docs/reliability/sim.md): range checks naming the key,
// the output scan (non-finite values, all-zero DATA), cancellation, the run-size estimate and
// the list of outputs checked before any work.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>

#include "fringe/app/settings_to_config.h"
#include "fringe/app/simulation_settings.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/log.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/resources.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/run_estimate.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sim/vis_check.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/tm_loader.h"

namespace {

namespace fs = std::filesystem;
using fringe::settings::Schema;
using fringe::settings::Settings;
constexpr double kDeg = std::numbers::pi / 180.0;

Settings observation_settings() {
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
  s.set("observation/phase_centre_ra_deg", "60");
  s.set("observation/phase_centre_dec_deg", "-30");
  s.set("observation/start_frequency_hz", "100e6");
  s.set("observation/num_channels", "3");
  s.set("observation/frequency_inc_hz", "1e6");
  s.set("observation/start_time_utc", "2025-01-01 12:00:00");
  s.set("observation/length", "00:10:00");
  s.set("observation/num_time_steps", "2");
  return s;
}

// The error message of observation_config (or gain_corruption_config) with key = value.
std::string error_with(const std::string& key, const std::string& value) {
  Settings s = observation_settings();
  s.set("interferometer/gain_corruption/enable", "true");
  s.set(key, value);
  try {
    (void)fringe::app::observation_config(s);
    (void)fringe::app::gain_corruption_config(s);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  return "";
}

TEST(SimSafety, RangesNameTheKeyAndValue) {
  for (const char* dec : {"-91", "95", "1e300"}) {
    const std::string m = error_with("observation/phase_centre_dec_deg", dec);
    EXPECT_NE(m.find("'observation/phase_centre_dec_deg' = '" + std::string(dec) + "'"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("[-90, 90]"), std::string::npos) << m;
  }
  for (const char* f : {"1e300", "1e-300", "0"}) {
    const std::string m = error_with("observation/start_frequency_hz", f);
    EXPECT_NE(m.find("observation/start_frequency_hz"), std::string::npos) << m;
  }
  EXPECT_NE(error_with("observation/frequency_inc_hz", "1e300").find("frequency_inc_hz"),
            std::string::npos);
  EXPECT_NE(error_with("observation/start_time_utc", "1800-01-01 00:00:00").find("1900-01-01"),
            std::string::npos);
  EXPECT_NE(error_with("interferometer/gain_corruption/amplitude_std", "1000")
                .find("interferometer/gain_corruption/amplitude_std"),
            std::string::npos);
  // Accepted edge values.
  EXPECT_EQ(error_with("observation/phase_centre_dec_deg", "-90"), "");
  EXPECT_EQ(error_with("observation/phase_centre_dec_deg", "90"), "");
  EXPECT_EQ(error_with("interferometer/gain_corruption/amplitude_std", "0.5"), "");
}

TEST(SimSafety, ElementErrorSettingsAreRangeChecked) {
  const std::string k = "telescope/aperture_array/array_pattern/element/";
  auto message = [&](const std::string& key, const std::string& value) -> std::string {
    Settings s = observation_settings();
    s.set(k + key, value);
    try {
      (void)fringe::app::element_error_config(s);
    } catch (const fringe::Error& e) {
      return e.what();
    }
    return "";
  };
  const std::string m = message("x_gain", "1e308");
  EXPECT_NE(m.find("'" + k + "x_gain' = '1e308'"), std::string::npos) << m;
  EXPECT_NE(m.find("[-1000, 1000]"), std::string::npos) << m;
  EXPECT_NE(message("y_gain_error_time", "-1"), "");
  EXPECT_NE(message("x_phase_error_fixed_deg", "1e300"), "");
  EXPECT_NE(message("position_error_xy_m", "1e300"), "");
  EXPECT_EQ(message("x_gain", "1.5"), "");
  EXPECT_EQ(message("y_cable_length_error_m", "0.01"), "");
}

fringe::vis::VisBlock<double> small_block() {
  fringe::vis::VisBlock<double> b(2, 3, 4, fringe::vis::PolMode::Full, true, false);
  b.start_time_index = 10;
  return b;
}

TEST(SimSafety, ScanNamesTheFirstNonFiniteValue) {
  auto b = small_block();
  EXPECT_FALSE(fringe::sim::scan_block(b, "DATA").any_nonzero);
  b.cross(0, 0, 0, 0) = {1.0, 0.0};
  b.cross(1, 2, 5, 3) = {std::numeric_limits<double>::quiet_NaN(), 0.0};  // baseline 5 = 2-3
  b.cross(1, 2, 4, 0) = {1e39, 0.0};  // finite as double, Inf as float
  const auto scan = fringe::sim::scan_block(b, "DATA");
  EXPECT_TRUE(scan.any_nonzero);
  ASSERT_TRUE(scan.non_finite);
  EXPECT_EQ(scan.num_non_finite, 2u);
  EXPECT_EQ(scan.first_bad, "DATA at time index 11, baseline 1-3, channel 2, XX") << scan.first_bad;
}

TEST(SimSafety, ChecksFailOnNonFiniteUnlessTheInputHeldNaN) {
  auto b = small_block();
  b.cross(0, 1, 0, 1) = {0.0, std::numeric_limits<double>::infinity()};
  const auto scan = fringe::sim::scan_block(b, "DATA");
  const fringe::sim::OutputChecks strict_checks(false, false, nullptr, {});
  EXPECT_THROW(strict_checks.after_block(scan), fringe::Error);
  const fringe::sim::OutputChecks passing(true, false, nullptr, {});
  EXPECT_NO_THROW(passing.after_block(scan));
  EXPECT_NO_THROW(passing.at_end(scan));
}

TEST(SimSafety, AllZeroWarnsOrFailsUnderStrict) {
  const auto scan = fringe::sim::scan_block(small_block(), "DATA");
  std::ostringstream out;
  fringe::Logger log(out);
  const fringe::sim::OutputChecks lenient(false, false, &log, [] { return "a reason"; });
  EXPECT_NO_THROW(lenient.at_end(scan));
  EXPECT_NE(out.str().find("every visibility in DATA is zero: a reason"), std::string::npos);
  const fringe::sim::OutputChecks strict(false, true, &log, [] { return "a reason"; });
  EXPECT_THROW(strict.at_end(scan), fringe::Error);
}

// The pipeline itself: 4 SKA-Low stations, one source.
const fringe::telescope::TelescopeModel& aa05() {
  static const auto model = fringe::telescope::load_telescope_model(
      std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm", nullptr);
  return model;
}

std::string out_dir() {
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "sim_safety_test";
  fs::create_directories(dir);
  return dir.string();
}

fringe::sim::SimulationConfig config(const std::string& name) {
  fringe::sim::SimulationConfig c;
  c.observation.phase_centre_ra = 60 * kDeg;
  c.observation.phase_centre_dec = -30 * kDeg;
  c.observation.start_frequency_hz = 100e6;
  c.observation.num_channels = 2;
  c.observation.frequency_inc_hz = 1e6;
  c.observation.start_mjd_utc = 60676.55;  // 2025-01-01 13:12: the field is up
  c.observation.length_sec = 600;
  c.observation.num_time_steps = 3;
  c.beam.station_type = fringe::jones::StationType::Isotropic;
  c.devices.use_gpus = false;
  c.devices.num_devices = 1;
  c.ms_path = out_dir() + "/" + name;
  fringe::remove_temporary(c.ms_path);  // a folder this test made earlier
  return c;
}

fringe::sky::SkyModel source(double dec_deg, double flux, int count = 1) {
  fringe::sky::SkyModel sky;
  fringe::sky::Source s;
  s.ra = 60 * kDeg;
  s.dec = dec_deg * kDeg;
  s.I = flux;
  for (int i = 0; i < count; ++i) sky.push_back(s);
  return sky;
}

bool no_temporaries(const std::string& ms) {
  for (const auto& e : fs::directory_iterator(fs::path(ms).parent_path())) {
    if (e.path().filename().string().rfind(fs::path(ms).filename().string() + ".tmp-", 0) == 0)
      return false;
  }
  return true;
}

TEST(SimSafety, OverflowingDataFailsNamingTheRowAndWritesNothing) {
  const auto c = config("overflow.ms");
  // Two sources of 3e38 Jy at the phase centre: 6e38 Jy on every baseline, Inf as float.
  const fringe::sky::SkyModel sky = source(-30, 3e38, 2);
  try {
    fringe::sim::simulate_interferometer(c, sky, aa05(), {});
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("DATA at time index 0, baseline 0-1, channel 0"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(c.ms_path));
  EXPECT_TRUE(no_temporaries(c.ms_path));
}

TEST(SimSafety, NaNInTheInputIsPassedOnWithAWarning) {
  // A source at Dec NaN (no horizon clip to drop it) gives NaN on every baseline: the input
  // held NaN, so the run passes it on with a warning instead of failing.
  auto c = config("nan_input.ms");
  c.apply_horizon_clip = false;
  std::ostringstream out;
  fringe::Logger log(out);
  fringe::sim::RunContext ctx;
  ctx.logger = &log;
  EXPECT_NO_THROW(fringe::sim::simulate_interferometer(
      c, source(std::numeric_limits<double>::quiet_NaN(), 1), aa05(), ctx));
  EXPECT_NE(out.str().find("non-finite value(s) were written (the input holds NaN"),
            std::string::npos)
      << out.str();
}

TEST(SimSafety, SourceBelowTheHorizonWarnsAndStrictFails) {
  auto c = config("below.ms");
  c.observation.phase_centre_dec = 80 * kDeg;  // never rises at SKA-Low (latitude -27 deg)
  std::ostringstream out;
  fringe::Logger log(out);
  fringe::sim::RunContext ctx;
  ctx.logger = &log;
  EXPECT_NO_THROW(fringe::sim::simulate_interferometer(c, source(80, 1), aa05(), ctx));
  EXPECT_NE(out.str().find("every visibility in DATA is zero: every source is below the horizon"),
            std::string::npos)
      << out.str();
  c = config("below_strict.ms");
  c.observation.phase_centre_dec = 80 * kDeg;
  ctx.strict = true;
  EXPECT_THROW(fringe::sim::simulate_interferometer(c, source(80, 1), aa05(), ctx), fringe::Error);
  EXPECT_FALSE(fs::exists(c.ms_path));
  EXPECT_TRUE(no_temporaries(c.ms_path));
}

TEST(SimSafety, CancelledRunLeavesNoMeasurementSet) {
  const auto c = config("cancelled.ms");
  fringe::interrupt::request(SIGTERM);
  EXPECT_THROW(fringe::sim::simulate_interferometer(c, source(-30, 1), aa05(), {}),
               fringe::interrupt::Cancelled);
  fringe::interrupt::reset_for_tests();
  EXPECT_FALSE(fs::exists(c.ms_path));
  EXPECT_TRUE(no_temporaries(c.ms_path));
}

TEST(SimSafety, RunawayRequestIsEstimated) {
  auto c = config("estimate.ms");
  c.observation.num_time_steps = 1000000000;
  c.observation.num_channels = 64;
  const fringe::RunEstimate e = fringe::sim::interferometer_estimate(c, 4, 1, false);
  // 6e9 rows x (64 channels x 4 pols x 9 bytes + 4 x 8 + 130 bytes) = 1.5e13 bytes (15 TB),
  // more than the disk of a test machine holds.
  EXPECT_GT(e.output_bytes, 1e13);
  EXPECT_LT(e.output_bytes, 2e13);
  EXPECT_THROW(fringe::check_run_size(e, false, nullptr), fringe::Error);
  EXPECT_NO_THROW(fringe::check_run_size(e, true, nullptr));
}

TEST(SimSafety, OutputsAreCheckedBeforeAnyWork) {
  auto c = config("thesis.ms");
  c.corruption.enable = true;
  fs::create_directories(c.ms_path);
  std::ofstream(c.ms_path + "/thesis.tex") << "years of work\n";
  Settings s = observation_settings();
  const auto outputs = fringe::app::interferometer_outputs(c, s, nullptr, nullptr);
  ASSERT_EQ(outputs.size(), 3u);  // MS, true gains table and CSV
  EXPECT_EQ(outputs[1].path, c.ms_path + ".true_gains");
  try {
    fringe::check_outputs(outputs, {});
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("interferometer/ms_filename"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::exists(c.ms_path + "/thesis.tex"));
  fs::remove(c.ms_path + "/thesis.tex");
  fs::remove(c.ms_path);
}

}  // namespace
