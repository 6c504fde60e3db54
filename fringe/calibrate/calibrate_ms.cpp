// Calibration of a Measurement Set (calibrate_ms.h): the run's steps in order (checks, the
// MS's layout and the sky model, the solution intervals, the gain table). The intervals' I/O
// is in interval_io.h, their computing steps in interval_steps.h, the solvers in
// solve_cells.h.
#include "fringe/calibrate/calibrate_ms.h"

#include <array>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "fringe/calibrate/calibrate_checks.h"
#include "fringe/calibrate/interval_io.h"
#include "fringe/calibrate/interval_steps.h"
#include "fringe/calibrate/run_stages.h"
#include "fringe/calibrate/sample_census.h"
#include "fringe/calibrate/sky_predict.h"
#include "fringe/calibrate/solve_cells.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/timer.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::calibrate {

namespace {

// Why nothing was solved (every cell of every interval had every station flagged).
Error nothing_solved(const std::string& path, const CalibrateMsConfig& c, int num_cells,
                     const SampleCensus& census, bool wrote_corrected) {
  return Error::in_file(
      path, 0,
      "nothing could be solved: in all " + std::to_string(num_cells) +
          " solution cell(s) every station had fewer than CalOptions.min_baselines = " +
          std::to_string(c.options.min_baselines) +
          " baselines with an unflagged sample of finite data, a positive finite WEIGHT and a "
          "non-zero model (" +
          census.summary() + "); no gain table was written" +
          (wrote_corrected ? " and no FLAG or CORRECTED_DATA value was written" : ""));
}

// What a run works with once the MS is open: the MS, its layout, the sky model (if any),
// the CORRECTED_DATA writer (if written), the GPU (-1: the CPU) and the results so far.
struct RunState {
  const CalibrateMsConfig& config;
  io::MsReader& ms;
  const MsLayout& layout;
  const SkyPredictor* predictor;
  io::MsColumnWriter* corrected;
  int gpu;
  Logger* log;
  StageTimers& timers;
  io::GainTable& table;
  CalibrateMsResult& res;
};

// The sky model's predictor (config.sky_model_path), on GPU `gpu` when gpu >= 0.
std::optional<SkyPredictor> make_predictor(const CalibrateMsConfig& c, const io::MsReader& ms,
                                           const MsLayout& l, int gpu, StageTimers& timers,
                                           Logger* log) {
  std::optional<SkyPredictor> predictor;
  if (c.sky_model_path.empty()) return predictor;
  ScopedStage sw(&timers, stage::kPredict);
  const std::array<double, 2> centre = ms.phase_centre_rad();
  predictor.emplace(c.sky_model_path, centre[0], centre[1], l.frequencies_hz, l.num_pols);
  if (gpu >= 0) predictor->use_gpu(gpu);
  if (log) {
    log->info("Model: " + std::to_string(predictor->num_sources()) + " point source(s) from " +
              c.sky_model_path + " (no station beam), predicted on " +
              (predictor->gpu() >= 0 ? "GPU " + std::to_string(predictor->gpu()) : "the CPU"));
  }
  return predictor;
}

// Until an interval solves something, the intervals that solve nothing are not written
// (their CORRECTED_DATA would be zeros and FLAG all set): a run that solves nothing at all
// (NaN weights, min_baselines too high, ...) fails without having flagged the user's data.
struct UnsolvedStart {
  bool solved_any = false;
  std::vector<std::pair<std::size_t, std::size_t>> rows;  // (first row, rows)
  SampleCensus census;  // of those intervals, for the error message

  // After an interval's solve: false while nothing has been solved yet. The first interval
  // that solves something writes the earlier ones (CORRECTED_DATA 0 and FLAG set).
  bool update(bool interval_solved, const MsLayout& l, const IntervalSpan& span,
              const IntervalSamples& v, IntervalIo& io, bool corrected) {
    if (solved_any) return true;
    if (!interval_solved) {
      census.add(v.ant1, v.ant2, v.data, v.model, v.flag, v.weight, l.num_channels, l.num_pols);
      rows.emplace_back(span.r0, span.nr);
      return false;
    }
    solved_any = true;
    if (corrected) {
      for (const auto& [u0, un] : rows) io.write_unsolved(u0, un);
    }
    rows.clear();
    return true;
  }
};

// CORRECTED_DATA (and FLAG, where it changed) of one interval, computed and queued.
template <typename T>
void write_corrected(const RunState& s, const IntervalSpan& span,
                     const std::vector<CellSolution<T>>& sols, IntervalSamples& v, IntervalIo& io) {
  std::vector<Complex<float>> out;
  {
    ScopedStage sw(&s.timers, stage::kWriteWait);
    out = io.wait_for_writes();
  }
  bool new_flags = false;
  {
    ScopedStage sw(&s.timers, stage::kCorrect);
    new_flags = correct_interval(s.layout, span, sols, v, out);
  }
  io.write(span.r0, span.nr, std::move(out), new_flags ? &v.flag : nullptr);
}

// One solution interval, read (its read started earlier): the model predicted, the cells
// filled and solved, the solutions counted, CORRECTED_DATA written once something is solved.
template <typename T>
void calibrate_interval(const RunState& s, const IntervalSpan& span, IntervalIo& io,
                        std::vector<CalCell<T>>& cells, SolveWorkspace<T>& workspace,
                        UnsolvedStart& unsolved, SolutionTally& tally) {
  std::unique_ptr<IntervalSamples> v;
  {
    ScopedStage sw(&s.timers, stage::kReadWait);
    v = io.finish_read();
  }
  if (span.t1 < s.layout.num_times) io.start_read(span.t1);
  if (s.predictor) {
    ScopedStage sw(&s.timers, stage::kPredict);
    predict_interval(*s.predictor, s.layout, span, *v);
  }
  {
    ScopedStage sw(&s.timers, stage::kReorder);
    fill_cells(s.layout, span, *v, cells);
  }
  std::vector<CellSolution<T>> sols;
  {
    ScopedStage sw(&s.timers, stage::kSolve);
    sols = solve_cells(cells, s.config.options, s.gpu, workspace, s.timers, s.res.backend);
  }
  add_solutions(s.layout, span, cells, sols, s.table, tally, s.res);
  const bool corrected = s.corrected != nullptr;
  if (unsolved.update(any_solved(sols), s.layout, span, *v, io, corrected) && corrected) {
    write_corrected(s, span, sols, *v, io);
  }
  if (s.log) {
    s.log->info("  times " + std::to_string(span.t0) + ".." + std::to_string(span.t1 - 1) + ": " +
                std::to_string(s.layout.num_groups) + " cell(s) solved");
  }
  io.recycle(std::move(v));
}

// Every solution interval in time order, the next one read and the previous one written on
// I/O threads while one is computed.
template <typename T>
void calibrate_intervals(const RunState& s) {
  IntervalIo io(s.ms, s.corrected, s.config, s.layout, s.predictor != nullptr, s.timers);
  if (s.log) {
    s.log->info("I/O: " + std::to_string(io.num_columns()) + " columns on " +
                std::to_string(io.num_queues()) + " thread(s) (one per storage manager)");
  }
  std::vector<CalCell<T>> cells(static_cast<std::size_t>(s.layout.num_groups));  // reused
  SolveWorkspace<T> workspace;
  UnsolvedStart unsolved;
  SolutionTally tally;
  if (s.layout.num_times > 0) io.start_read(0);
  for (int t0 = 0; t0 < s.layout.num_times; t0 += s.layout.times_per_solution) {
    interrupt::throw_if_requested();  // between solution intervals
    calibrate_interval(s, s.layout.span(t0), io, cells, workspace, unsolved, tally);
  }
  if (!unsolved.solved_any) {
    throw nothing_solved(s.layout.path, s.config, s.res.num_cells, unsolved.census,
                         s.corrected != nullptr);
  }
  finish_solution_counts(tally, s.res);
  io.finish();
}

void log_plan(const CalibrateMsConfig& c, const MsLayout& l, Logger* log) {
  if (!log) return;
  log->info("Calibrating " + l.path + ": " + std::to_string(l.num_stations) + " stations, " +
            std::to_string(l.num_times) + " times, " + std::to_string(l.num_channels) +
            " channels, " + std::to_string(l.num_pols) + " pols; " +
            gain_type_name(c.options.type) + " gains per " + std::to_string(l.times_per_solution) +
            " time(s) x " + std::to_string(l.channels_per_solution) + " channel(s)");
}

template <typename T>
CalibrateMsResult run(const CalibrateMsConfig& c, Logger* log) {
  CalibrateMsResult res;
  StageTimers timers;
  // Before anything is opened for writing: the outputs against what is at their paths and the
  // inputs, and the MS's writability (calibrate_checks.h).
  check_outputs(calibration_outputs(c), calibration_inputs(c));
  check_writable(c);
  const std::vector<int> gpus = choose_gpus(c.devices, 1, "calibrate", log);
  const int gpu = gpus.empty() ? -1 : gpus.front();
  // The in-place update of the MS (CORRECTED_DATA added and written, FLAG) is one critical
  // section (fringe/core/interrupt.h): a signal never ends the process while the MS is open for
  // writing. The run stops at the next solution interval instead (throw_if_requested), and
  // the unwinding finishes the queued writes, flushes and closes the MS first. Declared
  // before the MS, so it ends after the MS is closed.
  std::optional<interrupt::CriticalSection> updating;
  io::GainTable table;
  {
    // Exclusive: the column queues read and write several columns at once.
    io::MsReader ms(c.ms_path, c.write_corrected ? io::MsReader::Access::ExclusiveUpdate
                                                 : io::MsReader::Access::Exclusive);
    check_settings_against_ms(c, ms);
    const MsLayout layout = read_layout(ms, c);
    const std::optional<SkyPredictor> predictor = make_predictor(c, ms, layout, gpu, timers, log);
    table.gain_type = gain_type_name(c.options.type);
    table.reference_station = c.options.reference_station;
    table.station_names = ms.station_names();
    std::optional<io::MsColumnWriter> corrected;
    if (c.write_corrected) {
      updating.emplace();
      interrupt::throw_if_requested();  // (before the first change to the MS)
      if (!ms.has_column("CORRECTED_DATA")) {
        check_room_for_new_column(layout.path, layout.num_rows, layout.num_channels,
                                  layout.num_pols);
      }
      corrected.emplace(layout.path, "CORRECTED_DATA");
    }
    log_plan(c, layout, log);
    const RunState state{.config = c,
                         .ms = ms,
                         .layout = layout,
                         .predictor = predictor ? &*predictor : nullptr,
                         .corrected = corrected ? &*corrected : nullptr,
                         .gpu = gpu,
                         .log = log,
                         .timers = timers,
                         .table = table,
                         .res = res};
    calibrate_intervals<T>(state);
  }  // the MS is closed: the in-place update is complete
  updating.reset();
  interrupt::throw_if_requested();  // a signal during the update: no gain table
  {
    ScopedStage sw(&timers, stage::kWrite);
    res.gains_path = gains_path_of(c);
    io::write_gain_table(res.gains_path, table);
    io::write_gain_csv(res.gains_path + ".csv", table);
  }
  stage::copy_times(timers, res);
  return res;
}

}  // namespace

CalibrateMsResult calibrate_ms(const CalibrateMsConfig& config, Logger* log) {
  return dispatch_precision(config.precision, [&]<typename T>() { return run<T>(config, log); });
}

}  // namespace fringe::calibrate
