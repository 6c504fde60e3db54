// Kernels of sim/gpu_sim_kernels.cuh: one thread per source, visibility or value.
#include <cub/device/device_scan.cuh>

#include "fringe/astro/direction.h"
#include "fringe/astro/horizontal_math.h"
#include "fringe/core/cuda_check.h"
#include "fringe/sim/gpu_sim_kernels.cuh"
#include "fringe/vis/noise_math.h"

namespace fringe::sim::gpu {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t n) { return unsigned((n + kThreads - 1) / kThreads); }

__global__ void source_geometry_kernel(std::size_t n, const double* ra, const double* dec,
                                       double ra0, double dec0, double* sin_dec, double* cos_dec,
                                       double* l, double* m, double* nn) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= n) return;
  sincos(dec[s], &sin_dec[s], &cos_dec[s]);
  astro::radec_to_lmn(ra[s], dec[s], ra0, dec0, l[s], m[s], nn[s]);
}

__global__ void drift_directions_kernel(std::size_t n, const double* ra, const double* dec,
                                        double lst, double lat, double* l, double* m, double* nn) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= n) return;
  astro::hadec_to_enu(lst - ra[s], dec[s], lat, l[s], m[s],
                      nn[s]);  // as SimInputs::drift_directions
}

__global__ void horizon_flags_kernel(std::size_t n, const double* ra, const double* sin_dec,
                                     const double* cos_dec, std::size_t num_sites,
                                     const double* sin_lat, const double* cos_lat,
                                     const double* lst, int* flags) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= n) return;
  int up = num_sites == 0 ? 1 : 0;
  for (std::size_t i = 0; i < num_sites && !up; ++i) {
    // Up component of the source direction at site i (astro::hadec_to_enu).
    const double u = sin_lat[i] * sin_dec[s] + cos_lat[i] * cos_dec[s] * cos(lst[i] - ra[s]);
    up = u > 0.0 ? 1 : 0;
  }
  flags[s] = up;
}

__global__ void scatter_kept_kernel(std::size_t n, const int* flags, const int* positions,
                                    int* kept, int* count_out) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= n) return;
  if (flags[s]) kept[positions[s]] = int(s);
  if (s == n - 1) *count_out = positions[s] + flags[s];
}

template <typename T>
__global__ void gather_kernel(std::size_t count, const int* kept, ChunkArrays src,
                              KeptArrays<T> dst) {
  const std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= count) return;
  const int i = kept[j];
  dst.ra[j] = src.ra[i];
  dst.dec[j] = src.dec[i];
  dst.sin_dec[j] = src.sin_dec[i];
  dst.cos_dec[j] = src.cos_dec[i];
  dst.l[j] = src.l[i];
  dst.m[j] = src.m[i];
  dst.n[j] = src.n[i];
  dst.ga[j] = T(src.ga[i]);
  dst.gb[j] = T(src.gb[i]);
  dst.gc[j] = T(src.gc[i]);
}

template <typename T>
__global__ void fluxes_kernel(std::size_t count, const int* kept,
                              const sky::SpectrumView<double>* spectra, double freq,
                              double flux_min, double flux_max, T* i, T* q, T* u, T* v) {
  const std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= count) return;
  double s[4];
  sky::evaluate_stokes(spectra[kept[j]], freq, s);
  const bool keep = s[0] > flux_min && s[0] <= flux_max;  // sim's common flux filter
  i[j] = keep ? T(s[0]) : T(0);
  if (q) q[j] = keep ? T(s[1]) : T(0);
  if (u) u[j] = keep ? T(s[2]) : T(0);
  if (v) v[j] = keep ? T(s[3]) : T(0);
}

template <typename T>
__global__ void add_kernel(std::size_t n, Complex<T>* dst, const Complex<T>* src) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  dst[k].re += src[k].re;
  dst[k].im += src[k].im;
}

// System noise: vis/noise_math.h's formulas, one thread per visibility or auto-correlation.
template <typename T>
__global__ void cross_noise_kernel(NoiseArgs a, Complex<T>* cross) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t per_tc = a.num_baselines;
  if (k >= per_tc * std::size_t(a.num_times) * std::size_t(a.num_channels)) return;
  const std::size_t b = k % per_tc;
  const int c = int((k / per_tc) % std::size_t(a.num_channels));
  const int t = int(k / (per_tc * std::size_t(a.num_channels)));
  const double* sig = a.sigma + std::size_t(c) * a.num_stations;
  vis::add_cross_noise(cross + k * std::size_t(a.full ? 4 : 1), a.full, sig[a.p_of_b[b]],
                       sig[a.q_of_b[b]], a.seed, std::uint32_t(a.start_time + t),
                       std::uint32_t(a.start_channel + c), std::uint32_t(b));
}

template <typename T>
__global__ void auto_noise_kernel(NoiseArgs a, Complex<T>* autos) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t per_tc = a.num_stations;
  if (k >= per_tc * std::size_t(a.num_times) * std::size_t(a.num_channels)) return;
  const std::size_t p = k % per_tc;
  const int c = int((k / per_tc) % std::size_t(a.num_channels));
  const int t = int(k / (per_tc * std::size_t(a.num_channels)));
  const double sigma = a.sigma[std::size_t(c) * a.num_stations + p];
  const double bias = vis::auto_noise_bias(sigma, a.channel_bandwidth_hz, a.time_average_sec);
  vis::add_auto_noise(autos + k * std::size_t(a.full ? 4 : 1), a.full, sigma, bias, a.seed,
                      std::uint32_t(a.start_time + t), std::uint32_t(a.start_channel + c),
                      std::uint32_t(p));
}

}  // namespace

void source_geometry(std::size_t n, const double* ra, const double* dec, double ra0, double dec0,
                     double* sin_dec, double* cos_dec, double* l, double* m, double* nn,
                     cudaStream_t stream) {
  if (n == 0) return;
  source_geometry_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, ra, dec, ra0, dec0, sin_dec,
                                                                 cos_dec, l, m, nn);
  FRINGE_CUDA_CHECK_KERNEL("source_geometry");
}

void drift_directions(std::size_t n, const double* ra, const double* dec, double lst, double lat,
                      double* l, double* m, double* nn, cudaStream_t stream) {
  if (n == 0) return;
  drift_directions_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, ra, dec, lst, lat, l, m, nn);
  FRINGE_CUDA_CHECK_KERNEL("drift_directions");
}

void horizon_flags(std::size_t n, const double* ra, const double* sin_dec, const double* cos_dec,
                   std::size_t num_sites, const double* sin_lat, const double* cos_lat,
                   const double* lst, int* flags, cudaStream_t stream) {
  if (n == 0) return;
  horizon_flags_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, ra, sin_dec, cos_dec, num_sites,
                                                               sin_lat, cos_lat, lst, flags);
  FRINGE_CUDA_CHECK_KERNEL("horizon_flags");
}

std::size_t compact_scratch_bytes(std::size_t n) {
  std::size_t bytes = 0;
  FRINGE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int*>(nullptr),
                                                  static_cast<int*>(nullptr), int(n)));
  return bytes;
}

void compact_indices(std::size_t n, const int* flags, int* positions, void* scratch,
                     std::size_t scratch_bytes, int* kept, int* count_out, cudaStream_t stream) {
  if (n == 0) {
    FRINGE_CUDA_CHECK(cudaMemsetAsync(count_out, 0, sizeof(int), stream));
    return;
  }
  FRINGE_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scratch, scratch_bytes, flags, positions, int(n), stream));
  scatter_kept_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, flags, positions, kept, count_out);
  FRINGE_CUDA_CHECK_KERNEL("scatter_kept");
}

template <typename T>
void gather_sources(std::size_t count, const int* kept, const ChunkArrays& src,
                    const KeptArrays<T>& dst, cudaStream_t stream) {
  if (count == 0) return;
  gather_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(count, kept, src, dst);
  FRINGE_CUDA_CHECK_KERNEL("gather_sources");
}

template <typename T>
void source_fluxes(std::size_t count, const int* kept, const sky::SpectrumView<double>* spectra,
                   double freq_hz, double flux_min, double flux_max, T* i, T* q, T* u, T* v,
                   cudaStream_t stream) {
  if (count == 0) return;
  fluxes_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(count, kept, spectra, freq_hz,
                                                               flux_min, flux_max, i, q, u, v);
  FRINGE_CUDA_CHECK_KERNEL("source_fluxes");
}

template <typename T>
void add_values(std::size_t n, Complex<T>* dst, const Complex<T>* src, cudaStream_t stream) {
  if (n == 0) return;
  add_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(n, dst, src);
  FRINGE_CUDA_CHECK_KERNEL("add_values");
}

template <typename T>
void add_noise(const NoiseArgs& a, Complex<T>* cross, Complex<T>* autos, cudaStream_t stream) {
  const std::size_t tc = std::size_t(a.num_times) * std::size_t(a.num_channels);
  if (cross && a.num_baselines * tc > 0) {
    cross_noise_kernel<T><<<blocks_for(a.num_baselines * tc), kThreads, 0, stream>>>(a, cross);
    FRINGE_CUDA_CHECK_KERNEL("cross_noise");
  }
  if (autos && a.num_stations * tc > 0) {
    auto_noise_kernel<T><<<blocks_for(a.num_stations * tc), kThreads, 0, stream>>>(a, autos);
    FRINGE_CUDA_CHECK_KERNEL("auto_noise");
  }
}

#define FRINGE_INSTANTIATE(T)                                                               \
  template void gather_sources<T>(std::size_t, const int*, const ChunkArrays&,              \
                                  const KeptArrays<T>&, cudaStream_t);                      \
  template void source_fluxes<T>(std::size_t, const int*, const sky::SpectrumView<double>*, \
                                 double, double, double, T*, T*, T*, T*, cudaStream_t);     \
  template void add_values<T>(std::size_t, Complex<T>*, const Complex<T>*, cudaStream_t);   \
  template void add_noise<T>(const NoiseArgs&, Complex<T>*, Complex<T>*, cudaStream_t);
FRINGE_INSTANTIATE(float)
FRINGE_INSTANTIATE(double)
#undef FRINGE_INSTANTIATE

}  // namespace fringe::sim::gpu
