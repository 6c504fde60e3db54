#include "fringe/core/datetime.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fringe/core/error.h"

namespace fringe {
namespace {

constexpr const char* kForms =
    "expected a UTC date-time as d-M-yyyy h:m:s.z, yyyy-M-d h:m:s.z, yyyy-M-dTh:m:s.z, "
    "yyyy/M/d/h:m:s.z or an MJD number";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

[[noreturn]] void fail(std::string_view text, const std::string& why) {
  throw Error("'" + std::string(text) + "': " + why);
}

// A whole field of decimal digits (no sign, no spaces).
bool parse_uint(std::string_view s, int& out) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// A plain decimal number, optionally with exponent; whole string must match.
bool parse_number(std::string_view s, double& out) {
  if (s.empty()) return false;
  std::string tmp(s);
  for (char c : tmp) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-'))
      return false;
  }
  char* end = nullptr;
  out = std::strtod(tmp.c_str(), &end);
  return end == tmp.c_str() + tmp.size() && std::isfinite(out);
}

// Seconds field: digits with an optional fraction ("5", "05.25"); no sign or exponent.
bool parse_seconds(std::string_view s, double& out) {
  if (s.empty()) return false;
  int dots = 0;
  for (char c : s) {
    if (c == '.') {
      ++dots;
    } else if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  if (dots > 1 || s.front() == '.') return false;
  return parse_number(s, out);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    parts.push_back(s.substr(start, p == std::string_view::npos ? p : p - start));
    if (p == std::string_view::npos) break;
    start = p + 1;
  }
  return parts;
}

std::string pad2(int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d", v);
  return buf;
}

std::string pad4(int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d", v);
  return buf;
}

}  // namespace

int days_in_month(int year, int month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return 0;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

long gregorian_to_mjd(int year, int month, int day) {
  // Fliegel & Van Flandern (1968): Julian Day Number with integer division truncating.
  long y = year, m = month, d = day;
  long a = (m - 14) / 12;
  long jdn = (1461 * (y + 4800 + a)) / 4 + (367 * (m - 2 - 12 * a)) / 12 -
             (3 * ((y + 4900 + a) / 100)) / 4 + d - 32075;
  return jdn - 2400001;
}

DateTime DateTime::from_calendar(int year, int month, int day, int hour, int minute, double second,
                                 Style style) {
  std::string text = std::to_string(year) + "-" + std::to_string(month) + "-" +
                     std::to_string(day) + " " + std::to_string(hour) + ":" +
                     std::to_string(minute);
  if (year < 1 || year > 9999) fail(text, "year must be in 1..9999");
  if (month < 1 || month > 12) fail(text, "month must be in 1..12");
  if (day < 1 || day > days_in_month(year, month))
    fail(text,
         "day must be in 1.." + std::to_string(days_in_month(year, month)) + " for that month");
  if (hour < 0 || hour > 23) fail(text, "hour must be in 0..23");
  if (minute < 0 || minute > 59) fail(text, "minute must be in 0..59");
  if (!(second >= 0.0 && second < 60.0)) fail(text, "seconds must be in [0, 60)");
  if (style == Style::Mjd) style = Style::Iso;
  DateTime t;
  t.style_ = style;
  t.year_ = year;
  t.month_ = month;
  t.day_ = day;
  t.hour_ = hour;
  t.minute_ = minute;
  t.second_ = second;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", second);
  t.second_text_ = buf;
  return t;
}

DateTime DateTime::parse(std::string_view input) {
  const std::string_view text = trim(input);
  if (text.empty()) fail(text, kForms);

  // A plain number is an MJD.
  double mjd = 0.0;
  if (parse_number(text, mjd)) {
    if (mjd < -678575.0 || mjd > 2973483.0) fail(text, "MJD must be within years 1..9999");
    DateTime t;
    t.style_ = Style::Mjd;
    t.mjd_ = mjd;
    t.mjd_text_ = std::string(text);
    // Calendar fields from the MJD (Fliegel & Van Flandern 1968, inverse).
    double day_floor = std::floor(mjd);
    long l = static_cast<long>(day_floor) + 2400001 + 68569;
    long n = 4 * l / 146097;
    l = l - (146097 * n + 3) / 4;
    long i = 4000 * (l + 1) / 1461001;
    l = l - 1461 * i / 4 + 31;
    long j = 80 * l / 2447;
    t.day_ = static_cast<int>(l - 2447 * j / 80);
    l = j / 11;
    t.month_ = static_cast<int>(j + 2 - 12 * l);
    t.year_ = static_cast<int>(100 * (n - 49) + i + l);
    double secs = (mjd - day_floor) * 86400.0;
    t.hour_ = static_cast<int>(secs / 3600.0);
    t.minute_ = static_cast<int>((secs - 3600.0 * t.hour_) / 60.0);
    t.second_ = secs - 3600.0 * t.hour_ - 60.0 * t.minute_;
    return t;
  }

  // Split date and time parts and recognise the style.
  Style style;
  std::string_view date, time;
  char date_sep;
  size_t dash = text.find('-');
  if (dash != std::string_view::npos && dash <= 2) {
    style = Style::British;
    date_sep = '-';
    size_t sp = text.find(' ');
    date = text.substr(0, sp);
    if (sp != std::string_view::npos) time = trim(text.substr(sp + 1));
  } else if (dash != std::string_view::npos) {
    date_sep = '-';
    size_t tpos = text.find('T');
    if (tpos != std::string_view::npos) {
      style = Style::Iso;
      date = text.substr(0, tpos);
      time = text.substr(tpos + 1);
      if (time.empty()) fail(text, "a time must follow 'T'");
    } else {
      style = Style::International;
      size_t sp = text.find(' ');
      date = text.substr(0, sp);
      if (sp != std::string_view::npos) time = trim(text.substr(sp + 1));
    }
  } else if (text.find('/') != std::string_view::npos) {
    style = Style::Casa;
    date_sep = '/';
    auto parts = split(text, '/');
    if (parts.size() == 4) {
      time = parts[3];
      if (time.empty()) fail(text, kForms);
      date = text.substr(0, text.size() - time.size() - 1);
    } else {
      date = text;
    }
  } else {
    fail(text, kForms);
  }

  auto fields = split(date, date_sep);
  if (fields.size() != 3) fail(text, kForms);
  int year = 0, month = 0, day = 0;
  bool ok;
  if (style == Style::British) {
    ok = parse_uint(fields[0], day) && parse_uint(fields[1], month) &&
         parse_uint(fields[2], year) && fields[2].size() == 4;
  } else {
    ok = parse_uint(fields[0], year) && fields[0].size() == 4 && parse_uint(fields[1], month) &&
         parse_uint(fields[2], day);
  }
  if (!ok) fail(text, std::string(kForms) + " (4-digit year)");

  int hour = 0, minute = 0;
  double second = 0.0;
  bool has_time = !time.empty();
  bool has_seconds = false;
  std::string second_text;
  if (has_time) {
    auto hms = split(time, ':');
    if (hms.size() < 2 || hms.size() > 3 || !parse_uint(hms[0], hour) ||
        !parse_uint(hms[1], minute))
      fail(text, "the time must be h:m or h:m:s.z");
    if (hms.size() == 3) {
      has_seconds = true;
      if (!parse_seconds(hms[2], second)) fail(text, "the seconds must be s or s.z");
      second_text = std::string(hms[2]);
    }
  }
  DateTime t = from_calendar(year, month, day, hour, minute, second, style);
  t.has_time_ = has_time;
  t.has_seconds_ = has_seconds;
  if (has_seconds) {
    // Keep the digits as written, integer part padded to two digits.
    size_t dot = second_text.find('.');
    std::string int_part = second_text.substr(0, dot);
    while (int_part.size() > 1 && int_part.front() == '0') int_part.erase(0, 1);
    if (int_part.size() < 2) int_part.insert(0, 2 - int_part.size(), '0');
    t.second_text_ = int_part + (dot == std::string::npos ? "" : second_text.substr(dot));
  }
  return t;
}

long DateTime::mjd_day() const {
  if (style_ == Style::Mjd) return static_cast<long>(std::floor(mjd_));
  return gregorian_to_mjd(year_, month_, day_);
}

double DateTime::day_fraction() const {
  if (style_ == Style::Mjd) return mjd_ - std::floor(mjd_);
  return (3600.0 * hour_ + 60.0 * minute_ + second_) / 86400.0;
}

double DateTime::to_mjd() const {
  if (style_ == Style::Mjd) return mjd_;
  return static_cast<double>(mjd_day()) + day_fraction();
}

std::string DateTime::to_string() const {
  if (style_ == Style::Mjd) return mjd_text_;
  std::string date;
  switch (style_) {
    case Style::British:
      date = pad2(day_) + "-" + pad2(month_) + "-" + pad4(year_);
      break;
    case Style::Casa:
      date = pad4(year_) + "/" + pad2(month_) + "/" + pad2(day_);
      break;
    default:
      date = pad4(year_) + "-" + pad2(month_) + "-" + pad2(day_);
      break;
  }
  if (!has_time_) return date;
  std::string time = pad2(hour_) + ":" + pad2(minute_);
  if (has_seconds_) time += ":" + second_text_;
  char sep = style_ == Style::Iso ? 'T' : style_ == Style::Casa ? '/' : ' ';
  return date + sep + time;
}

double parse_duration_seconds(std::string_view input) {
  const std::string_view text = trim(input);
  const std::string expected = "expected a duration in seconds or as h:m:s.z";
  double value = 0.0;
  if (text.find(':') == std::string_view::npos) {
    if (!parse_number(text, value)) fail(text, expected);
    if (value < 0.0) fail(text, "a duration must not be negative");
    return value;
  }
  auto hms = split(text, ':');
  int hours = 0, minutes = 0;
  double seconds = 0.0;
  if (hms.size() != 3 || !parse_uint(hms[0], hours) || !parse_uint(hms[1], minutes) ||
      !parse_seconds(hms[2], seconds))
    fail(text, expected);
  if (minutes > 59) fail(text, "minutes must be in 0..59");
  if (seconds >= 60.0) fail(text, "seconds must be in [0, 60)");
  return 3600.0 * hours + 60.0 * minutes + seconds;
}

std::string normalise_duration(std::string_view input) {
  const std::string_view text = trim(input);
  parse_duration_seconds(text);  // validates
  if (text.find(':') == std::string_view::npos) return std::string(text);
  auto hms = split(text, ':');
  int hours = 0, minutes = 0;
  parse_uint(hms[0], hours);
  parse_uint(hms[1], minutes);
  std::string sec(hms[2]);
  size_t dot = sec.find('.');
  std::string int_part = sec.substr(0, dot);
  while (int_part.size() > 1 && int_part.front() == '0') int_part.erase(0, 1);
  if (int_part.size() < 2) int_part.insert(0, 2 - int_part.size(), '0');
  return pad2(hours) + ":" + pad2(minutes) + ":" + int_part +
         (dot == std::string::npos ? "" : sec.substr(dot));
}

}  // namespace fringe
