// UTC calendar date-times and durations as written in OSKAR settings files.
// A DateTime is parsed from one of OSKAR's five forms and remembers which, so it is written
// back in the same style:
//   British        d-M-yyyy h:m:s.z   (a '-' within the first 3 characters)
//   ISO            yyyy-M-dTh:m:s.z
//   International  yyyy-M-d h:m:s.z
//   CASA           yyyy/M/d/h:m:s.z
//   MJD            a plain number, Modified Julian Date (UTC)
// The time part (h:m[:s[.z]]) is optional (midnight when absent).
// Durations (Time) are seconds, or h:m:s.z where the hours may exceed 23.
// Units: MJD in days, durations in seconds. Gregorian calendar throughout.
#pragma once

#include <string>
#include <string_view>

namespace fringe {

class DateTime {
 public:
  enum class Style { British, Iso, International, Casa, Mjd };

  // Parses text; throws fringe::Error naming the text and the accepted forms.
  static DateTime parse(std::string_view text);
  // Builds a date-time in the given style (range-checked; throws fringe::Error).
  static DateTime from_calendar(int year, int month, int day, int hour = 0, int minute = 0,
                                double second = 0.0, Style style = Style::Iso);

  Style style() const { return style_; }
  int year() const { return year_; }
  int month() const { return month_; }
  int day() const { return day_; }
  int hour() const { return hour_; }
  int minute() const { return minute_; }
  double second() const { return second_; }

  // Modified Julian Date (UTC): days since 1858-11-17 00:00.
  double to_mjd() const;
  // The integer MJD of the calendar day, and the fraction of the day (exact parts).
  long mjd_day() const;
  double day_fraction() const;

  // The text in the style it was parsed in, with zero-padded fields
  // ("1-2-2015 10:05:23.2" -> "01-02-2015 10:05:23.2"); MJD values are kept as written.
  std::string to_string() const;

 private:
  Style style_ = Style::Iso;
  int year_ = 2000, month_ = 1, day_ = 1, hour_ = 0, minute_ = 0;
  double second_ = 0.0;
  bool has_time_ = true;     // the time part was written
  bool has_seconds_ = true;  // seconds were written
  std::string second_text_;  // seconds as written (keeps the digits)
  std::string mjd_text_;     // an MJD as written
  double mjd_ = 0.0;         // for Style::Mjd
};

// Days in a month of the Gregorian calendar.
int days_in_month(int year, int month);

// Integer MJD of a Gregorian calendar date (Fliegel & Van Flandern 1968, Commun. ACM 11, 657:
// Julian Day Number, minus 2400001 for the MJD of the day starting at 0h).
long gregorian_to_mjd(int year, int month, int day);

// Parses a duration: seconds ("90", "1.5e3") or "h:m:s.z" (hours may exceed 23; minutes and
// seconds below 60). Negative durations are rejected. Throws fringe::Error.
double parse_duration_seconds(std::string_view text);
// Normalised text of a duration: numbers as written, h:m:s with two-digit fields
// ("1:2:3.45" -> "01:02:03.45").
std::string normalise_duration(std::string_view text);

}  // namespace fringe
