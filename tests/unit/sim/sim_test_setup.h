// Shared set-up of the CPU simulator tests (test_interferometer.cpp, test_block_sink.cpp): the
// VLA-A telescope model, fresh output paths in the build folder and the observation both use
// (a 1.4 GHz field at RA 200 deg, Dec 30 deg, up at the VLA, 5 times x 3 channels).
#pragma once

#include <filesystem>
#include <numbers>
#include <string>

#include "fringe/sim/simulation_config.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe_sim_test {

constexpr double kDeg = std::numbers::pi / 180.0;

inline const fringe::telescope::TelescopeModel& vla() {
  static const auto model = fringe::telescope::load_telescope_model(
      std::string(FRINGE_SOURCE_DIR) + "/telescope-models/vla-a.tm", nullptr);
  return model;
}

// <build>/<folder>/<name>, removed first if an earlier test run left it.
inline std::string fresh_out_path(const std::string& folder, const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / folder;
  fs::create_directories(dir);
  fs::remove_all(dir / name);
  return (dir / name).string();
}

// The tests' observation: RA 200 deg, Dec 30 deg; 3 channels of 4 MHz from 1.4 GHz; 5 times
// over 480 s from MJD 60384.35 (2024-03-15, the field is up at the VLA); isotropic stations,
// on the CPU, written to ms_path.
inline fringe::sim::SimulationConfig vla_config(const std::string& ms_path) {
  fringe::sim::SimulationConfig c;
  c.observation.phase_centre_ra = 200 * kDeg;
  c.observation.phase_centre_dec = 30 * kDeg;
  c.observation.start_frequency_hz = 1.4e9;
  c.observation.num_channels = 3;
  c.observation.frequency_inc_hz = 4e6;
  c.observation.start_mjd_utc = 60384.35;
  c.observation.length_sec = 480;
  c.observation.num_time_steps = 5;
  c.beam.station_type = fringe::jones::StationType::Isotropic;
  c.devices.use_gpus = false;
  c.devices.num_devices = 1;
  c.ms_path = ms_path;
  return c;
}

}  // namespace fringe_sim_test
