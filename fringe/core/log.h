// Logger: levelled, timestamped messages to a stream (stderr by default) and optionally a
// log file. There is no global logger: the app creates one and passes it (by reference or
// as a nullable pointer) to whatever wants to report.
#pragma once

#include <fstream>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace fringe {

enum class LogLevel { Debug = 0, Info = 1, Warning = 2, Error = 3, Off = 4 };

// "debug", "info", "warning", "error", "off" (case-insensitive); throws fringe::Error otherwise.
LogLevel parse_log_level(std::string_view text);
std::string_view to_string(LogLevel level);

class Logger {
 public:
  Logger();                               // to std::cerr at Info
  explicit Logger(std::ostream& stream);  // to a given stream at Info
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  void set_level(LogLevel level);  // terminal threshold
  LogLevel level() const;
  void open_file(const std::string& path);  // also write every message (all levels) there
  void close_file();
  void set_timestamps(bool on);  // prefix "[HH:MM:SS.mmm]" (default on)
  // Rewrites every message before it is written. The app layer uses it to show settings keys
  // where the library names config fields ("Struct.member", fringe/app/field_keys.h).
  void set_rewrite(std::function<std::string(std::string_view)> rewrite);

  void log(LogLevel level, std::string_view message);
  void debug(std::string_view m) { log(LogLevel::Debug, m); }
  void info(std::string_view m) { log(LogLevel::Info, m); }
  void warning(std::string_view m) { log(LogLevel::Warning, m); }
  void error(std::string_view m) { log(LogLevel::Error, m); }

  // Every message logged so far, as written to the file (for the MS HISTORY table).
  std::vector<std::string> history() const;
  int warning_count() const;

 private:
  mutable std::mutex mutex_;
  std::ostream* stream_;
  std::ofstream file_;
  LogLevel level_ = LogLevel::Info;
  bool timestamps_ = true;
  std::function<std::string(std::string_view)> rewrite_;
  int warnings_ = 0;
  std::vector<std::string> history_;
};

// Log through a nullable pointer (library code takes `Logger*`, nullptr = silent).
inline void log_warning(Logger* logger, std::string_view m) {
  if (logger) logger->warning(m);
}
inline void log_info(Logger* logger, std::string_view m) {
  if (logger) logger->info(m);
}

}  // namespace fringe
