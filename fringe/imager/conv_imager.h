// The convolutional-gridding imagers behind image/algorithm = FFT (fft_imager.cpp) and
// W-projection (wproj_imager.cpp): visibilities -> uv grid -> FFT -> gridding correction ->
// image, with OSKAR 2.13's kernels, grid sizes and conventions (docs/imager.md).
#pragma once

#include <memory>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/imager/conv_config.h"
#include "fringe/imager/conv_grid.h"
#include "fringe/imager/vis_buffer.h"
#include "fringe/imager/wproj_kernels.h"

namespace fringe::imager {

// One image plane of a convolutional imager, filled a chunk of visibilities at a time (the
// streamed imager, stream_imager.h): add() grids a chunk onto the plane's uv grid (in GPU memory
// when the config grids on the GPU), finish() transforms it into the complex images
// [pol][size][size], with the pixel and sign conventions of dft_image (dft.h) and its
// normalisation: the caller divides by the sum of the weights of the visibilities imaged
// (sum_weights, the same sum), after which the result equals OSKAR's image for the same
// settings. Adding chunks in the files' order gives the grid of one add() of them all (the CPU
// gridders add to each cell in visibility order).
template <typename T>
class ConvGridder {
 public:
  virtual ~ConvGridder() = default;
  // Grids the visibilities of weight > 0; those whose kernel support leaves the grid get weight
  // 0 in vis.weight and are counted in the returned totals' outside.
  virtual GridTotals add(VisBuffer<T>& vis) = 0;
  // The images; call once, after the last add().
  virtual std::vector<Complex<double>> finish(double sum_weights) = 0;
};

// image/algorithm = FFT: OSKAR's FFT imager (fft_imager.cpp). Throws fringe::Error for an image
// smaller than 2 x support + 2 pixels or a cell size <= 0.
template <typename T>
std::unique_ptr<ConvGridder<T>> make_fft_gridder(const FftConfig& cfg, int size, double cell_rad,
                                                 int num_pols, int num_threads);

// image/algorithm = W-projection (wproj_imager.cpp): the w planes are chosen from the |w|
// statistics of all the visibilities to be added (w_stats over them, wproj_kernels.h).
template <typename T>
std::unique_ptr<ConvGridder<T>> make_wproj_gridder(const WProjConfig& cfg, int size,
                                                   double cell_rad, int num_pols, int num_threads,
                                                   const WStats& w);

// The |w| statistics (wavelengths) of vis's visibilities of weight > 0, added to w.
template <typename T>
void add_w_stats(const VisBuffer<T>& vis, WStats& w);

// All of vis in one add(): the complex images of its visibilities (those of weight > 0).
template <typename T>
std::vector<Complex<double>> fft_image(const FftConfig& cfg, VisBuffer<T>& vis, int size,
                                       double cell_rad, int num_threads, GridTotals& totals);

template <typename T>
std::vector<Complex<double>> wproj_image(const WProjConfig& cfg, VisBuffer<T>& vis, int size,
                                         double cell_rad, int num_threads, GridTotals& totals);

// Prediction with the FFT imager's kernel (fft_predict.cpp): vis.vis (one value per
// visibility) of every visibility with weight > 0 from the model [size][size] (Jy/pixel; dft.h's
// pixel and sign conventions, no w term); 0 where the weight is 0 or the kernel support leaves
// the grid (counted in outside; gridded: the visibilities predicted). The degridding runs on
// cfg.device when cfg.grid_on_gpu.
template <typename T>
GridTotals fft_predict(const FftConfig& cfg, const std::vector<Complex<double>>& model, int size,
                       double cell_rad, int num_threads, VisBuffer<T>& vis);

}  // namespace fringe::imager
