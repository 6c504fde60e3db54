// The Measurement Set side of a calibration (calibrate_ms.h): its time layout (rows in time
// order, solution intervals of whole times, channel groups) and the reads and writes of each
// solution interval on I/O threads, one per storage manager (column_queues.h: DATA,
// MODEL_DATA, CORRECTED_DATA and FLAG each have their own in a simulated MS), overlapping the
// computation: the next interval is read and the previous one's CORRECTED_DATA written while
// this one is reordered and solved. Errors name the MS.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/calibrate/column_queues.h"
#include "fringe/core/complex.h"
#include "fringe/core/timer.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::calibrate {

// One solution interval: times [t0, t1), rows [r0, r0 + nr).
struct IntervalSpan {
  int t0 = 0, t1 = 0;
  std::size_t r0 = 0, nr = 0;
};

// What the calibration needs of the MS's shape and time axis.
struct MsLayout {
  std::string path;  // the MS
  int num_stations = 0, num_channels = 0, num_pols = 0;
  std::size_t num_rows = 0;
  std::vector<double> times;            // TIME of each row (MJD seconds)
  std::vector<std::size_t> time_start;  // first row of each distinct time, then num_rows
  int num_times = 0;
  int times_per_solution = 1;     // CalibrateMsConfig.times_per_solution, 0 (all) resolved
  int channels_per_solution = 1;  // likewise
  int num_groups = 0;             // channel groups (cells per interval)
  std::vector<double> frequencies_hz;
  double interval0 = 0;  // INTERVAL of the first row (s)

  IntervalSpan span(int t0) const;  // the solution interval starting at time t0
  int group_start(int g) const { return g * channels_per_solution; }
  int group_end(int g) const;  // one past its last channel
};

// The layout of the opened MS; fringe::Error (naming the MS) for a row with a non-finite TIME
// or rows out of time order.
MsLayout read_layout(const io::MsReader& ms, const CalibrateMsConfig& config);

// The samples of one solution interval as read from the MS (flat as MsReader returns them):
// data, model, flag [row][channel][pol], weight [row][pol], uvw [row] (only to predict the
// model; then model is filled by the prediction).
struct IntervalSamples {
  std::vector<Complex<float>> data, model;
  std::vector<std::uint8_t> flag;
  std::vector<float> weight;
  std::vector<int> ant1, ant2;
  std::vector<std::array<double, 3>> uvw;
};

// The reads and writes of the solution intervals, each column on its storage manager's
// queue. At most one read and one write of each column are pending (bounded memory). Times go
// to the stages read, write and write flags of `timers` (run_stages.h). The MS and the
// CORRECTED_DATA writer (null: not written) must outlive this object; its destructor waits for
// the queued tasks.
class IntervalIo {
 public:
  IntervalIo(io::MsReader& ms, io::MsColumnWriter* corrected, const CalibrateMsConfig& config,
             const MsLayout& layout, bool predict_model, StageTimers& timers);

  std::size_t num_columns() const { return columns_.size(); }
  std::size_t num_queues() const { return queues_.num_queues(); }

  // Starts reading the solution interval starting at time t0 (into the buffers of the
  // interval last given to recycle, whose capacity is reused: no fresh pages to fault in and
  // clear for every interval).
  void start_read(int t0);
  // Waits for every column of the started read (all of them, so no read is left running on
  // buffers that go away), then rethrows the first failure or returns the samples.
  std::unique_ptr<IntervalSamples> finish_read();
  void recycle(std::unique_ptr<IntervalSamples> samples) { spare_ = std::move(samples); }

  // CORRECTED_DATA 0 and FLAG set for nr rows from r0 (an interval that solved nothing);
  // waits for both writes.
  void write_unsolved(std::size_t r0, std::size_t nr);
  // Waits for the pending writes (rethrowing a failure); CORRECTED_DATA's buffer comes back
  // (empty when none was pending).
  std::vector<Complex<float>> wait_for_writes();
  // Queues the writes of an interval's CORRECTED_DATA and (when given, moved from) FLAG.
  void write(std::size_t r0, std::size_t nr, std::vector<Complex<float>> corrected,
             std::vector<std::uint8_t>* flag);
  // Waits for the pending writes and flushes CORRECTED_DATA and FLAG (stage write).
  void finish();

 private:
  struct PendingRead {
    std::unique_ptr<IntervalSamples> samples;  // at a fixed address while the reads fill it
    std::vector<std::future<void>> parts;      // one per column read
  };

  io::MsReader& ms_;
  io::MsColumnWriter* corrected_;
  std::string data_column_, model_column_;
  const MsLayout& layout_;
  bool predict_model_;
  StageTimers& timers_;
  std::vector<std::string> columns_;
  PendingRead next_;
  std::future<std::vector<Complex<float>>> written_;  // hands CORRECTED_DATA's buffer back
  std::future<void> flags_written_;
  std::unique_ptr<IntervalSamples> spare_;
  // Declared after the buffers the I/O threads fill: if the calibration throws, the queues
  // finish their tasks (their destructor) before those buffers go away.
  ColumnQueues queues_;
};

}  // namespace fringe::calibrate
