// The computing steps of one solution interval of a calibration (calibrate_ms.h), between its
// read and its write (interval_io.h): the model predicted from a sky model, the samples
// reordered into one cell per channel group, the solutions counted and added to the gain
// table, and CORRECTED_DATA = G_p^-1 DATA G_q^-H computed (samples of unsolved stations
// flagged). T: the solver's precision.
#pragma once

#include <cstdint>
#include <vector>

#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/calibrate/interval_io.h"
#include "fringe/calibrate/sky_predict.h"
#include "fringe/io/ms/gain_table.h"

namespace fringe::calibrate {

// samples.model (every row and channel) from the predictor, time by time (samples.uvw).
void predict_interval(const SkyPredictor& predictor, const MsLayout& layout,
                      const IntervalSpan& span, IntervalSamples& samples);

// The cells of the interval, one per channel group (reused: their capacity is kept): every
// cross-correlation (row, channel) sample of the group. A flagged sample, or one with a NaN,
// infinite or negative WEIGHT, gets weight 0; one with non-finite data or model gets 0 for
// all three. fringe::Error (naming the MS and the row) for antennas outside the ANTENNA table.
template <typename T>
void fill_cells(const MsLayout& layout, const IntervalSpan& span, const IntervalSamples& samples,
                std::vector<CalCell<T>>& cells);

// True when any station of any cell of the interval was solved.
template <typename T>
bool any_solved(const std::vector<CellSolution<T>>& sols);

// Sums over the cells of a run for its averages; each cell is weighted by its rows.
struct SolutionTally {
  double sum_before = 0, sum_after = 0, weight_sum = 0;  // of weight x RMS^2
  long iteration_sum = 0;
  int min_iterations = 1 << 30;
};

// The interval's solutions into the gain table (one row per cell and station, cells in
// channel order), the run's counts (cells, states, iterations, unsolved stations) and tally.
template <typename T>
void add_solutions(const MsLayout& layout, const IntervalSpan& span,
                   const std::vector<CalCell<T>>& cells, const std::vector<CellSolution<T>>& sols,
                   io::GainTable& table, SolutionTally& tally, CalibrateMsResult& res);

// The run's minimum and mean iterations and weighted RMS before and after, from the tally.
void finish_solution_counts(const SolutionTally& tally, CalibrateMsResult& res);

// CORRECTED_DATA of the interval into out (resized to the data), from samples.data; samples of
// a station without an invertible solution are 0 in out and flagged in samples.flag. True
// when a flag was set that was not set before (FLAG must be written).
template <typename T>
bool correct_interval(const MsLayout& layout, const IntervalSpan& span,
                      const std::vector<CellSolution<T>>& sols, IntervalSamples& samples,
                      std::vector<Complex<float>>& out);

}  // namespace fringe::calibrate
