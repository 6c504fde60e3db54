// The observation of a simulation or beam-pattern run: phase centre, frequency channels and
// dump times (filled from the settings by the app layer, app/settings_to_config.h). Units:
// radians, Hz, seconds, MJD(UTC) days.
// Conventions (docs/conventions.md, "Time"): channel c is centred at
// start_frequency + c * frequency_inc; time step i is centred at start_mjd + (i + 1/2) * interval,
// interval = length / num_time_steps.
#pragma once

#include <string>

#include "fringe/core/constants.h"

namespace fringe::astro {

enum class ObservationMode { Tracking, DriftScan };

struct ObservationConfig {
  ObservationMode mode = ObservationMode::Tracking;
  double phase_centre_ra = 0.0;   // rad
  double phase_centre_dec = 0.0;  // rad
  double start_frequency_hz = 0.0;
  int num_channels = 1;
  double frequency_inc_hz = 0.0;
  double start_mjd_utc = 0.0;  // days
  double length_sec = 0.0;
  int num_time_steps = 1;
  std::string start_time_text;  // as the user wrote it (for logs)

  double interval_sec() const { return length_sec / num_time_steps; }
  double channel_frequency_hz(int c) const { return start_frequency_hz + c * frequency_inc_hz; }
  // Dump centre of time step i, MJD(UTC) days.
  double time_centre_mjd(int i) const {
    return start_mjd_utc + (i + 0.5) * interval_sec() / kSecondsPerDay;
  }
};

}  // namespace fringe::astro
