// OSKAR 2.13's simple convolutional gridder (image/algorithm = FFT) on the CPU, threaded and
// deterministic. Per visibility, as OSKAR's oskar_grid_simple (same arithmetic, same
// precision T): pos = (-u, v) x grid_size x cell_rad, the nearest cell round(pos) + grid_size/2
// (round half away from zero), the kernel offset round((round(pos) - pos) x oversample)
// samples, skipped (counted in `outside`) if the support does not fit on the grid, else
// weight x vis x (k(|off_u + i os|) k(|off_v + j os|)) added to cell (gv + j, gu + i) for
// |i|, |j| <= support, and weight x (sum of those kernel products) added to norm.
//
// Threads: the grid rows are cut into bands of kBandRows rows, dealt round-robin to the
// threads (band b to thread b mod num_threads). Every thread streams through all visibilities
// in their order, places each one (cheap: a few flops) and adds only the rows of its own bands,
// so every cell receives its contributions in visibility order whatever the number of threads:
// the grid is bit-identical to the serial (OSKAR's) order for any num_threads. Why this rather
// than a grid per thread summed at the end: with 2 cores a 4096^2 complex double grid per
// thread is 256 MiB more memory and a 256 MiB reduction per call. Why not bucketing the
// visibilities by grid tile first (tried): the sorted lists turn every visibility's data into a
// random access, which cost more than the tiles' cache locality gained on 512^2..4096^2 grids
// (1.5-4x slower than OSKAR's loop on one core); streaming keeps OSKAR's access pattern.
// Interleaved narrow bands spread the dense centre of the uv plane over the threads. The norm
// is summed per band (by the band's thread, in visibility order) and the bands in order, so it
// too is the same for any number of threads. Measured (bench in docs/imager.md "FFT"): 4096^2
// grid, 4 million visibilities, 2 threads 0.72 s vs OSKAR's loop 0.93 s.
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

constexpr int kBandRows = 8;

// A band's norm and count, on a cache line of its own (neighbouring bands belong to other
// threads).
struct alignas(64) BandSum {
  double norm = 0.0;
  std::size_t count = 0;
};

// round(x) (half away from zero, as C's round()) as an int, for |x| < 2^31: truncation plus
// the exact fractional part x - trunc(x), instead of a libm call per coordinate (4 per
// visibility, a quarter of the gridding time with 7 x 7 kernels).
template <typename T>
inline int round_half_away(T x) {
  int t = int(x);  // truncates towards zero
  const T f = x - T(t);
  if (f >= T(0.5)) ++t;
  if (f <= T(-0.5)) --t;
  return t;
}

// Thread `tid` adds the rows of its bands. S > 0:
// the support as a compile-time constant (OSKAR's default 3), else `support` at run time.
// Every thread places every visibility (the same arithmetic, so the same cells); thread 0 alone
// counts those off the grid and zeroes their weight (the others skip them before reading the
// weight). The owner of a visibility's central row adds its norm term to that row's band. Returns
// the number off the grid (thread 0; 0 for the others).
template <typename T, int S>
std::size_t grid_rows(int tid, const int* owner, const ConvVisView<T>& v, const T* kern,
                      int support, int os, double cell_rad, int grid_size, Complex<T>* grid,
                      BandSum* band) {
  const int s = S > 0 ? S : support;
  constexpr int kW = S > 0 ? 2 * S + 1 : 1;
  T cu_fix[kW], cv_fix[kW];
  std::vector<T> cu_buf(S > 0 ? 0 : 2 * s + 1), cv_buf(S > 0 ? 0 : 2 * s + 1);
  T* cu = (S > 0 ? cu_fix : cu_buf.data()) + s;  // cu[k], k = -s .. s
  T* cv = (S > 0 ? cv_fix : cv_buf.data()) + s;
  const int npol = v.num_pols;
  const std::size_t plane = std::size_t(grid_size) * grid_size;
  const int centre = grid_size / 2;
  const T scale = T(grid_size) * T(cell_rad);  // grid cells per wavelength
  std::size_t outside = 0;
  for (std::size_t q = 0; q < v.num_vis; ++q) {
    const T pos_u = -T(v.uu[q]) * scale;
    const T pos_v = T(v.vv[q]) * scale;
    // |pos| >= grid_size (or NaN) is off the grid whatever the support; tested before the
    // conversion to int (which would overflow for huge u, v).
    const bool finite = std::abs(pos_u) < T(grid_size) && std::abs(pos_v) < T(grid_size);
    const int iu = finite ? round_half_away(pos_u) : 0, iv = finite ? round_half_away(pos_v) : 0;
    const int gu = iu + centre, gv = iv + centre;
    if (!finite || gu + s >= grid_size || gu - s < 0 || gv + s >= grid_size || gv - s < 0) {
      if (tid == 0 && v.weight[q] > 0.0f) {  // flagged ones (weight 0) are not counted
        v.weight[q] = 0.0f;
        ++outside;
      }
      continue;
    }
    // The bands of rows gv - s .. gv + s (at most a few) that are this thread's.
    const int b0 = (gv - s) / kBandRows, b1 = (gv + s) / kBandRows;
    bool mine = false;
    for (int b = b0; b <= b1; ++b) mine = mine || owner[b] == tid;
    if (!mine) continue;
    const T w = T(v.weight[q]);
    if (!(w > T(0))) continue;  // flagged / not selected: not gridded, not counted
    const int off_u = round_half_away((T(iu) - pos_u) * T(os));
    const int off_v = round_half_away((T(iv) - pos_v) * T(os));
    for (int k = -s; k <= s; ++k) {
      cu[k] = kern[std::abs(off_u + k * os)];
      cv[k] = kern[std::abs(off_v + k * os)];
    }
    const int bc = gv / kBandRows;  // the band of the central row
    if (owner[bc] == tid) {
      // weight x sum over the cells of k_u k_v = weight x (sum k_u) (sum k_v) (OSKAR sums the
      // 49 products one by one; the factored form differs by rounding only, 1e-16 relative
      // in double, and avoids a 49-long chain of dependent additions per visibility).
      double su = 0.0, sv = 0.0;
      for (int k = -s; k <= s; ++k) {
        su += cu[k];
        sv += cv[k];
      }
      band[bc].norm += su * sv * double(w);
      ++band[bc].count;
    }
    // Runs of consecutive bands of this thread (one run with one thread).
    for (int b = b0; b <= b1;) {
      if (owner[b] != tid) {
        ++b;
        continue;
      }
      int e = b;
      while (e < b1 && owner[e + 1] == tid) ++e;
      const int j0 = std::max(-s, b * kBandRows - gv);
      const int j1 = std::min(s, (e + 1) * kBandRows - 1 - gv);
      b = e + 1;
      for (int pol = 0; pol < npol; ++pol) {
        const Complex<T> val = v.vis[q * npol + pol];
        const T v_re = w * val.re, v_im = w * val.im;
        Complex<T>* g = grid + pol * plane + gu;
        for (int j = j0; j <= j1; ++j) {
          const T c1 = cv[j];
          Complex<T>* row = g + std::size_t(gv + j) * grid_size;
          for (int k = -s; k <= s; ++k) {
            const T c = cu[k] * c1;
            row[k].re += v_re * c;
            row[k].im += v_im * c;
          }
        }
      }
    }
  }
  return outside;
}

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
  // The kernel in the gridding precision (OSKAR converts its table to the imager's).
  const std::vector<T> kern(k.values.begin(), k.values.end());
  // owner[band]: the thread that adds the band's rows (band b to thread b mod threads; a
  // table, as an integer division per band and visibility costs more than the lookup).
  const int num_bands = (grid_size + kBandRows - 1) / kBandRows;
  std::vector<int> owner(num_bands);
  GridTotals tot;
  // Norm terms and counts per band of the central row, each band's added in visibility order
  // by its one thread, then the bands summed in order: the same for any number of threads.
  std::vector<BandSum> band(num_bands);
  std::size_t outside = 0;
#pragma omp parallel num_threads(nt) reduction(+ : outside)
  {
#pragma omp single
    for (int b = 0; b < num_bands; ++b) owner[b] = b % omp_get_num_threads();
    const int tid = omp_get_thread_num();
    outside += support == 3 ? grid_rows<T, 3>(tid, owner.data(), v, kern.data(), support, os,
                                              cell_rad, grid_size, grid, band.data())
                            : grid_rows<T, 0>(tid, owner.data(), v, kern.data(), support, os,
                                              cell_rad, grid_size, grid, band.data());
  }
  tot.outside = outside;
  for (int b = 0; b < num_bands; ++b) {
    tot.norm += band[b].norm;
    tot.gridded += band[b].count;
  }
  return tot;
}

template GridTotals grid_simple_cpu<float>(const ConvKernel1d&, const ConvVisView<float>&, double,
                                           int, Complex<float>*, int);
template GridTotals grid_simple_cpu<double>(const ConvKernel1d&, const ConvVisView<double>&, double,
                                            int, Complex<double>*, int);

}  // namespace fringe::imager
