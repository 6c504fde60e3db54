// Complex<T> and Jones<T> algebra against values worked out by hand (products of small
// Gaussian integers and halves, exact in binary floating point).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"

namespace fringe {
namespace {

using C = Complex<double>;
using J = Jones<double>;

void expect_near(C got, C want, double tol = 1e-12) {
  EXPECT_NEAR(got.re, want.re, tol);
  EXPECT_NEAR(got.im, want.im, tol);
}
void expect_near(const J& got, const J& want, double tol = 1e-12) {
  expect_near(got.a, want.a, tol);
  expect_near(got.b, want.b, tol);
  expect_near(got.c, want.c, tol);
  expect_near(got.d, want.d, tol);
}

TEST(Complex, Arithmetic) {
  const C a{1, 2}, b{3, -1};
  // (1+2i)(3-i) = 3 - i + 6i - 2i^2 = 5 + 5i
  expect_near(a * b, {5, 5});
  expect_near(a + b, {4, 1});
  expect_near(a - b, {-2, 3});
  expect_near(-a, {-1, -2});
  expect_near(a * 2.0, {2, 4});
  expect_near(0.5 * a, {0.5, 1});
  // (1+2i)/(3-i) = (1+2i)(3+i)/10 = (1 + 7i)/10
  expect_near(a / b, {0.1, 0.7});
  expect_near(a / 2.0, {0.5, 1});
  C acc{1, 1};
  acc += a;
  expect_near(acc, {2, 3});
  acc -= b;
  expect_near(acc, {-1, 4});
  acc *= C{0, 1};  // multiply by i: (-1+4i) i = -4 - i
  expect_near(acc, {-4, -1});
  // 1 + (1+2i)(3-i)
  expect_near(mul_add(a, b, C{1, 0}), {6, 5});
  EXPECT_TRUE((C{1, 2} == a));
  EXPECT_TRUE((C{1, 3} != a));
}

TEST(Complex, ConjAbs) {
  const C a{3, -4};
  expect_near(conj(a), {3, 4});
  EXPECT_DOUBLE_EQ(abs2(a), 25.0);
  EXPECT_DOUBLE_EQ(abs(a), 5.0);
  expect_near(a * conj(a), {25, 0});
  EXPECT_FLOAT_EQ(abs(Complex<float>{-6, 8}), 10.0f);
}

TEST(Complex, ExpAndPolar) {
  const double pi = std::numbers::pi;
  expect_near(exp_i(0.0), {1, 0});
  expect_near(exp_i(pi / 2), {0, 1}, 1e-15);
  expect_near(exp_i(pi), {-1, 0}, 1e-15);
  expect_near(exp_i(pi / 3), {0.5, std::sqrt(3.0) / 2}, 1e-15);
  expect_near(polar(2.0, -pi / 2), {0, -2}, 1e-15);
  // exp(ia) exp(ib) = exp(i(a+b))
  expect_near(exp_i(0.3) * exp_i(1.1), exp_i(1.4), 1e-15);
  EXPECT_NEAR(abs(exp_i(123.456)), 1.0, 1e-15);
}

TEST(Complex, ReducedPhaseKeepsSinglePrecisionAccuracy) {
  // A phase of ~1e6 rad: float cannot hold it to better than ~0.06 rad, but reducing in
  // double first leaves only float's sincos error.
  const double phase = 1.0e6 + 0.25;
  const double reduced = std::remainder(phase, 2 * std::numbers::pi);
  const Complex<float> r = exp_i_reduced<float>(phase);
  EXPECT_NEAR(r.re, std::cos(reduced), 1e-6);
  EXPECT_NEAR(r.im, std::sin(reduced), 1e-6);
  EXPECT_NEAR(r.re, std::cos(phase), 1e-6);
  EXPECT_NEAR(r.im, std::sin(phase), 1e-6);
}

TEST(Complex, TrivialAndCast) {
  static_assert(std::is_trivially_copyable_v<Complex<float>>);
  const Complex<double> src[2] = {{1.5, -2.5}, {3, 4}};
  Complex<double> dst[2];
  std::memcpy(dst, src, sizeof src);
  EXPECT_TRUE(dst[1] == src[1]);
  const Complex<float> f = complex_cast<float>(src[0]);
  EXPECT_EQ(f.re, 1.5f);
  EXPECT_EQ(f.im, -2.5f);
}

// A = [[1+2i, 3-i], [-2+0.5i, 4i]], B = [[2-i, 1+i], [0.5+3i, -1-2i]],
// Q = [[1+i, 2], [-i, 3-2i]].
const J kA{{1, 2}, {3, -1}, {-2, 0.5}, {0, 4}};
const J kB{{2, -1}, {1, 1}, {0.5, 3}, {-1, -2}};
const J kQ{{1, 1}, {2, 0}, {0, -1}, {3, -2}};

TEST(Jones, Product) {
  // (AB)_00 = (1+2i)(2-i) + (3-i)(0.5+3i) = (4+3i) + (4.5+8.5i) = 8.5+11.5i
  // (AB)_01 = (1+2i)(1+i) + (3-i)(-1-2i) = (-1+3i) + (-5-5i) = -6-2i
  // (AB)_10 = (-2+0.5i)(2-i) + 4i(0.5+3i) = (-3.5+3i) + (-12+2i) = -15.5+5i
  // (AB)_11 = (-2+0.5i)(1+i) + 4i(-1-2i) = (-2.5-1.5i) + (8-4i) = 5.5-5.5i
  expect_near(kA * kB, J{{8.5, 11.5}, {-6, -2}, {-15.5, 5}, {5.5, -5.5}});
}

TEST(Jones, HermitianAndSandwich) {
  expect_near(jones_h(kQ), J{{1, -1}, {0, 1}, {2, 0}, {3, 2}});
  expect_near(jones_h(jones_h(kA)), kA);
  // A B Q^H worked out from AB above: row 0 of AB times the columns of Q^H, etc.
  const J want{{8, -1}, {-25.5, -9.5}, {0.5, 9.5}, {22.5, -21}};
  expect_near(jones_sandwich(kA, kB, kQ), want);
  expect_near(jones_mul_h(kA * kB, kQ), want);
  expect_near(kA * kB * jones_h(kQ), want);
  J acc = jones_identity<double>();
  jones_sandwich_add(acc, kA, kB, kQ);
  expect_near(acc, want + jones_identity<double>());
  // (A B)^H = B^H A^H
  expect_near(jones_h(kA * kB), jones_h(kB) * jones_h(kA));
}

TEST(Jones, AddScaleIdentity) {
  expect_near(kA + kB, J{{3, 1}, {4, 0}, {-1.5, 3.5}, {-1, 2}});
  expect_near(kA - kA, jones_zero<double>());
  expect_near(kA * 2.0, kA + kA);
  expect_near(jones_scale(kA, C{0, 1}), J{{-2, 1}, {1, 3}, {-0.5, -2}, {-4, 0}});
  expect_near(C{0, 1} * kA, jones_scale(kA, C{0, 1}));
  expect_near(jones_identity<double>() * kA, kA);
  expect_near(kA * jones_identity<double>(), kA);
  expect_near(jones_diagonal(C{2, 0}, C{0, 3}) * kA, J{{2, 4}, {6, -2}, {-1.5, -6}, {-12, 0}});
}

TEST(Jones, DeterminantTraceInverse) {
  // det A = (1+2i)(4i) - (3-i)(-2+0.5i) = (-8+4i) - (-5.5+3.5i) = -2.5+0.5i
  expect_near(jones_det(kA), {-2.5, 0.5});
  expect_near(jones_trace(kA), {1, 6});
  expect_near(jones_inverse(kA) * kA, jones_identity<double>(), 1e-14);
  expect_near(kA * jones_inverse(kA), jones_identity<double>(), 1e-14);
  // |1+2i|^2 + |3-i|^2 + |-2+0.5i|^2 + |4i|^2 = 5 + 10 + 4.25 + 16
  EXPECT_DOUBLE_EQ(jones_norm2(kA), 35.25);
}

TEST(Jones, FloatMatchesDouble) {
  const Jones<float> af = jones_cast<float>(kA);
  const Jones<float> bf = jones_cast<float>(kB);
  const Jones<float> qf = jones_cast<float>(kQ);
  const J got = jones_cast<double>(jones_sandwich(af, bf, qf));
  expect_near(got, jones_sandwich(kA, kB, kQ), 1e-4);
}

}  // namespace
}  // namespace fringe
