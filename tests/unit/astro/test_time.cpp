// MJD, GMST, GAST and LST against ERFA and OSKAR's documented facts.
#include <erfa.h>
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <numbers>
#include <random>

#include "fringe/astro/time.h"
#include "fringe/core/error.h"

namespace fa = fringe::astro;

namespace {
constexpr double kPi = std::numbers::pi;

// Difference of two angles wrapped to (-pi, pi].
double angle_diff(double a, double b) { return std::remainder(a - b, 2.0 * kPi); }
}  // namespace

TEST(Time, CalendarToMjdMatchesErfaCal2jd) {
  int checked = 0;
  for (int year = -4799; year <= 3000; year += 7) {
    for (int month = 1; month <= 12; ++month) {
      const int last = fa::gregorian_days_in_month(year, month);
      for (int day : {1, 2, 15, 28, last}) {
        if (day > last) continue;
        double djm0 = 0.0, djm = 0.0;
        ASSERT_EQ(eraCal2jd(year, month, day, &djm0, &djm), 0);
        ASSERT_DOUBLE_EQ(djm0, 2400000.5);
        ASSERT_EQ(fa::calendar_to_mjd(year, month, day), djm) << year << '-' << month << '-' << day;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 30000);
}

TEST(Time, DaysInMonthMatchesErfa) {
  // eraCal2jd rejects day > days in month with status -3; the last valid day must pass.
  for (int year : {1600, 1700, 1900, 1999, 2000, 2023, 2024, 2100}) {
    for (int month = 1; month <= 12; ++month) {
      const int last = fa::gregorian_days_in_month(year, month);
      double a, b;
      EXPECT_EQ(eraCal2jd(year, month, last, &a, &b), 0);
      EXPECT_EQ(eraCal2jd(year, month, last + 1, &a, &b), -3) << year << '-' << month;
    }
  }
}

TEST(Time, TimeOfDay) {
  const double day = fa::calendar_to_mjd(2024, 3, 1);
  EXPECT_DOUBLE_EQ(fa::calendar_to_mjd(2024, 3, 1, 6, 0, 0.0) - day, 0.25);
  EXPECT_NEAR(fa::calendar_to_mjd(2024, 3, 1, 23, 59, 59.5) - day, 86399.5 / 86400.0, 1e-11);
  // Calendar struct overload.
  EXPECT_EQ(fa::calendar_to_mjd(fa::CalendarTime{2024, 3, 1, 23, 59, 59.5}),
            fa::calendar_to_mjd(2024, 3, 1, 23, 59, 59.5));
}

TEST(Time, OskarFactsAtJ2000) {
  // OSKAR's documented values (docs/conventions.md, "Time"): 01-01-2000 12:00:00.000 -> MJD
  // 51544.5, GMST 4.894961 rad.
  const double mjd = fa::calendar_to_mjd(2000, 1, 1, 12, 0, 0.0);
  EXPECT_EQ(mjd, 51544.5);
  const double gmst = fa::gmst_rad(mjd);
  EXPECT_NEAR(gmst, 4.894961, 1e-6);
  EXPECT_NEAR(gmst, kPi + 24110.54841 * 7.2722052166e-5, 1e-10);
  EXPECT_NEAR(gmst * 180.0 / kPi, 280.4606, 1e-4);
}

TEST(Time, InvalidDatesThrow) {
  EXPECT_THROW(fa::calendar_to_mjd(2001, 2, 29), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(1900, 2, 29), fringe::Error);  // not a leap year
  EXPECT_NO_THROW(fa::calendar_to_mjd(2000, 2, 29));              // a leap year
  EXPECT_THROW(fa::calendar_to_mjd(2000, 0, 1), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 13, 1), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 31), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 0), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 1, 24, 0, 0.0), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 1, -1, 0, 0.0), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 1, 0, 60, 0.0), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 1, 0, 0, 60.0), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 1, 0, 0, -0.1), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(2000, 4, 1, 0, 0, std::nan("")), fringe::Error);
  EXPECT_THROW(fa::calendar_to_mjd(-5000, 1, 1), fringe::Error);
  EXPECT_THROW(fa::gregorian_days_in_month(2000, 13), fringe::Error);
  EXPECT_THROW(fa::mjd_to_calendar(std::nan("")), fringe::Error);
  try {
    fa::calendar_to_mjd(2001, 2, 29);
  } catch (const fringe::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("2001-2-29"), std::string::npos) << what;
    EXPECT_NE(what.find("1..28"), std::string::npos) << what;
  }
}

TEST(Time, MjdToCalendarInvertsCalendarToMjd) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> year(1600, 2400), month(1, 12), hour(0, 23), minute(0, 59);
  std::uniform_real_distribution<double> second(0.0, 59.999);
  for (int i = 0; i < 20000; ++i) {
    fa::CalendarTime t;
    t.year = year(rng);
    t.month = month(rng);
    t.day = 1 + static_cast<int>(rng() % fa::gregorian_days_in_month(t.year, t.month));
    t.hour = hour(rng);
    t.minute = minute(rng);
    t.second = second(rng);
    const fa::CalendarTime back = fa::mjd_to_calendar(fa::calendar_to_mjd(t));
    ASSERT_EQ(back.year, t.year);
    ASSERT_EQ(back.month, t.month);
    ASSERT_EQ(back.day, t.day);
    const double s0 = t.hour * 3600.0 + t.minute * 60.0 + t.second;
    const double s1 = back.hour * 3600.0 + back.minute * 60.0 + back.second;
    ASSERT_NEAR(s1, s0, 1e-5);  // double MJD resolution ~1e-6 s at MJD ~5e4
  }
  // Negative MJD (before 1858-11-17) and the MJD epoch itself.
  const fa::CalendarTime epoch = fa::mjd_to_calendar(0.0);
  EXPECT_EQ(epoch.year, 1858);
  EXPECT_EQ(epoch.month, 11);
  EXPECT_EQ(epoch.day, 17);
  // Just below midnight: fields stay in range (no second 60, no negative second).
  for (double mjd : {std::nextafter(51545.0, 0.0), std::nextafter(51544.0 + 1.0 / 24, 0.0),
                     std::nextafter(51544.0 + 1.0 / 1440, 0.0)}) {
    const fa::CalendarTime c = fa::mjd_to_calendar(mjd);
    EXPECT_GE(c.second, 0.0);
    EXPECT_LT(c.second, 60.0);
    EXPECT_LE(c.minute, 59);
    EXPECT_LE(c.hour, 23);
    EXPECT_NEAR(fa::calendar_to_mjd(c), mjd, 1e-10);
  }
  const fa::CalendarTime before = fa::mjd_to_calendar(-0.5);
  EXPECT_EQ(before.day, 16);
  EXPECT_EQ(before.hour, 12);
}

// GMST: ERFA's eraGmst82 evaluates the same IAU 1982 polynomial (with the day fraction counted
// from the Julian Date's noon), so the two differ only by rounding: ~1e-12 rad.
TEST(Time, GmstMatchesErfaGmst82) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mjd_dist(33282.0, 88069.0);  // 1950 .. 2100
  double max_diff = 0.0;
  for (int i = 0; i < 100000; ++i) {
    const double mjd = mjd_dist(rng);
    const double ours = fa::gmst_rad(mjd);
    ASSERT_GE(ours, 0.0);
    ASSERT_LT(ours, 2.0 * kPi);
    max_diff = std::max(max_diff, std::abs(angle_diff(ours, eraGmst82(2400000.5, mjd))));
  }
  std::cout << "max |GMST - eraGmst82| = " << max_diff << " rad\n";
  EXPECT_LT(max_diff, 1e-9);
}

TEST(Time, SiderealDayLength) {
  // GMST gains one turn on a UT1 day in 86164.0905 s (mean sidereal day; Astronomical Almanac).
  const double mjd = 58000.25;
  const double per_day = angle_diff(fa::gmst_rad(mjd + 1.0), fa::gmst_rad(mjd));  // excess
  const double sidereal_day_s = 86400.0 * 2.0 * kPi / (2.0 * kPi + per_day);
  EXPECT_NEAR(sidereal_day_s, 86164.0905, 1e-4);
}

// GAST: eraGst94 = eraGmst82 + the IAU 1994 equation of the equinoxes (the full IAU 1980
// nutation series, 106 terms). Ours keeps only the two largest nutation terms (18.6-year node
// term, 17.2" and half-year solar term, 1.3", with rounded coefficients), so the neglected
// terms (2 x Moon's longitude 0.23", 2 x node 0.21", Sun's anomaly 0.14", Moon's anomaly
// 0.07", ... ) bound the difference to < ~1" (4.8e-6 rad); over 2000..2100 the measured
// maximum is printed below. eraGst94 is called with UT1 = TT here (the 69 s difference
// changes the nutation by < 1e-9 rad).
TEST(Time, GastMatchesErfaGst94WithinLowPrecisionModel) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> mjd_dist(51544.0, 88069.0);  // 2000 .. 2100
  double max_diff = 0.0, sum_sq = 0.0;
  constexpr int kN = 200000;
  for (int i = 0; i < kN; ++i) {
    const double mjd = mjd_dist(rng);
    const double ours = fa::gast_rad(mjd);
    ASSERT_GE(ours, 0.0);
    ASSERT_LT(ours, 2.0 * kPi);
    const double d = angle_diff(ours, eraGst94(2400000.5, mjd));
    max_diff = std::max(max_diff, std::abs(d));
    sum_sq += d * d;
    // The equation of the equinoxes alone, against ERFA's.
    ASSERT_NEAR(fa::equation_of_equinoxes_rad(mjd), eraEqeq94(2400000.5, mjd), 5e-6);
  }
  std::cout << "max |GAST - eraGst94| = " << max_diff << " rad, rms " << std::sqrt(sum_sq / kN)
            << " rad\n";
  EXPECT_LT(max_diff, 5e-6);
  // And it is a real improvement on GMST: the equation of the equinoxes reaches ~1.1 s of time
  // (~8e-5 rad), which GAST must reproduce.
  double max_eqeq = 0.0;
  for (double mjd = 51544.0; mjd < 58000.0; mjd += 1.0) {
    max_eqeq = std::max(max_eqeq, std::abs(eraEqeq94(2400000.5, mjd)));
  }
  EXPECT_GT(max_eqeq, 7e-5);
}

TEST(Time, LocalSiderealTime) {
  for (double mjd : {51544.5, 55000.123, 60310.75}) {
    for (double lon : {-2.5, -0.3, 0.0, 0.7, 2.0, 3.1}) {
      const double lst = fa::local_sidereal_time_rad(mjd, lon);
      EXPECT_GE(lst, 0.0);
      EXPECT_LT(lst, 2.0 * kPi);
      EXPECT_NEAR(angle_diff(lst, fa::gast_rad(mjd) + lon), 0.0, 1e-14);
      EXPECT_NEAR(angle_diff(lst, eraGst94(2400000.5, mjd) + lon), 0.0, 5e-6);
    }
  }
}

TEST(Time, WrapTwoPi) {
  EXPECT_DOUBLE_EQ(fa::wrap_two_pi(-0.5), 2.0 * kPi - 0.5);
  EXPECT_DOUBLE_EQ(fa::wrap_two_pi(2.0 * kPi + 0.25), 0.25);
  EXPECT_EQ(fa::wrap_two_pi(0.0), 0.0);
}
