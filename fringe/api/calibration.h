// Calibration through the public API (docs/cpp_api.md, docs/python.md "Beams, imaging and
// calibration"): StEFCal gains (fringe/calibrate, docs/calibration.md) solved from visibility
// arrays in memory, or on a Measurement Set (calibrate::calibrate_ms: gain table, CSV and
// CORRECTED_DATA written). Convention: R_pq = G_p M_pq G_q^H for data R, model M and 2x2
// station gains G (scalar gains: g I; diagonal: diag(gX, gY)); the solution's free phase is fixed
// by making the reference station's gain (each diagonal entry) real and positive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/core/log.h"

namespace fringe::api {

using calibrate::GainType;

// How the gains are solved (both paths).
struct CalibrationOptions {
  calibrate::CalOptions solver;   // gain type, iterations, tolerance, reference station,
                                  // minimum baselines per station
  int times_per_solution = 1;     // time steps per solution interval; 0: all times
  int channels_per_solution = 0;  // channels per solution; 0: all channels
};

// Visibilities in memory, row-major and C-contiguous:
//   data, model: complex [row][channel][pol], num_pols 1 (one product) or 4 (XX, XY, YX, YY);
//   weight: [row][channel][pol] (0 = flagged), or empty (every weight 1);
//   antenna1, antenna2: [row] station indices (rows with antenna1 == antenna2 are ignored);
//   time: [row] any unit (rows with the same value are one time step; intervals group
//   times_per_solution distinct times in increasing order), or empty (every row one time).
// num_stations: 0 = the largest antenna index + 1.
struct VisibilityArrays {
  std::size_t num_rows = 0;
  int num_channels = 1;
  int num_pols = 1;
  std::span<const Complex<double>> data;
  std::span<const Complex<double>> model;
  std::span<const double> weight;
  std::span<const int> antenna1;
  std::span<const int> antenna2;
  std::span<const double> time;
  int num_stations = 0;
};

// The gains per solution cell (interval x channel group) and station.
struct GainSolution {
  int num_intervals = 0;
  int num_channel_groups = 0;
  int num_stations = 0;
  GainType type = GainType::Diagonal;
  // [interval][channel group][station], each a 2x2 matrix row-major (XX, XY, YX, YY);
  // scalar gains are g I, diagonal diag(gX, gY); flagged stations 0.
  std::vector<Jones<double>> gains;
  std::vector<std::uint8_t> flagged;  // [interval][channel group][station], 1 = not solved
  // Per cell [interval][channel group]:
  std::vector<int> iterations;
  std::vector<std::string> state;     // "converged", "stalled", "max_iterations", "no_data"
  std::vector<double> rms_before;     // weighted RMS of R - M (data units, e.g. Jy)
  std::vector<double> rms_after;      // weighted RMS of R - G_p M G_q^H
  std::vector<double> interval_time;  // [interval] mean of its rows' time (array path) or
                                      // the interval centre (MS path: MJD(UTC) x 86400, s)
  std::vector<int> chan_start;        // [channel group] first channel
  std::vector<int> chan_end;          // [channel group] last channel (inclusive)
};

// Solves every cell on the CPU (calibrate::solve_cell_cpu). fringe::Error for arrays of the
// wrong size, pols other than 1 or 4, diagonal or full-Jones gains with 1 pol, station indices
// out of range, or non-finite values.
GainSolution solve_gains(const VisibilityArrays& vis, const CalibrationOptions& options);

// Calibrates a Measurement Set (calibrate::calibrate_ms with `config`: writes the gain table at
// config.gains_path (or <ms>.gains), its CSV and, unless config.write_corrected is false,
// CORRECTED_DATA) and returns the gains read back from the table. result (nullable) gets the
// run's summary.
GainSolution calibrate_ms(const calibrate::CalibrateMsConfig& config,
                          calibrate::CalibrateMsResult* result = nullptr, Logger* log = nullptr);

}  // namespace fringe::api
