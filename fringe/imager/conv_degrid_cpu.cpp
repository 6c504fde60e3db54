// The CPU degridder of the FFT imager (conv_degrid.h): one visibility per loop iteration,
// OpenMP over visibilities (each writes only its own values, so the result does not depend on
// the thread count).
#include <omp.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/imager/conv_cell.h"
#include "fringe/imager/conv_degrid.h"

namespace fringe::imager {

template <typename T>
std::size_t degrid_simple_cpu(const ConvKernel1d& k, const ConvDegridView<T>& v, double cell_rad,
                              int grid_size, const Complex<T>* grid, int num_threads) {
  const int s = k.support;
  const int os = k.oversample;
  if (s < 0 || os < 1 || k.values.size() < static_cast<std::size_t>(os) * (s + 1))
    throw Error("degrid_simple_cpu: kernel table of " + std::to_string(k.values.size()) +
                " samples, expected oversample x (support + 1) = " +
                std::to_string(static_cast<long long>(os) * (s + 1)));
  if (v.num_pols < 1) throw Error("degrid_simple_cpu: num_pols must be >= 1");
  std::vector<T> table(k.values.begin(), k.values.end());
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  const long long n = static_cast<long long>(v.num_vis);
  const int np = v.num_pols;
  long long outside = 0;
  const int threads = num_threads > 0 ? num_threads : omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : outside)
  for (long long i = 0; i < n; ++i) {
    Complex<T>* out = v.vis + static_cast<std::size_t>(i) * np;
    const ConvCell c = conv_cell<T>(v.uu[i], v.vv[i], cell_rad, grid_size, s, os);
    for (int p = 0; p < np; ++p) out[p] = {T(0), T(0)};
    if (!c.inside) {
      ++outside;
      continue;
    }
    for (int j = -s; j <= s; ++j) {
      const T cv = table[std::abs(c.off_v + j * os)];
      const std::size_t row = static_cast<std::size_t>(c.gv + j) * grid_size;
      for (int q = -s; q <= s; ++q) {
        const T kern = table[std::abs(c.off_u + q * os)] * cv;
        const std::size_t cell = row + static_cast<std::size_t>(c.gu + q);
        for (int p = 0; p < np; ++p) {
          const Complex<T> g = grid[p * plane + cell];
          out[p].re += g.re * kern;
          out[p].im += g.im * kern;
        }
      }
    }
  }
  return static_cast<std::size_t>(outside);
}

template std::size_t degrid_simple_cpu<float>(const ConvKernel1d&, const ConvDegridView<float>&,
                                              double, int, const Complex<float>*, int);
template std::size_t degrid_simple_cpu<double>(const ConvKernel1d&, const ConvDegridView<double>&,
                                               double, int, const Complex<double>*, int);

}  // namespace fringe::imager
