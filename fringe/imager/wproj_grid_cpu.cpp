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
  // Sum of the real parts a visibility uses, per (plane, off_u, off_v), in OSKAR's order (v
  // rows, then u from -support up, i.e. a row backwards for a negative off_u).
  r.kernel_sum.resize(std::size_t(k.num_planes) * (os + 1) * (os + 1));
  for (int p = 0; p < k.num_planes; ++p)
    for (int ou = -half; ou <= half; ++ou)
      for (int ov = -half; ov <= half; ++ov) {
        const int s = k.support[p], len = 2 * s + 1;
        double sum = 0.0;
        for (int j = -s; j <= s; ++j) {
          const Complex<T>* row = r.row(p, std::abs(ou), std::abs(ov + j * os));
          for (int c = 0; c < len; ++c) sum += double(row[ou >= 0 ? c : len - 1 - c].re);
        }
        r.kernel_sum[(std::size_t(p) * (os + 1) + (ou + half)) * (os + 1) + (ov + half)] = sum;
      }
  return r;
}

template <typename T>
GridTotals grid_wproj_cpu(const WKernelRows<T>& k, const ConvVisView<T>& v, double cell_rad,
                          int grid_size, Complex<T>* grid, int num_threads, WProjScratch* scratch) {
  WProjScratch own;
  WProjScratch& sc = scratch ? *scratch : own;
  GridTotals totals;
  const std::size_t n = v.num_vis;
  const int threads = num_threads > 0 ? num_threads : omp_get_max_threads();
  const T grid_scale = T(grid_size) * T(cell_rad);
  const int os = k.oversample;

  // Placement of every visibility; totals (norm in visibility order, as OSKAR).
  // Only the entries of visibilities with weight are written and read: a reused array needs
  // no clearing.
  if (sc.place.size() < n) sc.place.resize(n);
  std::vector<WPlacement>& place_of = sc.place;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v.weight[i] > 0.0f)) continue;
    place_of[i] = wproj_place(T(v.uu[i]), T(v.vv[i]), T(v.ww[i]), grid_scale, grid_size, os,
                              T(k.w_scale), k.num_planes, k.support.data());
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v.weight[i] > 0.0f)) continue;
    const WPlacement& p = place_of[i];
    if (!p.gridded) {
      ++totals.outside;
      v.weight[i] = 0.0f;
      continue;
    }
    ++totals.gridded;
    totals.norm += k.sum_of(p.plane, p.off_u, p.off_v) * double(T(v.weight[i]));
  }

  // Adds visibility i's kernel rows that fall in grid rows [row0, row1).
  const int npol = v.num_pols;
  const std::size_t plane_cells = std::size_t(grid_size) * grid_size;
  auto add_rows = [&](std::size_t i, int row0, int row1) {
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
  };

  if (threads == 1) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!(v.weight[i] > 0.0f)) continue;
      if ((i & 0xffff) == 0) interrupt::throw_if_requested();
      add_rows(i, 0, grid_size);
    }
    return totals;
  }

  // Bands of grid rows (about 4 per thread, 8 to 64 rows) and, per band, the visibilities
  // reaching it, in order. The band height changes no result: each cell still receives its
  // contributions in visibility order.
  const int band = std::clamp(grid_size / (4 * threads), 8, 64);
  const int num_bands = (grid_size + band - 1) / band;
  std::vector<std::size_t> count(num_bands + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v.weight[i] > 0.0f)) continue;
    const WPlacement& p = place_of[i];
    for (int b = (p.gv - p.support) / band; b <= (p.gv + p.support) / band; ++b) ++count[b + 1];
  }
  for (int b = 0; b < num_bands; ++b) count[b + 1] += count[b];
  std::vector<std::size_t>& members = sc.members;  // every entry written below
  members.resize(count[num_bands]);
  {
    std::vector<std::size_t> fill(count.begin(), count.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(v.weight[i] > 0.0f)) continue;
      const WPlacement& p = place_of[i];
      for (int b = (p.gv - p.support) / band; b <= (p.gv + p.support) / band; ++b)
        members[fill[b]++] = i;
    }
  }
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (int b = 0; b < num_bands; ++b) {
    if (interrupt::requested()) continue;  // SIGINT/SIGTERM: no throw inside OpenMP
    const int row0 = b * band, row1 = std::min(grid_size, row0 + band);
    for (std::size_t m = count[b]; m < count[b + 1]; ++m) add_rows(members[m], row0, row1);
  }
  interrupt::throw_if_requested();
  return totals;
}

template WKernelRows<float> kernel_rows<float>(const WKernels&);
template WKernelRows<double> kernel_rows<double>(const WKernels&);
template GridTotals grid_wproj_cpu<float>(const WKernelRows<float>&, const ConvVisView<float>&,
                                          double, int, Complex<float>*, int, WProjScratch*);
template GridTotals grid_wproj_cpu<double>(const WKernelRows<double>&, const ConvVisView<double>&,
                                           double, int, Complex<double>*, int, WProjScratch*);

}  // namespace fringe::imager
