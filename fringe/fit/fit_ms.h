// Observed data for the likelihood from a Measurement Set (docs/model_fitting.md): the
// cross-correlation rows of a visibility column (DATA by default), WEIGHT per product spread
// over the channels, FLAG folded into the weights (flagged = weight 0), UVW, ANTENNA1/2, the
// channel frequencies of spectral window 0 and the phase centre of FIELD 0. Rows are kept in
// file order; auto-correlations are left out.
#pragma once

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
};

// Throws fringe::Error naming the path and the column: not a Measurement Set, no such data
// column, no WEIGHT column, a correlation layout other than 1 or 4 products, no
// cross-correlations.
MsObservation load_ms_observation(const std::string& ms_path, const std::string& column = "DATA");

}  // namespace fringe::fit
