#include "fringe/core/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <utility>

namespace fringe {

namespace {

double clamp01(double f) {
  if (!(f >= 0)) return 0;  // also NaN
  return std::min(f, 1.0);
}

bool is_terminal(const std::ostream& out) {
  if (&out == &std::cout) return isatty(STDOUT_FILENO) != 0;
  if (&out == &std::cerr || &out == &std::clog) return isatty(STDERR_FILENO) != 0;
  return false;
}

}  // namespace

void report_progress(const ProgressCallback& callback, double fraction, std::string_view stage) {
  if (callback) callback(clamp01(fraction), stage);
}

ProgressCallback sub_progress(ProgressCallback parent, double begin, double end) {
  if (!parent) return {};
  return [parent = std::move(parent), begin, end](double fraction, std::string_view stage) {
    parent(clamp01(begin + (end - begin) * clamp01(fraction)), stage);
  };
}

ProgressCounter::ProgressCounter(ProgressCallback callback, std::string stage, std::size_t total)
    : callback_(std::move(callback)), stage_(std::move(stage)), total_(total) {}

void ProgressCounter::advance(std::size_t n) {
  const std::size_t done = done_.fetch_add(n) + n;
  if (!callback_) return;
  std::lock_guard lock(mutex_);
  const double fraction = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 1;
  report_progress(callback_, fraction, stage_);
}

TerminalProgress::TerminalProgress(std::ostream& out, Mode mode, int bar_width)
    : out_(out),
      bar_(mode == Mode::Bar || (mode == Mode::Auto && is_terminal(out))),
      bar_width_(std::max(bar_width, 1)) {}

TerminalProgress::~TerminalProgress() { finish(); }

void TerminalProgress::update(double fraction, std::string_view stage) {
  fraction = clamp01(fraction);
  std::lock_guard lock(mutex_);
  const bool new_stage = stage != stage_;
  if (new_stage) {
    stage_ = std::string(stage);
    last_percent_ = -1;
    last_decile_ = -1;
  }
  const int percent = static_cast<int>(std::floor(fraction * 100.0 + 1e-9));
  if (bar_) {
    if (percent == last_percent_) return;
    if (new_stage && line_open_) out_ << '\n';  // keep the finished stage's bar
    last_percent_ = percent;
    const int filled = static_cast<int>(std::lround(fraction * bar_width_));
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(bar_width_ - filled), '.');
    char pct[16];
    std::snprintf(pct, sizeof pct, "%4d%%", percent);
    out_ << "\r[" << bar << "]" << pct << ' ' << stage_ << "\x1b[K" << std::flush;
    line_open_ = true;
  } else {
    const int decile = percent / 10;
    if (decile == last_decile_) return;
    last_decile_ = decile;
    out_ << stage_ << ": " << decile * 10 << "%\n" << std::flush;
  }
}

void TerminalProgress::finish() {
  std::lock_guard lock(mutex_);
  if (bar_ && line_open_) {
    out_ << '\n' << std::flush;
    line_open_ = false;
  }
}

ProgressCallback TerminalProgress::callback() {
  return [this](double fraction, std::string_view stage) { update(fraction, stage); };
}

}  // namespace fringe
