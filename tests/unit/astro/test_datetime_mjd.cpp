// fringe::DateTime (settings' date-time parser, fringe/core/datetime.h) and
// fringe::astro::calendar_to_mjd give the same MJD for every date-time form the settings accept.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "fringe/astro/time.h"
#include "fringe/core/datetime.h"

namespace fa = fringe::astro;

TEST(DateTimeMjd, OskarFactInEveryForm) {
  for (const char* text : {"01-01-2000 12:00:00.000", "2000-01-01T12:00:00.000",
                           "2000-01-01 12:00:00.000", "2000/01/01/12:00:00.000", "51544.5"}) {
    EXPECT_EQ(fringe::DateTime::parse(text).to_mjd(), 51544.5) << text;
  }
}

TEST(DateTimeMjd, AllFormsMatchCalendarToMjd) {
  std::mt19937_64 rng(43);
  std::uniform_int_distribution<int> year(1900, 2200), month(1, 12), hour(0, 23), minute(0, 59);
  std::uniform_int_distribution<int> millis(0, 59999);
  for (int i = 0; i < 2000; ++i) {
    const int y = year(rng), mo = month(rng), h = hour(rng), mi = minute(rng);
    const int d = 1 + static_cast<int>(rng() % fa::gregorian_days_in_month(y, mo));
    const int ms = millis(rng);
    const double s = ms / 1000.0;
    const double want = fa::calendar_to_mjd(y, mo, d, h, mi, s);
    char time_part[32];
    std::snprintf(time_part, sizeof time_part, "%d:%d:%d.%03d", h, mi, ms / 1000, ms % 1000);
    const std::string forms[] = {
        std::to_string(d) + "-" + std::to_string(mo) + "-" + std::to_string(y) + " " + time_part,
        std::to_string(y) + "-" + std::to_string(mo) + "-" + std::to_string(d) + "T" + time_part,
        std::to_string(y) + "-" + std::to_string(mo) + "-" + std::to_string(d) + " " + time_part,
        std::to_string(y) + "/" + std::to_string(mo) + "/" + std::to_string(d) + "/" + time_part};
    for (const std::string& text : forms) {
      ASSERT_NEAR(fringe::DateTime::parse(text).to_mjd(), want, 1e-11) << text;  // ~1 us
    }
  }
}
