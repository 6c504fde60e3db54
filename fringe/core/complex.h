// Complex<T>: a plain complex number (real, imaginary) for float or double, usable in host
// code and in CUDA kernels alike (all operations are FRINGE_HD_INLINE). It is an aggregate
// and trivially copyable, so arrays of it can be memcpy'd between host and device and placed
// in __shared__ memory. Phases are in radians.
#pragma once

#include <cmath>
#include <type_traits>

#include "fringe/core/hd.h"
#include "fringe/core/hd_math.h"

namespace fringe {

template <typename T>
struct Complex {
  T re;
  T im;
};

static_assert(std::is_trivially_copyable_v<Complex<float>>);
static_assert(std::is_trivial_v<Complex<double>>);
static_assert(sizeof(Complex<float>) == 2 * sizeof(float));
static_assert(sizeof(Complex<double>) == 2 * sizeof(double));

template <typename T>
FRINGE_HD_INLINE Complex<T> operator+(Complex<T> a, Complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename T>
FRINGE_HD_INLINE Complex<T> operator-(Complex<T> a, Complex<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <typename T>
FRINGE_HD_INLINE Complex<T> operator-(Complex<T> a) {
  return {-a.re, -a.im};
}
// (a.re + i a.im)(b.re + i b.im) = (a.re b.re - a.im b.im) + i (a.re b.im + a.im b.re)
template <typename T>
FRINGE_HD_INLINE Complex<T> operator*(Complex<T> a, Complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename T>
FRINGE_HD_INLINE Complex<T> operator*(Complex<T> a, T s) {
  return {a.re * s, a.im * s};
}
template <typename T>
FRINGE_HD_INLINE Complex<T> operator*(T s, Complex<T> a) {
  return {a.re * s, a.im * s};
}
template <typename T>
FRINGE_HD_INLINE Complex<T> operator/(Complex<T> a, T s) {
  return {a.re / s, a.im / s};
}
// a / b = a conj(b) / |b|^2
template <typename T>
FRINGE_HD_INLINE Complex<T> operator/(Complex<T> a, Complex<T> b) {
  const T d = b.re * b.re + b.im * b.im;
  return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}
template <typename T>
FRINGE_HD_INLINE Complex<T>& operator+=(Complex<T>& a, Complex<T> b) {
  a.re += b.re;
  a.im += b.im;
  return a;
}
template <typename T>
FRINGE_HD_INLINE Complex<T>& operator-=(Complex<T>& a, Complex<T> b) {
  a.re -= b.re;
  a.im -= b.im;
  return a;
}
template <typename T>
FRINGE_HD_INLINE Complex<T>& operator*=(Complex<T>& a, Complex<T> b) {
  a = a * b;
  return a;
}
template <typename T>
FRINGE_HD_INLINE Complex<T>& operator*=(Complex<T>& a, T s) {
  a.re *= s;
  a.im *= s;
  return a;
}
template <typename T>
FRINGE_HD_INLINE bool operator==(Complex<T> a, Complex<T> b) {
  return a.re == b.re && a.im == b.im;
}
template <typename T>
FRINGE_HD_INLINE bool operator!=(Complex<T> a, Complex<T> b) {
  return !(a == b);
}

template <typename T>
FRINGE_HD_INLINE Complex<T> conj(Complex<T> a) {
  return {a.re, -a.im};
}
// |a|^2
template <typename T>
FRINGE_HD_INLINE T abs2(Complex<T> a) {
  return a.re * a.re + a.im * a.im;
}
// |a| (plain sqrt of |a|^2: fine for the magnitudes met here, no hypot-style rescaling).
template <typename T>
FRINGE_HD_INLINE T abs(Complex<T> a) {
  return detail::hd_sqrt(abs2(a));
}
// a + b c (one multiply-accumulate, the inner step of every sum over sources).
template <typename T>
FRINGE_HD_INLINE Complex<T> mul_add(Complex<T> b, Complex<T> c, Complex<T> a) {
  return {a.re + b.re * c.re - b.im * c.im, a.im + b.re * c.im + b.im * c.re};
}

// exp(i phase) = cos(phase) + i sin(phase)   (Euler's formula).
template <typename T>
FRINGE_HD_INLINE Complex<T> exp_i(T phase) {
  Complex<T> r;
  detail::hd_sincos(phase, &r.im, &r.re);
  return r;
}
// r exp(i phase).
template <typename T>
FRINGE_HD_INLINE Complex<T> polar(T r, T phase) {
  return exp_i(phase) * r;
}
// exp(i phase) for a phase formed in double: the phase is reduced to [-pi, pi] in double
// before the (possibly single precision) sincos, so large phases keep their accuracy in
// float (docs/architecture.md, "Compute back ends").
template <typename T>
FRINGE_HD_INLINE Complex<T> exp_i_reduced(double phase) {
  constexpr double two_pi = 6.283185307179586476925286766559;
  return exp_i(static_cast<T>(detail::hd_remainder(phase, two_pi)));
}

// Conversion between precisions.
template <typename U, typename T>
FRINGE_HD_INLINE Complex<U> complex_cast(Complex<T> a) {
  return {static_cast<U>(a.re), static_cast<U>(a.im)};
}

}  // namespace fringe
