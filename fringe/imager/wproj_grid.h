// W-projection gridding (OSKAR 2.13's oskar_grid_wproj semantics; docs/imager.md
// "W-projection"): each visibility is convolved onto the uv grid with the kernel of its w
// plane (wproj_kernels.h), conv_grid.h's conventions for positions, skipped visibilities and
// the norm:
//  - position: pos_u = -u g cell, pos_v = v g cell (cells from the centre), nearest cell
//    (round half away from zero) + g / 2; offset of the kernel sample
//    round((round(pos) - pos) x oversample) in [-oversample/2, oversample/2];
//  - plane round(sqrt(|w| w_scale)), the last plane beyond; the kernel's imaginary part
//    negated for w > 0 (the kernels are made for w < 0);
//  - a visibility whose 2 support + 1 cells leave the grid is not gridded: weight set to 0,
//    counted in outside;
//  - norm += weight x (sum of the real parts of the kernel values used).
// Arithmetic (positions, products, grid sums) in T, as OSKAR's float and double gridders.
#pragma once

#include <memory>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/imager/conv_grid.h"
#include "fringe/imager/wproj_kernels.h"
#include "fringe/imager/wproj_place.h"

namespace fringe::imager {

// The kernels in the order the gridder reads them, in precision T: for plane p, |off_u| = a
// (0 .. oversample / 2) and v sample iv (0 .. extent(p) - 1), the 2 support + 1 values for
// k = -support .. support at u sample |a + k oversample| (OSKAR's rearrangement, another
// order): a negative off_u reads the same row backwards.
template <typename T>
struct WKernelRows {
  int num_planes = 0;
  int oversample = 4;
  double w_scale = 0.0;
  std::vector<int> support;
  std::vector<std::size_t> start;  // [plane]
  std::vector<Complex<T>> values;
  // Sum of the real parts of the kernel values one visibility uses, per plane and kernel
  // offsets: [plane][off_u + oversample/2][off_v + oversample/2] (the norm's term).
  std::vector<double> kernel_sum;

  double sum_of(int plane, int off_u, int off_v) const {
    const int n = oversample + 1, h = oversample / 2;
    return kernel_sum[(std::size_t(plane) * n + (off_u + h)) * n + (off_v + h)];
  }

  const Complex<T>* row(int plane, int abs_off_u, int iv) const {
    const std::size_t len = 2 * std::size_t(support[plane]) + 1;
    const std::size_t e = std::size_t(support[plane]) * oversample + oversample / 2 + 1;
    return &values[start[plane] + (std::size_t(abs_off_u) * e + iv) * len];
  }
};

template <typename T>
WKernelRows<T> kernel_rows(const WKernels& k);

// The CPU gridder's per-call arrays (placements, band members), kept by a caller that grids
// chunk after chunk so that they are allocated once.
struct WProjScratch {
  std::vector<WPlacement> place;
  std::vector<std::size_t> members;
};

// Grids v onto grid [pol][grid_size][grid_size] (adding to it). num_threads: CPU threads
// (0: all). The result is the same for every thread count: each grid cell receives its
// contributions in visibility order. scratch: reused arrays (null: the call's own).
template <typename T>
GridTotals grid_wproj_cpu(const WKernelRows<T>& k, const ConvVisView<T>& v, double cell_rad,
                          int grid_size, Complex<T>* grid, int num_threads,
                          WProjScratch* scratch = nullptr);

// The same gridding on CUDA device `device` (wproj_grid_cuda.cu; only in builds with CUDA):
// grid is host memory [pol][grid_size][grid_size], added to. Placement, skipped visibilities
// (weight set to 0) and totals as grid_wproj_cpu (identical: summed on the host in visibility
// order); one warp per visibility adds its kernel cells with atomic additions, so the grid
// equals the CPU's to rounding (the order of the additions differs).
template <typename T>
GridTotals grid_wproj_cuda(const WKernelRows<T>& k, const ConvVisView<T>& v, double cell_rad,
                           int grid_size, Complex<T>* grid, int device);

// The same gridder keeping its grid [pol][grid_size][grid_size] in GPU memory across calls
// (the streamed imager adds chunk after chunk), for the device FFT (device_grid(), on the
// default stream) or a copy to the host. The kernels k must outlive it. Only in builds with
// CUDA; not thread-safe.
template <typename T>
class WProjGridCuda {
 public:
  WProjGridCuda(const WKernelRows<T>& k, int grid_size, int num_pols, int device);
  ~WProjGridCuda();
  WProjGridCuda(const WProjGridCuda&) = delete;
  WProjGridCuda& operator=(const WProjGridCuda&) = delete;
  // grid_wproj_cuda's work on host arrays, adding to the device grid.
  GridTotals grid(const ConvVisView<T>& v, double cell_rad);
  void add_grid_to_host(Complex<T>* host) const;  // host grid += device grid
  Complex<T>* device_grid();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::imager
