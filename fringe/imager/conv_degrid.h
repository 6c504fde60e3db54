// Degridding (prediction) with the FFT gridder's separable kernel: the adjoint of
// grid_simple_cpu (conv_grid.h) without the weights. For a visibility on the grid,
// V[p] = sum over the (2 support + 1)^2 cells of its support of grid[p][cell] x k(du) k(dv),
// with the same cells and kernel samples as gridding (conv_cell.h); a visibility whose support
// leaves the grid gets V = 0 and is counted.
#pragma once

#include <cstddef>

#include "fringe/core/complex.h"
#include "fringe/imager/conv_grid.h"

namespace fringe::imager {

// Visibilities to predict: element k has uu[k], vv[k] (wavelengths) and gets
// vis[k * num_pols + p] (overwritten).
template <typename T>
struct ConvDegridView {
  std::size_t num_vis = 0;
  int num_pols = 1;
  const double* uu = nullptr;
  const double* vv = nullptr;
  Complex<T>* vis = nullptr;
};

// grid: [num_pols][grid_size][grid_size]. num_threads: CPU threads (0: all). Returns how many
// visibilities were outside the grid. Sums in T, rows outer, columns inner.
template <typename T>
std::size_t degrid_simple_cpu(const ConvKernel1d& k, const ConvDegridView<T>& v, double cell_rad,
                              int grid_size, const Complex<T>* grid, int num_threads);

}  // namespace fringe::imager
