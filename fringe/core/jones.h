// Jones<T>: a 2x2 complex matrix [[a, b], [c, d]] (row major), the per-station polarisation
// response J and the source brightness B of the measurement equation
// V_pq = J_p B J_q^H (Hamaker, Bregman & Sault 1996; Smirnov 2011, A&A 527, A106).
// Plain aggregate, trivially copyable, all operations FRINGE_HD_INLINE for host and device.
#pragma once

#include <type_traits>

#include "fringe/core/complex.h"
#include "fringe/core/hd.h"

namespace fringe {

template <typename T>
struct Jones {
  Complex<T> a;  // row 0, column 0
  Complex<T> b;  // row 0, column 1
  Complex<T> c;  // row 1, column 0
  Complex<T> d;  // row 1, column 1
};

static_assert(std::is_trivial_v<Jones<float>>);
static_assert(sizeof(Jones<double>) == 8 * sizeof(double));

template <typename T>
FRINGE_HD_INLINE Jones<T> jones_zero() {
  return {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
}
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_identity() {
  return {{1, 0}, {0, 0}, {0, 0}, {1, 0}};
}
// diag(x, y)
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_diagonal(Complex<T> x, Complex<T> y) {
  return {x, {0, 0}, {0, 0}, y};
}

template <typename T>
FRINGE_HD_INLINE Jones<T> operator+(const Jones<T>& x, const Jones<T>& y) {
  return {x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
}
template <typename T>
FRINGE_HD_INLINE Jones<T> operator-(const Jones<T>& x, const Jones<T>& y) {
  return {x.a - y.a, x.b - y.b, x.c - y.c, x.d - y.d};
}
template <typename T>
FRINGE_HD_INLINE Jones<T>& operator+=(Jones<T>& x, const Jones<T>& y) {
  x.a += y.a;
  x.b += y.b;
  x.c += y.c;
  x.d += y.d;
  return x;
}
// Matrix product x y.
template <typename T>
FRINGE_HD_INLINE Jones<T> operator*(const Jones<T>& x, const Jones<T>& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,  //
          x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}
// Scaling by a real or complex scalar.
template <typename T>
FRINGE_HD_INLINE Jones<T> operator*(const Jones<T>& x, T s) {
  return {x.a * s, x.b * s, x.c * s, x.d * s};
}
template <typename T>
FRINGE_HD_INLINE Jones<T> operator*(T s, const Jones<T>& x) {
  return x * s;
}
template <typename T>
FRINGE_HD_INLINE Jones<T> operator*(const Jones<T>& x, Complex<T> s) {
  return {x.a * s, x.b * s, x.c * s, x.d * s};
}
template <typename T>
FRINGE_HD_INLINE Jones<T> operator*(Complex<T> s, const Jones<T>& x) {
  return x * s;
}
template <typename T>
FRINGE_HD_INLINE bool operator==(const Jones<T>& x, const Jones<T>& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

template <typename T>
FRINGE_HD_INLINE Jones<T> jones_scale(const Jones<T>& x, Complex<T> s) {
  return x * s;
}
// Hermitian transpose x^H = [[conj a, conj c], [conj b, conj d]].
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_h(const Jones<T>& x) {
  return {conj(x.a), conj(x.c), conj(x.b), conj(x.d)};
}
// x y^H without forming y^H.
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_mul_h(const Jones<T>& x, const Jones<T>& y) {
  return {x.a * conj(y.a) + x.b * conj(y.b), x.a * conj(y.c) + x.b * conj(y.d),
          x.c * conj(y.a) + x.d * conj(y.b), x.c * conj(y.c) + x.d * conj(y.d)};
}
// J_p B J_q^H, the source term of the measurement equation.
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_sandwich(const Jones<T>& jp, const Jones<T>& b,
                                         const Jones<T>& jq) {
  return jones_mul_h(jp * b, jq);
}
// acc += J_p B J_q^H
template <typename T>
FRINGE_HD_INLINE void jones_sandwich_add(Jones<T>& acc, const Jones<T>& jp, const Jones<T>& b,
                                         const Jones<T>& jq) {
  acc += jones_sandwich(jp, b, jq);
}
template <typename T>
FRINGE_HD_INLINE Complex<T> jones_det(const Jones<T>& x) {
  return x.a * x.d - x.b * x.c;
}
template <typename T>
FRINGE_HD_INLINE Complex<T> jones_trace(const Jones<T>& x) {
  return x.a + x.d;
}
// x^-1 = [[d, -b], [-c, a]] / det(x). The caller makes sure det(x) != 0.
template <typename T>
FRINGE_HD_INLINE Jones<T> jones_inverse(const Jones<T>& x) {
  const Complex<T> det = jones_det(x);
  return {x.d / det, -x.b / det, -x.c / det, x.a / det};
}
// Frobenius norm squared, sum of |element|^2.
template <typename T>
FRINGE_HD_INLINE T jones_norm2(const Jones<T>& x) {
  return abs2(x.a) + abs2(x.b) + abs2(x.c) + abs2(x.d);
}

template <typename U, typename T>
FRINGE_HD_INLINE Jones<U> jones_cast(const Jones<T>& x) {
  return {complex_cast<U>(x.a), complex_cast<U>(x.b), complex_cast<U>(x.c), complex_cast<U>(x.d)};
}

}  // namespace fringe
