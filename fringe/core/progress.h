// Progress reporting. Library code reports through a ProgressCallback (fraction in [0, 1]
// of the current stage or of the whole run, and a short stage name); an empty callback means
// nobody listens. The CLI listens with TerminalProgress: a redrawn bar when its stream is a
// terminal, plain lines (one every 10 %) otherwise; the GUI installs its own callback.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>

namespace fringe {

using ProgressCallback = std::function<void(double fraction, std::string_view stage)>;

// Calls callback (when set) with fraction clamped to [0, 1].
void report_progress(const ProgressCallback& callback, double fraction, std::string_view stage);

// A callback that maps [0, 1] of a sub-task onto [begin, end] of the parent's callback
// (e.g. block k of n reports into [k/n, (k+1)/n]). Empty when parent is empty.
ProgressCallback sub_progress(ProgressCallback parent, double begin, double end);

// Counts finished items of a stage from any thread and reports done/total.
class ProgressCounter {
 public:
  ProgressCounter(ProgressCallback callback, std::string stage, std::size_t total);
  void advance(std::size_t n = 1);  // thread safe
  std::size_t done() const { return done_.load(); }

 private:
  ProgressCallback callback_;
  std::string stage_;
  std::size_t total_;
  std::atomic<std::size_t> done_{0};
  std::mutex mutex_;  // callbacks are called one at a time
};

class TerminalProgress {
 public:
  enum class Mode { Auto, Bar, Lines };

  // Auto: Bar when `out` is std::cout / std::cerr and that file descriptor is a terminal
  // (isatty), Lines otherwise.
  explicit TerminalProgress(std::ostream& out, Mode mode = Mode::Auto, int bar_width = 40);
  ~TerminalProgress();  // finishes an unfinished bar line
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  // Bar: redraws "\r[#####.....]  45% stage" when the whole percent or the stage changes.
  // Lines: "stage: 10%" each time a new multiple of 10 % is reached (and 0 % / 100 %), once
  // per stage. Thread safe.
  void update(double fraction, std::string_view stage);
  // Ends the bar line (Bar mode); harmless to call more than once.
  void finish();
  // A callback that forwards to update(); this object must outlive it.
  ProgressCallback callback();
  bool bar_mode() const { return bar_; }

 private:
  std::mutex mutex_;
  std::ostream& out_;
  bool bar_;
  int bar_width_;
  std::string stage_;
  int last_percent_ = -1;   // Bar: last drawn percent
  int last_decile_ = -1;    // Lines: last printed multiple of 10 %
  bool line_open_ = false;  // Bar: a bar is drawn without its newline
};

}  // namespace fringe
