// The Measurement Set side of a calibration (interval_io.h).
#include "fringe/calibrate/interval_io.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include "fringe/calibrate/run_stages.h"
#include "fringe/core/error.h"

namespace fringe::calibrate {

namespace {

// The columns read (and CORRECTED_DATA, written): data, FLAG, WEIGHT, ANTENNA1, ANTENNA2, then
// UVW (a predicted model) or the model column.
std::vector<std::string> interval_columns(const CalibrateMsConfig& c, bool predict_model,
                                          bool corrected) {
  std::vector<std::string> columns = {c.data_column, "FLAG", "WEIGHT", "ANTENNA1", "ANTENNA2"};
  if (predict_model) {
    columns.push_back("UVW");
  } else {
    columns.push_back(c.model_column);
  }
  if (corrected) columns.push_back("CORRECTED_DATA");
  return columns;
}

// First row of each distinct time, then the number of rows.
std::vector<std::size_t> time_starts(const std::string& path, const std::vector<double>& times) {
  std::vector<std::size_t> time_start;
  for (std::size_t r = 0; r < times.size(); ++r) {
    if (!std::isfinite(times[r])) {
      throw Error::in_file(path, 0,
                           "row " + std::to_string(r) + " has TIME = " + std::to_string(times[r]) +
                               ": every row needs a finite time to be given a solution interval");
    }
    if (r > 0 && times[r] < times[r - 1]) {
      throw Error::in_file(path, 0, "rows are not in time order (row " + std::to_string(r) + ")");
    }
    if (r == 0 || times[r] != times[r - 1]) time_start.push_back(r);
  }
  time_start.push_back(times.size());
  return time_start;
}

}  // namespace

IntervalSpan MsLayout::span(int t0) const {
  IntervalSpan s;
  s.t0 = t0;
  s.t1 = std::min(num_times, t0 + times_per_solution);
  s.r0 = time_start[s.t0];
  s.nr = time_start[s.t1] - s.r0;
  return s;
}

int MsLayout::group_end(int g) const {
  return std::min(num_channels, group_start(g) + channels_per_solution);
}

MsLayout read_layout(const io::MsReader& ms, const CalibrateMsConfig& c) {
  MsLayout l;
  l.path = ms.path();
  l.num_stations = ms.num_stations();
  l.num_channels = ms.num_channels();
  l.num_pols = ms.num_pols();
  l.num_rows = ms.num_rows();
  l.times = ms.read_time();
  l.time_start = time_starts(l.path, l.times);
  l.num_times = int(l.time_start.size()) - 1;
  const int nchan = l.num_channels;
  l.times_per_solution =
      c.times_per_solution <= 0 ? l.num_times : std::min(c.times_per_solution, l.num_times);
  l.channels_per_solution =
      c.channels_per_solution <= 0 ? nchan : std::min(c.channels_per_solution, nchan);
  l.num_groups = (nchan + l.channels_per_solution - 1) / l.channels_per_solution;
  l.frequencies_hz = ms.channel_frequencies_hz();
  l.interval0 = l.num_rows > 0 ? ms.read_interval(0, 1)[0] : 0.0;
  return l;
}

IntervalIo::IntervalIo(io::MsReader& ms, io::MsColumnWriter* corrected,
                       const CalibrateMsConfig& config, const MsLayout& layout, bool predict_model,
                       StageTimers& timers)
    : ms_(ms),
      corrected_(corrected),
      data_column_(config.data_column),
      model_column_(config.model_column),
      layout_(layout),
      predict_model_(predict_model),
      timers_(timers),
      columns_(interval_columns(config, predict_model, corrected != nullptr)),
      queues_(ms, columns_) {}

void IntervalIo::start_read(int t0) {
  const IntervalSpan s = layout_.span(t0);
  const std::size_t r0 = s.r0, nr = s.nr;
  PendingRead p;
  p.samples = spare_ ? std::move(spare_) : std::make_unique<IntervalSamples>();
  IntervalSamples* b = p.samples.get();
  io::MsReader* ms = &ms_;
  StageTimers* timers = &timers_;
  const auto push = [&](const std::string& column, auto read) {
    p.parts.push_back(queues_.of(column).push([timers, read]() mutable {
      ScopedStage sw(timers, stage::kRead);
      read();
    }));
  };
  push(data_column_,
       [ms, b, r0, nr, column = data_column_] { ms->read_data(r0, nr, column, b->data); });
  push("FLAG", [ms, b, r0, nr] { b->flag = ms->read_flag(r0, nr); });
  push("WEIGHT", [ms, b, r0, nr] { b->weight = ms->read_weight(r0, nr); });
  push("ANTENNA1", [ms, b, r0, nr] { b->ant1 = ms->read_antenna1(r0, nr); });
  push("ANTENNA2", [ms, b, r0, nr] { b->ant2 = ms->read_antenna2(r0, nr); });
  if (predict_model_) {
    push("UVW", [ms, b, r0, nr] { b->uvw = ms->read_uvw(r0, nr); });
  } else {
    push(model_column_,
         [ms, b, r0, nr, column = model_column_] { ms->read_data(r0, nr, column, b->model); });
  }
  next_ = std::move(p);
}

std::unique_ptr<IntervalSamples> IntervalIo::finish_read() {
  std::exception_ptr first;
  for (auto& f : next_.parts) {
    try {
      f.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  next_.parts.clear();
  if (first) std::rethrow_exception(first);
  return std::move(next_.samples);
}

void IntervalIo::write_unsolved(std::size_t r0, std::size_t nr) {
  io::MsColumnWriter* out = corrected_;
  const std::size_t n = nr * std::size_t(layout_.num_channels) * layout_.num_pols;
  // On the columns' I/O threads (the next interval's reads are running).
  auto zeros = queues_.of("CORRECTED_DATA").push([out, r0, nr, n] {
    out->write(r0, nr, std::vector<Complex<float>>(n, Complex<float>{0, 0}));
  });
  auto ones = queues_.of("FLAG").push(
      [out, r0, nr, n] { out->write_flags(r0, nr, std::vector<std::uint8_t>(n, 1)); });
  zeros.get();
  ones.get();
}

std::vector<Complex<float>> IntervalIo::wait_for_writes() {
  std::vector<Complex<float>> out;
  if (written_.valid()) out = written_.get();  // rethrows a failed write
  if (flags_written_.valid()) flags_written_.get();
  return out;
}

void IntervalIo::write(std::size_t r0, std::size_t nr, std::vector<Complex<float>> corrected,
                       std::vector<std::uint8_t>* flag) {
  io::MsColumnWriter* out = corrected_;
  StageTimers* timers = &timers_;
  written_ = queues_.of("CORRECTED_DATA")
                 .push([timers, out, r0, nr, data = std::move(corrected)]() mutable {
                   ScopedStage w(timers, stage::kWrite);
                   out->write(r0, nr, data);
                   return std::move(data);
                 });
  if (flag) {
    flags_written_ = queues_.of("FLAG").push([timers, out, r0, nr, f = std::move(*flag)]() mutable {
      ScopedStage w(timers, stage::kWriteFlags);
      out->write_flags(r0, nr, f);
    });
  }
}

void IntervalIo::finish() {
  ScopedStage sw(&timers_, stage::kWrite);
  wait_for_writes();
  if (corrected_) corrected_->flush();
}

}  // namespace fringe::calibrate
