// The FEKO-convention spherical-wave sum (jones/spherical_wave_feko_math.h): a short dipole's
// closed form, a direct evaluation of the documented formula with the standard library's
// Legendre functions and a numerical derivative, single against double precision at high
// order and near the zenith, and its use in aa_element_jones.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/spherical_wave_feko_math.h"

using fringe::Complex;
using fringe::Jones;
using fringe::kPi;
using namespace fringe::jones;

namespace {

constexpr double kZ0 = 376.730313668;  // ohm, as OSKAR uses it

int mode(int l, int m) { return l * l + l - 1 + m; }

void expect_near(Complex<double> a, std::complex<double> b, double tol) {
  EXPECT_NEAR(a.re, b.real(), tol);
  EXPECT_NEAR(a.im, b.imag(), tol);
}

// Fully normalised Legendre function without the Condon-Shortley sign (std::assoc_legendre
// has none), sqrt((l + 1/2) (l - m)! / (l + m)!) P_l^m(cos theta).
double pbar(int l, int m, double theta) {
  double ratio = 1.0;
  for (int k = l - m + 1; k <= l + m; ++k) ratio /= k;
  return std::sqrt((l + 0.5) * ratio) *
         std::assoc_legendre(unsigned(l), unsigned(m), std::cos(theta));
}

// The sum of docs/station_beams.md for one feed (coefficient slots te, tm of 4 per mode),
// with dPn/dtheta by a central difference: an evaluation independent of the recurrences.
void direct(const std::vector<Complex<double>>& a, int l_max, int te, int tm, double theta,
            double phi, std::complex<double>& e_theta, std::complex<double>& e_phi) {
  const std::complex<double> i(0.0, 1.0);
  e_theta = e_phi = 0.0;
  const double h = 1e-5;
  for (int l = 1; l <= l_max; ++l) {
    for (int m = -l; m <= l; ++m) {
      const int mu = std::abs(m);
      const double p = pbar(l, mu, theta);
      const double dp = (pbar(l, mu, theta + h) - pbar(l, mu, theta - h)) / (2.0 * h);
      const double s = (m < 0 && (mu % 2)) ? -1.0 : 1.0;
      const std::complex<double> e =
          s / std::sqrt(double(l) * (l + 1)) * std::exp(i * double(m) * phi);
      const auto& ct = a[std::size_t(4 * mode(l, m) + te)];
      const auto& cm = a[std::size_t(4 * mode(l, m) + tm)];
      const std::complex<double> a_te(ct.re, ct.im), a_tm(cm.re, cm.im);
      e_theta += std::pow(i, l) * e * (-double(m) * a_te * p / std::sin(theta) + a_tm * dp);
      e_phi += std::pow(i, l + 1) * e * (double(m) * a_tm * p / std::sin(theta) - a_te * dp);
    }
  }
  const double k = std::sqrt(kZ0 / (2.0 * kPi));
  e_theta *= k;
  e_phi *= k;
}

std::vector<Complex<double>> random_coeffs(int l_max, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Complex<double>> c(std::size_t(4 * ((l_max + 1) * (l_max + 1) - 1)));
  for (auto& v : c) v = {u(rng), u(rng)};
  return c;
}

}  // namespace

// Order-1 TM pairs are short dipoles (make_model.py of spherical_wave_feko derives them):
// a_TM(1, +1) = -i, a_TM(1, -1) = +i gives A (cos(theta) cos(phi), -sin(phi)) (along East),
// a_TM(1, +1) = a_TM(1, -1) = -1 gives A (cos(theta) sin(phi), cos(phi)) (along North),
// A = sqrt(3 Z0 / (4 pi)). Rows [E_theta, E_phi].
TEST(SphericalWaveFekoMath, ShortDipoleClosedForm) {
  std::vector<Complex<double>> c(12, Complex<double>{0.0, 0.0});
  c[4 * mode(1, 1) + 1] = {0.0, -1.0};  // X TM
  c[4 * mode(1, -1) + 1] = {0.0, 1.0};
  c[4 * mode(1, 1) + 3] = {-1.0, 0.0};  // Y TM
  c[4 * mode(1, -1) + 3] = {-1.0, 0.0};
  const double a = std::sqrt(3.0 * kZ0 / (4.0 * kPi));
  for (double theta : {0.05, 0.7, 1.3, 1.5}) {
    for (double phi : {0.0, 0.4, 2.5, -2.0}) {
      const Jones<double> j = sw_pattern_feko(c.data(), 1, theta, phi, phi);
      expect_near(j.a, a * std::cos(theta) * std::cos(phi), 1e-12);
      expect_near(j.b, -a * std::sin(phi), 1e-12);
      expect_near(j.c, a * std::cos(theta) * std::sin(phi), 1e-12);
      expect_near(j.d, a * std::cos(phi), 1e-12);
    }
  }
  // At the zenith theta is held at 1e-5 rad: the East dipole gives (1, 0) x A at phi = 0.
  const Jones<double> z = sw_pattern_feko(c.data(), 1, 0.0, 0.0, 0.0);
  expect_near(z.a, a, 1e-9);
  expect_near(z.b, 0.0, 1e-12);
}

// Every term (TE and TM, all m, orders to 6) against the direct evaluation.
TEST(SphericalWaveFekoMath, MatchesDirectSum) {
  const int l_max = 6;
  const auto c = random_coeffs(l_max, 19);
  for (double theta : {0.02, 0.4, 1.0, 1.45}) {
    for (double phi : {0.3, -1.7, 2.9}) {
      const double phi_y = phi + 0.5;
      const Jones<double> j = sw_pattern_feko(c.data(), l_max, theta, phi, phi_y);
      std::complex<double> t, p;
      direct(c, l_max, 0, 1, theta, phi, t, p);
      const double tol = 1e-7 * (std::abs(t) + std::abs(p) + 1.0);
      expect_near(j.a, t, tol);
      expect_near(j.b, p, tol);
      direct(c, l_max, 2, 3, theta, phi_y, t, p);
      expect_near(j.c, t, tol);
      expect_near(j.d, p, tol);
    }
  }
}

// Single precision (the GPU's) at order 30 and near the zenith stays within 1e-4 of the
// largest component of the double-precision result: no factorials, no cancellation in dPn.
TEST(SphericalWaveFekoMath, SingleMatchesDoubleAtHighOrder) {
  const int l_max = 30;
  const auto c = random_coeffs(l_max, 7);
  std::vector<Complex<float>> cf;
  for (const auto& v : c) cf.push_back({float(v.re), float(v.im)});
  for (double theta : {0.0, 1e-3, 0.05, 0.8, 1.5}) {
    const Jones<double> d = sw_pattern_feko(c.data(), l_max, theta, 0.7, 2.2);
    const Jones<float> f = sw_pattern_feko(cf.data(), l_max, float(theta), 0.7f, 2.2f);
    const double scale = std::sqrt(abs2(d.a) + abs2(d.b) + abs2(d.c) + abs2(d.d));
    ASSERT_TRUE(std::isfinite(scale) && scale > 0.0);
    for (auto [x, y] : {std::pair{d.a, f.a}, {d.b, f.b}, {d.c, f.c}, {d.d, f.d}}) {
      EXPECT_NEAR(x.re, y.re, 1e-4 * scale) << theta;
      EXPECT_NEAR(x.im, y.im, 1e-4 * scale) << theta;
    }
  }
}

// aa_element_jones takes the FEKO sum when sw_feko is set (theta, phi from the direction,
// phi_x = phi - alpha_x, common azimuth), with normalisation and swap_xy as for the others.
TEST(SphericalWaveFekoMath, ElementJonesUsesFekoSum) {
  const auto c = random_coeffs(2, 3);
  ElementParams<double> p;
  p.sw = c.data();
  p.sw_l_max = 2;
  p.sw_common_phi = true;
  p.sw_feko = true;
  p.alpha_x = 0.3;
  p.sw_norm = 0.5;
  const double e = 0.3, n = 0.4, u = std::sqrt(1.0 - e * e - n * n);
  const Jones<double> j = aa_element_jones(p, e, n, u);
  const double phi = std::atan2(n, e) - 0.3;
  const Jones<double> ref = sw_pattern_feko(c.data(), 2, std::atan2(0.5, u), phi, phi);
  expect_near(j.a, std::complex<double>(ref.a.re, ref.a.im) * 0.5, 1e-12);
  expect_near(j.d, std::complex<double>(ref.d.re, ref.d.im) * 0.5, 1e-12);
  p.sw_feko = false;  // the plain sum differs
  const Jones<double> plain = aa_element_jones(p, e, n, u);
  EXPECT_GT(std::abs(plain.a.re - j.a.re) + std::abs(plain.a.im - j.a.im), 1e-3);
}
