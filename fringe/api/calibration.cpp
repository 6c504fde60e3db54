// StEFCal over arrays and on a Measurement Set (calibration.h).
#include "fringe/api/calibration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "fringe/core/error.h"
#include "fringe/io/ms/gain_table.h"

namespace fringe::api {
namespace {

void check_size(const char* name, std::size_t have, std::size_t want) {
  if (have != want)
    throw Error("calibration: " + std::string(name) + " has " + std::to_string(have) +
                " values, expected " + std::to_string(want));
}

void check_arrays(const VisibilityArrays& v, const CalibrationOptions& o) {
  if (v.num_pols != 1 && v.num_pols != 4)
    throw Error("calibration: " + std::to_string(v.num_pols) +
                " polarisations per visibility, expected 1 or 4 (XX, XY, YX, YY)");
  if (v.num_channels < 1) throw Error("calibration: no channels");
  if (v.num_rows == 0) throw Error("calibration: no visibilities");
  if (v.num_pols == 1 && o.solver.type != GainType::Scalar)
    throw Error("calibration: " + calibrate::gain_type_name(o.solver.type) +
                " gains need 4 polarisations (XX, XY, YX, YY); one-product data takes scalar "
                "gains");
  const std::size_t n = v.num_rows * std::size_t(v.num_channels) * std::size_t(v.num_pols);
  check_size("data", v.data.size(), n);
  check_size("model", v.model.size(), n);
  if (!v.weight.empty()) check_size("weight", v.weight.size(), n);
  check_size("antenna1", v.antenna1.size(), v.num_rows);
  check_size("antenna2", v.antenna2.size(), v.num_rows);
  if (!v.time.empty()) check_size("time", v.time.size(), v.num_rows);
  if (o.times_per_solution < 0 || o.channels_per_solution < 0)
    throw Error("calibration: times_per_solution and channels_per_solution must be >= 0 (0: all)");
  for (std::size_t k = 0; k < n; ++k) {
    const auto bad = [](Complex<double> z) { return !std::isfinite(z.re) || !std::isfinite(z.im); };
    if (bad(v.data[k]) || bad(v.model[k]) || (!v.weight.empty() && !std::isfinite(v.weight[k])))
      throw Error("calibration: non-finite data, model or weight at row " +
                  std::to_string(k / (std::size_t(v.num_channels) * v.num_pols)));
  }
}

// Every (interval, channel group) cell of s: gains 0 and flagged, no iterations, state
// "no_data", until a solution or a table row fills it.
void allocate_cells(GainSolution& s, std::size_t ncell, int nst) {
  s.gains.assign(ncell * std::size_t(nst), Jones<double>{});
  s.flagged.assign(ncell * std::size_t(nst), 1);
  s.iterations.assign(ncell, 0);
  s.state.assign(ncell, "no_data");
  s.rms_before.assign(ncell, 0.0);
  s.rms_after.assign(ncell, 0.0);
}

}  // namespace

GainSolution solve_gains(const VisibilityArrays& v, const CalibrationOptions& o) {
  check_arrays(v, o);
  int nst = v.num_stations;
  int max_index = -1;
  for (std::size_t r = 0; r < v.num_rows; ++r) {
    if (v.antenna1[r] < 0 || v.antenna2[r] < 0)
      throw Error("calibration: negative station index at row " + std::to_string(r));
    max_index = std::max({max_index, v.antenna1[r], v.antenna2[r]});
  }
  if (nst <= 0) nst = max_index + 1;
  if (max_index >= nst)
    throw Error("calibration: station index " + std::to_string(max_index) + " but only " +
                std::to_string(nst) + " stations");
  if (o.solver.reference_station < 0 || o.solver.reference_station >= nst)
    throw Error("calibration: reference station " + std::to_string(o.solver.reference_station) +
                " outside 0.." + std::to_string(nst - 1));

  // Time step of each row: the rank of its time among the distinct times.
  std::vector<int> step(v.num_rows, 0);
  int num_times = 1;
  if (!v.time.empty()) {
    std::vector<double> t(v.time.begin(), v.time.end());
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    num_times = int(t.size());
    for (std::size_t r = 0; r < v.num_rows; ++r)
      step[r] = int(std::lower_bound(t.begin(), t.end(), v.time[r]) - t.begin());
  }
  const int tps = o.times_per_solution > 0 ? o.times_per_solution : num_times;
  const int cps = o.channels_per_solution > 0 ? o.channels_per_solution : v.num_channels;
  GainSolution s;
  s.num_intervals = (num_times + tps - 1) / tps;
  s.num_channel_groups = (v.num_channels + cps - 1) / cps;
  s.num_stations = nst;
  s.type = o.solver.type;
  const std::size_t ncell = std::size_t(s.num_intervals) * s.num_channel_groups;
  allocate_cells(s, ncell, nst);
  s.interval_time.assign(s.num_intervals, 0.0);
  for (int g = 0; g < s.num_channel_groups; ++g) {
    s.chan_start.push_back(g * cps);
    s.chan_end.push_back(std::min(v.num_channels, (g + 1) * cps) - 1);
  }
  // Rows of each interval, in input order.
  std::vector<std::vector<std::size_t>> rows(s.num_intervals);
  for (std::size_t r = 0; r < v.num_rows; ++r) rows[step[r] / tps].push_back(r);
  const std::size_t np = std::size_t(v.num_pols);
  for (int i = 0; i < s.num_intervals; ++i) {
    double tsum = 0;
    for (std::size_t r : rows[i]) tsum += v.time.empty() ? 0.0 : v.time[r];
    if (!rows[i].empty()) s.interval_time[i] = tsum / double(rows[i].size());
    for (int g = 0; g < s.num_channel_groups; ++g) {
      calibrate::CalCell<double> cell;
      cell.num_stations = nst;
      cell.num_pols = v.num_pols;
      for (std::size_t r : rows[i]) {
        if (v.antenna1[r] == v.antenna2[r]) continue;  // autocorrelations are not used
        for (int c = s.chan_start[g]; c <= s.chan_end[g]; ++c) {
          cell.station1.push_back(v.antenna1[r]);
          cell.station2.push_back(v.antenna2[r]);
          const std::size_t k = (r * v.num_channels + c) * np;
          for (std::size_t q = 0; q < np; ++q) {
            cell.data.push_back(v.data[k + q]);
            cell.model.push_back(v.model[k + q]);
            cell.weight.push_back(v.weight.empty() ? 1.0 : v.weight[k + q]);
          }
        }
      }
      const std::size_t ci = std::size_t(i) * s.num_channel_groups + g;
      if (cell.num_rows() == 0) continue;
      cell.validate();
      const calibrate::CellSolution<double> sol = calibrate::solve_cell_cpu(cell, o.solver);
      for (int p = 0; p < nst; ++p) {
        s.gains[ci * nst + p] = sol.gains[p];
        s.flagged[ci * nst + p] = sol.flagged[p];
      }
      s.iterations[ci] = sol.status.iterations;
      s.state[ci] = calibrate::solve_state_name(sol.status.state);
      s.rms_before[ci] = sol.rms_before;
      s.rms_after[ci] = sol.rms_after;
    }
  }
  return s;
}

GainSolution calibrate_ms(const calibrate::CalibrateMsConfig& config,
                          calibrate::CalibrateMsResult* result, Logger* log) {
  const calibrate::CalibrateMsResult res = calibrate::calibrate_ms(config, log);
  if (result) *result = res;
  const io::GainTable table = io::read_gain_table(res.gains_path);
  GainSolution s;
  s.type = table.gain_type == "scalar"       ? GainType::Scalar
           : table.gain_type == "full_jones" ? GainType::FullJones
                                             : GainType::Diagonal;
  // Rows per (interval, channel group, station), in that order; index them by their values.
  std::map<double, int> times;
  std::map<int, int> groups;
  int nst = int(table.station_names.size());
  for (const auto& r : table.rows) {
    times.emplace(r.time_mjd_sec, 0);
    groups.emplace(r.chan_start, r.chan_end);
    nst = std::max(nst, r.station + 1);
  }
  s.num_intervals = int(times.size());
  s.num_channel_groups = int(groups.size());
  s.num_stations = nst;
  int k = 0;
  for (auto& [t, index] : times) {
    index = k++;
    s.interval_time.push_back(t);
  }
  std::map<int, int> group_index;
  for (const auto& [start, end] : groups) {
    group_index[start] = int(s.chan_start.size());
    s.chan_start.push_back(start);
    s.chan_end.push_back(end);
  }
  const std::size_t ncell = std::size_t(s.num_intervals) * s.num_channel_groups;
  allocate_cells(s, ncell, nst);
  for (const auto& r : table.rows) {
    const std::size_t ci =
        std::size_t(times.at(r.time_mjd_sec)) * s.num_channel_groups + group_index.at(r.chan_start);
    s.gains[ci * nst + r.station] = {r.gain[0], r.gain[1], r.gain[2], r.gain[3]};
    s.flagged[ci * nst + r.station] = r.flag ? 1 : 0;
    s.iterations[ci] = r.iterations;
    s.state[ci] = r.state;
    s.rms_before[ci] = r.rms_before;
    s.rms_after[ci] = r.rms_after;
  }
  return s;
}

}  // namespace fringe::api
