// Calibration of a Measurement Set (calibrate_ms.h).
#include "fringe/calibrate/calibrate_ms.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <future>
#include <memory>
#include <optional>

#include "fringe/calibrate/calibrate_checks.h"
#include "fringe/calibrate/column_queues.h"
#include "fringe/calibrate/sample_census.h"
#include "fringe/calibrate/sky_predict.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/array.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/serial_queue.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/calibrate/stefcal_cuda.h"
#endif

namespace fringe::calibrate {

namespace {

class Stopwatch {
 public:
  explicit Stopwatch(double& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~Stopwatch() {
    total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_;
};

// The GPU is used when asked for (calibrate/use_gpus) and there, in a CUDA build.
bool uses_gpu(bool asked) {
#ifdef FRINGE_HAVE_CUDA
  return asked && !cuda_devices().empty();
#else
  (void)asked;
  return false;
#endif
}

#ifdef FRINGE_HAVE_CUDA
// Full-Jones cells on GPU 0: A, B of the cells (stefcal_math.h, 32 n^2 complex values per
// cell) built in parallel, solved in one batch per chunk of cells (a chunk holds at most
// 1 GiB of A and B, at least one cell), then reference phase and residuals as solve_cell_cpu.
template <typename T>
void solve_full_jones_cells_gpu(const std::vector<CalCell<T>>& cells, const CalOptions& options,
                                std::vector<CellSolution<T>>& sols, CalibrateMsResult& res) {
  const int num = int(cells.size());
  const int n = cells[0].num_stations;
  for (const CalCell<T>& cell : cells) cell.validate();
  const std::size_t per_cell = std::size_t(n) * kFullJonesTerms * std::size_t(n);
  const std::size_t cell_bytes = 2 * per_cell * sizeof(Complex<T>);
  const int chunk = int(std::max<std::size_t>(1, (std::size_t(1) << 30) / cell_bytes));
  for (int k0 = 0; k0 < num; k0 += chunk) {
    const int m = std::min(chunk, num - k0);
    std::vector<Complex<T>> a(per_cell * m), b(per_cell * m);
    std::optional<Stopwatch> sw(std::in_place, res.normal_eq_sec);
#pragma omp parallel for schedule(dynamic)
    for (int j = 0; j < m; ++j) {
      const int k = k0 + j;
      sols[k].flagged = flag_stations(cells[k], options.min_baselines);
      std::vector<Complex<T>> ak, bk;
      build_full_jones_normal_equations(cells[k], sols[k].flagged, ak, bk);
      std::copy(ak.begin(), ak.end(), a.begin() + per_cell * j);
      std::copy(bk.begin(), bk.end(), b.begin() + per_cell * j);
    }
    std::vector<Jones<T>> g(std::size_t(n) * m, jones_identity<T>());
    std::vector<SolveStatus> status(static_cast<std::size_t>(m));
    sw.emplace(res.solver_sec);
    solve_full_jones_batch_cuda(0, m, n, a.data(), b.data(), g.data(), status.data(),
                                options.solver);
    sw.emplace(res.residual_sec);
#pragma omp parallel for schedule(dynamic)
    for (int j = 0; j < m; ++j) {
      const int k = k0 + j;
      CellSolution<T>& sol = sols[k];
      sol.status = status[j];
      sol.gains.assign(g.begin() + std::size_t(n) * j, g.begin() + std::size_t(n) * (j + 1));
      for (int p = 0; p < n; ++p) {
        if (sol.flagged[p]) sol.gains[p] = jones_zero<T>();
      }
      fix_reference_phase_jones(sol.gains, options.reference_station);
      sol.rms_before = residual_rms(cells[k], {}, sol.flagged, options.type);
      sol.rms_after = residual_rms(cells[k], sol.gains, sol.flagged, options.type);
    }
  }
}
#endif

// Buffers and the GPU solver kept from one solution interval to the next (every interval has
// the same cells and receptors): A and B are built in place (in page-locked memory when they
// go to a GPU: copies at full PCIe speed), and the solver's GPU memory is allocated once, not
// per interval.
template <typename T>
struct SolveWorkspace {
  Array<Complex<T>> a;
  Array<T> b;
#ifdef FRINGE_HAVE_CUDA
  std::unique_ptr<StefcalCuda<T>> gpu;
#endif
};

// The solutions of one interval's cells (one per channel group); the parts of the time go to
// res (normal equations, solver, residuals). gpu: solve on GPU 0 (uses_gpu: asked for and
// there, in a CUDA build).
template <typename T>
std::vector<CellSolution<T>> solve_cells(const std::vector<CalCell<T>>& cells,
                                         const CalOptions& options, bool gpu, SolveWorkspace<T>& ws,
                                         CalibrateMsResult& res) {
  std::string& backend = res.backend;
  const int num = int(cells.size());
  std::vector<CellSolution<T>> sols(cells.size());
#ifdef FRINGE_HAVE_CUDA
  if (options.type == GainType::FullJones && num > 0 && gpu) {
    solve_full_jones_cells_gpu(cells, options, sols, res);
    backend = "gpu 0";
    return sols;
  }
#endif
  if (options.type == GainType::FullJones || num == 0) {
    Stopwatch sw(res.solver_sec);
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < num; ++k) sols[k] = solve_cell_cpu(cells[k], options);
    if (backend.empty()) backend = "cpu";
    return sols;
  }
  const int n_st = cells[0].num_stations;
  const int n = num_receptors(options.type, n_st);
  const std::size_t nn = std::size_t(n) * n;
  {
    Stopwatch sw(res.normal_eq_sec);
    if (ws.a.size() != nn * num) {
      const MemoryLocation where = gpu ? MemoryLocation::pinned_host() : MemoryLocation::host();
      ws.a = Array<Complex<T>>(nn * num, where);
      ws.b = Array<T>(nn * num, where);
    }
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < num; ++k) {
      cells[k].validate();
      sols[k].flagged = flag_stations(cells[k], options.min_baselines);
      build_normal_equations(cells[k], options.type, sols[k].flagged, ws.a.data() + nn * k,
                             ws.b.data() + nn * k);
    }
  }
  std::vector<Complex<T>> g(std::size_t(n) * num, Complex<T>{T(1), T(0)});
  std::vector<SolveStatus> status(cells.size());
  {
    Stopwatch sw(res.solver_sec);
    if (gpu) {  // (never in a build without CUDA: uses_gpu)
#ifdef FRINGE_HAVE_CUDA
      if (!ws.gpu || ws.gpu->num_problems() != num || ws.gpu->n() != n) {
        ws.gpu.reset();  // its GPU memory first
        ws.gpu = std::make_unique<StefcalCuda<T>>(0, num, n);
      }
      ws.gpu->upload(ws.a.data(), ws.b.data());
      ws.gpu->solve(g.data(), options.solver);
      ws.gpu->download(g.data(), status.data());
      backend = "gpu 0";
#endif
    } else {
      solve_scalar_batch_cpu(num, n, ws.a.data(), ws.b.data(), g.data(), status.data(),
                             options.solver);
      backend = "cpu";
    }
  }
  Stopwatch sw(res.residual_sec);
#pragma omp parallel for schedule(dynamic)
  for (int k = 0; k < num; ++k) {
    sols[k].status = status[k];
    std::vector<Complex<T>> gk(g.begin() + std::size_t(n) * k,
                               g.begin() + std::size_t(n) * (k + 1));
    sols[k].gains = receptor_gains_to_jones(options.type, n_st, std::move(gk),
                                            options.reference_station, sols[k].flagged);
    sols[k].rms_before = residual_rms(cells[k], {}, sols[k].flagged, options.type);
    sols[k].rms_after = residual_rms(cells[k], sols[k].gains, sols[k].flagged, options.type);
  }
  return sols;
}

// Why nothing was solved (every cell of every interval had every station flagged).
Error nothing_solved(const std::string& path, const CalibrateMsConfig& c, int num_cells,
                     const SampleCensus& census, bool wrote_corrected) {
  return Error::in_file(
      path, 0,
      "nothing could be solved: in all " + std::to_string(num_cells) +
          " solution cell(s) every station had fewer than calibrate/min_baselines = " +
          std::to_string(c.options.min_baselines) +
          " baselines with an unflagged sample of finite data, a positive finite WEIGHT and a "
          "non-zero model (" +
          census.summary() + "); no gain table was written" +
          (wrote_corrected ? " and no FLAG or CORRECTED_DATA value was written" : ""));
}

template <typename T>
CalibrateMsResult run(const CalibrateMsConfig& c, Logger* log) {
  CalibrateMsResult res;
  // Before anything is opened for writing: the outputs against what is at their paths and the
  // inputs, and the MS's writability (calibrate_checks.h).
  check_outputs(calibration_outputs(c), calibration_inputs(c));
  check_writable(c);
  // The in-place update of the MS (CORRECTED_DATA added and written, FLAG) is one critical
  // section (fringe/core/interrupt.h): a signal never ends the process while the MS is open for
  // writing. The run stops at the next solution interval instead (throw_if_requested), and
  // the unwinding finishes the queued writes, flushes and closes the MS first. Declared
  // before the MS, so it ends after the MS is closed.
  std::optional<interrupt::CriticalSection> updating;
  io::GainTable table;
  {
    // Exclusive: the column queues below read and write several columns at once.
    io::MsReader ms(c.ms_path, c.write_corrected ? io::MsReader::Access::ExclusiveUpdate
                                                 : io::MsReader::Access::Exclusive);
    const std::string& path = ms.path();
    check_settings_against_ms(c, ms);
    const bool predict_model = !c.sky_model_path.empty();
    const int nst = ms.num_stations(), nchan = ms.num_channels(), npol = ms.num_pols();
    const std::size_t nrows = ms.num_rows();
    const std::vector<double> times = ms.read_time();
    std::vector<std::size_t> time_start;  // first row of each distinct time
    for (std::size_t r = 0; r < nrows; ++r) {
      if (!std::isfinite(times[r])) {
        throw Error::in_file(path, 0,
                             "row " + std::to_string(r) +
                                 " has TIME = " + std::to_string(times[r]) +
                                 ": every row needs a finite time to be given a solution interval");
      }
      if (r > 0 && times[r] < times[r - 1]) {
        throw Error::in_file(path, 0, "rows are not in time order (row " + std::to_string(r) + ")");
      }
      if (r == 0 || times[r] != times[r - 1]) time_start.push_back(r);
    }
    time_start.push_back(nrows);
    const int ntimes = int(time_start.size()) - 1;
    const int tsol = c.times_per_solution <= 0 ? ntimes : std::min(c.times_per_solution, ntimes);
    const int csol =
        c.channels_per_solution <= 0 ? nchan : std::min(c.channels_per_solution, nchan);
    const int ngroups = (nchan + csol - 1) / csol;
    const std::vector<double> freqs = ms.channel_frequencies_hz();
    const double interval0 = nrows > 0 ? ms.read_interval(0, 1)[0] : 0.0;
    const bool gpu = uses_gpu(c.use_gpu);
    std::optional<SkyPredictor> predictor;
    if (predict_model) {
      Stopwatch sw(res.predict_sec);
      const std::array<double, 2> centre = ms.phase_centre_rad();
      predictor.emplace(c.sky_model_path, centre[0], centre[1], freqs, npol);
      if (gpu) predictor->use_gpu(0);
      if (log) {
        log->info("Model: " + std::to_string(predictor->num_sources()) + " point source(s) from " +
                  c.sky_model_path + " (no station beam), predicted on " +
                  (predictor->gpu() >= 0 ? "GPU 0" : "the CPU"));
      }
    }

    table.gain_type = gain_type_name(c.options.type);
    table.reference_station = c.options.reference_station;
    table.station_names = ms.station_names();
    std::optional<io::MsColumnWriter> corrected;
    if (c.write_corrected) {
      updating.emplace();
      interrupt::throw_if_requested();  // (before the first change to the MS)
      if (!ms.has_column("CORRECTED_DATA")) check_room_for_new_column(path, nrows, nchan, npol);
      corrected.emplace(path, "CORRECTED_DATA");
    }
    if (log) {
      log->info("Calibrating " + path + ": " + std::to_string(nst) + " stations, " +
                std::to_string(ntimes) + " times, " + std::to_string(nchan) + " channels, " +
                std::to_string(npol) + " pols; " + gain_type_name(c.options.type) + " gains per " +
                std::to_string(tsol) + " time(s) x " + std::to_string(csol) + " channel(s)");
    }

    double sum_before = 0, sum_after = 0, weight_sum = 0;
    long iteration_sum = 0;
    res.min_iterations = 1 << 30;
    // The samples of one solution interval as read from the MS. Reading and writing run on I/O
    // threads, one per storage manager (column_queues.h: DATA, MODEL_DATA, CORRECTED_DATA and
    // FLAG each have their own in a simulated MS), overlapping the computation: the next
    // interval is read and the previous one's CORRECTED_DATA written while this one is reordered
    // and solved.
    struct Interval {
      std::vector<Complex<float>> data, model;
      std::vector<std::uint8_t> flag;
      std::vector<float> weight;
      std::vector<int> ant1, ant2;
      std::vector<std::array<double, 3>> uvw;
      std::vector<double> seconds;  // each column read's time
    };
    // An interval being read: the buffers (at a fixed address while the reads fill them) and one
    // future per column read.
    struct PendingRead {
      std::unique_ptr<Interval> v;
      std::vector<std::future<void>> parts;
    };
    std::vector<std::string> columns = {c.data_column, "FLAG", "WEIGHT", "ANTENNA1", "ANTENNA2"};
    if (predict_model) {
      columns.push_back("UVW");
    } else {
      columns.push_back(c.model_column);
    }
    if (corrected) columns.push_back("CORRECTED_DATA");
    PendingRead next;
    // The last writes (at most one pending of each: bounded memory); CORRECTED_DATA's hands its
    // buffer back.
    std::future<std::vector<Complex<float>>> written;
    std::future<void> flags_written;
    std::unique_ptr<Interval> spare;  // a finished interval's buffers, for the next read
    // Declared after the buffers the I/O threads fill: if the calibration throws, the queues
    // finish their tasks (their destructor) before those buffers go away.
    ColumnQueues io(ms, columns);
    if (log) {
      log->info("I/O: " + std::to_string(columns.size()) + " columns on " +
                std::to_string(io.num_queues()) + " thread(s) (one per storage manager)");
    }
    // v: the buffers of a finished interval (their capacity is reused: no fresh pages to fault
    // in and clear for every interval).
    const auto read_interval = [&](int t0, std::unique_ptr<Interval> v) {
      const int t1 = std::min(ntimes, t0 + tsol);
      const std::size_t r0 = time_start[t0], nr = time_start[t1] - r0;
      PendingRead p;
      p.v = v ? std::move(v) : std::make_unique<Interval>();
      Interval* b = p.v.get();
      b->seconds.assign(columns.size(), 0.0);  // (at most one read per column)
      const auto push = [&](const std::string& column, auto read) {
        const std::size_t k = p.parts.size();
        p.parts.push_back(io.of(column).push([b, k, read]() mutable {
          Stopwatch sw(b->seconds[k]);
          read();
        }));
      };
      push(c.data_column, [&ms, &c, b, r0, nr] { ms.read_data(r0, nr, c.data_column, b->data); });
      push("FLAG", [&ms, b, r0, nr] { b->flag = ms.read_flag(r0, nr); });
      push("WEIGHT", [&ms, b, r0, nr] { b->weight = ms.read_weight(r0, nr); });
      push("ANTENNA1", [&ms, b, r0, nr] { b->ant1 = ms.read_antenna1(r0, nr); });
      push("ANTENNA2", [&ms, b, r0, nr] { b->ant2 = ms.read_antenna2(r0, nr); });
      if (predict_model) {
        push("UVW", [&ms, b, r0, nr] { b->uvw = ms.read_uvw(r0, nr); });
      } else {
        push(c.model_column,
             [&ms, &c, b, r0, nr] { ms.read_data(r0, nr, c.model_column, b->model); });
      }
      return p;
    };
    // Waits for every part (all of them, so no read is left running on buffers that go away),
    // then rethrows the first failure.
    const auto finish_read = [](PendingRead& p) {
      std::exception_ptr first;
      for (auto& f : p.parts) {
        try {
          f.get();
        } catch (...) {
          if (!first) first = std::current_exception();
        }
      }
      if (first) std::rethrow_exception(first);
      return std::move(p.v);
    };
    std::vector<CalCell<T>> cells(static_cast<std::size_t>(ngroups));  // reused likewise
    if (ntimes > 0) next = read_interval(0, nullptr);
    SolveWorkspace<T> workspace;
    // Until an interval solves something, the intervals that solve nothing are not written
    // (their CORRECTED_DATA would be zeros and FLAG all set): a run that solves nothing at all
    // (NaN weights, min_baselines too high, ...) fails without having flagged the user's data.
    bool solved_any = false;
    std::vector<std::pair<std::size_t, std::size_t>> unsolved_rows;  // (first row, rows)
    SampleCensus census;  // of those intervals, for the error message
    for (int t0 = 0; t0 < ntimes; t0 += tsol) {
      interrupt::throw_if_requested();  // between solution intervals
      const int t1 = std::min(ntimes, t0 + tsol);
      const std::size_t r0 = time_start[t0], r1 = time_start[t1], nr = r1 - r0;
      std::unique_ptr<Interval> cur_buffers;
      {
        Stopwatch sw(res.read_wait_sec);
        cur_buffers = finish_read(next);
      }
      Interval& cur = *cur_buffers;
      for (double s : cur.seconds) res.read_sec += s;
      if (t1 < ntimes) next = read_interval(t1, std::move(spare));
      const std::vector<Complex<float>>& data = cur.data;
      std::vector<Complex<float>>& model = cur.model;
      std::vector<std::uint8_t>& flag = cur.flag;
      const std::vector<float>& weight = cur.weight;
      const std::vector<int>& ant1 = cur.ant1;
      const std::vector<int>& ant2 = cur.ant2;
      if (predictor) {
        Stopwatch sw(res.predict_sec);
        const std::vector<std::array<double, 3>>& uvw = cur.uvw;
        model.assign(data.size(), Complex<float>{0, 0});
        for (int t = t0; t < t1; ++t) {
          const std::size_t off = time_start[t] - r0, count = time_start[t + 1] - time_start[t];
          predictor->predict_time(nst, ant1.data() + off, ant2.data() + off, uvw.data() + off,
                                  count, model.data() + off * std::size_t(nchan) * npol);
        }
      }
      // Cells: (row, channel) samples of each channel group; autocorrelations left out.
      {
        Stopwatch sw(res.reorder_sec);
#pragma omp parallel for
        for (int g = 0; g < ngroups; ++g) {
          CalCell<T>& cell = cells[g];
          cell.num_stations = nst;
          cell.num_pols = npol;
          const int c0 = g * csol, c1 = std::min(nchan, c0 + csol);
          const std::size_t expect = nr * std::size_t(c1 - c0);
          cell.station1.clear();
          cell.station2.clear();
          cell.data.clear();
          cell.model.clear();
          cell.weight.clear();
          cell.station1.reserve(expect);
          cell.station2.reserve(expect);
          cell.data.reserve(expect * npol);
          cell.model.reserve(expect * npol);
          cell.weight.reserve(expect * npol);
          for (std::size_t r = 0; r < nr; ++r) {
            if (ant1[r] == ant2[r]) continue;
            if (ant1[r] < 0 || ant2[r] < 0 || ant1[r] >= nst || ant2[r] >= nst) {
              continue;  // validated below (cannot throw inside OpenMP)
            }
            for (int ch = c0; ch < c1; ++ch) {
              cell.station1.push_back(ant1[r]);
              cell.station2.push_back(ant2[r]);
              for (int k = 0; k < npol; ++k) {
                const std::size_t i = (r * nchan + ch) * npol + k;
                const Complex<float> d = data[i], m = model[i];
                // A NaN, infinite or negative WEIGHT marks an unusable sample (as a flag).
                const float wr = weight[r * npol + k];
                const float w = flag[i] || !std::isfinite(wr) || wr < 0 ? 0.0f : wr;
                const bool finite = std::isfinite(d.re) && std::isfinite(d.im) &&
                                    std::isfinite(m.re) && std::isfinite(m.im);
                cell.data.push_back(complex_cast<T>(finite ? d : Complex<float>{0, 0}));
                cell.model.push_back(complex_cast<T>(finite ? m : Complex<float>{0, 0}));
                cell.weight.push_back(finite ? T(w) : T(0));
              }
            }
          }
        }
        for (std::size_t r = 0; r < nr; ++r) {
          if (ant1[r] < 0 || ant2[r] < 0 || ant1[r] >= nst || ant2[r] >= nst) {
            throw Error::in_file(path, 0,
                                 "row " + std::to_string(r0 + r) + " has antennas (" +
                                     std::to_string(ant1[r]) + ", " + std::to_string(ant2[r]) +
                                     ") outside the ANTENNA table");
          }
        }
      }
      std::vector<CellSolution<T>> sols;
      {
        Stopwatch sw(res.solve_sec);
        sols = solve_cells(cells, c.options, gpu, workspace, res);
      }
      const double tc = 0.5 * (times[r0] + times[r1 - 1]);
      const double span = times[r1 - 1] - times[r0] + interval0;
      for (int g = 0; g < ngroups; ++g) {
        const CellSolution<T>& s = sols[g];
        const int c0 = g * csol, c1 = std::min(nchan, c0 + csol);
        ++res.num_cells;
        switch (s.status.state) {
          case SolveState::Converged:
            ++res.num_converged;
            break;
          case SolveState::Stalled:
            ++res.num_stalled;
            break;
          case SolveState::MaxIterations:
            ++res.num_max_iterations;
            break;
          case SolveState::NoData:
            ++res.num_no_data;
            break;
        }
        res.min_iterations = std::min(res.min_iterations, s.status.iterations);
        res.max_iterations = std::max(res.max_iterations, s.status.iterations);
        iteration_sum += s.status.iterations;
        const double w = double(cells[g].num_rows());
        sum_before += w * s.rms_before * s.rms_before;
        sum_after += w * s.rms_after * s.rms_after;
        weight_sum += w;
        for (int p = 0; p < nst; ++p) {
          io::GainTableRow row;
          row.time_mjd_sec = tc;
          row.interval_sec = span;
          row.station = p;
          row.chan_start = c0;
          row.chan_end = c1 - 1;
          row.frequency_hz = 0.5 * (freqs[c0] + freqs[c1 - 1]);
          const Jones<T>& j = s.gains[p];
          row.gain = {complex_cast<double>(j.a), complex_cast<double>(j.b),
                      complex_cast<double>(j.c), complex_cast<double>(j.d)};
          row.flag = s.flagged[p] != 0;
          res.num_flagged_station_cells += row.flag ? 1 : 0;
          row.iterations = s.status.iterations;
          row.state = solve_state_name(s.status.state);
          row.rms_before = s.rms_before;
          row.rms_after = s.rms_after;
          table.rows.push_back(row);
        }
      }
      bool interval_solved = false;
      for (const CellSolution<T>& s : sols) {
        for (std::uint8_t f : s.flagged) interval_solved = interval_solved || (f == 0);
      }
      if (!solved_any && !interval_solved) {
        census.add(ant1, ant2, data, model, flag, weight, nchan, npol);
        unsolved_rows.emplace_back(r0, nr);
      } else if (!solved_any) {
        solved_any = true;
        // The earlier intervals that solved nothing: CORRECTED_DATA 0 and FLAG set, as below.
        if (corrected) {
          for (const auto& [u0, un] : unsolved_rows) {
            const std::size_t n = un * std::size_t(nchan) * npol;
            // On the columns' I/O threads (the next interval's reads are running).
            auto zeros = io.of("CORRECTED_DATA").push([&corrected, u0 = u0, un = un, n] {
              corrected->write(u0, un, std::vector<Complex<float>>(n, Complex<float>{0, 0}));
            });
            auto ones = io.of("FLAG").push([&corrected, u0 = u0, un = un, n] {
              corrected->write_flags(u0, un, std::vector<std::uint8_t>(n, 1));
            });
            zeros.get();
            ones.get();
          }
        }
        unsolved_rows.clear();
      }
      if (corrected && solved_any) {
        std::vector<Complex<float>> out;
        std::optional<Stopwatch> sw(std::in_place, res.write_wait_sec);
        if (written.valid()) out = written.get();  // rethrows a failed write
        if (flags_written.valid()) flags_written.get();
        sw.emplace(res.correct_sec);
        out.assign(data.size(), Complex<float>{0, 0});
        // 4 pols: every station's G^-1 once per cell, not once per sample (the same values).
        std::vector<Jones<T>> inverse(npol == 4 ? std::size_t(ngroups) * nst : 0);
        std::vector<std::uint8_t> invertible(inverse.size(), 0);
#pragma omp parallel for
        for (std::size_t j = 0; j < inverse.size(); ++j) {
          const CellSolution<T>& s = sols[j / nst];
          const std::size_t p = j % nst;
          invertible[j] = !s.flagged[p] && invert_gain(s.gains[p], inverse[j]);
        }
        bool new_flags = false;
#pragma omp parallel for reduction(|| : new_flags)
        for (std::size_t r = 0; r < nr; ++r) {
          const int p = ant1[r], q = ant2[r];
          for (int ch = 0; ch < nchan; ++ch) {
            const CellSolution<T>& s = sols[ch / csol];
            const std::size_t i = (r * nchan + ch) * npol;
            Complex<T> in[4], res4[4];
            for (int k = 0; k < npol; ++k) in[k] = complex_cast<T>(data[i + k]);
            bool ok = false;
            if (npol == 4) {
              const std::size_t jp = std::size_t(ch / csol) * nst + p;
              const std::size_t jq = std::size_t(ch / csol) * nst + q;
              ok = invertible[jp] && invertible[jq];
              if (ok) apply_inverses_row(inverse[jp], inverse[jq], in, res4);
            } else {
              ok = !s.flagged[p] && !s.flagged[q] &&
                   apply_inverse_row(s.gains[p], s.gains[q], in, res4, npol);
            }
            for (int k = 0; k < npol; ++k) {
              out[i + k] = ok ? complex_cast<float>(res4[k]) : Complex<float>{0, 0};
              if (!ok && !flag[i + k]) {
                flag[i + k] = 1;
                new_flags = true;
              }
            }
          }
        }
        sw.reset();
        written =
            io.of("CORRECTED_DATA")
                .push([&res, &corrected, r0, nr, out = std::move(out)]() mutable {
                  Stopwatch w(res.write_sec);  // (only this thread adds to write_sec until get())
                  corrected->write(r0, nr, out);
                  return std::move(out);
                });
        if (new_flags) {
          flags_written =
              io.of("FLAG").push([&res, &corrected, r0, nr, flag = std::move(flag)]() mutable {
                Stopwatch w(res.write_flags_sec);
                corrected->write_flags(r0, nr, flag);
              });
        }
      }
      if (log) {
        log->info("  times " + std::to_string(t0) + ".." + std::to_string(t1 - 1) + ": " +
                  std::to_string(ngroups) + " cell(s) solved");
      }
      spare = std::move(cur_buffers);
    }
    if (!solved_any) throw nothing_solved(path, c, res.num_cells, census, bool(corrected));
    if (res.num_cells == 0) res.min_iterations = 0;
    res.mean_iterations = res.num_cells > 0 ? double(iteration_sum) / res.num_cells : 0.0;
    res.rms_before = weight_sum > 0 ? std::sqrt(sum_before / weight_sum) : 0.0;
    res.rms_after = weight_sum > 0 ? std::sqrt(sum_after / weight_sum) : 0.0;
    {
      Stopwatch sw(res.write_sec);
      if (written.valid()) written.get();
      if (flags_written.valid()) flags_written.get();
      res.write_sec += res.write_flags_sec;
      if (corrected) corrected->flush();
    }
  }  // the MS is closed: the in-place update is complete
  updating.reset();
  interrupt::throw_if_requested();  // a signal during the update: no gain table
  {
    Stopwatch sw(res.write_sec);
    res.gains_path = gains_path_of(c);
    io::write_gain_table(res.gains_path, table);
    io::write_gain_csv(res.gains_path + ".csv", table);
  }
  return res;
}

}  // namespace

CalibrateMsResult calibrate_ms(const CalibrateMsConfig& config, Logger* log) {
  return config.double_precision ? run<double>(config, log) : run<float>(config, log);
}

}  // namespace fringe::calibrate
