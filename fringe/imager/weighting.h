// Imaging weights (Briggs 1995, PhD thesis, NMT, chapter 3): natural (the data weights),
// radial (OSKAR's: times the uv distance in wavelengths),
// uniform (divided by the sum of weights W_cell in the visibility's uv cell of the imaging
// grid; for IDG both (u, v) and (-u, -v) are counted, for OSKAR's algorithms (u, v) only, as
// OSKAR does) and Briggs robust R:
//   w / (1 + W_cell f^2), f^2 = (5 10^-R)^2 / (sum_cells W_cell^2 / sum w).
// Then the Gaussian uv taper of OSKAR: w x exp(ln(0.3) ((u/u0)^2 + (v/v0)^2)) (u0 or v0 = 0:
// no taper along that axis). Weights of 0 stay 0. Returns the sum of the final weights.
#pragma once

#include <vector>

#include "fringe/imager/geometry.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// The summed weights W_cell of the imaging grid's uv cells that uniform and Briggs weighting
// divide by, filled a chunk of visibilities at a time (the streamed imager makes a first pass
// over the inputs for it): add() every chunk, then finish(), then apply_weighting.
class UvDensity {
 public:
  UvDensity(const ImagerConfig& config, const GridGeometry& geometry);
  template <typename T>
  void add(const VisBuffer<T>& vis);
  void finish();  // Briggs' f^2 from the cells' sums
  // The visibility's weight divided as the config's weighting says (w / W_cell, or
  // w / (1 + W_cell f^2)); unchanged outside the grid.
  double weigh(double w, double u_lambda, double v_lambda) const;

 private:
  bool cell(double u, double v, long* index) const;
  Weighting weighting_;
  bool conjugates_;
  double robust_;
  GridGeometry g_;
  std::vector<double> sums_;
  double f2_ = 1.0;
};

// True when the config's weighting needs a UvDensity (uniform, Briggs).
bool needs_uv_density(const ImagerConfig& config);

// The imaging weights of vis from its data weights: radial, or the division by density (which
// must be given, finished, when needs_uv_density), then the taper. Returns their sum.
template <typename T>
double apply_weighting(const ImagerConfig& config, const UvDensity* density, VisBuffer<T>& vis);

// The same with the density of vis itself (all visibilities at once).
template <typename T>
double apply_weighting(const ImagerConfig& config, const GridGeometry& geometry, VisBuffer<T>& vis);

}  // namespace fringe::imager
