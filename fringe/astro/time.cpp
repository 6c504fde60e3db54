#include "fringe/astro/time.h"

#include <cmath>
#include <sstream>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::astro {
namespace {

constexpr double kHourToRad = kPi / 12.0;
constexpr double kSecondToRad = kTwoPi / kSecondsPerDay;  // one second of time as an angle
constexpr double kDaysPerJulianCentury = 36525.0;
constexpr long kMjdOf1970 = 40587;  // MJD of 1970-01-01

bool is_leap_year(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's days_from_civil): the year is
// taken to start on 1 March so that the leap day is the last day of the year, and days are
// counted in 400-year eras of 146097 days.
long days_from_civil(long y, int m, int d) {
  y -= (m <= 2) ? 1 : 0;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;                                     // [0, 399]
  const long doy = (153L * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;  // [0, 365]
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;             // [0, 146096]
  return era * 146097 + doe - 719468;
}

// Inverse of days_from_civil (Hinnant's civil_from_days).
void civil_from_days(long z, int& y, int& m, int& d) {
  z += 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const long doe = z - era * 146097;                                       // [0, 146096]
  const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // [0, 365]
  const long mp = (5 * doy + 2) / 153;                                     // [0, 11]
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400 + (m <= 2 ? 1 : 0));
}

[[noreturn]] void bad_date(int year, int month, int day, int hour, int minute, double second,
                           const std::string& what) {
  std::ostringstream s;
  s << "invalid UTC date-time " << year << '-' << month << '-' << day << ' ' << hour << ':'
    << minute << ':' << second << ": " << what;
  throw Error(s.str());
}

}  // namespace

int gregorian_days_in_month(int year, int month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) {
    throw Error("invalid month " + std::to_string(month) + ": expected 1..12");
  }
  return (month == 2 && is_leap_year(year)) ? 29 : kDays[month - 1];
}

double calendar_to_mjd(int year, int month, int day, int hour, int minute, double second) {
  // Year range of ERFA's eraCal2jd (-4799 ...); a wider range would be fine arithmetically.
  if (year < -4799 || year > 1000000) {
    bad_date(year, month, day, hour, minute, second, "year must be in -4799..1000000");
  }
  if (month < 1 || month > 12) {
    bad_date(year, month, day, hour, minute, second, "month must be in 1..12");
  }
  const int dim = gregorian_days_in_month(year, month);
  if (day < 1 || day > dim) {
    bad_date(year, month, day, hour, minute, second, "day must be in 1.." + std::to_string(dim));
  }
  if (hour < 0 || hour > 23)
    bad_date(year, month, day, hour, minute, second, "hour must be in 0..23");
  if (minute < 0 || minute > 59) {
    bad_date(year, month, day, hour, minute, second, "minute must be in 0..59");
  }
  if (!(second >= 0.0 && second < 60.0)) {  // also rejects NaN
    bad_date(year, month, day, hour, minute, second,
             "second must be in [0, 60) (leap seconds are not representable as MJD(UTC))");
  }
  const long mjd_day = days_from_civil(year, month, day) + kMjdOf1970;
  const double day_seconds = hour * 3600.0 + minute * 60.0 + second;
  return static_cast<double>(mjd_day) + day_seconds / kSecondsPerDay;
}

double calendar_to_mjd(const CalendarTime& t) {
  return calendar_to_mjd(t.year, t.month, t.day, t.hour, t.minute, t.second);
}

CalendarTime mjd_to_calendar(double mjd) {
  if (!std::isfinite(mjd) || std::abs(mjd) > 4.0e8) {
    throw Error("MJD " + std::to_string(mjd) + " is not a finite date within +-1e6 years");
  }
  double day = std::floor(mjd);
  double seconds = (mjd - day) * kSecondsPerDay;
  if (seconds >= kSecondsPerDay) {  // rounding just below the next midnight
    day += 1.0;
    seconds = 0.0;
  }
  CalendarTime t;
  civil_from_days(static_cast<long>(day) - kMjdOf1970, t.year, t.month, t.day);
  // Split into h, m, s; the corrections keep s >= 0 when a quotient rounds up.
  t.hour = static_cast<int>(seconds / 3600.0);
  if (t.hour * 3600.0 > seconds) --t.hour;
  seconds -= t.hour * 3600.0;
  t.minute = static_cast<int>(seconds / 60.0);
  if (t.minute * 60.0 > seconds) --t.minute;
  t.second = seconds - t.minute * 60.0;
  return t;
}

double wrap_two_pi(double angle_rad) {
  const double x = std::fmod(angle_rad, kTwoPi);
  return (x < 0.0) ? x + kTwoPi : x;
}

double gmst_rad(double mjd_ut1) {
  const double t = (mjd_ut1 - kMjdJ2000) / kDaysPerJulianCentury;
  // IAU 1982 GMST in seconds of time, less the whole turns of the UT1 day (added as frac(MJD)).
  const double poly_s = 24110.54841 + t * (8640184.812866 + t * (0.093104 - 6.2e-6 * t));
  return wrap_two_pi(std::fmod(mjd_ut1, 1.0) * kTwoPi + poly_s * kSecondToRad);
}

double equation_of_equinoxes_rad(double mjd_ut1) {
  const double d = mjd_ut1 - kMjdJ2000;                      // days from J2000.0
  const double omega = (125.04 - 0.052954 * d) * kDegToRad;  // Moon's ascending node
  const double l_sun = (280.47 + 0.98565 * d) * kDegToRad;   // Sun's mean longitude
  const double eps = (23.4393 - 0.0000004 * d) * kDegToRad;  // obliquity of the ecliptic
  const double dpsi_hours = -0.000319 * std::sin(omega) - 0.000024 * std::sin(2.0 * l_sun);
  return dpsi_hours * std::cos(eps) * kHourToRad;
}

double gast_rad(double mjd_ut1) {
  return wrap_two_pi(gmst_rad(mjd_ut1) + equation_of_equinoxes_rad(mjd_ut1));
}

double local_sidereal_time_rad(double mjd_ut1, double lon_rad) {
  return wrap_two_pi(gast_rad(mjd_ut1) + lon_rad);
}

}  // namespace fringe::astro
