// The backend-neutral part of IDG imaging and prediction: w layers, grid FFT, w-layer phase,
// taper correction and crop (docs/imager.md, "Algorithm").
#include "fringe/imager/idg.h"
#include "fringe/core/constants.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fringe/core/interrupt.h"
#include "fringe/core/simd_sincos.h"
#include "fringe/imager/fft_cpu.h"

namespace fringe::imager {

template <typename T>
void centred_fft(Complex<T>* data, int size, int count, bool forward, int num_threads) {
  if (num_threads <= 0) num_threads = omp_get_max_threads();
  const int sign = forward ? -1 : +1;
  int chunk = 1;
  for (int c : {32, 16, 8, 4, 2})
    if (size % c == 0) {
      chunk = c;
      break;
    }
  const FftMany<T> rows(size, chunk, 1, size, sign);  // `chunk` consecutive rows
  const FftMany<T> cols(size, chunk, size, 1, sign);  // `chunk` consecutive columns
  const std::size_t plane = static_cast<std::size_t>(size) * size;
  for (int k = 0; k < count; ++k) {
    Complex<T>* d = data + k * plane;
    auto checkerboard = [&] {
#pragma omp parallel for num_threads(num_threads)
      for (int y = 0; y < size; ++y)
        for (int x = (y & 1) ? 0 : 1; x < size; x += 2)
          d[std::size_t(y) * size + x] = -d[std::size_t(y) * size + x];
    };
    checkerboard();
#pragma omp parallel for num_threads(num_threads) schedule(dynamic)
    for (int y = 0; y < size; y += chunk) rows.execute(d + std::size_t(y) * size);
#pragma omp parallel for num_threads(num_threads) schedule(dynamic)
    for (int x = 0; x < size; x += chunk) cols.execute(d + x);
    checkerboard();
  }
}

std::vector<double> taper_correction(const GridGeometry& g, const Taper& taper) {
  std::vector<double> c(g.grid_size);
  for (int x = 0; x < g.grid_size; ++x)
    c[x] = g.subgrid_size * taper((x - 0.5 * g.grid_size) / g.grid_size);
  return c;
}

template <typename T>
void add_layer_to_image(const GridGeometry& g, const std::vector<double>& corr, int layer, int npol,
                        const Complex<T>* grid, Complex<double>* image) {
  const int gs = g.grid_size, n = g.image_size, off = (gs - n) / 2;
  const std::size_t gplane = std::size_t(gs) * gs, iplane = std::size_t(n) * n;
  const double width = g.image_width_lm();
  const double w0 = layer * g.w_step;
  // |phase| <= 2 pi |w0| (|n - 1| <= 1): simd_sincos's range unless w0 is beyond ~1.6e5
  // wavelengths, where libm takes over.
  const bool simd = 2.0 * kPi * std::abs(w0) <= kSimdSincosMaxArg;
#pragma omp parallel
  {
    std::vector<double> cs(n), sn(n);
#pragma omp for
    for (int y = 0; y < n; ++y) {
      auto phase = [&](int x) {
        double l, m, nm1;
        pixel_lmn<double>(x + off, y + off, gs, width, &l, &m, &nm1);
        return -2.0 * kPi * w0 * nm1;
      };
      if (simd) {
#pragma omp simd
        for (int x = 0; x < n; ++x) simd_sincos(phase(x), sn[x], cs[x]);
      } else {
        for (int x = 0; x < n; ++x) {
          sn[x] = std::sin(phase(x));
          cs[x] = std::cos(phase(x));
        }
      }
#pragma omp simd
      for (int x = 0; x < n; ++x) {
        const double scale = 1.0 / (corr[x + off] * corr[y + off]);
        cs[x] *= scale;
        sn[x] *= scale;
      }
      for (int x = 0; x < n; ++x) {
        const double c = cs[x], s = sn[x];
        for (int q = 0; q < npol; ++q) {
          const Complex<T> v = grid[q * gplane + std::size_t(y + off) * gs + (x + off)];
          Complex<double>& o = image[q * iplane + std::size_t(y) * n + x];
          o.re += v.re * c - v.im * s;
          o.im += v.re * s + v.im * c;
        }
      }
    }
  }
}

template <typename T>
std::vector<Complex<double>> idg_image(const GridGeometry& g, const Taper& taper, const Plan& plan,
                                       const VisBuffer<T>& vis, IdgBackend<T>& backend) {
  const int npol = vis.num_pols, gs = g.grid_size, n = g.image_size;
  const std::size_t gplane = std::size_t(gs) * gs, iplane = std::size_t(n) * n;
  std::vector<Complex<double>> image(npol * iplane, Complex<double>{0.0, 0.0});
  std::vector<Complex<T>> grid(npol * gplane);
  const std::vector<double> corr = taper_correction(g, taper);
  for (int layer : plan.layers) {
    interrupt::throw_if_requested();  // SIGINT/SIGTERM: stop between w layers
    std::fill(grid.begin(), grid.end(), Complex<T>{T(0), T(0)});
    backend.grid(g, taper, plan.layer_subgrids(layer), vis, grid.data());
    backend.fft_grid(grid.data(), gs, npol, true);
    add_layer_to_image(g, corr, layer, npol, grid.data(), image.data());
  }
  return image;
}

template <typename T>
void idg_predict(const GridGeometry& g, const Taper& taper, const Plan& plan,
                 std::span<const Complex<double>> model, VisBuffer<T>& vis,
                 IdgBackend<T>& backend) {
  const int npol = vis.num_pols, gs = g.grid_size, n = g.image_size, off = (gs - n) / 2;
  const std::size_t gplane = std::size_t(gs) * gs, iplane = std::size_t(n) * n;
  std::vector<Complex<T>> grid(npol * gplane);
  const std::vector<double> corr = taper_correction(g, taper);
  const double width = g.image_width_lm();
  std::fill(vis.vis.begin(), vis.vis.end(), Complex<T>{T(0), T(0)});
  for (int layer : plan.layers) {
    interrupt::throw_if_requested();  // SIGINT/SIGTERM: stop between w layers
    std::fill(grid.begin(), grid.end(), Complex<T>{T(0), T(0)});
    const double w0 = layer * g.w_step;
#pragma omp parallel for
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        double l, m, nm1;
        pixel_lmn<double>(x + off, y + off, gs, width, &l, &m, &nm1);
        const double ph = 2.0 * kPi * w0 * nm1;
        const double c = std::cos(ph) / (corr[x + off] * corr[y + off]);
        const double s = std::sin(ph) / (corr[x + off] * corr[y + off]);
        for (int q = 0; q < npol; ++q) {
          const Complex<double> v = model[q * iplane + std::size_t(y) * n + x];
          grid[q * gplane + std::size_t(y + off) * gs + (x + off)] = {T(v.re * c - v.im * s),
                                                                      T(v.re * s + v.im * c)};
        }
      }
    backend.fft_grid(grid.data(), gs, npol, false);
    backend.degrid(g, taper, plan.layer_subgrids(layer), grid.data(), vis);
  }
}

#define FRINGE_IDG_INSTANTIATE(T)                                                                \
  template void centred_fft<T>(Complex<T>*, int, int, bool, int);                                \
  template std::vector<Complex<double>> idg_image<T>(                                            \
      const GridGeometry&, const Taper&, const Plan&, const VisBuffer<T>&, IdgBackend<T>&);      \
  template void idg_predict<T>(const GridGeometry&, const Taper&, const Plan&,                   \
                               std::span<const Complex<double>>, VisBuffer<T>&, IdgBackend<T>&); \
  template void add_layer_to_image<T>(const GridGeometry&, const std::vector<double>&, int, int, \
                                      const Complex<T>*, Complex<double>*);
FRINGE_IDG_INSTANTIATE(float)
FRINGE_IDG_INSTANTIATE(double)

}  // namespace fringe::imager
