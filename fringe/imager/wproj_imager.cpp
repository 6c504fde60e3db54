// image/algorithm = W-projection (conv_imager.h): OSKAR 2.13's steps (its imager's
// oskar_imager_finalise.c and private_imager_init_wproj.c): w planes from the visibilities'
// |w|, kernels, gridding on the padded grid, then per polarisation the grid's centre moved to
// the corner and back around a forward FFT (the (-1)^(x+y) modulation), the gridding
// correction, and the centre image_size x image_size pixels kept. docs/imager.md
// "W-projection".

#include <omp.h>

#include <memory>
#include <string>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/resources.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/conv_kernels.h"
#include "fringe/imager/conv_view.h"
#include "fringe/imager/fft_cpu.h"
#include "fringe/imager/wproj_grid.h"
#include "fringe/imager/wproj_kernels.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/imager/conv_fft_cuda.h"
#endif

namespace fringe::imager {

namespace {

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

template <typename T>
class WProjGridder final : public ConvGridder<T> {
 public:
  WProjGridder(const WProjConfig& cfg, int size, double cell_rad, int npol, int num_threads,
               const WStats& w)
      : cfg_(cfg), size_(size), npol_(npol), cell_rad_(cell_rad) {
    if (cfg.oversample < 1)
      throw Error("imager: W-projection kernel oversample " + std::to_string(cfg.oversample) +
                  " is out of range (expected >= 1)");
    if (!(cfg.padding >= 1.0))
      throw Error("imager: W-projection grid padding " + std::to_string(cfg.padding) +
                  " is out of range (expected >= 1)");
    nt_ = num_threads > 0 ? num_threads : omp_get_max_threads();
    // Planes, grid and kernels.
    const WPlanes planes = wproj_planes(cfg.num_w_planes, w, cell_rad, size);
    g_ = wproj_grid_size(size, cfg.padding);
    const int conv_size =
        wproj_conv_size(size, cfg.padding, planes.num_planes, physical_memory_bytes());
    rows_ =
        kernel_rows<T>(make_w_kernels(planes, cfg.oversample, size, g_, conv_size, cell_rad, nt_));
    // image/wproj/grid_on_gpu: the CUDA gridder on the imager's device (the CPU's without one).
#ifdef FRINGE_HAVE_CUDA
    if (cfg.grid_on_gpu && !cuda_devices().empty())
      gpu_ = std::make_unique<WProjGridCuda<T>>(rows_, g_, npol_, cfg.device);
#endif
    if (!gpu_) grid_.assign(std::size_t(npol_) * g_ * g_, Complex<T>{T(0), T(0)});
  }

  GridTotals add(VisBuffer<T>& vis) override {
    const ConvVisView<T> view = conv_view(vis, nt_, uu_, vv_, &ww_);
    GridTotals t;
#ifdef FRINGE_HAVE_CUDA
    if (gpu_) t = gpu_->grid(view, cell_rad_);
#endif
    if (!gpu_) t = grid_wproj_cpu(rows_, view, cell_rad_, g_, grid_.data(), nt_, &scratch_);
    totals_.add(t);
    return t;
  }

  std::vector<Complex<double>> finish(double sum_w) override {
    const int size = size_, g = g_;
    std::vector<Complex<double>> image(std::size_t(npol_) * size * size, Complex<double>{0.0, 0.0});
    const std::size_t cells = std::size_t(g) * g;
    // The first checkerboard and the FFT: already done on the GPU when `transformed`.
    bool transformed = false;
#ifdef FRINGE_HAVE_CUDA
    if (gpu_) {
      grid_.assign(std::size_t(npol_) * cells, Complex<T>{T(0), T(0)});
      if (cfg_.fft_on_gpu && totals_.gridded > 0) {
        fft_device_grid_to_host(gpu_->device_grid(), g, npol_, cfg_.device, nullptr, grid_.data());
        transformed = true;
      } else {
        gpu_->add_grid_to_host(grid_.data());
      }
      gpu_.reset();
    }
#endif
    if (totals_.gridded == 0 || totals_.norm == 0.0) return image;
    // OSKAR divides the image by the norm; the caller divides by the imaged weight.
    const double scale = sum_w / totals_.norm;
    const Fft2d<T> fft(g, -1, nt_);
    const std::vector<double> corr = spheroidal_grid_correction(g, cfg_.oversample);
    const int d = (g - size) / 2;
    for (int q = 0; q < npol_; ++q) {
      Complex<T>* plane = grid_.data() + q * cells;
      if (!transformed) {
        checkerboard(plane, g);
        fft.execute(plane);
      }
      checkerboard(plane, g);
      apply_grid_correction(corr, g, plane);
      for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
          const Complex<T> c = plane[std::size_t(y + d) * g + (x + d)];
          image[(std::size_t(q) * size + y) * size + x] = {double(c.re) * scale,
                                                           double(c.im) * scale};
        }
    }
    grid_ = {};
    return image;
  }

 private:
  WProjConfig cfg_;
  int size_, npol_, g_ = 0, nt_ = 1;
  double cell_rad_;
  WKernelRows<T> rows_;
  GridTotals totals_;
  std::vector<Complex<T>> grid_;
  std::vector<double> uu_, vv_, ww_;
  WProjScratch scratch_;
#ifdef FRINGE_HAVE_CUDA
  std::unique_ptr<WProjGridCuda<T>> gpu_;
#else
  std::unique_ptr<int> gpu_;  // never set: no CUDA in this build
#endif
};

}  // namespace

template <typename T>
void add_w_stats(const VisBuffer<T>& vis, WStats& w) {
  // w in wavelengths as the gridder computes it (conv_view), in visibility order; no array of
  // them (a first pass over a large input would allocate one per slice).
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    for (int c = 0; c < vis.num_channels; ++c)
      if (vis.weight[r * vis.num_channels + c] > 0.0f)
        add_abs_w(std::fabs(vis.uvw_m[r][2] * (vis.freq_hz[c] / kSpeedOfLight)), w);
  rms_of_w_stats(w);
}

template <typename T>
std::unique_ptr<ConvGridder<T>> make_wproj_gridder(const WProjConfig& cfg, int size,
                                                   double cell_rad, int num_pols, int num_threads,
                                                   const WStats& w) {
  return std::make_unique<WProjGridder<T>>(cfg, size, cell_rad, num_pols, num_threads, w);
}

template <typename T>
std::vector<Complex<double>> wproj_image(const WProjConfig& cfg, VisBuffer<T>& vis, int size,
                                         double cell_rad, int num_threads, GridTotals& totals) {
  WStats w;
  add_w_stats(vis, w);
  const auto gridder = make_wproj_gridder<T>(cfg, size, cell_rad, vis.num_pols, num_threads, w);
  return image_all(*gridder, vis, totals);
}

#define FRINGE_WPROJ_IMAGER(T)                                                                    \
  template void add_w_stats<T>(const VisBuffer<T>&, WStats&);                                     \
  template std::unique_ptr<ConvGridder<T>> make_wproj_gridder<T>(const WProjConfig&, int, double, \
                                                                 int, int, const WStats&);        \
  template std::vector<Complex<double>> wproj_image<T>(const WProjConfig&, VisBuffer<T>&, int,    \
                                                       double, int, GridTotals&);
FRINGE_WPROJ_IMAGER(float)
FRINGE_WPROJ_IMAGER(double)
#undef FRINGE_WPROJ_IMAGER

}  // namespace fringe::imager
