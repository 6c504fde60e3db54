// Time scales and sidereal time with OSKAR's conventions (docs/conventions.md, "Time").
// Units: MJD in days (Modified Julian Date = JD - 2400000.5), angles in radians.
// UTC is used as UT1 (no DUT1 correction), exactly as OSKAR does; sidereal times are the IAU
// 1982 GMST polynomial plus the low-precision equation of the equinoxes of the US Naval
// Observatory (see gast_rad). Calendar dates are proleptic Gregorian.
#pragma once

#include "fringe/core/constants.h"

namespace fringe::astro {

inline constexpr double kMjdJ2000 = 51544.5;  // 2000-01-01 12:00 (J2000.0 epoch), as an MJD

// A calendar date and time of day (UTC).
struct CalendarTime {
  int year = 2000;
  int month = 1;        // 1..12
  int day = 1;          // 1..days in month
  int hour = 0;         // 0..23
  int minute = 0;       // 0..59
  double second = 0.0;  // [0, 60)
};

// Days in a month of the proleptic Gregorian calendar (month 1..12, else throws fringe::Error).
int gregorian_days_in_month(int year, int month);

// Calendar date and time (UTC) -> MJD(UTC) in days. Fields are range-checked; an invalid date
// (e.g. 2001-02-29, hour 24, second 60) throws fringe::Error naming the date and the range.
// Leap seconds (second 60) are not representable in MJD(UTC) and are refused.
// Algorithm: days from 1970-01-01 of a Gregorian date by counting 400-year eras
// (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", days_from_civil), MJD 40587 at
// 1970-01-01.
double calendar_to_mjd(int year, int month, int day, int hour = 0, int minute = 0,
                       double second = 0.0);
double calendar_to_mjd(const CalendarTime& t);

// MJD(UTC) -> calendar date and time (UTC); inverse of calendar_to_mjd to ~1e-5 s (the
// resolution of a double MJD near the present epoch is ~1 microsecond).
CalendarTime mjd_to_calendar(double mjd);

// Greenwich mean sidereal time (rad, in [0, 2pi)) at MJD(UT1), IAU 1982 (Aoki et al. 1982,
// A&A 105, 359): GMST = 2pi frac(MJD) + (24110.54841 + 8640184.812866 T + 0.093104 T^2
// - 6.2e-6 T^3) * 2pi/86400, T = (MJD - 51544.5)/36525. This is OSKAR's evaluation order.
double gmst_rad(double mjd_ut1);

// Low-precision equation of the equinoxes (rad): eqeq = dpsi cos(eps) with, D = MJD - 51544.5,
//   Omega = 125.04 - 0.052954 D (deg), L = 280.47 + 0.98565 D (deg),
//   dpsi = -0.000319 sin(Omega) - 0.000024 sin(2L) (hours), eps = 23.4393 - 0.0000004 D (deg).
// Source: US Naval Observatory, "Computing Greenwich Apparent Sidereal Time"
// (aa.usno.navy.mil/faq/GAST); OSKAR's "fast" equation of the equinoxes uses these coefficients.
// Only the two largest nutation terms are kept: over 2000..2100 it differs from the IAU 1994
// value (ERFA eraEqeq94) by at most 3.2e-6 rad (0.66 arcsec, rms 1.1e-6 rad); see
// tests/unit/astro/test_time.cpp.
double equation_of_equinoxes_rad(double mjd_ut1);

// Greenwich apparent sidereal time (rad, in [0, 2pi)) = gmst_rad + equation_of_equinoxes_rad.
double gast_rad(double mjd_ut1);

// Local apparent sidereal time (rad, in [0, 2pi)) = GAST + East longitude.
double local_sidereal_time_rad(double mjd_ut1, double lon_rad);

// Wraps an angle into [0, 2pi).
double wrap_two_pi(double angle_rad);

}  // namespace fringe::astro
