// Kernel of the CUDA back end's w-layer stack (idg_cuda.cu, IdgBackend::finish_layers): the
// device twin of add_layer_to_image (idg.cpp), in double like the host's.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "fringe/core/complex.h"
#include "fringe/imager/geometry.h"

namespace fringe::imager::cuda_kernels {

// image[q][y][x] += grid[q][y + off][x + off] exp(-2 pi i w0 (n - 1)) / (corr[x + off]
// corr[y + off]) for the n x n centre of a transformed gs x gs layer (off = (gs - n) / 2);
// width_lm is the padded image's width in l (GridGeometry::image_width_lm).
template <typename T>
__global__ void add_layer_kernel(const Complex<T>* __restrict__ grid, int npol, int gs, int n,
                                 double width_lm, double w0, const double* __restrict__ corr,
                                 Complex<double>* __restrict__ image) {
  const std::size_t iplane = std::size_t(n) * n, gplane = std::size_t(gs) * gs;
  const int off = (gs - n) / 2;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < iplane;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const int x = int(i % n), y = int(i / n);
    double l, m, nm1;
    pixel_lmn<double>(x + off, y + off, gs, width_lm, &l, &m, &nm1);
    double s, c;
    sincos(-2.0 * 3.14159265358979323846 * w0 * nm1, &s, &c);
    const double scale = 1.0 / (corr[x + off] * corr[y + off]);
    c *= scale;
    s *= scale;
    for (int q = 0; q < npol; ++q) {
      const Complex<T> v = grid[q * gplane + std::size_t(y + off) * gs + (x + off)];
      Complex<double>& o = image[q * iplane + i];
      o.re += double(v.re) * c - double(v.im) * s;
      o.im += double(v.re) * s + double(v.im) * c;
    }
  }
}

}  // namespace fringe::imager::cuda_kernels
