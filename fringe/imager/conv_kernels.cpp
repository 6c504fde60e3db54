#include "fringe/imager/conv_kernels.h"

#include <cmath>
#include <numbers>
#include <string>

#include "fringe/core/error.h"

namespace fringe::imager {

namespace {

void check_kernel_args(int support, int oversample) {
  if (support < 1)
    throw Error("imager: FFT kernel support " + std::to_string(support) +
                " is out of range (expected >= 1 grid cell)");
  if (oversample < 1)
    throw Error("imager: FFT kernel oversample " + std::to_string(oversample) +
                " is out of range (expected >= 1)");
}

}  // namespace

// F. R. Schwab, "Optimal gridding of visibility data in radio interferometry", in Indirect
// Imaging (ed. J. A. Roberts, Cambridge University Press, 1984), pp. 333-346: the prolate
// spheroidal function psi_{alpha,0}(c, nu) for alpha = 1, m = 6 (c = pi m / 2) approximated by
// a ratio of polynomials in d = nu^2 - nu_end^2 on two pieces, [0, 0.75) and [0.75, 1] (the
// coefficients of casacore's grdsf routine, which OSKAR uses as well):
//   psi(nu) = (p0 + p1 d + p2 d^2 + p3 d^3 + p4 d^4) / (1 + q1 d + q2 d^2).
double schwab_spheroidal(double nu) {
  struct Piece {
    double nu_end;
    double p[5];
    double q[3];
  };
  static constexpr Piece kPieces[2] = {
      {0.75,
       {0.08203343, -0.3644705, 0.627866, -0.5335581, 0.2312756},
       {1.0, 0.8212018, 0.2078043}},
      {1.0,
       {0.004028559, -0.03697768, 0.1021332, -0.1201436, 0.06412774},
       {1.0, 0.9599102, 0.2918724}},
  };
  if (!(nu >= 0.0 && nu <= 1.0)) return 0.0;
  const Piece& c = kPieces[nu < 0.75 ? 0 : 1];
  const double d = nu * nu - c.nu_end * c.nu_end;
  // Summed term by term in increasing powers (the order of the published form).
  double num = c.p[0], den = c.q[0], dk = 1.0;
  for (int k = 1; k < 5; ++k) {
    dk *= d;
    num += c.p[k] * dk;
    if (k < 3) den += c.q[k] * dk;
  }
  return den == 0.0 ? 0.0 : num / den;
}

ConvKernel1d spheroidal_kernel(int support, int oversample) {
  check_kernel_args(support, oversample);
  ConvKernel1d k;
  k.support = support;
  k.oversample = oversample;
  const int n = oversample * (support + 1);
  const double extent = double(support) * oversample;  // samples per half-width
  k.values.resize(n);
  for (int i = 0; i < n; ++i) {
    const double nu = i / extent;
    // Schwab's gridding function (1 - nu^2)^alpha psi(nu) with alpha = 1.
    k.values[i] = (1.0 - nu * nu) * schwab_spheroidal(nu);
  }
  return k;
}

ConvKernel1d pillbox_kernel(int support, int oversample) {
  check_kernel_args(support, oversample);
  ConvKernel1d k;
  k.support = support;
  k.oversample = oversample;
  const int n = oversample * (support + 1);
  const double extent = double(support) * oversample;
  k.values.resize(n);
  for (int i = 0; i < n; ++i) k.values[i] = (i / extent < 0.5) ? 1.0 : 0.0;
  return k;
}

ConvKernel1d make_conv_kernel(ConvKernelType type, int support, int oversample) {
  return type == ConvKernelType::Pillbox ? pillbox_kernel(support, oversample)
                                         : spheroidal_kernel(support, oversample);
}

std::vector<double> spheroidal_grid_correction(int size, int padding) {
  if (size < 2)
    throw Error("imager: grid correction size " + std::to_string(size) +
                " is out of range (expected >= 2)");
  std::vector<double> c(size);
  const int half = size / 2;
  for (int i = 0; i < size; ++i) {
    const double nu = double(i - half) / half;
    // The transform of the oversampled kernel's nearest-sample interpolation is a sinc of
    // width size x padding pixels: W-projection divides it out too.
    double sinc = 1.0;
    if (padding > 0 && i != half) {
      const double x = std::numbers::pi * (i - half) / (double(size) * padding);
      sinc = std::sin(x) / x;
    }
    const double t = schwab_spheroidal(std::fabs(nu)) * sinc * sinc;
    c[i] = t != 0.0 ? 1.0 / t : 1.0;
  }
  return c;
}

std::vector<double> pillbox_grid_correction(int size) { return std::vector<double>(size, 1.0); }

std::vector<double> grid_correction(ConvKernelType type, int size) {
  return type == ConvKernelType::Pillbox ? pillbox_grid_correction(size)
                                         : spheroidal_grid_correction(size, 0);
}

template <typename T>
void apply_grid_correction(const std::vector<double>& corr, int size, Complex<T>* plane) {
#pragma omp parallel for schedule(static)
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      const T t = T(corr[x] * corr[y]);
      Complex<T>& p = plane[std::size_t(y) * size + x];
      p.re *= t;
      p.im *= t;
    }
}

template void apply_grid_correction<float>(const std::vector<double>&, int, Complex<float>*);
template void apply_grid_correction<double>(const std::vector<double>&, int, Complex<double>*);

}  // namespace fringe::imager
