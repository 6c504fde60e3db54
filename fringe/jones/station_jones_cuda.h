// CUDA back end of the analytic station beams of station_jones.h (Isotropic, Gaussian,
// VLA PBCOR) and of the station cable-length phase: the same per-element formulas as the CPU
// (jones_math.h station_jones_full / station_jones_scalar, computed in double and rounded to
// T, as the CPU does), for a chunk of sources in device memory. Aperture arrays have their
// own evaluator (aperture_array_cuda.h). Output layout [station][source] as station_jones.h.
// Every launch is checked; errors become fringe::Error naming the kernel.
#pragma once

#include <cstddef>
#include <span>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/jones/jones_math.h"

struct CUstream_st;

namespace fringe::jones {

// Sources in device memory: RA (rad), sin and cos of Dec; `size` of each.
struct DeviceSourceDirections {
  const double* ra = nullptr;
  const double* sin_dec = nullptr;
  const double* cos_dec = nullptr;
  std::size_t size = 0;
};

// params: device array of num_stations station parameters (make_station_beam_params, double).
// Full: J = E R (parallactic) into out[num_stations * size]; Scalar: the real beam as complex.
template <typename T>
void station_jones_full_cuda(const StationBeamParams<double>* params, std::size_t num_stations,
                             const DeviceSourceDirections& sources, Jones<T>* out,
                             CUstream_st* stream);
template <typename T>
void station_jones_scalar_cuda(const StationBeamParams<double>* params, std::size_t num_stations,
                               const DeviceSourceDirections& sources, Complex<T>* out,
                               CUstream_st* stream);

// Station rows times phase factors: J_ps -> diag(px_p, py_p) J_ps (Full) or px_p J_ps (Scalar),
// p < num_stations, s < num_sources; px, py device arrays of num_stations (cable lengths).
template <typename T>
void station_row_phases_cuda(Jones<T>* jones, std::size_t num_stations, std::size_t num_sources,
                             const Complex<T>* px, const Complex<T>* py, CUstream_st* stream);
template <typename T>
void station_row_phases_cuda(Complex<T>* jones, std::size_t num_stations, std::size_t num_sources,
                             const Complex<T>* px, CUstream_st* stream);

}  // namespace fringe::jones
