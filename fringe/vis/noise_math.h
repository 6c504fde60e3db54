// System-noise formulas of vis/noise.h as host-and-device functions (FRINGE_HD), so the CPU
// (vis/noise.cpp) and the GPU (sim/gpu_sim_kernels.cu) add the same numbers: the deviates come
// from Philox counters (core/philox_math.h) keyed by the seed and counted by the global
// (time index, channel index, baseline or station index, draw number). Units: Jy, Hz, s.
#pragma once

#include <cmath>
#include <cstdint>

#include "fringe/core/complex.h"
#include "fringe/core/hd.h"
#include "fringe/core/philox_math.h"

namespace fringe::vis {

// Draw numbers of the counter: crosses use 0 (and 1 in Full mode), autos 2.
inline constexpr std::uint32_t kNoiseDrawAuto = 2;

// Scale of the per-part standard deviation: 1 in Full mode, 1/sqrt(2) in Scalar mode.
FRINGE_HD_INLINE double noise_scale(bool full) {
  using std::sqrt;
  return full ? 1.0 : 1.0 / sqrt(2.0);
}

// Mean added to the real part of XX and YY of station auto-correlations:
// sqrt(2) sigma sqrt(2 dnu tau).
FRINGE_HD_INLINE double auto_noise_bias(double sigma_jy, double channel_bandwidth_hz,
                                        double time_average_sec) {
  using std::sqrt;
  return sqrt(2.0) * sigma_jy * sqrt(2.0 * channel_bandwidth_hz * time_average_sec);
}

// Adds the noise of cross-correlation baseline b (stations with RMS sigma_p, sigma_q) to its
// values v (4 in Full mode, else 1): each real and imaginary part N(0, sqrt(sigma_p sigma_q)
// x noise_scale).
template <typename T>
FRINGE_HD_INLINE void add_cross_noise(Complex<T>* v, bool full, double sigma_p, double sigma_q,
                                      std::uint64_t seed, std::uint32_t time, std::uint32_t channel,
                                      std::uint32_t b) {
  using std::sqrt;
  const double sd = sqrt(sigma_p * sigma_q) * noise_scale(full);
  double z[8];
  philox_normals4(seed, time, channel, b, 0, z);
  if (full) {
    philox_normals4(seed, time, channel, b, 1, z + 4);
    for (int pol = 0; pol < 4; ++pol) {
      v[pol].re += T(sd * z[2 * pol]);
      v[pol].im += T(sd * z[2 * pol + 1]);
    }
  } else {
    v[0].re += T(sd * z[0]);
    v[0].im += T(sd * z[1]);
  }
}

// Adds the noise of station p's auto-correlation to its values v (4 in Full mode, else 1): XX
// and YY a real Gaussian term plus the bias, XY a complex Gaussian term and YX = conj(XY), so
// the matrix stays Hermitian. Each Gaussian part has the standard deviation OSKAR 2.13 gives
// it (oskar_vis_block_add_system_noise): sqrt(2) sigma in Full mode, sigma in Scalar mode,
// i.e. sqrt(2) sigma x noise_scale (checked against OSKAR's own output in
// tests/unit/vistools/test_vis_add_noise.cpp).
template <typename T>
FRINGE_HD_INLINE void add_auto_noise(Complex<T>* v, bool full, double sigma, double bias,
                                     std::uint64_t seed, std::uint32_t time, std::uint32_t channel,
                                     std::uint32_t p) {
  using std::sqrt;
  const double sd = sqrt(2.0) * sigma * noise_scale(full);
  double z[4];
  philox_normals4(seed, time, channel, p, kNoiseDrawAuto, z);
  if (full) {
    v[0].re += T(sd * z[0] + bias);
    v[1].re += T(sd * z[2]);
    v[1].im += T(sd * z[3]);
    v[2].re += T(sd * z[2]);
    v[2].im += T(-sd * z[3]);
    v[3].re += T(sd * z[1] + bias);
  } else {
    v[0].re += T(sd * z[0] + bias);
  }
}

}  // namespace fringe::vis
