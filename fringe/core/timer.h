// Wall-clock timing on the steady clock: Timer (start/stop/resume, accumulated seconds) and
// StageTimers (named stages in first-use order, summed over calls and threads, printed as the
// run summary table). Times are in seconds.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fringe {

class Timer {
 public:
  using Clock = std::chrono::steady_clock;

  Timer() = default;
  void start();   // reset to zero and run
  void stop();    // pause; the time so far stays accumulated
  void resume();  // run again, adding to the accumulated time (no-op when running)
  void reset();   // zero and stopped
  bool running() const { return running_; }
  double seconds() const;  // accumulated, including the current run

 private:
  Clock::duration accumulated_{};
  Clock::time_point started_{};
  bool running_ = false;
};

class StageTimers {
 public:
  // Adds seconds to a stage, creating it (at the end of the order) on first use. Thread safe.
  void add(std::string_view stage, double seconds);
  double seconds(std::string_view stage) const;                // 0 for an unknown stage
  double total() const;                                        // sum over stages
  std::vector<std::pair<std::string, double>> stages() const;  // in first-use order
  void clear();

  // Times a scope into a stage: `{ auto t = timers.scope("predict"); ... }`.
  class Scope {
   public:
    Scope(StageTimers& owner, std::string stage);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    StageTimers& owner_;
    std::string stage_;
    Timer timer_;
  };
  Scope scope(std::string stage) { return Scope(*this, std::move(stage)); }

  // A table, one row per stage with its seconds and percentage of `wall_seconds` (the sum of
  // stages when wall_seconds <= 0), then a total row:
  //   Stage                    Time (s)      %
  //   load sky                    0.123   12.3
  //   Total                       1.000  100.0
  std::string report(double wall_seconds = 0) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, double>> stages_;
};

// Times a scope into a stage of `timers`, which may be nullptr (then nothing is recorded):
// `{ ScopedStage t(context.timers, "write"); ... }`.
class ScopedStage {
 public:
  ScopedStage(StageTimers* timers, const char* stage) : timers_(timers), stage_(stage) {
    timer_.start();
  }
  ~ScopedStage() {
    if (timers_) timers_->add(stage_, timer_.seconds());
  }
  ScopedStage(const ScopedStage&) = delete;
  ScopedStage& operator=(const ScopedStage&) = delete;

 private:
  StageTimers* timers_;
  const char* stage_;
  Timer timer_;
};

}  // namespace fringe
