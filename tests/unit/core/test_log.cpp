// Logger: levels, filtering, timestamps, the log file (every level), history and warnings.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/log.h"

namespace fringe {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Log, ParseLevel) {
  EXPECT_EQ(parse_log_level("debug"), LogLevel::Debug);
  EXPECT_EQ(parse_log_level("INFO"), LogLevel::Info);
  EXPECT_EQ(parse_log_level("Warning"), LogLevel::Warning);
  EXPECT_EQ(parse_log_level("error"), LogLevel::Error);
  EXPECT_EQ(parse_log_level("off"), LogLevel::Off);
  EXPECT_THROW(parse_log_level("loud"), Error);
  EXPECT_EQ(to_string(LogLevel::Warning), "warning");
  for (auto l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warning, LogLevel::Error}) {
    EXPECT_EQ(parse_log_level(to_string(l)), l);
  }
}

TEST(Log, LevelFilteringOnStream) {
  std::ostringstream out;
  Logger log(out);
  log.set_timestamps(false);
  EXPECT_EQ(log.level(), LogLevel::Info);
  log.debug("d1");
  log.info("i1");
  log.warning("w1");
  log.error("e1");
  EXPECT_EQ(lines_of(out.str()), (std::vector<std::string>{"i1", "warning: w1", "error: e1"}));

  out.str("");
  log.set_level(LogLevel::Warning);
  log.info("i2");
  log.warning("w2");
  EXPECT_EQ(out.str(), "warning: w2\n");

  out.str("");
  log.set_level(LogLevel::Debug);
  log.debug("d2");
  EXPECT_EQ(out.str(), "debug: d2\n");

  out.str("");
  log.set_level(LogLevel::Off);
  log.error("e2");
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(log.warning_count(), 2);  // counted whether shown or not
}

TEST(Log, Timestamps) {
  std::ostringstream out;
  Logger log(out);
  log.info("hello");
  const std::regex format(R"(\[\d\d:\d\d:\d\d\.\d\d\d\] hello\n)");
  EXPECT_TRUE(std::regex_match(out.str(), format)) << out.str();
}

TEST(Log, FileGetsEveryLevelAndHistoryMatches) {
  const auto path = std::filesystem::path(FRINGE_BINARY_DIR) / "test_core_log_file.log";
  std::filesystem::remove(path);
  std::ostringstream out;
  {
    Logger log(out);
    log.set_level(LogLevel::Error);
    log.set_timestamps(false);
    log.open_file(path.string());
    log.debug("step one");
    log.info("step two");
    log.warning("careful");
    log.error("broken");
    log.close_file();
    log.info("after close");
    EXPECT_EQ(out.str(), "error: broken\n");
    EXPECT_EQ(log.history(),
              (std::vector<std::string>{"debug: step one", "step two", "warning: careful",
                                        "error: broken", "after close"}));
    EXPECT_EQ(log.warning_count(), 1);
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(lines_of(text.str()), (std::vector<std::string>{"debug: step one", "step two",
                                                            "warning: careful", "error: broken"}));
  std::filesystem::remove(path);
}

TEST(Log, UnwritableFileThrows) {
  std::ostringstream out;
  Logger log(out);
  EXPECT_THROW(log.open_file("/nonexistent-directory/x/run.log"), Error);
}

TEST(Log, ThreadSafe) {
  std::ostringstream out;
  Logger log(out);
  log.set_timestamps(false);
  constexpr int kThreads = 4, kEach = 200;
  {
    std::vector<std::jthread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&log, t] {
        for (int i = 0; i < kEach; ++i) {
          if (i % 2)
            log.warning("thread " + std::to_string(t));
          else
            log.info("thread " + std::to_string(t));
        }
      });
    }
  }
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(kThreads * kEach));
  for (const auto& l : lines) {
    EXPECT_TRUE(std::regex_match(l, std::regex("(warning: )?thread [0-3]"))) << l;
  }
  EXPECT_EQ(log.warning_count(), kThreads * kEach / 2);
  EXPECT_EQ(log.history().size(), lines.size());
}

TEST(Log, NullableHelpers) {
  log_warning(nullptr, "nobody listens");  // must not crash
  std::ostringstream out;
  Logger log(out);
  log.set_timestamps(false);
  log_warning(&log, "w");
  log_info(&log, "i");
  EXPECT_EQ(out.str(), "warning: w\ni\n");
}

}  // namespace
}  // namespace fringe
