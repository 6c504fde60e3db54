// The convolutional-gridding imagers behind image/algorithm = FFT (fft_imager.cpp) and
// W-projection (wproj_imager.cpp): visibilities -> uv grid -> FFT -> gridding correction ->
// image, with OSKAR 2.13's kernels, grid sizes and conventions (docs/imager.md).
#pragma once

#include <vector>

#include "fringe/core/complex.h"
#include "fringe/imager/conv_config.h"
#include "fringe/imager/conv_grid.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// Complex images [pol][size][size] of the visibilities in vis (those of weight > 0), with the
// pixel and sign conventions of dft_image (dft.h) and its normalisation: the caller divides by
// the sum of the weights of the visibilities imaged, after which the result equals OSKAR's
// image for the same settings. Visibilities whose kernel support leaves the grid get weight 0
// in vis.weight and are counted in totals.outside.
template <typename T>
std::vector<Complex<double>> fft_image(const FftConfig& cfg, VisBuffer<T>& vis, int size,
                                       double cell_rad, int num_threads, GridTotals& totals);

template <typename T>
std::vector<Complex<double>> wproj_image(const WProjConfig& cfg, VisBuffer<T>& vis, int size,
                                         double cell_rad, int num_threads, GridTotals& totals);

}  // namespace fringe::imager
