#include "fringe/imager/grid_ops.h"

#include <omp.h>

#include <algorithm>

namespace fringe::imager {

template <typename T>
void add_subgrids(const GridGeometry& g, std::span<const Subgrid> subgrids, int npol,
                  const Complex<T>* sub, Complex<T>* grid, int num_threads) {
  if (num_threads <= 0) num_threads = omp_get_max_threads();
  const int ns = g.subgrid_size;
  const std::size_t np = static_cast<std::size_t>(ns) * ns;
  const std::size_t gs = g.grid_size;
#pragma omp parallel num_threads(num_threads)
  {
    const int nt = omp_get_num_threads(), t = omp_get_thread_num();
    const int y_begin = static_cast<int>(gs * t / nt);
    const int y_end = static_cast<int>(gs * (t + 1) / nt);
    for (std::size_t i = 0; i < subgrids.size(); ++i) {
      const Subgrid& s = subgrids[i];
      const int ya = std::max(y_begin, s.y0), yb = std::min(y_end, s.y0 + ns);
      for (int q = 0; q < npol; ++q)
        for (int y = ya; y < yb; ++y) {
          const Complex<T>* src = sub + (i * npol + q) * np + (y - s.y0) * ns;
          Complex<T>* dst = grid + q * gs * gs + y * gs + s.x0;
          const int sy = ((y - s.y0) & 1) ? -1 : 1;
          for (int x = 0; x < ns; ++x) {
            const T sign = T((x & 1) ? -sy : sy);
            dst[x].re += sign * src[x].re;
            dst[x].im += sign * src[x].im;
          }
        }
    }
  }
}

template <typename T>
void split_subgrids(const GridGeometry& g, std::span<const Subgrid> subgrids, int npol,
                    const Complex<T>* grid, Complex<T>* sub, int num_threads) {
  if (num_threads <= 0) num_threads = omp_get_max_threads();
  const int ns = g.subgrid_size;
  const std::size_t np = static_cast<std::size_t>(ns) * ns;
  const std::size_t gs = g.grid_size;
#pragma omp parallel for num_threads(num_threads) schedule(static)
  for (std::size_t i = 0; i < subgrids.size(); ++i)
    for (int q = 0; q < npol; ++q)
      for (int y = 0; y < ns; ++y)
        for (int x = 0; x < ns; ++x) {
          const T sign = ((x + y) & 1) ? T(-1) : T(1);
          const Complex<T> v =
              grid[q * gs * gs + std::size_t(subgrids[i].y0 + y) * gs + subgrids[i].x0 + x];
          sub[(i * npol + q) * np + y * ns + x] = {sign * v.re, sign * v.im};
        }
}

template <typename T>
void add_arrays(Complex<T>* dst, const Complex<T>* src, std::size_t n, int num_threads) {
  if (num_threads <= 0) num_threads = omp_get_max_threads();
#pragma omp parallel for num_threads(num_threads) schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    dst[i].re += src[i].re;
    dst[i].im += src[i].im;
  }
}

#define FRINGE_GRID_OPS(T)                                                            \
  template void add_subgrids<T>(const GridGeometry&, std::span<const Subgrid>, int,   \
                                const Complex<T>*, Complex<T>*, int);                 \
  template void split_subgrids<T>(const GridGeometry&, std::span<const Subgrid>, int, \
                                  const Complex<T>*, Complex<T>*, int);               \
  template void add_arrays<T>(Complex<T>*, const Complex<T>*, std::size_t, int);
FRINGE_GRID_OPS(float)
FRINGE_GRID_OPS(double)

}  // namespace fringe::imager
