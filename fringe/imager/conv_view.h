// What both convolutional gridders (fft_imager.cpp, wproj_imager.cpp) do around their own
// gridding: the flattened view of a VisBuffer (ConvVisView) with u, v (and w) converted to
// wavelengths, and imaging a whole buffer with one add().
#pragma once

#include <vector>

#include "fringe/core/complex.h"
#include "fringe/imager/conv_grid.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// The view of vis for a gridder: u, v and (when ww is given) w of visibility k = row x
// channels + channel in wavelengths (metres x frequency / c, as OSKAR) into uu, vv, ww
// (resized, their capacity reused chunk after chunk), filled by num_threads threads.
template <typename T>
ConvVisView<T> conv_view(VisBuffer<T>& vis, int num_threads, std::vector<double>& uu,
                         std::vector<double>& vv, std::vector<double>* ww);

// All of vis through gridder in one add(); the images normalised by the sum of the weights
// still > 0 afterwards (the gridder zeroes those outside the grid), as the callers divide.
template <typename T>
std::vector<Complex<double>> image_all(ConvGridder<T>& gridder, VisBuffer<T>& vis,
                                       GridTotals& totals);

}  // namespace fringe::imager
