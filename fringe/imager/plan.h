// The execution plan of Image-Domain Gridding (van der Tol et al. 2018, section 3.1;
// Veenboer 2021, chapter 3): the visibilities of one baseline are gathered onto subgrids of
// Ns x Ns cells covering consecutive times and a group of channels, for as long as every
// visibility's footprint (the taper's support plus the spread its w - w0 causes, at most the
// kernel size) stays inside the subgrid. Each subgrid has a w-offset w0 on the lattice of
// w layers (w-stacking when |w| is too large for one layer), a maximum number of times and
// never spans two A-term intervals. Flagged visibilities (weight 0) and those whose
// footprint does not fit inside the grid are counted and skipped; every other visibility is
// on exactly one subgrid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fringe/imager/geometry.h"

namespace fringe::imager {

struct Subgrid {
  std::uint32_t row_begin = 0;  // rows [row_begin, row_begin + num_rows) of one baseline
  std::uint32_t num_rows = 0;
  std::uint32_t chan_begin = 0;  // channels [chan_begin, chan_begin + num_channels)
  std::uint32_t num_channels = 0;
  std::int32_t x0 = 0;  // grid cell of the subgrid's corner (ju, jv)
  std::int32_t y0 = 0;
  std::int32_t layer = 0;     // w layer: w0 = layer * w_step [wavelengths]
  std::int32_t station1 = 0;  // the baseline's stations (A-terms A_p, A_q)
  std::int32_t station2 = 0;
  std::int32_t aterm_index = 0;  // A-term interval of the subgrid's rows
};

struct PlanOptions {
  int max_times_per_subgrid = 0;   // 0: no limit
  int max_channels_per_group = 0;  // 0: as many as fit
  double aterm_interval_s = 0.0;   // 0: one interval
};

struct PlanInput {
  std::size_t num_rows = 0;
  int num_channels = 0;
  std::span<const std::array<double, 3>> uvw_m;  // [row]
  std::span<const double> time_s;                // [row]
  std::span<const int> baseline;                 // [row], rows of a baseline consecutive
  std::span<const double> freq_hz;               // [channel]
  std::span<const int> station1 = {};            // [row] (empty: 0)
  std::span<const int> station2 = {};            // [row] (empty: 0)
};

struct Plan {
  std::vector<Subgrid> subgrids;  // sorted by layer
  std::vector<int> layers;        // distinct layers, ascending
  std::size_t num_gridded = 0;    // visibilities on a subgrid
  std::size_t num_flagged = 0;    // weight 0 on input
  std::size_t num_outside = 0;    // footprint outside the grid (their weight is set to 0)
  std::size_t max_visibilities_per_subgrid = 0;
  std::size_t max_rows_per_subgrid = 0;
  std::span<const Subgrid> layer_subgrids(int layer) const;
};

// Builds the plan. `weight` [row][channel]: 0 = skip; weights of visibilities outside the
// grid are set to 0 here. Throws fringe::Error if the geometry cannot hold any footprint
// (kernel size >= subgrid size, taper support > kernel size).
Plan make_plan(const GridGeometry& geometry, const PlanInput& input, std::span<float> weight,
               const PlanOptions& options = {});

// Automatic w step [wavelengths] for data whose largest |w| is max_abs_w_lambda: 0 (one
// layer) when the w spread fits in the kernel budget left after the taper, else the step that
// keeps |w - w0| within it.
double auto_w_step(const GridGeometry& geometry, double max_abs_w_lambda);

}  // namespace fringe::imager
