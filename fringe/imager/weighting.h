// Imaging weights (Briggs 1995, PhD thesis, NMT, chapter 3): natural (the data weights),
// radial (OSKAR's: times the uv distance in wavelengths),
// uniform (divided by the sum of weights W_cell in the visibility's uv cell of the imaging
// grid; for IDG both (u, v) and (-u, -v) are counted, for OSKAR's algorithms (u, v) only, as
// OSKAR does) and Briggs robust R:
//   w / (1 + W_cell f^2), f^2 = (5 10^-R)^2 / (sum_cells W_cell^2 / sum w).
// Then the Gaussian uv taper of OSKAR: w x exp(ln(0.3) ((u/u0)^2 + (v/v0)^2)) (u0 or v0 = 0:
// no taper along that axis). Weights of 0 stay 0. Returns the sum of the final weights.
#pragma once

#include "fringe/imager/geometry.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

template <typename T>
double apply_weighting(const ImagerConfig& config, const GridGeometry& geometry, VisBuffer<T>& vis);

}  // namespace fringe::imager
