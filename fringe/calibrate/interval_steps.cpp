// The computing steps of one solution interval of a calibration (interval_steps.h).
#include "fringe/calibrate/interval_steps.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "fringe/core/error.h"

namespace fringe::calibrate {

namespace {

bool antennas_valid(int a1, int a2, int nst) { return a1 >= 0 && a2 >= 0 && a1 < nst && a2 < nst; }

// The cross-correlation samples of rows [0, nr) of the interval and channels [c0, c1) into
// cell (emptied first).
template <typename T>
void fill_cell(const MsLayout& l, std::size_t nr, int c0, int c1, const IntervalSamples& v,
               CalCell<T>& cell) {
  const int nst = l.num_stations, nchan = l.num_channels, npol = l.num_pols;
  cell.num_stations = nst;
  cell.num_pols = npol;
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
    if (v.ant1[r] == v.ant2[r]) continue;
    if (!antennas_valid(v.ant1[r], v.ant2[r], nst)) continue;  // (fill_cells throws)
    for (int ch = c0; ch < c1; ++ch) {
      cell.station1.push_back(v.ant1[r]);
      cell.station2.push_back(v.ant2[r]);
      for (int k = 0; k < npol; ++k) {
        const std::size_t i = (r * nchan + ch) * npol + k;
        const Complex<float> d = v.data[i], m = v.model[i];
        // A NaN, infinite or negative WEIGHT marks an unusable sample (as a flag).
        const float wr = v.weight[r * npol + k];
        const float w = v.flag[i] || !std::isfinite(wr) || wr < 0 ? 0.0f : wr;
        const bool finite = std::isfinite(d.re) && std::isfinite(d.im) && std::isfinite(m.re) &&
                            std::isfinite(m.im);
        cell.data.push_back(complex_cast<T>(finite ? d : Complex<float>{0, 0}));
        cell.model.push_back(complex_cast<T>(finite ? m : Complex<float>{0, 0}));
        cell.weight.push_back(finite ? T(w) : T(0));
      }
    }
  }
}

// One gain-table row per station of a cell's solution.
template <typename T>
void add_gain_rows(const MsLayout& l, const IntervalSpan& span, int g, const CellSolution<T>& s,
                   io::GainTable& table, CalibrateMsResult& res) {
  const std::size_t r1 = span.r0 + span.nr;
  const int c0 = l.group_start(g), c1 = l.group_end(g);
  for (int p = 0; p < l.num_stations; ++p) {
    io::GainTableRow row;
    row.time_mjd_sec = 0.5 * (l.times[span.r0] + l.times[r1 - 1]);
    row.interval_sec = l.times[r1 - 1] - l.times[span.r0] + l.interval0;
    row.station = p;
    row.chan_start = c0;
    row.chan_end = c1 - 1;
    row.frequency_hz = 0.5 * (l.frequencies_hz[c0] + l.frequencies_hz[c1 - 1]);
    const Jones<T>& j = s.gains[p];
    row.gain = {complex_cast<double>(j.a), complex_cast<double>(j.b), complex_cast<double>(j.c),
                complex_cast<double>(j.d)};
    row.flag = s.flagged[p] != 0;
    res.num_flagged_station_cells += row.flag ? 1 : 0;
    row.iterations = s.status.iterations;
    row.state = solve_state_name(s.status.state);
    row.rms_before = s.rms_before;
    row.rms_after = s.rms_after;
    table.rows.push_back(row);
  }
}

void count_state(SolveState state, CalibrateMsResult& res) {
  switch (state) {
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
}

}  // namespace

void predict_interval(const SkyPredictor& predictor, const MsLayout& l, const IntervalSpan& span,
                      IntervalSamples& v) {
  v.model.assign(v.data.size(), Complex<float>{0, 0});
  for (int t = span.t0; t < span.t1; ++t) {
    const std::size_t off = l.time_start[t] - span.r0;
    const std::size_t count = l.time_start[t + 1] - l.time_start[t];
    predictor.predict_time(l.num_stations, v.ant1.data() + off, v.ant2.data() + off,
                           v.uvw.data() + off, count,
                           v.model.data() + off * std::size_t(l.num_channels) * l.num_pols);
  }
}

template <typename T>
void fill_cells(const MsLayout& l, const IntervalSpan& span, const IntervalSamples& v,
                std::vector<CalCell<T>>& cells) {
#pragma omp parallel for
  for (int g = 0; g < l.num_groups; ++g) {
    fill_cell(l, span.nr, l.group_start(g), l.group_end(g), v, cells[g]);
  }
  for (std::size_t r = 0; r < span.nr; ++r) {
    if (!antennas_valid(v.ant1[r], v.ant2[r], l.num_stations)) {
      throw Error::in_file(l.path, 0,
                           "row " + std::to_string(span.r0 + r) + " has antennas (" +
                               std::to_string(v.ant1[r]) + ", " + std::to_string(v.ant2[r]) +
                               ") outside the ANTENNA table");
    }
  }
}

template <typename T>
bool any_solved(const std::vector<CellSolution<T>>& sols) {
  for (const CellSolution<T>& s : sols) {
    for (std::uint8_t f : s.flagged) {
      if (f == 0) return true;
    }
  }
  return false;
}

template <typename T>
void add_solutions(const MsLayout& l, const IntervalSpan& span,
                   const std::vector<CalCell<T>>& cells, const std::vector<CellSolution<T>>& sols,
                   io::GainTable& table, SolutionTally& tally, CalibrateMsResult& res) {
  for (int g = 0; g < l.num_groups; ++g) {
    const CellSolution<T>& s = sols[g];
    ++res.num_cells;
    count_state(s.status.state, res);
    tally.min_iterations = std::min(tally.min_iterations, s.status.iterations);
    res.max_iterations = std::max(res.max_iterations, s.status.iterations);
    tally.iteration_sum += s.status.iterations;
    const double w = double(cells[g].num_rows());
    tally.sum_before += w * s.rms_before * s.rms_before;
    tally.sum_after += w * s.rms_after * s.rms_after;
    tally.weight_sum += w;
    add_gain_rows(l, span, g, s, table, res);
  }
}

void finish_solution_counts(const SolutionTally& t, CalibrateMsResult& res) {
  res.min_iterations = res.num_cells == 0 ? 0 : t.min_iterations;
  res.mean_iterations = res.num_cells > 0 ? double(t.iteration_sum) / res.num_cells : 0.0;
  res.rms_before = t.weight_sum > 0 ? std::sqrt(t.sum_before / t.weight_sum) : 0.0;
  res.rms_after = t.weight_sum > 0 ? std::sqrt(t.sum_after / t.weight_sum) : 0.0;
}

template <typename T>
bool correct_interval(const MsLayout& l, const IntervalSpan& span,
                      const std::vector<CellSolution<T>>& sols, IntervalSamples& v,
                      std::vector<Complex<float>>& out) {
  const int nst = l.num_stations, nchan = l.num_channels, npol = l.num_pols;
  const int csol = l.channels_per_solution;
  out.assign(v.data.size(), Complex<float>{0, 0});
  // 4 pols: every station's G^-1 once per cell, not once per sample (the same values).
  std::vector<Jones<T>> inverse(npol == 4 ? std::size_t(l.num_groups) * nst : 0);
  std::vector<std::uint8_t> invertible(inverse.size(), 0);
#pragma omp parallel for
  for (std::size_t j = 0; j < inverse.size(); ++j) {
    const CellSolution<T>& s = sols[j / nst];
    const std::size_t p = j % nst;
    invertible[j] = !s.flagged[p] && invert_gain(s.gains[p], inverse[j]);
  }
  bool new_flags = false;
#pragma omp parallel for reduction(|| : new_flags)
  for (std::size_t r = 0; r < span.nr; ++r) {
    const int p = v.ant1[r], q = v.ant2[r];
    for (int ch = 0; ch < nchan; ++ch) {
      const CellSolution<T>& s = sols[ch / csol];
      const std::size_t i = (r * nchan + ch) * npol;
      Complex<T> in[4], res4[4];
      for (int k = 0; k < npol; ++k) in[k] = complex_cast<T>(v.data[i + k]);
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
        if (!ok && !v.flag[i + k]) {
          v.flag[i + k] = 1;
          new_flags = true;
        }
      }
    }
  }
  return new_flags;
}

#define FRINGE_CALIBRATE_INSTANTIATE(T)                                                         \
  template void fill_cells<T>(const MsLayout&, const IntervalSpan&, const IntervalSamples&,     \
                              std::vector<CalCell<T>>&);                                        \
  template bool any_solved<T>(const std::vector<CellSolution<T>>&);                             \
  template void add_solutions<T>(                                                               \
      const MsLayout&, const IntervalSpan&, const std::vector<CalCell<T>>&,                     \
      const std::vector<CellSolution<T>>&, io::GainTable&, SolutionTally&, CalibrateMsResult&); \
  template bool correct_interval<T>(const MsLayout&, const IntervalSpan&,                       \
                                    const std::vector<CellSolution<T>>&, IntervalSamples&,      \
                                    std::vector<Complex<float>>&);
FRINGE_CALIBRATE_INSTANTIATE(float)
FRINGE_CALIBRATE_INSTANTIATE(double)
#undef FRINGE_CALIBRATE_INSTANTIATE

}  // namespace fringe::calibrate
