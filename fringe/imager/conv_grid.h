// Convolutional gridding of visibilities onto a uv grid: the kernels both convolutional
// imagers (FFT: one separable real kernel; W-projection: one complex 2-D kernel per w plane)
// share: the data layout, and the simple (FFT) gridder on the CPU (conv_grid_cpu.cpp; the GPU
// one is conv_grid_cuda.h, W-projection's wproj_grid.h). Conventions (OSKAR 2.13's, docs/imager.md
// "FFT"):
//  - u, v, w in wavelengths; the grid is grid_size x grid_size, cell (0, 0) at the corner and
//    the uv origin at cell (grid_size / 2, grid_size / 2); the uv cell size is
//    1 / (grid_size x cell_rad) wavelengths.
//  - a visibility is added with weight x value x kernel at every cell of its support; one whose
//    support does not fit on the grid entirely is not gridded: it is counted in `outside` and
//    its weight set to 0 by the caller.
//  - norm: the sum over gridded visibilities of weight x (sum of the kernel values it used),
//    the quantity the image is normalised by.
#pragma once

#include <cstddef>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::imager {

// Visibilities to grid, flattened: element k has uu[k], vv[k], ww[k] (wavelengths), weight[k]
// (> 0 to be gridded; 0: skipped, not counted) and values vis[k * num_pols + p].
template <typename T>
struct ConvVisView {
  std::size_t num_vis = 0;
  int num_pols = 1;
  const double* uu = nullptr;
  const double* vv = nullptr;
  const double* ww = nullptr;  // W-projection only (the simple gridder ignores it)
  const Complex<T>* vis = nullptr;
  float* weight = nullptr;  // set to 0 for visibilities outside the grid
};

// The tabulated 1-D kernel of the FFT gridder: values[i] at |offset| = i / oversample cells,
// i = 0 .. oversample x (support + 1) - 1 (OSKAR's layout).
struct ConvKernel1d {
  int support = 3;
  int oversample = 100;
  std::vector<double> values;
};

struct GridTotals {
  std::size_t gridded = 0;
  std::size_t outside = 0;
  double norm = 0.0;
  void add(const GridTotals& t) {
    gridded += t.gridded;
    outside += t.outside;
    norm += t.norm;
  }
};

// Grids the visibilities of v with the separable kernel k (value k(du) k(dv), du and dv the
// offsets from the visibility's exact position in cells, sampled at the nearest of the
// oversampled points) onto grid [pol][grid_size][grid_size], adding to what is there.
// num_threads: CPU threads (0: all). Deterministic for a given num_threads.
template <typename T>
GridTotals grid_simple_cpu(const ConvKernel1d& k, const ConvVisView<T>& v, double cell_rad,
                           int grid_size, Complex<T>* grid, int num_threads);

}  // namespace fringe::imager
