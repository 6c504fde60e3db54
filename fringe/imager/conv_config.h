// Settings of the convolutional-gridding imagers (image/algorithm = FFT and W-projection,
// OSKAR 2.13's semantics; docs/imager.md "FFT" and "W-projection"). Typed, SI units; the app
// layer maps the image/fft/ and image/wproj/ keys onto these fields.
#pragma once

namespace fringe::imager {

// The separable convolution function of the FFT gridder (image/fft/kernel_type).
enum class ConvKernelType { Spheroidal, Pillbox };

struct FftConfig {
  ConvKernelType kernel = ConvKernelType::Spheroidal;
  int support = 3;           // half-width of the kernel [grid cells]: 2 support + 1 cells wide
  int oversample = 100;      // kernel samples per grid cell
  bool grid_on_gpu = false;  // image/fft/grid_on_gpu (with image/use_gpus)
  bool fft_on_gpu = false;   // image/fft/use_gpu (with image/use_gpus)
  int device = 0;            // the CUDA device both use (the imager's device policy picks it)
};

struct WProjConfig {
  int num_w_planes = 0;        // < 1: automatic, from the largest |w| and the field of view
  int oversample = 4;          // w-kernel samples per grid cell (OSKAR's value for W-projection)
  double padding = 1.2;        // grid = image size x padding, rounded to a composite even size
  bool kernels_on_gpu = true;  // image/wproj/generate_w_kernels_on_gpu (with image/use_gpus)
  bool grid_on_gpu = false;    // image/fft/grid_on_gpu applies to W-projection too
  bool fft_on_gpu = false;     // image/fft/use_gpu
  int device = 0;              // the CUDA device the gridder uses
};

// The W-projection grid side (OSKAR's choice): the smallest even number of the form
// 2^a 3^b 5^c (fast FFT sizes) strictly larger than int(padding x image_size - 0.5), e.g.
// 640 for a 512-pixel image and padding 1.2. Defined in wproj_grid_size.cpp.
int wproj_grid_size(int image_size, double padding);

}  // namespace fringe::imager
