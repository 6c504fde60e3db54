// OSKAR 2.13's simple convolutional gridder (image/algorithm = FFT) on the CPU, threaded and
// deterministic. Per visibility, as OSKAR's oskar_grid_simple (same arithmetic, same
// precision T): pos = (-u, v) x grid_size x cell_rad, the nearest cell round(pos) + grid_size/2
// (round half away from zero), the kernel offset round((round(pos) - pos) x oversample)
// samples, skipped (counted in `outside`) if the support does not fit on the grid, else
// weight x vis x k(|off_v + j os|) k(|off_u + i os|) added to cell (gv + j, gu + i) for
// |i|, |j| <= support, and weight x (sum of those kernel products) added to norm.
//
// Threads: the grid is cut into bands of kBandRows rows; the visibilities of each chunk are
// bucketed (in their order) by the bands their support touches and each band is gridded by one
// thread, which adds only the band's rows. Every cell therefore receives its contributions in
// visibility order, whatever the number of threads: the grid is bit-identical to the serial
// (OSKAR's) order for any num_threads. Why this instead of a grid per thread summed at the end:
// with 2 cores a 4096^2 complex double grid per thread is 256 MiB more memory and a 256 MiB
// reduction per call, while bands need one 4-byte index per visibility per band, and a band
// (8 rows x 4096 cells x 16 bytes = 512 KiB per polarisation) stays in cache while its
// visibilities are added, which the unsorted scatter of OSKAR's loop does not.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/imager/conv_grid.h"

namespace fringe::imager {

namespace {

constexpr int kBandRows = 8;                          // grid rows per band (one thread's unit)
constexpr std::size_t kChunk = std::size_t(1) << 22;  // visibilities bucketed at a time

// Where one visibility goes: its central cell and kernel offsets (samples); gv < 0: skipped.
struct Placement {
  int gu, gv, off_u, off_v;
};

}  // namespace

template <typename T>
GridTotals grid_simple_cpu(const ConvKernel1d& k, const ConvVisView<T>& v, double cell_rad,
                           int grid_size, Complex<T>* grid, int num_threads) {
  const int support = k.support, os = k.oversample;
  if (support < 1 || os < 1 || k.values.size() < std::size_t(os) * (support + 1))
    throw Error("imager: the FFT kernel table has " + std::to_string(k.values.size()) +
                " values; support " + std::to_string(support) + " and oversample " +
                std::to_string(os) + " need oversample x (support + 1)");
  if (grid_size < 1 || v.num_pols < 1)
    throw Error("imager: grid_simple_cpu needs a grid size >= 1 and >= 1 polarisation (got " +
                std::to_string(grid_size) + ", " + std::to_string(v.num_pols) + ")");
  const int nt = num_threads > 0 ? num_threads : omp_get_max_threads();
  const int npol = v.num_pols;
  const std::size_t plane = std::size_t(grid_size) * grid_size;
  // The kernel in the gridding precision (OSKAR converts its table to the imager's).
  const std::vector<T> kern(k.values.begin(), k.values.end());
  const int centre = grid_size / 2;
  const T scale = T(grid_size) * T(cell_rad);  // grid cells per wavelength
  const int num_bands = (grid_size + kBandRows - 1) / kBandRows;

  GridTotals tot;
  std::vector<Placement> place;
  std::vector<double> norm_term;  // weight x sum of the kernel products, per visibility
  std::vector<std::size_t> band_start(num_bands + 1);
  std::vector<std::uint32_t> band_vis;  // chunk-local visibility indices, grouped by band

  for (std::size_t c0 = 0; c0 < v.num_vis; c0 += kChunk) {
    const std::size_t n = std::min(kChunk, v.num_vis - c0);
    place.resize(n);
    norm_term.resize(n);
    std::size_t outside = 0;
    // 1. Placement, outside-grid test and norm term of each visibility.
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : outside)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t q = c0 + i;
      Placement& p = place[i];
      p.gv = -1;
      norm_term[i] = 0.0;
      if (!(v.weight[q] > 0.0f)) continue;  // flagged / not selected: not gridded, not counted
      const T pos_u = -T(v.uu[q]) * scale;
      const T pos_v = T(v.vv[q]) * scale;
      // |pos| >= grid_size (or NaN) is off the grid whatever the support; tested before the
      // conversion to int (which would overflow for huge u, v).
      const bool finite = std::abs(pos_u) < T(grid_size) && std::abs(pos_v) < T(grid_size);
      const T ru = finite ? std::round(pos_u) : T(0), rv = finite ? std::round(pos_v) : T(0);
      p.gu = int(ru) + centre;
      p.gv = int(rv) + centre;
      if (!finite || p.gu + support >= grid_size || p.gu - support < 0 ||
          p.gv + support >= grid_size || p.gv - support < 0) {
        p.gv = -1;
        v.weight[q] = 0.0f;
        ++outside;
        continue;
      }
      p.off_u = int(std::round((ru - pos_u) * T(os)));
      p.off_v = int(std::round((rv - pos_v) * T(os)));
      double sum = 0.0;  // OSKAR's order: rows j outer, columns i inner, double accumulator
      for (int j = -support; j <= support; ++j) {
        const T c1 = kern[std::abs(p.off_v + j * os)];
        for (int ii = -support; ii <= support; ++ii) sum += kern[std::abs(p.off_u + ii * os)] * c1;
      }
      norm_term[i] = sum * double(T(v.weight[q]));
    }
    tot.outside += outside;
    // Norm summed serially in visibility order (deterministic).
    for (std::size_t i = 0; i < n; ++i)
      if (place[i].gv >= 0) {
        tot.norm += norm_term[i];
        ++tot.gridded;
      }

    // 2. Bucket the gridded visibilities by the bands their rows gv - support .. gv + support
    // touch (stable: visibility order within a band).
    std::fill(band_start.begin(), band_start.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const int gv = place[i].gv;
      if (gv < 0) continue;
      for (int b = (gv - support) / kBandRows; b <= (gv + support) / kBandRows; ++b)
        ++band_start[b + 1];
    }
    for (int b = 0; b < num_bands; ++b) band_start[b + 1] += band_start[b];
    band_vis.resize(band_start[num_bands]);
    {
      std::vector<std::size_t> fill(band_start.begin(), band_start.end() - 1);
      for (std::size_t i = 0; i < n; ++i) {
        const int gv = place[i].gv;
        if (gv < 0) continue;
        for (int b = (gv - support) / kBandRows; b <= (gv + support) / kBandRows; ++b)
          band_vis[fill[b]++] = std::uint32_t(i);
      }
    }

    // 3. Grid band by band; each band's rows are written by one thread only.
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (int b = 0; b < num_bands; ++b) {
      const int row0 = b * kBandRows, row1 = std::min(grid_size, row0 + kBandRows) - 1;
      for (std::size_t e = band_start[b]; e < band_start[b + 1]; ++e) {
        const std::size_t i = band_vis[e];
        const std::size_t q = c0 + i;
        const Placement& p = place[i];
        const T w = T(v.weight[q]);
        const int j0 = std::max(-support, row0 - p.gv), j1 = std::min(support, row1 - p.gv);
        for (int pol = 0; pol < npol; ++pol) {
          const Complex<T> val = v.vis[q * npol + pol];
          const T v_re = w * val.re, v_im = w * val.im;
          Complex<T>* g = grid + pol * plane;
          for (int j = j0; j <= j1; ++j) {
            const T c1 = kern[std::abs(p.off_v + j * os)];
            Complex<T>* row = g + std::size_t(p.gv + j) * grid_size + p.gu;
            for (int ii = -support; ii <= support; ++ii) {
              const T c = kern[std::abs(p.off_u + ii * os)] * c1;
              row[ii].re += v_re * c;
              row[ii].im += v_im * c;
            }
          }
        }
      }
    }
  }
  return tot;
}

template GridTotals grid_simple_cpu<float>(const ConvKernel1d&, const ConvVisView<float>&, double,
                                           int, Complex<float>*, int);
template GridTotals grid_simple_cpu<double>(const ConvKernel1d&, const ConvVisView<double>&, double,
                                            int, Complex<double>*, int);

}  // namespace fringe::imager
