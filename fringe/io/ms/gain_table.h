// Gain tables: per (solution interval, channel group, station) complex 2x2 gains, written as a
// casacore table (readable by python-casacore and casacore tools) and as CSV. Used for the true
// gains of a corrupted simulation and for StEFCal solutions (docs/calibration.md).
//
// casacore table: one row per (interval, channel group, station), columns
//   TIME (s, MJD UTC x 86400, interval centre), INTERVAL (s), ANTENNA1 (station index),
//   CHAN_START, CHAN_END (channel indices, inclusive), FREQUENCY (Hz, group centre),
//   GAIN (complex double [4] = G_XX, G_XY, G_YX, G_YY: the Jones matrix row-major),
//   FLAG (bool), ITERATIONS (int, -1 for true gains), STATE (string: converged, stalled,
//   max_iterations, no_data, true), RMS_BEFORE, RMS_AFTER (Jy, cell residuals; 0 for truth);
// table keywords GAIN_TYPE (scalar, diagonal, full_jones), REFERENCE_ANTENNA (int, -1 none),
// CONVENTION ("V_pq = G_p M_pq G_q^H"), STATION_NAMES (string array).
// CSV: a '#' header of the same keywords, then the columns
//   time_mjd_s,interval_s,station,chan_start,chan_end,frequency_hz,
//   xx_re,xx_im,xy_re,xy_im,yx_re,yx_im,yy_re,yy_im,flag,iterations,state,rms_before,rms_after
// Both are written under a temporary name and renamed when complete. Errors name the path.
// casacore-free header, C++17.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::io {

struct GainTableRow {
  double time_mjd_sec = 0;
  double interval_sec = 0;
  int station = 0;
  int chan_start = 0;
  int chan_end = 0;
  double frequency_hz = 0;
  std::array<Complex<double>, 4> gain{};  // XX, XY, YX, YY
  bool flag = false;
  int iterations = -1;
  std::string state = "true";
  double rms_before = 0;
  double rms_after = 0;
};

struct GainTable {
  std::string gain_type = "diagonal";
  int reference_station = -1;
  std::vector<std::string> station_names;
  std::vector<GainTableRow> rows;
};

// path: a folder (casacore table); an existing one is replaced once the new one is complete.
void write_gain_table(const std::string& path, const GainTable& table);
void write_gain_csv(const std::string& path, const GainTable& table);
// Reads a table written by write_gain_table (tests, applying solutions).
GainTable read_gain_table(const std::string& path);

}  // namespace fringe::io
