// Direct predict: model visibilities of one (time, channel) from station Jones matrices and a
// chunk of sources, added (+=) into plain output buffers. Back-end neutral description; the
// CPU implementation is predict_direct_cpu (predict_cpu.cpp), the formulas are in
// predict_math.h.
//
// What it computes, for stations p < q (docs/conventions.md, "Phase sign and the measurement
// equation"):
//   V_pq += sum_s (K_ps J_ps) B_s (K_qs J_qs)^H  g_s  s_bw  s_t        (cross-correlations)
//   A_p  += sum_s J_ps B_s J_ps^H                                       (auto-correlations)
// with K_ps = exp(+i 2 pi / lambda (u_p l_s + v_p m_s + w_p (n_s - 1))) formed HERE from the
// station (u, v, w) and the source direction (phase in double, range-reduced, then sincos in
// T). The station Jones J given by the caller therefore EXCLUDES K (J = C G E R; nullptr means
// identity). K is unimodular, so it drops out of the autos. The same station (u, v, w) give
// the baseline (U, V, W) = (uvw_p - uvw_q) / lambda used by the Gaussian factor, the
// smearing and the uv filter, so all of them agree.
//
// Units: metres, Hz, seconds, radians, Jy. Output layout: cross [baseline][pol], baselines in
// the order (0,1), (0,2), ..., (1,2), ...; autos [station][pol]. pol = XX, XY, YX, YY (Jones
// elements a, b, c, d) in Full mode, one value in Scalar mode.
#pragma once

#include <cstddef>
#include <limits>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"

namespace fringe::predict {

enum class Polarisation { Scalar, Full };

// Sources of one chunk at one channel, structure of arrays, all of length count.
template <typename T>
struct SourceArrays {
  std::size_t count = 0;
  const T* stokes_i = nullptr;  // Jy at the channel frequency
  const T* stokes_q = nullptr;  // Full mode only; nullptr = 0
  const T* stokes_u = nullptr;  // Full mode only; nullptr = 0
  const T* stokes_v = nullptr;  // Full mode only; nullptr = 0
  const double* l = nullptr;    // direction cosines w.r.t. the phase centre (double even
  const double* m = nullptr;    // when T is float: they multiply 1e5-wavelength baselines)
  const double* n = nullptr;    // n = sqrt(1 - l^2 - m^2); the formulas use n - 1
  // Gaussian (a, b, c) of docs/conventions.md, "Gaussian sources" (rad^2), zero for point sources;
  // all three nullptr = every source is a point source.
  const T* gauss_a = nullptr;
  const T* gauss_b = nullptr;
  const T* gauss_c = nullptr;
};

// Stations at one time and channel.
template <typename T>
struct StationArrays {
  std::size_t count = 0;
  const double* u = nullptr;  // station (u, v, w) in metres from TRUE positions (length count)
  const double* v = nullptr;
  const double* w = nullptr;
  // Jones without K, [station][source] (index p * sources.count + s); nullptr = identity.
  const Jones<T>* jones = nullptr;           // Full mode
  const Complex<T>* jones_scalar = nullptr;  // Scalar mode
};

// Analytic time smearing (Tracking mode only; docs/conventions.md, "Smearing").
// Off when tau_s == 0.
struct TimeSmearing {
  double tau_s = 0;  // averaging time of one dump (s)
  double gast = 0;   // Greenwich apparent sidereal time at the dump centre (rad)
  double ra0 = 0;    // phase centre (rad)
  double dec0 = 0;
  const double* station_x = nullptr;  // station offset-ECEF x, y (m), length stations.count
  const double* station_y = nullptr;
};

// Baselines whose |(U, V)| lies outside [min, max] get no contribution (autos unaffected).
struct UvFilter {
  double min = 0;
  double max = std::numeric_limits<double>::infinity();
  bool in_wavelengths = false;  // false: metres
};

template <typename T>
struct PredictInput {
  Polarisation polarisation = Polarisation::Full;
  double frequency_hz = 0;
  double channel_bandwidth_hz = 0;  // bandwidth smearing off when 0
  SourceArrays<T> sources;
  StationArrays<T> stations;
  TimeSmearing time_smearing;
  UvFilter uv_filter;
};

// Buffers the predict adds into (+=); either may be nullptr to skip that product.
template <typename T>
struct PredictOutput {
  Complex<T>* cross = nullptr;  // [num_baselines][num_pols]
  Complex<T>* autos = nullptr;  // [stations.count][num_pols]
};

inline std::size_t num_baselines(std::size_t num_stations) {
  return num_stations < 2 ? 0 : num_stations * (num_stations - 1) / 2;
}
inline std::size_t num_pols(Polarisation p) { return p == Polarisation::Full ? 4 : 1; }

// Throws fringe::Error naming the missing/invalid field (null arrays, non-positive frequency,
// negative bandwidth or tau, time smearing without station x/y, min > max in the uv filter).
template <typename T>
void validate(const PredictInput<T>& in, const PredictOutput<T>& out);

// CPU back end: OpenMP threads over station rows, SIMD over sources. The result does not
// depend on the number of threads (bitwise): every baseline is summed by one thread in a
// fixed order. Explicitly instantiated for float and double.
template <typename T>
void predict_direct_cpu(const PredictInput<T>& in, const PredictOutput<T>& out);

}  // namespace fringe::predict
