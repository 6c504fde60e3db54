// Per-element formula of the ionospheric phase screen Z (docs/ionosphere.md), host and device
// (FRINGE_HD_INLINE), shared by the CPU loop of tec_screen.cpp and the CUDA kernel of
// tec_screen_cuda.cu. Units: metres, Hz, TEC units (1 TECU = 1e16 electrons / m^2).
//
// A thin screen at height h above the array holds one plane of TEC values of nx * ny square
// pixels of size d (x fastest, as the FITS cube's axes 1 and 2). For station p with (u_p, v_p)
// (m, its (u, v) towards the phase centre, no wavelength scaling) and a source at direction
// cosines (l, m) about the phase centre, the line of sight crosses the screen at
//   x = (u_p + l h) / d,   y = (v_p + m h) / d    (pixels from the screen centre);
// isoplanatic screens use l = m = 0 (the point above the station for every source). The pixel
// is (nx / 2 + rint(x), ny / 2 + rint(y)) with integer division and round-half-to-even, as OSKAR
// 2.13 does; a pierce point outside the plane sees TEC = 0.
//   Z = exp(i phi),  phi = -8.44797245e9 * TEC / f   (rad; TEC in TECU, f in Hz)
// the dispersive delay of the ionosphere (phase -2 pi * 40.308 * 1e16 * TEC / (c f)) with the
// constant and sign of OSKAR 2.13. Z = 1 exactly where TEC = 0.
// Full polarisation adds Faraday rotation by the angle (rad)
//   psi = 236 * B_los * TEC / f_GHz^2   (B_los in T along the line of sight towards the
// station, TEC in TECU, f in GHz; the SI form 2.36e4 B TEC f^-2 with TEC in electrons / m^2
// and f in Hz, ITU-R P.531, as OSKAR 2.13 evaluates it), and Z becomes the matrix
//   Z = exp(i phi) [[cos psi, -sin psi], [sin psi, cos psi]],
// which multiplies the station beam from the right: E Z (OSKAR's order).
// Everything runs in T, the precision of the run, as in OSKAR: single precision rounds the
// pixel coordinates and the phase in float (docs/ionosphere.md gives the resulting bound).
#pragma once

#include <cmath>
#include <cstddef>

#include "fringe/core/complex.h"
#include "fringe/core/hd.h"
#include "fringe/core/jones.h"

namespace fringe::jones {

// The dispersive phase per TEC unit and Hz: phi = kTecPhasePerHz * TEC / f (OSKAR 2.13's value;
// 2 pi * 40.308 m^3 s^-2 * 1e16 / c = 8.448e9 with c = 299792458 m/s).
inline constexpr double kTecPhasePerHz = -8.44797245e9;
// Faraday rotation per tesla, TECU and GHz^-2: psi = kFaradayPerTeslaTecu * B * TEC / f_GHz^2
// (OSKAR 2.13's value; e^3 / (8 pi^2 eps0 m_e^2 c) = 2.365e4 in SI units, times 1e16 / 1e18).
inline constexpr double kFaradayPerTeslaTecu = 2.36e2;

// Where the screen is pierced and the field along each line of sight, for stations
// p < num_stations and points (sources or pixels) i < num_points (host or device pointers).
struct TecPoints {
  std::size_t num_stations = 0, num_points = 0;
  const double* u = nullptr;  // per station: its position under the screen, m (East-like)
  const double* v = nullptr;  // per station, m (North-like)
  // Screen offsets of the points (direction cosines): l[p * lm_stride + i]; lm_stride = 0
  // when every station sees the same (l, m), num_points when they are per station.
  const double* l = nullptr;
  const double* m = nullptr;
  std::size_t lm_stride = 0;
  // Per (station, point) [p * num_points + i]: the geomagnetic field along the line of sight
  // from the source to the station, T; nullptr: no Faraday rotation (Scalar mode).
  const double* b_los = nullptr;
};

// One plane of a screen as the kernels see it (device or host pointer to nx * ny values).
template <typename T>
struct TecPlaneView {
  const T* tec = nullptr;  // [y][x], TECU
  int nx = 0, ny = 0;
  T height_m = T(0);     // screen height, m
  T inv_pixel_m = T(0);  // 1 / pixel size, 1/m
  bool isoplanatic = false;
};

template <typename T>
FRINGE_HD_INLINE int tec_rint(T x) {
#ifdef __CUDA_ARCH__
  return int(rint(x));
#else
  return int(std::rint(x));
#endif
}

// TEC (TECU) at the pierce point of a station at (u, v) m for a source at (l, m).
template <typename T>
FRINGE_HD_INLINE T tec_at_pierce_point(const TecPlaneView<T>& s, T u, T v, T l, T m) {
  const T sl = s.isoplanatic ? T(0) : l;
  const T sm = s.isoplanatic ? T(0) : m;
  const T wx = (u + sl * s.height_m) * s.inv_pixel_m;
  const T wy = (v + sm * s.height_m) * s.inv_pixel_m;
  const int px = s.nx / 2 + tec_rint(wx);
  const int py = s.ny / 2 + tec_rint(wy);
  if (px < 0 || py < 0 || px >= s.nx || py >= s.ny) return T(0);
  return s.tec[std::size_t(px) + std::size_t(py) * std::size_t(s.nx)];
}

// Z = exp(i phi) of a TEC value at 1 / f = inv_freq_hz.
template <typename T>
FRINGE_HD_INLINE Complex<T> tec_phase_factor(T tec, T inv_freq_hz) {
  if (tec == T(0)) return {T(1), T(0)};
  using std::cos;
  using std::sin;
  const T phase = tec * T(kTecPhasePerHz) * inv_freq_hz;
  return {cos(phase), sin(phase)};
}

// TEC (TECU) at station p's pierce point for point i.
template <typename T>
FRINGE_HD_INLINE T tec_of_point(const TecPlaneView<T>& s, const TecPoints& g, std::size_t p,
                                std::size_t i) {
  const std::size_t k = p * g.lm_stride + i;
  return tec_at_pierce_point<T>(s, T(g.u[p]), T(g.v[p]), T(g.l[k]), T(g.m[k]));
}

// Z = exp(i phi) R(psi) for a TEC value, 1 / f = inv_freq_hz and the field b_los (T) along the
// line of sight; the identity where TEC = 0 (as OSKAR).
template <typename T>
FRINGE_HD_INLINE Jones<T> tec_faraday_jones(T tec, T inv_freq_hz, T b_los) {
  if (tec == T(0)) return jones_identity<T>();
  using std::cos;
  using std::sin;
  const T inv_freq_ghz = T(1e9) * inv_freq_hz;
  const T psi = T(kFaradayPerTeslaTecu) * b_los * tec * (inv_freq_ghz * inv_freq_ghz);
  const T cs = cos(psi), sn = sin(psi);
  const Complex<T> z = tec_phase_factor<T>(tec, inv_freq_hz);
  return {z * cs, z * (-sn), z * sn, z * cs};
}

}  // namespace fringe::jones
