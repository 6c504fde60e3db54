// Math for code compiled for both host and device (FRINGE_HD, core/hd.h): each shim picks the
// CUDA intrinsic inside kernels and <cmath> on the host, so a *_math.h formula is written once
// for the CPU and GPU back ends (docs/architecture.md, "Compute back ends").
#pragma once

#include <cmath>

#include "fringe/core/hd.h"

namespace fringe::detail {

// Rounding half away from zero (C's round), as OSKAR's gridders place visibilities.
FRINGE_HD_INLINE float hd_round(float x) {
#ifdef __CUDA_ARCH__
  return roundf(x);
#else
  return std::round(x);
#endif
}
FRINGE_HD_INLINE double hd_round(double x) {
#ifdef __CUDA_ARCH__
  return ::round(x);
#else
  return std::round(x);
#endif
}

FRINGE_HD_INLINE float hd_sqrt(float x) {
#ifdef __CUDA_ARCH__
  return sqrtf(x);
#else
  return std::sqrt(x);
#endif
}
FRINGE_HD_INLINE double hd_sqrt(double x) {
#ifdef __CUDA_ARCH__
  return sqrt(x);
#else
  return std::sqrt(x);
#endif
}
FRINGE_HD_INLINE float hd_exp(float x) {
#ifdef __CUDA_ARCH__
  return expf(x);
#else
  return std::exp(x);
#endif
}
FRINGE_HD_INLINE double hd_exp(double x) {
#ifdef __CUDA_ARCH__
  return ::exp(x);
#else
  return std::exp(x);
#endif
}
FRINGE_HD_INLINE void hd_sincos(float x, float* s, float* c) {
#ifdef __CUDA_ARCH__
  sincosf(x, s, c);
#else
  *s = std::sin(x);
  *c = std::cos(x);
#endif
}
FRINGE_HD_INLINE void hd_sincos(double x, double* s, double* c) {
#ifdef __CUDA_ARCH__
  sincos(x, s, c);
#else
  *s = std::sin(x);
  *c = std::cos(x);
#endif
}
FRINGE_HD_INLINE double hd_remainder(double x, double y) {
#ifdef __CUDA_ARCH__
  return remainder(x, y);
#else
  return std::remainder(x, y);
#endif
}

}  // namespace fringe::detail
