// The convolution functions of the FFT imager (image/fft/kernel_type Spheroidal and Pillbox)
// in OSKAR 2.13's tabulated layout, and the gridding correction functions that undo their
// taper in the image (docs/imager.md "FFT"). W-projection uses the spheroidal function and its
// correction (with the sinc of its oversampled kernel) too.
#pragma once

#include <vector>

#include "fringe/core/complex.h"
#include "fringe/imager/conv_config.h"
#include "fringe/imager/conv_grid.h"

namespace fringe::imager {

// psi(nu): Schwab's (1984) rational approximation of the prolate spheroidal wave function of
// order alpha = 1, support m = 6 cells (c = 3 pi), normalised to psi(0) = 1 (within 4e-7), for
// 0 <= nu <= 1 (nu: offset / half-width); 0 outside that range. Unlike taper.h's
// spheroidal() (IDG's taper: |nu|, exactly 1 at 0) it is not renormalised: OSKAR's values.
double schwab_spheroidal(double nu);

// The tabulated 1-D kernels: values[i] at nu = i / (support x oversample),
// i = 0 .. oversample x (support + 1) - 1.
//   Spheroidal: (1 - nu^2) psi(nu)  (Schwab's gridding function with alpha = 1)
//   Pillbox:    1 for nu < 1/2, else 0 (a box `support` cells wide)
// support >= 1, oversample >= 1 (else fringe::Error naming the value).
ConvKernel1d spheroidal_kernel(int support, int oversample);
ConvKernel1d pillbox_kernel(int support, int oversample);
ConvKernel1d make_conv_kernel(ConvKernelType type, int support, int oversample);

// Gridding correction c[i], i = 0 .. size - 1 (pixel i of an image of `size` pixels, centre
// size / 2); the image is multiplied by c[x] c[y].
//   Spheroidal: 1 / (psi(|i - size/2| / (size/2)) sinc^2(pi (i - size/2) / (size padding)));
//     padding = 0 drops the sinc term (the FFT imager); W-projection passes its kernel
//     oversampling. A zero denominator gives 1.
//   Pillbox: 1 (no correction, as OSKAR).
std::vector<double> spheroidal_grid_correction(int size, int padding = 0);
std::vector<double> pillbox_grid_correction(int size);
std::vector<double> grid_correction(ConvKernelType type, int size);

// plane[y * size + x] *= corr[x] corr[y] for one size x size complex plane.
template <typename T>
void apply_grid_correction(const std::vector<double>& corr, int size, Complex<T>* plane);

}  // namespace fringe::imager
