// DateTime and duration parsing (fringe/core/datetime.h), checked against ERFA's calendar
// conversions (eraCal2jd, eraDtf2d) and OSKAR's documented formats (docs/settings.md).
#include <erfa.h>
#include <erfam.h>
#include <gtest/gtest.h>

#include <string>

#include "fringe/core/datetime.h"
#include "fringe/core/error.h"

using fringe::DateTime;

namespace {

// MJD from ERFA: eraDtf2d with a scale other than UTC uses 86400 s days.
double erfa_mjd(int y, int m, int d, int hh, int mm, double ss) {
  double d1 = 0, d2 = 0;
  int status = eraDtf2d("TT", y, m, d, hh, mm, ss, &d1, &d2);
  EXPECT_EQ(status, 0);
  return (d1 - ERFA_DJM0) + d2;
}

std::string error_of(const std::string& text) {
  try {
    DateTime::parse(text);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(DateTime, CalendarDayMatchesErfaEverywhere) {
  // Every 97th day from year 1 to 9999 and every day of 1582, 1900, 2000, 2024.
  for (int y = 1; y <= 9999; y += 7) {
    for (int m = 1; m <= 12; m += 5) {
      for (int d = 1; d <= fringe::days_in_month(y, m); d += 9) {
        double djm0 = 0, djm = 0;
        ASSERT_EQ(eraCal2jd(y, m, d, &djm0, &djm), 0);
        ASSERT_DOUBLE_EQ(djm0, 2400000.5);
        ASSERT_EQ(fringe::gregorian_to_mjd(y, m, d), static_cast<long>(djm))
            << y << "-" << m << "-" << d;
      }
    }
  }
  for (int y : {1582, 1900, 2000, 2024}) {
    for (int m = 1; m <= 12; ++m) {
      for (int d = 1; d <= fringe::days_in_month(y, m); ++d) {
        double djm0 = 0, djm = 0;
        ASSERT_EQ(eraCal2jd(y, m, d, &djm0, &djm), 0);
        ASSERT_EQ(fringe::gregorian_to_mjd(y, m, d), static_cast<long>(djm));
      }
    }
  }
}

TEST(DateTime, DaysInMonthAgreesWithErfa) {
  for (int y : {1900, 2000, 2023, 2024, 2100}) {
    for (int m = 1; m <= 12; ++m) {
      const int n = fringe::days_in_month(y, m);
      double a, b;
      EXPECT_EQ(eraCal2jd(y, m, n, &a, &b), 0);
      EXPECT_EQ(eraCal2jd(y, m, n + 1, &a, &b), -3) << y << "-" << m;  // bad day
    }
  }
}

TEST(DateTime, FourStylesParseAndFormatLikeOskar) {
  // Examples from OSKAR's documentation of its DateTime type.
  EXPECT_EQ(DateTime::parse("1-2-2015 10:05:23.2").to_string(), "01-02-2015 10:05:23.2");
  EXPECT_EQ(DateTime::parse("2015/1/2/03:04:05.6").to_string(), "2015/01/02/03:04:05.6");
  EXPECT_EQ(DateTime::parse("2015-2-3 04:05:06.7").to_string(), "2015-02-03 04:05:06.7");
  EXPECT_EQ(DateTime::parse("2015-3-4T05:06:07.8910111213").to_string(),
            "2015-03-04T05:06:07.8910111213");
  EXPECT_EQ(DateTime::parse("1-2-2015 10:05:23.2").style(), DateTime::Style::British);
  EXPECT_EQ(DateTime::parse("2015/1/2/03:04:05.6").style(), DateTime::Style::Casa);
  EXPECT_EQ(DateTime::parse("2015-2-3 04:05:06.7").style(), DateTime::Style::International);
  EXPECT_EQ(DateTime::parse("2015-3-4T05:06:07.8").style(), DateTime::Style::Iso);
  // The reference settings files' forms.
  EXPECT_EQ(DateTime::parse("15-03-2024 08:26:00.000").to_string(), "15-03-2024 08:26:00.000");
  EXPECT_EQ(DateTime::parse("2024-03-15 06:09:00.000").to_string(), "2024-03-15 06:09:00.000");
}

TEST(DateTime, FieldsAndMjdMatchErfa) {
  struct Case {
    const char* text;
    int y, m, d, hh, mm;
    double ss;
  } cases[] = {
      {"1-2-2015 10:05:23.2", 2015, 2, 1, 10, 5, 23.2},
      {"2015/1/2/03:04:05.6", 2015, 1, 2, 3, 4, 5.6},
      {"2015-2-3 04:05:06.7", 2015, 2, 3, 4, 5, 6.7},
      {"2015-3-4T05:06:07.8910111213", 2015, 3, 4, 5, 6, 7.8910111213},
      {"15-03-2024 08:26:00.000", 2024, 3, 15, 8, 26, 0.0},
      {"29-02-2000 23:59:59.999", 2000, 2, 29, 23, 59, 59.999},
      {"1858-11-17 00:00:00", 1858, 11, 17, 0, 0, 0.0},
  };
  for (const auto& c : cases) {
    DateTime t = DateTime::parse(c.text);
    EXPECT_EQ(t.year(), c.y) << c.text;
    EXPECT_EQ(t.month(), c.m) << c.text;
    EXPECT_EQ(t.day(), c.d) << c.text;
    EXPECT_EQ(t.hour(), c.hh) << c.text;
    EXPECT_EQ(t.minute(), c.mm) << c.text;
    EXPECT_DOUBLE_EQ(t.second(), c.ss) << c.text;
    // 1e-10 day = 8.64 us: float rounding of day + fraction only.
    EXPECT_NEAR(t.to_mjd(), erfa_mjd(c.y, c.m, c.d, c.hh, c.mm, c.ss), 1e-10) << c.text;
  }
  EXPECT_EQ(DateTime::parse("1858-11-17 00:00:00").to_mjd(), 0.0);
}

TEST(DateTime, TimePartIsOptional) {
  DateTime t = DateTime::parse("2024-03-15");
  EXPECT_EQ(t.hour(), 0);
  EXPECT_EQ(t.to_string(), "2024-03-15");
  EXPECT_NEAR(t.to_mjd(), erfa_mjd(2024, 3, 15, 0, 0, 0), 0);
  DateTime u = DateTime::parse("15-3-2024 6:09");
  EXPECT_EQ(u.to_string(), "15-03-2024 06:09");
  EXPECT_NEAR(u.to_mjd(), erfa_mjd(2024, 3, 15, 6, 9, 0), 1e-10);
  EXPECT_EQ(DateTime::parse("2024/3/15").to_string(), "2024/03/15");
}

TEST(DateTime, PlainNumberIsMjdKeptAsWritten) {
  DateTime t = DateTime::parse("46113.7654321");
  EXPECT_EQ(t.style(), DateTime::Style::Mjd);
  EXPECT_EQ(t.to_string(), "46113.7654321");
  EXPECT_DOUBLE_EQ(t.to_mjd(), 46113.7654321);
  // Calendar fields of the MJD agree with ERFA's eraJd2cal.
  int y, m, d;
  double f;
  ASSERT_EQ(eraJd2cal(ERFA_DJM0, 46113.7654321, &y, &m, &d, &f), 0);
  EXPECT_EQ(t.year(), y);
  EXPECT_EQ(t.month(), m);
  EXPECT_EQ(t.day(), d);
  EXPECT_NEAR(t.day_fraction(), f, 1e-12);
}

TEST(DateTime, InvalidDatesNameTheTextAndTheRule) {
  EXPECT_NE(error_of("31-2-2015 10:00:00").find("day must be in 1..28"), std::string::npos);
  EXPECT_NE(error_of("29-2-2023").find("day must be in 1..28"), std::string::npos);
  EXPECT_EQ(error_of("29-2-2024"), "");
  EXPECT_NE(error_of("2015-13-01 00:00:00").find("month must be in 1..12"), std::string::npos);
  EXPECT_NE(error_of("2015-12-01 24:00:00").find("hour must be in 0..23"), std::string::npos);
  EXPECT_NE(error_of("2015-12-01 10:60:00").find("minute"), std::string::npos);
  EXPECT_NE(error_of("2015-12-01 10:00:60").find("seconds"), std::string::npos);
  for (const char* bad :
       {"", "tomorrow", "1-2-15 10:00:00", "2015-1-2T", "2015:01:02", "2015-01-02 10",
        "2015-01-02 10:00:00:00", "2015/1/2/10:xx:00", "2015-01-02 -1:00:00", "1e999"}) {
    std::string e = error_of(bad);
    EXPECT_NE(e, "") << "accepted '" << bad << "'";
    EXPECT_NE(e.find("'" + std::string(bad) + "'"), std::string::npos) << e;
  }
}

TEST(Duration, SecondsOrHms) {
  EXPECT_DOUBLE_EQ(fringe::parse_duration_seconds("0.1"), 0.1);
  EXPECT_DOUBLE_EQ(fringe::parse_duration_seconds("1.234567891011121e+04"), 12345.67891011121);
  EXPECT_DOUBLE_EQ(fringe::parse_duration_seconds("1:2:3.45678"), 3723.45678);
  EXPECT_DOUBLE_EQ(fringe::parse_duration_seconds("00:08:00.000"), 480.0);
  EXPECT_DOUBLE_EQ(fringe::parse_duration_seconds("36:00:00"), 129600.0);  // hours > 23
  EXPECT_EQ(fringe::normalise_duration("1:2:3.45678"), "01:02:03.45678");
  EXPECT_EQ(fringe::normalise_duration("123.4567891011"), "123.4567891011");
  EXPECT_EQ(fringe::normalise_duration("100:0:0"), "100:00:00");
  for (const char* bad : {"-1", "1:60:00", "1:00:60", "abc", "1:2", "", "1::2"})
    EXPECT_THROW(fringe::parse_duration_seconds(bad), fringe::Error) << bad;
}
