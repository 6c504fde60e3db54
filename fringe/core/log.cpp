#include "fringe/core/log.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <utility>

#include "fringe/core/error.h"

namespace fringe {

namespace {

// "[HH:MM:SS.mmm] " in local time.
std::string timestamp_now() {
  using Clock = std::chrono::system_clock;
  const auto now = Clock::now();
  const std::time_t t = Clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm local{};
  localtime_r(&t, &local);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "[%02d:%02d:%02d.%03d] ", local.tm_hour, local.tm_min,
                local.tm_sec, static_cast<int>(ms));
  return buffer;
}

// Info lines carry no tag; the others say what they are.
std::string_view level_tag(LogLevel level) {
  switch (level) {
    case LogLevel::Debug:
      return "debug: ";
    case LogLevel::Warning:
      return "warning: ";
    case LogLevel::Error:
      return "error: ";
    default:
      return "";
  }
}

}  // namespace

LogLevel parse_log_level(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "debug") return LogLevel::Debug;
  if (lower == "info") return LogLevel::Info;
  if (lower == "warning" || lower == "warn") return LogLevel::Warning;
  if (lower == "error") return LogLevel::Error;
  if (lower == "off" || lower == "none") return LogLevel::Off;
  throw Error("unknown log level '" + std::string(text) +
              "'; expected one of debug, info, warning, error, off");
}

std::string_view to_string(LogLevel level) {
  switch (level) {
    case LogLevel::Debug:
      return "debug";
    case LogLevel::Info:
      return "info";
    case LogLevel::Warning:
      return "warning";
    case LogLevel::Error:
      return "error";
    case LogLevel::Off:
      return "off";
  }
  return "unknown";
}

Logger::Logger() : stream_(&std::cerr) {}

Logger::Logger(std::ostream& stream) : stream_(&stream) {}

void Logger::set_level(LogLevel level) {
  std::lock_guard lock(mutex_);
  level_ = level;
}

LogLevel Logger::level() const {
  std::lock_guard lock(mutex_);
  return level_;
}

void Logger::open_file(const std::string& path) {
  std::lock_guard lock(mutex_);
  if (file_.is_open()) file_.close();
  file_.clear();
  file_.open(path, std::ios::out | std::ios::trunc);
  if (!file_) throw Error("cannot open log file '" + path + "' for writing");
}

void Logger::close_file() {
  std::lock_guard lock(mutex_);
  if (file_.is_open()) file_.close();
}

void Logger::set_timestamps(bool on) {
  std::lock_guard lock(mutex_);
  timestamps_ = on;
}

void Logger::set_rewrite(std::function<std::string(std::string_view)> rewrite) {
  std::lock_guard lock(mutex_);
  rewrite_ = std::move(rewrite);
}

void Logger::log(LogLevel level, std::string_view message) {
  if (level == LogLevel::Off) return;  // not a message level
  std::string line;
  {
    std::lock_guard lock(mutex_);
    if (timestamps_) line = timestamp_now();
    line += level_tag(level);
    if (rewrite_) {
      line += rewrite_(message);
    } else {
      line += message;
    }
    if (level == LogLevel::Warning) ++warnings_;
    history_.push_back(line);
    if (file_.is_open()) file_ << line << '\n' << std::flush;
    if (stream_ && level >= level_ && level_ != LogLevel::Off)
      *stream_ << line << '\n' << std::flush;
  }
}

std::vector<std::string> Logger::history() const {
  std::lock_guard lock(mutex_);
  return history_;
}

int Logger::warning_count() const {
  std::lock_guard lock(mutex_);
  return warnings_;
}

}  // namespace fringe
