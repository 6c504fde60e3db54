// The simulation pipeline's own GPU stages (sim/gpu_unit.cu): source geometry of a sky chunk,
// horizon clip with stream compaction, gathering the kept sources, their fluxes at a channel
// (sky/spectrum_math.h, every spectrum kind and rotation measure), system noise (vis/noise.h's
// counters and formulas through core/philox_math.h) and the sum of device copies of a block.
// Launchers enqueue on `stream` and check the launch; pointers are device memory. CUDA only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "fringe/core/complex.h"
#include "fringe/sky/spectrum_math.h"

namespace fringe::sim::gpu {

// sin/cos of each declination and direction cosines (l, m, n) about (ra0, dec0) (rad);
// astro/direction.h's radec_to_lmn.
void source_geometry(std::size_t n, const double* ra, const double* dec, double ra0, double dec0,
                     double* sin_dec, double* cos_dec, double* l, double* m, double* nn,
                     cudaStream_t stream);

// Drift scan: (l, m, n) = the East, North, Up direction cosines of each source at the array
// centre (local sidereal time lst = GAST + longitude, geodetic latitude lat; rad), its
// direction cosines about the zenith phase centre (astro/horizontal_math.h hadec_to_enu).
void drift_directions(std::size_t n, const double* ra, const double* dec, double lst, double lat,
                      double* l, double* m, double* nn, cudaStream_t stream);

// flags[s] = 1 if source s is above the horizon of at least one site (up component of its
// direction > 0, as jones::horizon_mask), else 0. Sites: sin/cos latitude and local sidereal
// angle GAST + longitude (rad). num_sites = 0 keeps every source.
void horizon_flags(std::size_t n, const double* ra, const double* sin_dec, const double* cos_dec,
                   std::size_t num_sites, const double* sin_lat, const double* cos_lat,
                   const double* lst, int* flags, cudaStream_t stream);

// Bytes of scratch compact_indices needs for n flags.
std::size_t compact_scratch_bytes(std::size_t n);
// kept[0..count) = the indices s with flags[s] != 0, in increasing order; positions (n ints)
// and scratch are work space. *count_out (device int) receives the count.
void compact_indices(std::size_t n, const int* flags, int* positions, void* scratch,
                     std::size_t scratch_bytes, int* kept, int* count_out, cudaStream_t stream);

// Sources of a chunk in device memory (double: positions; Gaussian coefficients of
// sky/gaussian.h, 0 for points; spectra as views into a device pool).
struct ChunkArrays {
  const double *ra, *dec, *sin_dec, *cos_dec, *l, *m, *n, *ga, *gb, *gc;
  const sky::SpectrumView<double>* spectra;
};
template <typename T>
struct KeptArrays {
  double *ra, *dec, *sin_dec, *cos_dec, *l, *m, *n;
  T *ga, *gb, *gc;
};
// dst[j] = src[kept[j]] for j < count.
template <typename T>
void gather_sources(std::size_t count, const int* kept, const ChunkArrays& src,
                    const KeptArrays<T>& dst, cudaStream_t stream);

// Stokes of the kept sources at freq_hz; those with I outside (flux_min, flux_max] get 0
// (the common flux filter). q, u, v may be nullptr (Scalar mode).
template <typename T>
void source_fluxes(std::size_t count, const int* kept, const sky::SpectrumView<double>* spectra,
                   double freq_hz, double flux_min, double flux_max, T* i, T* q, T* u, T* v,
                   cudaStream_t stream);

// dst[k] += src[k], k < n.
template <typename T>
void add_values(std::size_t n, Complex<T>* dst, const Complex<T>* src, cudaStream_t stream);

// System noise of a block (vis/noise.h): sigma [channel][station] (Jy) at each channel,
// counters from the block's global time and channel indices; crosses [t][c][b][pol] with the
// baseline's stations p_of_b / q_of_b, autos [t][c][station][pol]; either may be nullptr.
struct NoiseArgs {
  std::uint64_t seed;
  int num_times, num_channels, start_time, start_channel;
  std::size_t num_stations, num_baselines;
  bool full;
  const double* sigma;
  const int *p_of_b, *q_of_b;
  double channel_bandwidth_hz, time_average_sec;
};
template <typename T>
void add_noise(const NoiseArgs& args, Complex<T>* cross, Complex<T>* autos, cudaStream_t stream);

}  // namespace fringe::sim::gpu
