#include "fringe/api/observation.h"

#include <cmath>
#include <sstream>

#include "fringe/core/constants.h"
#include "fringe/core/datetime.h"
#include "fringe/core/error.h"

namespace fringe::api {
namespace {

// The ranges the apps accept for the observation/ settings (app/settings_to_config.cpp):
// frequencies 1 kHz .. 1 THz, dates 1900-01-01 .. 2200-01-01 (MJD 15020 .. 124593), lengths
// up to 100 years.
constexpr double kMinFrequencyHz = 1e3, kMaxFrequencyHz = 1e12;
constexpr double kMinMjd = 15020.0, kMaxMjd = 124593.0;
constexpr double kMaxLengthSec = 100 * 365.25 * kSecondsPerDay;

std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

void require(bool ok, const char* field, double value, const std::string& expected) {
  if (!ok) throw Error::in_field(field, number(value), "expected " + expected);
}

}  // namespace

void check_observation(const Observation& o) {
  const double ra_deg = o.phase_centre_ra * kRadToDeg, dec_deg = o.phase_centre_dec * kRadToDeg;
  require(std::fabs(ra_deg) <= 360.0, "ObservationConfig.phase_centre_ra", ra_deg,
          "a right ascension in [-360, 360] deg");
  require(std::fabs(dec_deg) <= 90.0, "ObservationConfig.phase_centre_dec", dec_deg,
          "a declination in [-90, 90] deg");
  require(o.start_frequency_hz >= kMinFrequencyHz && o.start_frequency_hz <= kMaxFrequencyHz,
          "ObservationConfig.start_frequency_hz", o.start_frequency_hz,
          "a frequency in [1e3, 1e12] Hz");
  require(o.num_channels >= 1, "ObservationConfig.num_channels", o.num_channels,
          "at least 1 channel");
  require(o.frequency_inc_hz >= 0.0 && o.frequency_inc_hz <= kMaxFrequencyHz,
          "ObservationConfig.frequency_inc_hz", o.frequency_inc_hz,
          "a channel spacing in [0, 1e12] Hz");
  const double last = o.channel_frequency_hz(o.num_channels - 1);
  require(
      last <= kMaxFrequencyHz, "ObservationConfig.frequency_inc_hz", o.frequency_inc_hz,
      "a spacing that keeps the last channel at most 1e12 Hz (it is at " + number(last) + " Hz)");
  require(o.start_mjd_utc >= kMinMjd && o.start_mjd_utc <= kMaxMjd,
          "ObservationConfig.start_mjd_utc", o.start_mjd_utc,
          "a start date from 1900-01-01 to 2200-01-01, as MJD");
  require(o.length_sec > 0.0 && o.length_sec <= kMaxLengthSec, "ObservationConfig.length_sec",
          o.length_sec, "an observation length > 0 s and <= 100 years");
  require(o.num_time_steps >= 1, "ObservationConfig.num_time_steps", o.num_time_steps,
          "at least 1 time step");
}

Observation make_observation(const ObservationValues& v) {
  Observation o;
  o.mode = v.drift_scan ? astro::ObservationMode::DriftScan : astro::ObservationMode::Tracking;
  o.phase_centre_ra = v.phase_centre_ra_deg * kDegToRad;
  o.phase_centre_dec = v.phase_centre_dec_deg * kDegToRad;
  o.start_frequency_hz = v.start_frequency_hz;
  o.num_channels = v.num_channels;
  o.frequency_inc_hz = v.frequency_inc_hz;
  o.start_mjd_utc = v.start_mjd_utc;
  o.length_sec = v.length_sec;
  o.num_time_steps = v.num_time_steps;
  o.start_time_text = number(v.start_mjd_utc);
  check_observation(o);
  return o;
}

double utc_to_mjd(const std::string& text) { return DateTime::parse(text).to_mjd(); }

std::string describe_observation(const Observation& o) {
  std::ostringstream s;
  s.precision(10);
  s << (o.mode == astro::ObservationMode::DriftScan ? "drift scan, " : "") << "RA "
    << o.phase_centre_ra * kRadToDeg << " deg, Dec " << o.phase_centre_dec * kRadToDeg << " deg, "
    << o.num_channels << " x " << o.frequency_inc_hz << " Hz from " << o.start_frequency_hz
    << " Hz, " << o.num_time_steps << " x " << o.interval_sec() << " s from MJD "
    << o.start_mjd_utc;
  return s.str();
}

}  // namespace fringe::api
