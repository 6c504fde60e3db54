// Progress callbacks and the terminal reporter in its two modes (on string streams, which
// are never terminals, so Auto must choose plain lines).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fringe/core/progress.h"

namespace fringe {
namespace {

TEST(Progress, ReportClampsAndIgnoresEmpty) {
  report_progress({}, 0.5, "nobody");  // must not crash
  std::vector<double> seen;
  ProgressCallback cb = [&](double f, std::string_view) { seen.push_back(f); };
  report_progress(cb, -0.5, "s");
  report_progress(cb, 0.25, "s");
  report_progress(cb, 7, "s");
  EXPECT_EQ(seen, (std::vector<double>{0, 0.25, 1}));
}

TEST(Progress, SubProgressMapsRange) {
  std::vector<std::pair<double, std::string>> seen;
  ProgressCallback parent = [&](double f, std::string_view s) { seen.emplace_back(f, s); };
  auto child = sub_progress(parent, 0.5, 0.75);
  child(0, "block");
  child(0.5, "block");
  child(1, "block");
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_DOUBLE_EQ(seen[0].first, 0.5);
  EXPECT_DOUBLE_EQ(seen[1].first, 0.625);
  EXPECT_DOUBLE_EQ(seen[2].first, 0.75);
  EXPECT_EQ(seen[2].second, "block");
  EXPECT_FALSE(sub_progress({}, 0, 1));
}

TEST(Progress, LinesModeEveryTenPercent) {
  std::ostringstream out;
  TerminalProgress p(out);  // Auto on a string stream: not a terminal
  EXPECT_FALSE(p.bar_mode());
  auto cb = p.callback();
  for (int i = 0; i <= 100; ++i) cb(i / 100.0, "predict");
  std::string want;
  for (int d = 0; d <= 100; d += 10) want += "predict: " + std::to_string(d) + "%\n";
  EXPECT_EQ(out.str(), want);
}

TEST(Progress, LinesModeNewStageStartsAgainAndSkipsRepeats) {
  std::ostringstream out;
  TerminalProgress p(out, TerminalProgress::Mode::Lines);
  p.update(0.05, "load");
  p.update(0.07, "load");
  p.update(0.35, "load");  // jumps straight to 30 %
  p.update(1.0, "load");
  p.update(0.0, "write");
  p.update(0.5, "write");
  EXPECT_EQ(out.str(), "load: 0%\nload: 30%\nload: 100%\nwrite: 0%\nwrite: 50%\n");
}

TEST(Progress, BarMode) {
  std::ostringstream out;
  {
    TerminalProgress p(out, TerminalProgress::Mode::Bar, 10);
    EXPECT_TRUE(p.bar_mode());
    p.update(0.5, "sim");
    p.update(0.501, "sim");  // same whole percent: no redraw
    p.update(1.0, "sim");
  }  // destructor ends the line
  EXPECT_EQ(out.str(),
            "\r[#####.....]  50% sim\x1b[K"
            "\r[##########] 100% sim\x1b[K\n");
}

TEST(Progress, CounterFromThreads) {
  std::vector<double> seen;
  ProgressCallback cb = [&](double f, std::string_view) { seen.push_back(f); };  // serialised
  ProgressCounter counter(cb, "units", 40);
  {
    std::vector<std::jthread> threads;
    threads.reserve(4);
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 10; ++i) counter.advance();
      });
    }
  }
  EXPECT_EQ(counter.done(), 40u);
  ASSERT_EQ(seen.size(), 40u);
  double max = 0;
  for (double f : seen) max = std::max(max, f);
  EXPECT_DOUBLE_EQ(max, 1.0);
}

}  // namespace
}  // namespace fringe
