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
#include "fringe/imager/conv_view.h"
#include "fringe/imager/fft_cpu.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/imager/conv_fft_cuda.h"
#include "fringe/imager/conv_grid_cuda.h"
#endif

namespace fringe::imager {

namespace {

template <typename T>
class FftGridder final : public ConvGridder<T> {
 public:
  FftGridder(const FftConfig& cfg, int size, double cell_rad, int npol, int num_threads)
      : cfg_(cfg), g_(size), npol_(npol), cell_rad_(cell_rad) {
    // OSKAR's FFT imager grids onto the image itself: the grid size is the image size.
    if (g_ < 2 * cfg.support + 2)
      throw Error("imager: an image of " + std::to_string(size) +
                  " pixels is too small for an FFT kernel of support " +
                  std::to_string(cfg.support) + " (at least 2 x support + 2 pixels)");
    if (!(cell_rad > 0.0))
      throw Error("imager: the FFT imager needs a cell size > 0 rad (got " +
                  std::to_string(cell_rad) + ")");
    kernel_ = make_conv_kernel(cfg.kernel, cfg.support, cfg.oversample);
    nt_ = num_threads > 0 ? num_threads : omp_get_max_threads();
#ifdef FRINGE_HAVE_CUDA
    // image/fft/grid_on_gpu and use_gpu: gridding and/or the FFT on the imager's GPU (the
    // imager clears both flags when it has none).
    if (cfg.grid_on_gpu || cfg.fft_on_gpu) {
      ConvCudaOptions opt;
      opt.device = cfg.device;
      gpu_ = std::make_unique<ConvGridCuda<T>>(kernel_, g_, npol_, opt);
    }
#endif
    if (!cfg.grid_on_gpu || !gpu_) host_grid();
  }

  GridTotals add(VisBuffer<T>& vis) override {
    const ConvVisView<T> view = conv_view(vis, nt_, uu_, vv_, nullptr);
    GridTotals t;
#ifdef FRINGE_HAVE_CUDA
    if (gpu_ && cfg_.grid_on_gpu) t = gpu_->grid(view, cell_rad_);
#endif
    if (!on_gpu()) t = grid_simple_cpu(kernel_, view, cell_rad_, g_, grid_.data(), nt_);
    totals_.add(t);
    return t;
  }

  std::vector<Complex<double>> finish(double sum_w) override {
    const std::size_t plane = std::size_t(g_) * g_;
    // `transformed`: the grid already holds the GPU's transform of the sign-flipped grid (the
    // first flip and the FFT below are then done).
    bool transformed = false;
#ifdef FRINGE_HAVE_CUDA
    if (gpu_) {
      if (!cfg_.grid_on_gpu) gpu_->upload_grid(grid_.data());
      host_grid();
      if (cfg_.fft_on_gpu) {
        fft_device_grid_to_host(gpu_->device_grid(), g_, npol_, cfg_.device, gpu_->stream(),
                                grid_.data());
        transformed = true;
      } else {
        gpu_->add_grid_to_host(grid_.data());  // the host grid is zero: a copy
      }
      gpu_.reset();
    }
#endif
    const double scale = totals_.norm != 0.0 ? sum_w / totals_.norm : 0.0;
    const std::vector<double> corr = grid_correction(cfg_.kernel, g_);
    std::vector<Complex<double>> image(std::size_t(npol_) * plane);
    const Fft2d<T> fft(g_, -1, nt_);
    const int g = g_;
    for (int p = 0; p < npol_; ++p) {
      Complex<T>* gp = grid_.data() + p * plane;
      if (!transformed) {
        // (-1)^(x + y) before the transform: the uv origin at cell g/2 becomes the
        // transform's 0.
#pragma omp parallel for num_threads(nt_) schedule(static)
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
#pragma omp parallel for num_threads(nt_) schedule(static)
      for (int y = 0; y < g; ++y)
        for (int x = 0; x < g; ++x) {
          const std::size_t i = std::size_t(y) * g + x;
          const double s = ((x + y) & 1 ? -scale : scale) * corr[x] * corr[y];
          ip[i] = {double(gp[i].re) * s, double(gp[i].im) * s};
        }
    }
    grid_ = {};
    return image;
  }

 private:
  bool on_gpu() const {
#ifdef FRINGE_HAVE_CUDA
    return gpu_ && cfg_.grid_on_gpu;
#else
    return false;
#endif
  }
  void host_grid() {
    if (grid_.empty()) grid_.assign(std::size_t(npol_) * g_ * g_, Complex<T>{T(0), T(0)});
  }

  FftConfig cfg_;
  int g_, npol_, nt_ = 1;
  double cell_rad_;
  ConvKernel1d kernel_;
  GridTotals totals_;
  std::vector<Complex<T>> grid_;
  std::vector<double> uu_, vv_;
#ifdef FRINGE_HAVE_CUDA
  std::unique_ptr<ConvGridCuda<T>> gpu_;
#else
  std::unique_ptr<int> gpu_;  // never set: no CUDA in this build
#endif
};

}  // namespace

template <typename T>
std::unique_ptr<ConvGridder<T>> make_fft_gridder(const FftConfig& cfg, int size, double cell_rad,
                                                 int num_pols, int num_threads) {
  return std::make_unique<FftGridder<T>>(cfg, size, cell_rad, num_pols, num_threads);
}

template <typename T>
std::vector<Complex<double>> fft_image(const FftConfig& cfg, VisBuffer<T>& vis, int size,
                                       double cell_rad, int num_threads, GridTotals& totals) {
  const auto gridder = make_fft_gridder<T>(cfg, size, cell_rad, vis.num_pols, num_threads);
  return image_all(*gridder, vis, totals);
}

#define FRINGE_FFT_IMAGER(T)                                                                       \
  template std::unique_ptr<ConvGridder<T>> make_fft_gridder<T>(const FftConfig&, int, double, int, \
                                                               int);                               \
  template std::vector<Complex<double>> fft_image<T>(const FftConfig&, VisBuffer<T>&, int, double, \
                                                     int, GridTotals&);
FRINGE_FFT_IMAGER(float)
FRINGE_FFT_IMAGER(double)
#undef FRINGE_FFT_IMAGER

}  // namespace fringe::imager
