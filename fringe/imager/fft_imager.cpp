// image/algorithm = FFT with OSKAR 2.13's semantics (docs/imager.md "FFT"): the grid is the
// image size (no padding), each polarisation is gridded with the separable kernel
// (conv_grid_cpu.cpp), transformed with a forward (unnormalised, exp(-2 pi i ...)) 2-D FFT
// between two checkerboard sign flips (-1)^(x + y) (which move the uv origin and the image
// centre from the corner to size/2), multiplied by the gridding correction and normalised.
//
// Normalisation: OSKAR divides by norm = sum over gridded visibilities of weight x (sum of the
// kernel values it was spread with), not by the sum of weights. The caller of fft_image divides
// by the sum of the imaged weights (dft_image's contract), so the image is scaled here by
// sum_weights / norm: after the caller's division it equals OSKAR's image.
#include <omp.h>

#include <memory>
#include <string>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/conv_kernels.h"
#include "fringe/imager/fft_cpu.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/imager/conv_fft_cuda.h"
#include "fringe/imager/conv_grid_cuda.h"
#endif

namespace fringe::imager {

template <typename T>
std::vector<Complex<double>> fft_image(const FftConfig& cfg, VisBuffer<T>& vis, int size,
                                       double cell_rad, int num_threads, GridTotals& totals) {
  // OSKAR's FFT imager grids onto the image itself: the grid size is the image size.
  const int g = size;
  if (g < 2 * cfg.support + 2)
    throw Error("imager: image/size " + std::to_string(size) +
                " is too small for the FFT kernel (image/fft/support " +
                std::to_string(cfg.support) + " needs at least 2 x support + 2 pixels)");
  if (!(cell_rad > 0.0))
    throw Error("imager: the FFT imager needs a cell size > 0 rad (got " +
                std::to_string(cell_rad) + ")");
  const ConvKernel1d kernel = make_conv_kernel(cfg.kernel, cfg.support, cfg.oversample);
  const int nt = num_threads > 0 ? num_threads : omp_get_max_threads();
  const int npol = vis.num_pols;
  const std::size_t nvis = vis.num_visibilities();
  const std::size_t plane = std::size_t(g) * g;

  // u, v in wavelengths per visibility [row][channel] (OSKAR: metres x frequency / c); w is not
  // used by this gridder. Left uninitialised and filled in parallel: zero-filling 16 bytes per
  // visibility first was a visible share of the run time.
  const std::unique_ptr<double[]> uu(new double[nvis]), vv(new double[nvis]);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    for (int c = 0; c < vis.num_channels; ++c) {
      const double inv_wl = vis.freq_hz[c] / kSpeedOfLight;
      const std::size_t k = r * vis.num_channels + c;
      uu[k] = vis.uvw_m[r][0] * inv_wl;
      vv[k] = vis.uvw_m[r][1] * inv_wl;
    }
  ConvVisView<T> view;
  view.num_vis = nvis;
  view.num_pols = npol;
  view.uu = uu.get();
  view.vv = vv.get();
  view.ww = nullptr;
  view.vis = vis.vis.data();
  view.weight = vis.weight.data();

  std::vector<Complex<T>> grid(std::size_t(npol) * plane, Complex<T>{T(0), T(0)});
  // image/fft/grid_on_gpu and use_gpu: gridding and/or the FFT on the imager's GPU (the imager
  // clears both flags when it has none). `transformed`: grid already holds the GPU's transform
  // of the sign-flipped grid (the first flip and the FFT below are then done).
  bool transformed = false;
#ifdef FRINGE_HAVE_CUDA
  if (cfg.grid_on_gpu || cfg.fft_on_gpu) {
    ConvCudaOptions opt;
    opt.device = cfg.device;
    ConvGridCuda<T> gpu(kernel, g, npol, opt);
    if (cfg.grid_on_gpu) {
      totals = gpu.grid(view, cell_rad);
    } else {
      totals = grid_simple_cpu(kernel, view, cell_rad, g, grid.data(), nt);
      gpu.upload_grid(grid.data());
    }
    if (cfg.fft_on_gpu) {
      fft_device_grid_to_host(gpu.device_grid(), g, npol, cfg.device, gpu.stream(), grid.data());
      transformed = true;
    } else if (cfg.grid_on_gpu) {
      gpu.add_grid_to_host(grid.data());  // the host grid is zero: a copy
    }
  } else
#endif
  {
    totals = grid_simple_cpu(kernel, view, cell_rad, g, grid.data(), nt);
  }

  // The weights the caller will divide by: those still > 0 after the gridder zeroed the ones
  // outside the grid.
  double sum_w = 0.0;
  for (float w : vis.weight)
    if (w > 0.0f) sum_w += w;
  const double scale = totals.norm != 0.0 ? sum_w / totals.norm : 0.0;

  const std::vector<double> corr = grid_correction(cfg.kernel, g);
  std::vector<Complex<double>> image(std::size_t(npol) * plane);
  const Fft2d<T> fft(g, -1, nt);
  for (int p = 0; p < npol; ++p) {
    Complex<T>* gp = grid.data() + p * plane;
    if (!transformed) {
      // (-1)^(x + y) before the transform: the uv origin at cell g/2 becomes the transform's 0.
#pragma omp parallel for num_threads(nt) schedule(static)
      for (int y = 0; y < g; ++y)
        for (int x = (y & 1) ? 0 : 1; x < g; x += 2) {
          Complex<T>& c = gp[std::size_t(y) * g + x];
          c.re = -c.re;
          c.im = -c.im;
        }
      fft.execute(gp);
    }
    // (-1)^(x + y) again (image centre to pixel g/2), the gridding correction and the scale.
    Complex<double>* ip = image.data() + p * plane;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int y = 0; y < g; ++y)
      for (int x = 0; x < g; ++x) {
        const std::size_t i = std::size_t(y) * g + x;
        const double s = ((x + y) & 1 ? -scale : scale) * corr[x] * corr[y];
        ip[i] = {double(gp[i].re) * s, double(gp[i].im) * s};
      }
  }
  return image;
}

template std::vector<Complex<double>> fft_image<float>(const FftConfig&, VisBuffer<float>&, int,
                                                       double, int, GridTotals&);
template std::vector<Complex<double>> fft_image<double>(const FftConfig&, VisBuffer<double>&, int,
                                                        double, int, GridTotals&);

}  // namespace fringe::imager
