// The direct predict in the public API (docs/cpp_api.md, docs/python.md "Simulation"):
// model visibilities of a sky for one set of station (u, v, w) at several frequencies, with
// optional station Jones matrices, on the CPU (predict/predict.h) or a GPU
// (predict/predict_cuda.h): the sum the simulator forms for one time step.
//
// For stations p < q (docs/conventions.md, "Phase sign and the measurement equation"):
//   V_pq(f) = sum_s (K_ps J_ps) B_s(f) (K_qs J_qs)^H  g_s
//   K_ps = exp(+2 pi i f / c (u_p l_s + v_p m_s + w_p (n_s - 1)))
// with B_s the source's brightness matrix at f (its spectrum: sky/spectrum.h), g_s its
// Gaussian factor (0 width: 1), (l, m, n) its direction cosines about the phase centre. A
// 1 Jy unpolarised point source gives V_pq = exp(+2 pi i (U l + V m + W (n - 1)) / lambda) on
// baseline (U, V, W) = uvw_p - uvw_q. Units: metres, Hz, radians, Jy.
#pragma once

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include "fringe/api/types.h"
#include "fringe/core/precision.h"

namespace fringe::api {

struct PredictOptions {
  double phase_centre_ra = 0.0;       // radians
  double phase_centre_dec = 0.0;      // radians
  bool polarised = true;              // 4 products XX, XY, YX, YY; false: one (scalar) product
  bool autocorrelations = false;      // also sum_s J_ps B_s J_ps^H per station
  double channel_bandwidth_hz = 0.0;  // bandwidth smearing (0: off)
  Precision precision = Precision::Double;
  bool use_gpu = false;  // the CUDA back end (fringe::Error without a CUDA build or a GPU)
  int gpu = 0;           // CUDA device index
};

struct PredictResult {
  std::size_t num_channels = 0, num_stations = 0, num_baselines = 0;
  int num_pols = 4;
  std::vector<std::complex<double>> cross;  // [channel][baseline][pol], baselines (0,1), (0,2), ...
  std::vector<std::complex<double>> autos;  // [channel][station][pol] (empty unless asked)
};

// The model visibilities of `sky` for stations at station_uvw (row-major num_stations x 3,
// metres; the stations' own (u, v, w), not baselines) at each frequency in frequencies_hz.
// station_jones (complex, row-major) is empty (identity), or per station and source
// ([station][source], the same at every frequency) or per channel, station and source
// ([channel][station][source]), each a 2x2 matrix [[a, b], [c, d]] (4 values) when polarised,
// else one value. Throws fringe::Error naming the argument for bad sizes, non-positive
// frequencies or an empty sky.
PredictResult predict(const Sky& sky, std::span<const std::complex<double>> station_jones,
                      std::span<const double> station_uvw, std::span<const double> frequencies_hz,
                      const PredictOptions& options);

// The stations' (u, v, w) in metres at time step `time_index` of `observation` (the dump
// centre), from the measured (true = false) or true station positions, as the simulator forms
// them (docs/conventions.md, "Coordinates and (u, v, w)"): row-major num_stations x 3.
std::vector<double> station_uvw(const Telescope& telescope, const Observation& observation,
                                int time_index, bool true_positions = false);

}  // namespace fringe::api
