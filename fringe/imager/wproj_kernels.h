// The w-projection kernels of image/algorithm = W-projection, as OSKAR 2.13 makes them
// (docs/imager.md "W-projection"): the number of w planes and the w scale from the |w| range
// and the field of view, one complex 2-D kernel per plane (a tapered w phase screen Fourier
// transformed), each trimmed to the support where it exceeds 1e-3 of the largest kernel peak,
// all normalised so that plane 0 sums to 1 over whole-cell offsets.
//
// Plane p holds the kernel for |w| near p^2 / w_scale wavelengths: a visibility uses plane
// round(sqrt(|w| w_scale)) (the last one beyond), conjugated when w > 0.
#pragma once

#include <cstddef>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::imager {

// |w| statistics of the visibilities to image [wavelengths] (OSKAR's coordinate scan).
struct WStats {
  double min_abs = 0.0;
  double max_abs = 0.0;
  double rms = 0.0;
  std::size_t count = 0;
  double sum_sq = 0.0;  // of |w|, for adding more visibilities
};

// Adds one |w| to s (min, max, sum of squares, count; rms_of_w_stats sets the rms).
inline void add_abs_w(double a, WStats& s) {
  if (s.count == 0 || a < s.min_abs) s.min_abs = a;
  s.max_abs = a > s.max_abs ? a : s.max_abs;
  s.sum_sq += a * a;
  ++s.count;
}
void rms_of_w_stats(WStats& s);

// |w| of ww[k] for k with weight[k] > 0 (weight may be null: all).
WStats w_stats(const double* ww, const float* weight, std::size_t n);
// The same, adding to s (in order: a chunk at a time gives the statistics of all at once).
void add_w_stats(const double* ww, const float* weight, std::size_t n, WStats& s);

struct WPlanes {
  int num_planes = 16;   // >= 16
  double w_scale = 0.0;  // planes^2 per wavelength: plane = sqrt(|w| w_scale)
};

// OSKAR's plane count (requested < 1: automatic, max_w x sin(field of view / 2), at least 16)
// and w scale (num_planes - 1)^2 / max_w, with max_w = 1.05 max|w|, stretched by rms / mid
// when the rms exceeds the middle of the |w| range (0.25 / cell without w).
WPlanes wproj_planes(int requested, const WStats& w, double cell_rad, int image_size);

// Side of the square phase screen the kernels are transformed on: the padded image size
// (truncated), capped so that all planes fit in min(physical memory, 64 MB per plane).
int wproj_conv_size(int image_size, double padding, int num_planes, std::size_t phys_mem_bytes);

// OSKAR's nearest even 2^a 3^b 5^c to value (not value itself; ties go to the smaller).
int composite_nearest_even(int value);

// The kernels of all planes. Plane p covers offsets |du|, |dv| = 0 .. extent(p) - 1 in
// kernel samples (1 / oversample cell): values[start[p] + |dv| * extent(p) + |du|], with
// extent(p) = support[p] * oversample + oversample / 2 + 1 (every sample the gridder reads).
// The kernels are symmetric in u and in v, so one quadrant is stored (OSKAR keeps a
// quadrant too, in another order).
struct WKernels {
  int num_planes = 0;
  int oversample = 4;
  double w_scale = 0.0;
  int conv_size = 0;               // phase screen side
  std::vector<int> support;        // [plane] half-width in grid cells: 2 support + 1 cells
  std::vector<std::size_t> start;  // [plane] first value of the plane
  std::vector<Complex<double>> values;

  int extent(int plane) const { return support[plane] * oversample + oversample / 2 + 1; }
  std::size_t bytes() const { return values.size() * sizeof(Complex<double>); }
};

// Builds the kernels of a grid_size grid for an image_size image of cell_rad pixels
// (phase-screen side conv_size). num_threads: planes transformed in parallel (0: all cores).
WKernels make_w_kernels(const WPlanes& planes, int oversample, int image_size, int grid_size,
                        int conv_size, double cell_rad, int num_threads);

// The gridding correction is conv_kernels.h's spheroidal_grid_correction(grid_size, oversample).

}  // namespace fringe::imager
