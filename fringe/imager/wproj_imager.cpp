// image/algorithm = W-projection (conv_imager.h): OSKAR 2.13's steps (its imager's
// oskar_imager_finalise.c and private_imager_init_wproj.c): w planes from the visibilities'
// |w|, kernels, gridding on the padded grid, then per polarisation the grid's centre moved to
// the corner and back around a forward FFT (the (-1)^(x+y) modulation), the gridding
// correction, and the centre image_size x image_size pixels kept. docs/imager.md
// "W-projection".
#include <unistd.h>

#include <omp.h>

#include <string>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/conv_kernels.h"
#include "fringe/imager/fft_cpu.h"
#include "fringe/imager/wproj_grid.h"
#include "fringe/imager/wproj_kernels.h"

namespace fringe::imager {

namespace {

std::size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

// Multiplies cell (x, y) by (-1)^(x + y): with an even side, moves the grid's centre to the
// corner for the FFT (and the image's back to the centre afterwards).
template <typename T>
void checkerboard(Complex<T>* plane, int size) {
#pragma omp parallel for schedule(static)
  for (int y = 0; y < size; ++y)
    for (int x = (y & 1) ? 0 : 1; x < size; x += 2) {
      Complex<T>& c = plane[std::size_t(y) * size + x];
      c = {-c.re, -c.im};
    }
}

}  // namespace

template <typename T>
std::vector<Complex<double>> wproj_image(const WProjConfig& cfg, VisBuffer<T>& vis, int size,
                                         double cell_rad, int num_threads, GridTotals& totals) {
  if (cfg.oversample < 1)
    throw Error("imager: W-projection kernel oversample " + std::to_string(cfg.oversample) +
                " is out of range (expected >= 1)");
  if (!(cfg.padding >= 1.0))
    throw Error("imager: W-projection grid padding " + std::to_string(cfg.padding) +
                " is out of range (expected >= 1)");
  const int threads = num_threads > 0 ? num_threads : omp_get_max_threads();
  const int npol = vis.num_pols;
  const std::size_t n = vis.num_visibilities();

  // u, v, w of every visibility [wavelengths] (visibility k = row x channels + channel).
  std::vector<double> uu(n), vv(n), ww(n);
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    for (int c = 0; c < vis.num_channels; ++c) {
      const std::size_t k = r * vis.num_channels + c;
      const double s = vis.freq_hz[c] / kSpeedOfLight;
      uu[k] = vis.uvw_m[r][0] * s;
      vv[k] = vis.uvw_m[r][1] * s;
      ww[k] = vis.uvw_m[r][2] * s;
    }
  ConvVisView<T> view;
  view.num_vis = n;
  view.num_pols = npol;
  view.uu = uu.data();
  view.vv = vv.data();
  view.ww = ww.data();
  view.vis = vis.vis.data();
  view.weight = vis.weight.data();

  // Planes, grid and kernels.
  const WPlanes planes =
      wproj_planes(cfg.num_w_planes, w_stats(ww.data(), vis.weight.data(), n), cell_rad, size);
  const int g = wproj_grid_size(size, cfg.padding);
  const int conv_size = wproj_conv_size(size, cfg.padding, planes.num_planes, physical_memory());
  const WKernelRows<T> rows =
      kernel_rows<T>(make_w_kernels(planes, cfg.oversample, size, g, conv_size, cell_rad, threads));

  const std::size_t cells = std::size_t(g) * g;
  std::vector<Complex<T>> grid(std::size_t(npol) * cells, Complex<T>{T(0), T(0)});
  // image/fft/grid_on_gpu: the CUDA gridder on the imager's device (the CPU's without one).
  bool on_gpu = false;
#ifdef FRINGE_HAVE_CUDA
  on_gpu = cfg.grid_on_gpu && !cuda_devices().empty();
  if (on_gpu) totals = grid_wproj_cuda(rows, view, cell_rad, g, grid.data(), cfg.device);
#endif
  if (!on_gpu) totals = grid_wproj_cpu(rows, view, cell_rad, g, grid.data(), threads);

  std::vector<Complex<double>> image(std::size_t(npol) * size * size, Complex<double>{0.0, 0.0});
  if (totals.gridded == 0 || totals.norm == 0.0) return image;
  // OSKAR divides the image by the norm; the caller divides by the imaged weight.
  double sum_w = 0.0;
  for (std::size_t k = 0; k < n; ++k)
    if (vis.weight[k] > 0.0f) sum_w += vis.weight[k];
  const double scale = sum_w / totals.norm;

  const Fft2d<T> fft(g, -1, threads);
  const std::vector<double> corr = spheroidal_grid_correction(g, cfg.oversample);
  const int d = (g - size) / 2;
  for (int q = 0; q < npol; ++q) {
    Complex<T>* plane = grid.data() + q * cells;
    checkerboard(plane, g);
    fft.execute(plane);
    checkerboard(plane, g);
    apply_grid_correction(corr, g, plane);
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const Complex<T> c = plane[std::size_t(y + d) * g + (x + d)];
        image[(std::size_t(q) * size + y) * size + x] = {double(c.re) * scale,
                                                         double(c.im) * scale};
      }
  }
  return image;
}

template std::vector<Complex<double>> wproj_image<float>(const WProjConfig&, VisBuffer<float>&, int,
                                                         double, int, GridTotals&);
template std::vector<Complex<double>> wproj_image<double>(const WProjConfig&, VisBuffer<double>&,
                                                          int, double, int, GridTotals&);

}  // namespace fringe::imager
