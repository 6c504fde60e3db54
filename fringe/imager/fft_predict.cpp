// image/algorithm = FFT with image/model_image: prediction with the FFT imager's own kernel,
// the adjoint of fft_image (fft_imager.cpp) step by step. Imaging is I = C . S F_-1 S G(w V)
// (G: convolutional gridding, S: the (-1)^(x + y) checkerboard, F_-1: the forward FFT, C: the
// gridding correction per pixel); its adjoint, applied to the model M (Jy/pixel), is
// V = G^T S F_+1 S (C . M): correct the model, checkerboard, inverse-sign FFT (unnormalised),
// checkerboard, then degrid each visibility from the (2 support + 1)^2 cells it was gridded to
// (conv_degrid.h) and divide by the sum of the kernel values used (the per-visibility term of
// the imaging norm), so that a source at the image centre predicts its flux exactly. The DFT
// (dft_predict, exp(+2 pi i (u l + v m)), no w) is what this approximates: the kernel's
// aliasing bounds the difference (docs/imager_fft.md).
#include <omp.h>

#include <cmath>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/imager/conv_cell.h"
#include "fringe/imager/conv_degrid.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/conv_kernels.h"
#include "fringe/imager/conv_view.h"
#include "fringe/imager/fft_cpu.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/imager/conv_grid_cuda.h"
#endif

namespace fringe::imager {

template <typename T>
GridTotals fft_predict(const FftConfig& cfg, const std::vector<Complex<double>>& model, int size,
                       double cell_rad, int num_threads, VisBuffer<T>& vis) {
  const int g = size;
  if (g < 2 * cfg.support + 2)
    throw Error("imager: an image of " + std::to_string(size) +
                " pixels is too small for an FFT kernel of support " + std::to_string(cfg.support) +
                " (at least 2 x support + 2 pixels)");
  if (model.size() != std::size_t(g) * g || vis.num_pols != 1)
    throw Error(
        "imager: FFT prediction takes one model plane of the image size and one value "
        "per visibility");
  const int nt = num_threads > 0 ? num_threads : omp_get_max_threads();
  const ConvKernel1d kernel = make_conv_kernel(cfg.kernel, cfg.support, cfg.oversample);
  const std::vector<double> corr = grid_correction(cfg.kernel, g);

  // S (C . M), F_+1, S.
  std::vector<Complex<T>> grid(std::size_t(g) * g);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int y = 0; y < g; ++y)
    for (int x = 0; x < g; ++x) {
      const std::size_t i = std::size_t(y) * g + x;
      const double s = ((x + y) & 1 ? -1.0 : 1.0) * corr[x] * corr[y];
      grid[i] = {T(model[i].re * s), T(model[i].im * s)};
    }
  Fft2d<T>(g, +1, nt).execute(grid.data());
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int y = 0; y < g; ++y)
    for (int x = (y & 1) ? 0 : 1; x < g; x += 2) {
      Complex<T>& c = grid[std::size_t(y) * g + x];
      c = {-c.re, -c.im};
    }

  // G^T: every visibility with weight (0 elsewhere), then the kernel-sum normalisation.
  std::vector<double> uu, vv;
  const ConvVisView<T> view = conv_view(vis, nt, uu, vv, nullptr);
  ConvDegridView<T> dv;
  dv.num_vis = view.num_vis;
  dv.num_pols = 1;
  dv.uu = view.uu;
  dv.vv = view.vv;
  dv.vis = vis.vis.data();
  GridTotals totals;
#ifdef FRINGE_HAVE_CUDA
  if (cfg.grid_on_gpu)
    degrid_simple_cuda(kernel, dv, cell_rad, g, grid.data(), cfg.device);
  else
#endif
    degrid_simple_cpu(kernel, dv, cell_rad, g, grid.data(), nt);
  const int s = cfg.support, os = cfg.oversample;
  std::size_t predicted = 0, outside = 0;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : predicted, outside)
  for (std::size_t k = 0; k < view.num_vis; ++k) {
    Complex<T>& v = vis.vis[k];
    if (!(vis.weight[k] > 0.0f)) {
      v = {T(0), T(0)};
      continue;
    }
    const ConvCell c = conv_cell<T>(view.uu[k], view.vv[k], cell_rad, g, s, os);
    if (!c.inside) {  // degridded as 0
      ++outside;
      continue;
    }
    double su = 0.0, sv = 0.0;
    for (int j = -s; j <= s; ++j) {
      su += kernel.values[std::abs(c.off_u + j * os)];
      sv += kernel.values[std::abs(c.off_v + j * os)];
    }
    const double norm = su * sv;
    v = {T(v.re / norm), T(v.im / norm)};
    ++predicted;
  }
  totals.gridded = predicted;
  totals.outside = outside;
  return totals;
}

template GridTotals fft_predict<float>(const FftConfig&, const std::vector<Complex<double>>&, int,
                                       double, int, VisBuffer<float>&);
template GridTotals fft_predict<double>(const FftConfig&, const std::vector<Complex<double>>&, int,
                                        double, int, VisBuffer<double>&);

}  // namespace fringe::imager
