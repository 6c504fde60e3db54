// GainCorruptionConfig: known station gains applied to a simulation (radians, seconds;
// docs/calibration.md). The app layer fills it from the settings (app/settings_to_config.h).
#pragma once

#include <cstdint>

namespace fringe::sim {

enum class GainTimeVariation { None, RandomWalk, GaussMarkov };

struct GainCorruptionConfig {
  bool enable = false;
  std::uint64_t seed = 1;
  double amplitude_std = 0.1;                 // fixed log-amplitude, standard deviation
  double phase_std_rad = 0.5235987755982988;  // fixed phase (30 deg)
  GainTimeVariation time_variation = GainTimeVariation::RandomWalk;
  double amplitude_time_std = 0.01;  // per step (random walk) or of the process (Gauss-Markov)
  double phase_time_std_rad = 0.03490658503988659;  // 2 deg
  double correlation_time_sec = 600;                // Gauss-Markov correlation time T
  double delay_std_sec = 0;                         // per-station, per-polarisation delay
};

}  // namespace fringe::sim
