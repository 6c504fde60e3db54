// Direct Fourier transforms between visibilities and images: the exact reference the tests
// (and image/algorithm = "DFT 2D" / "DFT 3D") use. Same pixel and sign conventions as IDG
// (geometry.h): image(l, m) = sum_k weight_k V_k exp(-2 pi i (u l + v m + w (n - 1))) and
// V_k = sum_pixels M exp(+2 pi i (...)), u, v, w in wavelengths; with_w = false drops w.
#pragma once

#include <span>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// Complex images [pol][n][n] of an n x n image of pixel size cell_rad.
template <typename T>
std::vector<Complex<double>> dft_image(const VisBuffer<T>& vis, int n, double cell_rad,
                                       bool with_w = true);

// Sets vis.vis of every visibility with weight > 0 from model images [pol][n][n].
template <typename T>
void dft_predict(std::span<const Complex<double>> model, int n, double cell_rad, VisBuffer<T>& vis,
                 bool with_w = true);

}  // namespace fringe::imager
