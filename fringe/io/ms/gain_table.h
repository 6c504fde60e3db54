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
// Output safety (fringe/core/output_guard.h): the table's table.info Type is kGainTableType
// and the CSV's first line starts with kGainCsvSignature, so that a later run recognises an
// earlier gain output and may replace it; anything else at the path (a folder such as '.',
// a Measurement Set, another table, a sky model, any other file) is refused before writing.
// Both are written under a temporary name (removed on failure or a signal) and committed
// when complete: a failure (disk full, file-size limit) is a fringe::Error naming the path,
// with the temporary removed and the final path unchanged. casacore-free header, C++17.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/output_guard.h"

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

// The table.info Type of a gain table and the first-line signature of a gain CSV.
inline constexpr const char* kGainTableType = "fringe gains";
inline constexpr const char* kGainCsvSignature = "# fringe gains";

// The output-guard targets of a gain table and its CSV (for the apps' check_outputs; key is
// the settings key that names the path).
OutputTarget gain_table_target(const std::string& key, const std::string& path);
OutputTarget gain_csv_target(const std::string& key, const std::string& path);

// path: a folder (casacore table); only an earlier gain table there is replaced, once the
// new one is complete.
void write_gain_table(const std::string& path, const GainTable& table);
// path: a text file; only an earlier gain CSV there is replaced.
void write_gain_csv(const std::string& path, const GainTable& table);
// Reads a table written by write_gain_table (tests, applying solutions).
GainTable read_gain_table(const std::string& path);

}  // namespace fringe::io
