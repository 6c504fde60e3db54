// Precision parsing and run-time dispatch; Timer and StageTimers.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <type_traits>

#include "fringe/core/error.h"
#include "fringe/core/precision.h"
#include "fringe/core/timer.h"

namespace fringe {
namespace {

TEST(Precision, ParseAndName) {
  EXPECT_EQ(parse_precision("Single"), Precision::Single);
  EXPECT_EQ(parse_precision("float"), Precision::Single);
  EXPECT_EQ(parse_precision("DOUBLE"), Precision::Double);
  EXPECT_THROW(parse_precision("half"), Error);
  EXPECT_EQ(to_string(Precision::Single), "single");
  EXPECT_EQ(to_string(Precision::Double), "double");
  static_assert(precision_of<float>() == Precision::Single);
  static_assert(precision_of<double>() == Precision::Double);
}

TEST(Precision, DispatchChoosesType) {
  auto size_for = [](Precision p) {
    return dispatch_precision(p, []<typename T>() { return sizeof(T); });
  };
  EXPECT_EQ(size_for(Precision::Single), sizeof(float));
  EXPECT_EQ(size_for(Precision::Double), sizeof(double));

  // A computation whose result depends on the type: 1 + 1e-10 is 1 in float, not in double.
  auto bumped = [](Precision p) {
    return dispatch_precision(p, []<typename T>() {
      const T x = T(1) + T(1e-10);
      return x != T(1);
    });
  };
  EXPECT_FALSE(bumped(Precision::Single));
  EXPECT_TRUE(bumped(Precision::Double));

  // Captures by reference and void return.
  std::string name;
  dispatch_precision(Precision::Double,
                     [&]<typename T>() { name = std::is_same_v<T, double> ? "double" : "float"; });
  EXPECT_EQ(name, "double");
  EXPECT_THROW(dispatch_precision(static_cast<Precision>(7), []<typename T>() { return 0; }),
               Error);
}

TEST(Timer, MonotonicAndStops) {
  Timer t;
  EXPECT_FALSE(t.running());
  EXPECT_EQ(t.seconds(), 0.0);
  t.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double a = t.seconds();
  EXPECT_GE(a, 0.019);
  const double b = t.seconds();
  EXPECT_GE(b, a);  // never goes back
  t.stop();
  const double stopped = t.seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(t.seconds(), stopped);  // frozen while stopped
  t.resume();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  t.stop();
  EXPECT_GE(t.seconds(), stopped + 0.009);  // accumulates
  t.start();                                // start resets
  EXPECT_LT(t.seconds(), stopped);
  t.reset();
  EXPECT_EQ(t.seconds(), 0.0);
}

TEST(StageTimers, AccumulateInOrderAndReport) {
  StageTimers timers;
  timers.add("load sky", 1.0);
  timers.add("predict", 2.5);
  timers.add("load sky", 0.5);
  EXPECT_DOUBLE_EQ(timers.seconds("load sky"), 1.5);
  EXPECT_DOUBLE_EQ(timers.seconds("predict"), 2.5);
  EXPECT_DOUBLE_EQ(timers.seconds("nothing"), 0.0);
  EXPECT_DOUBLE_EQ(timers.total(), 4.0);
  const auto stages = timers.stages();
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].first, "load sky");
  EXPECT_EQ(stages[1].first, "predict");

  const std::string report = timers.report();
  EXPECT_EQ(report,
            "Stage         Time (s)       %\n"
            "load sky         1.500    37.5\n"
            "predict          2.500    62.5\n"
            "Total            4.000   100.0\n");
  // Against a wall time of 5 s: 30 % and 50 %.
  const std::string wall = timers.report(5.0);
  EXPECT_NE(wall.find("1.500    30.0"), std::string::npos) << wall;
  EXPECT_NE(wall.find("2.500    50.0"), std::string::npos) << wall;
  EXPECT_NE(wall.find("Total            5.000   100.0"), std::string::npos) << wall;
}

TEST(StageTimers, ScopeAndThreads) {
  StageTimers timers;
  {
    auto s = timers.scope("sleep");
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
  }
  EXPECT_GE(timers.seconds("sleep"), 0.014);
  {
    std::vector<std::jthread> threads;
    threads.reserve(4);
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 1000; ++i) timers.add("work", 0.001);
      });
    }
  }
  EXPECT_NEAR(timers.seconds("work"), 4.0, 1e-9);
  timers.clear();
  EXPECT_TRUE(timers.stages().empty());
}

}  // namespace
}  // namespace fringe
