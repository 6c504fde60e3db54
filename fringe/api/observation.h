// The observation in the public API (docs/cpp_api.md, docs/python.md "Observation"): phase
// centre, frequency channels and time steps as an api::Observation (astro/observation.h),
// built from values in the units users write (degrees, Hz, MJD or a UTC date-time, seconds)
// with the range checks the apps apply to the observation/ settings.
#pragma once

#include <string>

#include "fringe/api/types.h"

namespace fringe::api {

// The values of an observation in user units; make_observation checks and converts them.
struct ObservationValues {
  double phase_centre_ra_deg = 0.0;   // [-360, 360]
  double phase_centre_dec_deg = 0.0;  // [-90, 90]
  double start_frequency_hz = 0.0;    // centre of channel 0, [1e3, 1e12] Hz
  int num_channels = 1;               // >= 1
  double frequency_inc_hz = 0.0;      // channel spacing, >= 0 (last channel <= 1e12 Hz)
  double start_mjd_utc = 0.0;         // start of the first dump, MJD(UTC), 1900..2200
  double length_sec = 0.0;            // total length, > 0 s and <= 100 years
  int num_time_steps = 1;             // >= 1
  bool drift_scan = false;            // false: tracking the phase centre
};

// An observation from values in user units. Throws fringe::Error naming the field (e.g.
// 'ObservationConfig.start_frequency_hz') and the value when one is out of range.
Observation make_observation(const ObservationValues& values);

// Checks an observation's values (radians, Hz, MJD, seconds) with the same ranges as
// make_observation; throws fringe::Error naming the field and value.
void check_observation(const Observation& observation);

// A UTC date-time in one of OSKAR's forms ("2025-01-01 13:27:30", "2025-01-01T13:27:30.5",
// "01-01-2025 13:27:30", "2025/01/01/13:27:30" or a plain MJD number) as MJD(UTC) days.
// Throws fringe::Error naming the text and the accepted forms.
double utc_to_mjd(const std::string& text);

// The observation as one line for logs and repr(): "RA 60 deg, Dec -30 deg, 3 x 25 MHz from
// 100 MHz, 4 x 300 s from MJD 60676.56".
std::string describe_observation(const Observation& observation);

}  // namespace fringe::api
