#include "fringe/core/timer.h"

#include <algorithm>
#include <cstdio>

namespace fringe {

void Timer::start() {
  accumulated_ = {};
  started_ = Clock::now();
  running_ = true;
}

void Timer::stop() {
  if (!running_) return;
  accumulated_ += Clock::now() - started_;
  running_ = false;
}

void Timer::resume() {
  if (running_) return;
  started_ = Clock::now();
  running_ = true;
}

void Timer::reset() {
  accumulated_ = {};
  running_ = false;
}

double Timer::seconds() const {
  auto d = accumulated_;
  if (running_) d += Clock::now() - started_;
  return std::chrono::duration<double>(d).count();
}

void StageTimers::add(std::string_view stage, double seconds) {
  std::lock_guard lock(mutex_);
  for (auto& [name, s] : stages_) {
    if (name == stage) {
      s += seconds;
      return;
    }
  }
  stages_.emplace_back(std::string(stage), seconds);
}

double StageTimers::seconds(std::string_view stage) const {
  std::lock_guard lock(mutex_);
  for (const auto& [name, s] : stages_) {
    if (name == stage) return s;
  }
  return 0;
}

double StageTimers::total() const {
  std::lock_guard lock(mutex_);
  double sum = 0;
  for (const auto& [name, s] : stages_) sum += s;
  return sum;
}

std::vector<std::pair<std::string, double>> StageTimers::stages() const {
  std::lock_guard lock(mutex_);
  return stages_;
}

void StageTimers::clear() {
  std::lock_guard lock(mutex_);
  stages_.clear();
}

StageTimers::Scope::Scope(StageTimers& owner, std::string stage)
    : owner_(owner), stage_(std::move(stage)) {
  timer_.start();
}

StageTimers::Scope::~Scope() { owner_.add(stage_, timer_.seconds()); }

std::string StageTimers::report(double wall_seconds) const {
  const auto rows = stages();
  double sum = 0;
  std::size_t width = 5;  // "Total"
  for (const auto& [name, s] : rows) {
    sum += s;
    width = std::max(width, name.size());
  }
  const double reference = wall_seconds > 0 ? wall_seconds : sum;
  const int w = static_cast<int>(width);
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %12s  %6s\n", w, "Stage", "Time (s)", "%");
  out += line;
  auto row = [&](const std::string& name, double s) {
    const double percent = reference > 0 ? 100.0 * s / reference : 0.0;
    std::snprintf(line, sizeof line, "%-*s  %12.3f  %6.1f\n", w, name.c_str(), s, percent);
    out += line;
  };
  for (const auto& [name, s] : rows) row(name, s);
  row("Total", reference);
  return out;
}

}  // namespace fringe
