// W-projection gridding on the CPU (wproj_grid.h). Threads own bands of grid rows; every
// band walks, in visibility order, the visibilities whose kernel reaches it, so no two threads
// write one cell and each cell's sum is formed in the same order for any thread count.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "fringe/core/interrupt.h"
#include "fringe/imager/wproj_grid.h"
#include "fringe/imager/wproj_place.h"

namespace fringe::imager {

template <typename T>
WKernelRows<T> kernel_rows(const WKernels& k) {
  WKernelRows<T> r;
  r.num_planes = k.num_planes;
  r.oversample = k.oversample;
  r.w_scale = k.w_scale;
  r.support = k.support;
  r.start.resize(k.num_planes);
  const int os = k.oversample, half = os / 2;
  std::size_t total = 0;
  for (int p = 0; p < k.num_planes; ++p) {
    r.start[p] = total;
    total += std::size_t(half + 1) * k.extent(p) * (2 * std::size_t(k.support[p]) + 1);
  }
  r.values.resize(total);
  for (int p = 0; p < k.num_planes; ++p) {
    const int s = k.support[p], e = k.extent(p);
    const Complex<double>* q = &k.values[k.start[p]];
    for (int a = 0; a <= half; ++a)
      for (int iv = 0; iv < e; ++iv) {
        Complex<T>* out =
            &r.values[r.start[p] + (std::size_t(a) * e + iv) * (2 * std::size_t(s) + 1)];
        for (int kk = -s; kk <= s; ++kk) {
          const Complex<double> c = q[std::size_t(iv) * e + std::abs(a + kk * os)];
          out[kk + s] = {T(c.re), T(c.im)};
        }
      }
  }
  return r;
}

template <typename T>
GridTotals grid_wproj_cpu(const WKernelRows<T>& k, const ConvVisView<T>& v, double cell_rad,
                          int grid_size, Complex<T>* grid, int num_threads) {
  GridTotals totals;
  const std::size_t n = v.num_vis;
  const int threads = num_threads > 0 ? num_threads : omp_get_max_threads();
  const T grid_scale = T(grid_size) * T(cell_rad);
  const int os = k.oversample;

  // Placement and kernel sum (real parts, in double as OSKAR) of every visibility.
  std::vector<WPlacement> place_of(n);
  std::vector<double> kernel_sum(n, 0.0);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v.weight[i] > 0.0f)) continue;
    const WPlacement p = wproj_place(T(v.uu[i]), T(v.vv[i]), T(v.ww[i]), grid_scale, grid_size, os,
                                     T(k.w_scale), k.num_planes, k.support.data());
    place_of[i] = p;
    if (!p.gridded) continue;
    const int s = p.support, a = std::abs(p.off_u);
    double sum = 0.0;
    for (int j = -s; j <= s; ++j) {
      const Complex<T>* row = k.row(p.plane, a, std::abs(p.off_v + j * os));
      for (int c = 0; c < 2 * s + 1; ++c) sum += row[c].re;
    }
    kernel_sum[i] = sum;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v.weight[i] > 0.0f)) continue;
    if (!place_of[i].gridded) {
      ++totals.outside;
      v.weight[i] = 0.0f;
      continue;
    }
    ++totals.gridded;
    totals.norm += kernel_sum[i] * double(T(v.weight[i]));
  }

  // Bands of grid rows and, per band, the visibilities reaching it (in order).
  constexpr int kBand = 8;
  const int num_bands = (grid_size + kBand - 1) / kBand;
  std::vector<std::size_t> count(num_bands + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const WPlacement& p = place_of[i];
    if (!(v.weight[i] > 0.0f)) continue;
    for (int b = (p.gv - p.support) / kBand; b <= (p.gv + p.support) / kBand; ++b) ++count[b + 1];
  }
  for (int b = 0; b < num_bands; ++b) count[b + 1] += count[b];
  std::vector<std::size_t> members(count[num_bands]);
  {
    std::vector<std::size_t> fill(count.begin(), count.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
      const WPlacement& p = place_of[i];
      if (!(v.weight[i] > 0.0f)) continue;
      for (int b = (p.gv - p.support) / kBand; b <= (p.gv + p.support) / kBand; ++b)
        members[fill[b]++] = i;
    }
  }

  const int npol = v.num_pols;
  const std::size_t plane_cells = std::size_t(grid_size) * grid_size;
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (int b = 0; b < num_bands; ++b) {
    if (interrupt::requested()) continue;  // SIGINT/SIGTERM: no throw inside OpenMP
    const int row0 = b * kBand, row1 = std::min(grid_size, row0 + kBand);
    for (std::size_t m = count[b]; m < count[b + 1]; ++m) {
      const std::size_t i = members[m];
      const WPlacement& p = place_of[i];
      const int s = p.support, len = 2 * s + 1;
      const int a = std::abs(p.off_u);
      const T sign = p.conj ? T(-1) : T(1);
      const T wt = T(v.weight[i]);
      const int j0 = std::max(-s, row0 - p.gv), j1 = std::min(s, row1 - 1 - p.gv);
      for (int q = 0; q < npol; ++q) {
        const Complex<T> val = v.vis[i * npol + q];
        const T v_re = wt * val.re, v_im = wt * val.im;
        Complex<T>* g = grid + q * plane_cells;
        for (int j = j0; j <= j1; ++j) {
          const Complex<T>* row = k.row(p.plane, a, std::abs(p.off_v + j * os));
          Complex<T>* out = g + std::size_t(p.gv + j) * grid_size + (p.gu - s);
          if (p.off_u >= 0) {
            for (int c = 0; c < len; ++c) {
              const T c_re = row[c].re, c_im = row[c].im * sign;
              out[c].re += v_re * c_re - v_im * c_im;
              out[c].im += v_im * c_re + v_re * c_im;
            }
          } else {
            for (int c = 0; c < len; ++c) {
              const T c_re = row[len - 1 - c].re, c_im = row[len - 1 - c].im * sign;
              out[c].re += v_re * c_re - v_im * c_im;
              out[c].im += v_im * c_re + v_re * c_im;
            }
          }
        }
      }
    }
  }
  interrupt::throw_if_requested();
  return totals;
}

template WKernelRows<float> kernel_rows<float>(const WKernels&);
template WKernelRows<double> kernel_rows<double>(const WKernels&);
template GridTotals grid_wproj_cpu<float>(const WKernelRows<float>&, const ConvVisView<float>&,
                                          double, int, Complex<float>*, int);
template GridTotals grid_wproj_cpu<double>(const WKernelRows<double>&, const ConvVisView<double>&,
                                           double, int, Complex<double>*, int);

}  // namespace fringe::imager
