// The grid FFT of the convolutional imagers on the GPU (image/fft/use_gpu): the device grid of
// ConvGridCuda (conv_grid_cuda.h), [num_pols][g][g], is multiplied by (-1)^(x + y) (so that the
// uv origin at cell g/2 becomes the transform's origin), transformed in place by cuFFT with
// the same sign as the CPU path (Fft2d(g, -1), fft_cpu.h), and copied to the host, where the
// imager applies the second (-1)^(x + y), the gridding correction and the scale. Only built
// with the CUDA back end (FRINGE_HAVE_CUDA); errors are fringe::Error naming the call.
#pragma once

#include "fringe/core/complex.h"

namespace fringe::imager {

template <typename T>
void fft_device_grid_to_host(Complex<T>* device_grid, int grid_size, int num_pols, int device,
                             void* stream, Complex<T>* host_grid);

}  // namespace fringe::imager
