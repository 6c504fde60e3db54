// The FFT imager's convolution functions and gridding corrections (conv_kernels.h) against
// independent values: the prolate spheroidal wave function from SciPy, and the definitions of
// OSKAR 2.13's tabulated layout (oskar_grid_functions_spheroidal.c / _pillbox.c).
#include <gtest/gtest.h>

#include <cmath>

#include "fringe/core/error.h"
#include "fringe/imager/conv_kernels.h"

namespace fringe::imager {
namespace {

// psi_{1,0}(c = 3 pi, nu) normalised to 1 at nu = 0, from the angular prolate spheroidal
// function S_{1,1}(c, nu) = (1 - nu^2)^{1/2} psi(nu) (order m = alpha = 1, degree n = 1):
//   /usr/bin/python3 -c "import numpy as np; from scipy.special import pro_ang1
//   s0 = pro_ang1(1, 1, 3*np.pi, 0)[0]
//   print([pro_ang1(1, 1, 3*np.pi, x)[0] / np.sqrt(1 - x*x) / s0 for x in NU])"   (SciPy 1.10.1)
struct Ref {
  double nu, psi;
};
constexpr Ref kScipy[] = {
    {0.00, 1.000000000000e+00}, {0.10, 9.620828867494e-01}, {0.25, 7.833234885471e-01},
    {0.50, 3.610653024809e-01}, {0.70, 1.189175746060e-01}, {0.75, 8.203340775235e-02},
    {0.80, 5.382307802132e-02}, {0.90, 1.889620752408e-02}, {0.95, 9.593156599431e-03},
    {0.99, 4.898831364419e-03},
};

TEST(ConvKernels, SpheroidalMatchesProlateSpheroidalFunction) {
  // Schwab's rational approximation is good to a few 1e-7 absolute (his stated accuracy).
  for (const Ref& r : kScipy) EXPECT_NEAR(schwab_spheroidal(r.nu), r.psi, 5e-7) << "nu " << r.nu;
  EXPECT_EQ(schwab_spheroidal(-0.01), 0.0);
  EXPECT_EQ(schwab_spheroidal(1.01), 0.0);
  // The two pieces of the approximation meet at nu = 0.75 (continuity within its accuracy).
  EXPECT_NEAR(schwab_spheroidal(0.75 - 1e-12), schwab_spheroidal(0.75), 1e-7);
}

TEST(ConvKernels, SpheroidalKernelLayout) {
  const ConvKernel1d k = spheroidal_kernel(3, 100);
  EXPECT_EQ(k.support, 3);
  EXPECT_EQ(k.oversample, 100);
  ASSERT_EQ(k.values.size(), 400u);  // oversample x (support + 1)
  // values[i] at i / oversample cells = nu x support: (1 - nu^2) psi(nu).
  for (const Ref& r : kScipy) {
    const int i = int(std::lround(r.nu * 300));
    EXPECT_NEAR(k.values[i], (1 - r.nu * r.nu) * r.psi, 5e-7) << "i " << i;
  }
  // Zero from the kernel's edge (3 cells) on; positive and decreasing inside.
  for (int i = 300; i < 400; ++i) EXPECT_EQ(k.values[i], 0.0) << i;
  for (int i = 1; i < 300; ++i) EXPECT_LT(k.values[i], k.values[i - 1]) << i;
  EXPECT_GT(k.values[299], 0.0);
}

TEST(ConvKernels, PillboxKernelLayout) {
  const ConvKernel1d k = pillbox_kernel(3, 10);
  ASSERT_EQ(k.values.size(), 40u);
  // 1 within half the support (1.5 cells = 15 samples), 0 beyond: a box 3 cells wide.
  for (int i = 0; i < 40; ++i) EXPECT_EQ(k.values[i], i < 15 ? 1.0 : 0.0) << i;
  EXPECT_EQ(make_conv_kernel(ConvKernelType::Pillbox, 2, 4).values.size(), 12u);
  EXPECT_EQ(make_conv_kernel(ConvKernelType::Spheroidal, 2, 4).values[0], schwab_spheroidal(0));
}

TEST(ConvKernels, KernelArgumentsOutOfRangeAreRefused) {
  EXPECT_THROW(spheroidal_kernel(0, 100), Error);
  EXPECT_THROW(pillbox_kernel(3, 0), Error);
  EXPECT_THROW(spheroidal_grid_correction(1), Error);
}

TEST(ConvKernels, SpheroidalGridCorrection) {
  const int n = 64;
  const std::vector<double> c = spheroidal_grid_correction(n);
  ASSERT_EQ(c.size(), std::size_t(n));
  for (int i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(c[i], 1.0 / schwab_spheroidal(std::fabs(i - n / 2) / (n / 2))) << i;
  EXPECT_NEAR(c[n / 2], 1.0, 5e-7);
  // Edge pixel 0 (nu = -1): 1 / psi(1) = 1 / 0.00402856 (the piece's constant term).
  EXPECT_NEAR(c[0], 1.0 / 0.004028559, 1e-6 * c[0]);
  // With W-projection's padding the sinc of the oversampled kernel is divided out as well.
  const std::vector<double> cp = spheroidal_grid_correction(n, 4);
  const double x = 3.141592653589793 * (0 - n / 2) / (n * 4.0);
  EXPECT_NEAR(cp[0], c[0] / std::pow(std::sin(x) / x, 2), 1e-12 * cp[0]);
  EXPECT_EQ(cp[n / 2], c[n / 2]);
  for (double v : pillbox_grid_correction(8)) EXPECT_EQ(v, 1.0);
}

TEST(ConvKernels, ApplyGridCorrectionMultipliesBothAxes) {
  const std::vector<double> c = {1.0, 2.0, 3.0};
  std::vector<Complex<double>> p(9, Complex<double>{1.0, -1.0});
  apply_grid_correction(c, 3, p.data());
  EXPECT_EQ(p[1 * 3 + 2].re, 6.0);  // y = 1, x = 2: c[2] c[1]
  EXPECT_EQ(p[1 * 3 + 2].im, -6.0);
  EXPECT_EQ(p[2 * 3 + 2].re, 9.0);
}

}  // namespace
}  // namespace fringe::imager
