// Observed data for the likelihood from a Measurement Set (docs/model_fitting.md): the
// cross-correlation rows of a visibility column (DATA by default), WEIGHT per product spread
// over the channels, FLAG folded into the weights (flagged = weight 0), UVW, ANTENNA1/2, the
// channel frequencies of spectral window 0 and the phase centre of FIELD 0. Rows are kept in
// file order; auto-correlations are left out.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "fringe/fit/fit_data.h"
#include "fringe/fit/likelihood.h"

namespace fringe::fit {

struct MsObservation {
  ObservedData data;
  PhaseCentre centre;
  std::vector<double> times_mjd_utc;  // the distinct TIME values, ascending (days);
                                      // data.time_index indexes this list
  std::vector<std::size_t> ms_rows;   // [row]: the Measurement Set row of each kept row
  std::size_t ms_num_rows = 0;        // rows of the Measurement Set, auto-correlations included
};

// Writes values [row][channel][pol] of the kept rows (model or residual) into `column` of the
// Measurement Set (io::MsColumnWriter, in place); auto-correlation rows get base_autos'
// values (flat [ms_row][channel][pol] of the whole MS; empty: zeros). Refuses the column the
// observed data came from, DATA, and (unless replace_existing) any column that exists
// already, naming it: the MS's own columns are never overwritten by accident.
void write_ms_column(const std::string& ms_path, const MsObservation& layout,
                     const std::string& data_column, const std::string& column,
                     const std::vector<Complex<double>>& values, bool replace_existing,
                     bool keep_autos_from_data);

// Throws fringe::Error naming the path and the column: not a Measurement Set, no such data
// column, no WEIGHT column, a correlation layout other than 1 or 4 products, no
// cross-correlations.
// time_average_sec > 0 also fills data.time_smearing (time_smearing_for_rows) from the
// ANTENNA positions, the rows' TIME (dump centres) and the FIELD phase centre.
MsObservation load_ms_observation(const std::string& ms_path, const std::string& column = "DATA",
                                  double time_average_sec = 0.0);

// The time-smearing coefficients of each row ([row][3], ObservedData::time_smearing): OSKAR's
// analytic Earth-rotation smearing (predict::time_smearing_coefficients) of the baseline
// (x_p - x_q, y_p - y_q) in ECEF metres, at GAST of the row's time (MJD(UTC) days, used as UT1)
// about the phase centre, for dumps of time_average_sec seconds, at 1 / lambda = 1 / m.
std::vector<double> time_smearing_for_rows(const std::vector<std::array<double, 3>>& station_ecef_m,
                                           const std::vector<int>& antenna1,
                                           const std::vector<int>& antenna2,
                                           const std::vector<double>& time_mjd_utc,
                                           PhaseCentre centre, double time_average_sec);

}  // namespace fringe::fit
