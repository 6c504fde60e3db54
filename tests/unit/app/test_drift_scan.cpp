// observation/mode = Drift scan in the simulator against OSKAR 2.13's own .vis files for the
// same settings (tests/data/oskar-drift-scan, README.md there gives the commands): 5
// aperture-array stations of 5 dipoles at 30.7 deg S, 4 sources (one polarised, one Gaussian,
// three off the zenith) drifting 30 deg through the zenith beam in 6 times over 2 h, 2 channels,
// bandwidth smearing, cross and auto correlations. Truth from outside fringe: OSKAR's
// visibilities and UVW. Also: a drift scan is not a tracking run in disguise (the data differ
// by about their own size), and the Measurement Set of a drift scan holds the zenith phase
// centre and the time-independent East-North-Up UVW.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>

#include "fringe/app/sim_chain.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/vis/vis_file.h"
#include "sim_run_helpers.h"

namespace {

namespace fs = std::filesystem;
using fringe::settings::Settings;
using sim_test::Difference;

const std::string kData = std::string(FRINGE_SOURCE_DIR) + "/tests/data/oskar-drift-scan";
const fs::path kOut = fs::path(FRINGE_BINARY_DIR) / "drift_scan_test";

Settings load(const std::string& ini) { return sim_test::load_sim_settings(kData, ini); }

std::string simulate(Settings s, const std::string& vis_name, const std::string& ms_name = "") {
  return sim_test::simulate(std::move(s), kOut, vis_name, ms_name);
}

template <typename T>
Difference compare(const std::string& a_path, const std::string& b_path) {
  return sim_test::compare_vis<T>(a_path, b_path);
}

TEST(DriftScan, DoubleMatchesOskar) {
  const std::string ours = simulate(load("drift_double.ini"), "drift_double.vis");
  const std::string oskar = kData + "/oskar_drift_double.vis";
  // The header: OSKAR's phase-centre type 1 (azimuth, elevation) at the zenith, and no time
  // average (time_average_sec = 10 in the settings does not apply to a drift scan).
  const auto h = fringe::io::read_vis_header(ours);
  const auto ho = fringe::io::read_vis_header(oskar);
  EXPECT_EQ(ho.phase_centre_type, 1);
  EXPECT_EQ(h.phase_centre_type, ho.phase_centre_type);
  EXPECT_EQ(h.phase_centre_deg[0], ho.phase_centre_deg[0]);
  EXPECT_NEAR(h.phase_centre_deg[1], ho.phase_centre_deg[1], 1e-12);
  EXPECT_EQ(ho.time_average_sec, 0.0);
  EXPECT_EQ(h.time_average_sec, ho.time_average_sec);
  const Difference d = compare<double>(oskar, ours);
  EXPECT_GT(d.peak, 1.0);      // several Jy of sources pass through the beam
  EXPECT_LT(d.max_uvw, 1e-9);  // m: the stations' East-North-Up offsets, as OSKAR
  EXPECT_LT(d.relative(), 1e-10);
  std::cout << "drift double: max |fringe - OSKAR| / peak = " << d.relative()
            << ", max UVW difference " << d.max_uvw << " m\n";
}

// OSKAR's single precision forms direction cosines and phases in float (its single run differs
// from its double run by about 1e-4 of the peak here): fringe's single run must agree with
// OSKAR's single run to that level, and be closer to OSKAR's double run than OSKAR's single is.
TEST(DriftScan, SingleMatchesOskar) {
  const std::string ours = simulate(load("drift_single.ini"), "drift_single.vis");
  const Difference d = compare<float>(kData + "/oskar_drift_single.vis", ours);
  const Difference to_double = compare<double>(kData + "/oskar_drift_double.vis", ours);
  const Difference oskar_self =
      compare<double>(kData + "/oskar_drift_double.vis", kData + "/oskar_drift_single.vis");
  EXPECT_GT(d.peak, 1.0);
  EXPECT_LT(d.relative(), 2e-4);
  EXPECT_LT(to_double.relative(), oskar_self.relative());
  std::cout << "drift single: max |fringe - OSKAR single| / peak = " << d.relative()
            << "; fringe single vs OSKAR double " << to_double.relative()
            << " (OSKAR single vs its double: " << oskar_self.relative() << ")\n";
}

// The same settings as a tracking run on the zenith direction at the start: the drift-scan
// data must differ by about their own size (the sky moves 30 deg through a fixed beam and phase
// centre), so this test fails if the mode were ignored.
TEST(DriftScan, DiffersFromTracking) {
  const std::string drift = simulate(load("drift_double.ini"), "drift_for_track.vis");
  Settings s = load("drift_double.ini");
  s.set("observation/mode", "Tracking");
  s.set("observation/phase_centre_ra_deg", "302");  // about the zenith at the start
  s.set("observation/phase_centre_dec_deg", "-30.7");
  const std::string track = simulate(s, "track.vis");
  const Difference d = compare<double>(drift, track);
  EXPECT_GT(d.relative(), 0.3);
  std::cout << "drift vs tracking: max |difference| / peak = " << d.relative() << "\n";
}

// The Measurement Set of a drift scan: FIELD PHASE_DIR (0, 90 deg) as OSKAR writes it, UVW the
// same at every time and equal to the .vis file's, and DATA equal to the .vis file's.
TEST(DriftScan, MeasurementSetHoldsZenithPhaseCentre) {
  const std::string vis = simulate(load("drift_double.ini"), "drift_ms.vis", "drift.ms");
  const fringe::io::MsReader ms((kOut / "drift.ms").string());
  const auto pc = ms.phase_centre_rad();
  EXPECT_EQ(pc[0], 0.0);
  EXPECT_NEAR(pc[1], std::acos(-1.0) / 2, 1e-15);
  const auto time = ms.read_time();
  const auto a1 = ms.read_antenna1();
  const auto a2 = ms.read_antenna2();
  const auto uvw = ms.read_uvw();
  const auto exposure = ms.read_exposure();
  EXPECT_EQ(exposure.front(), 0.0);  // no time average in a drift scan (OSKAR: EXPOSURE 0)
  const fringe::io::VisFileReader v(vis);
  const auto block = v.read_block<double>(0);
  // Cross-correlation rows of time 0 and time 5: the same UVW (rows ordered by time, then
  // baseline; autocorrelation rows have zero UVW), equal to the .vis file's.
  const std::size_t per_time = time.size() / 6;
  ASSERT_EQ(per_time * 6, time.size());
  std::size_t b = 0;
  for (std::size_t r = 0; r < per_time; ++r) {
    if (a1[r] == a2[r]) continue;
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(uvw[r][i], uvw[r + 5 * per_time][i]);
      EXPECT_NEAR(uvw[r][i], block.uvw(0, b)[i], 1e-9);
    }
    ++b;
  }
  EXPECT_EQ(b, block.num_baselines());
}

// Calibration and imaging in the same run read the MS's phase centre as RA/Dec: refused for a
// drift scan, naming the mode.
TEST(DriftScan, ChainedCalibrationAndImagingAreRefused) {
  for (const char* key : {"interferometer/calibrate_output", "interferometer/image_output"}) {
    Settings s = load("drift_double.ini");
    s.set("interferometer/ms_filename", (kOut / "chain.ms").string());
    s.set(key, "true");
    try {
      fringe::app::chain_config(s, false, false);
      ADD_FAILURE() << key << " was accepted";
    } catch (const fringe::Error& e) {
      EXPECT_NE(std::string(e.what()).find("observation/mode"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
