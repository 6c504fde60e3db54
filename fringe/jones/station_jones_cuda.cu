// Kernels of station_jones_cuda.h: one thread per (station, source), grid-stride.
#include "fringe/core/cuda_check.h"
#include "fringe/jones/station_jones_cuda.h"

namespace fringe::jones {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return unsigned(b < 65535u * 16u ? (b > 0 ? b : 1) : 65535u * 16u);
}

template <typename T>
__global__ void station_jones_full_kernel(const StationBeamParams<double>* params,
                                          std::size_t num_stations, const double* ra,
                                          const double* sin_dec, const double* cos_dec,
                                          std::size_t ns, Jones<T>* out) {
  const std::size_t total = num_stations * ns;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < total;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t p = i / ns, s = i % ns;
    out[i] = jones_cast<T>(station_jones_full(params[p], ra[s], sin_dec[s], cos_dec[s]));
  }
}

template <typename T>
__global__ void station_jones_scalar_kernel(const StationBeamParams<double>* params,
                                            std::size_t num_stations, const double* ra,
                                            const double* sin_dec, const double* cos_dec,
                                            std::size_t ns, Complex<T>* out) {
  const std::size_t total = num_stations * ns;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < total;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t p = i / ns, s = i % ns;
    out[i] = complex_cast<T>(station_jones_scalar(params[p], ra[s], sin_dec[s], cos_dec[s]));
  }
}

template <typename T>
__global__ void row_phases_full_kernel(Jones<T>* j, std::size_t num_stations, std::size_t ns,
                                       const Complex<T>* px, const Complex<T>* py) {
  const std::size_t total = num_stations * ns;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < total;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t p = i / ns;
    Jones<T> v = j[i];
    v.a = px[p] * v.a;
    v.b = px[p] * v.b;
    v.c = py[p] * v.c;
    v.d = py[p] * v.d;
    j[i] = v;
  }
}

template <typename T>
__global__ void row_phases_scalar_kernel(Complex<T>* j, std::size_t num_stations, std::size_t ns,
                                         const Complex<T>* px) {
  const std::size_t total = num_stations * ns;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < total;
       i += std::size_t(gridDim.x) * blockDim.x) {
    j[i] = px[i / ns] * j[i];
  }
}

}  // namespace

template <typename T>
void station_jones_full_cuda(const StationBeamParams<double>* params, std::size_t num_stations,
                             const DeviceSourceDirections& s, Jones<T>* out, CUstream_st* stream) {
  const std::size_t n = num_stations * s.size;
  if (n == 0) return;
  station_jones_full_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(
      params, num_stations, s.ra, s.sin_dec, s.cos_dec, s.size, out);
  FRINGE_CUDA_CHECK_KERNEL("station_jones_full_kernel");
}

template <typename T>
void station_jones_scalar_cuda(const StationBeamParams<double>* params, std::size_t num_stations,
                               const DeviceSourceDirections& s, Complex<T>* out,
                               CUstream_st* stream) {
  const std::size_t n = num_stations * s.size;
  if (n == 0) return;
  station_jones_scalar_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(
      params, num_stations, s.ra, s.sin_dec, s.cos_dec, s.size, out);
  FRINGE_CUDA_CHECK_KERNEL("station_jones_scalar_kernel");
}

template <typename T>
void station_row_phases_cuda(Jones<T>* jones, std::size_t num_stations, std::size_t num_sources,
                             const Complex<T>* px, const Complex<T>* py, CUstream_st* stream) {
  const std::size_t n = num_stations * num_sources;
  if (n == 0) return;
  row_phases_full_kernel<T>
      <<<blocks_for(n), kThreads, 0, stream>>>(jones, num_stations, num_sources, px, py);
  FRINGE_CUDA_CHECK_KERNEL("row_phases_full_kernel");
}

template <typename T>
void station_row_phases_cuda(Complex<T>* jones, std::size_t num_stations, std::size_t num_sources,
                             const Complex<T>* px, CUstream_st* stream) {
  const std::size_t n = num_stations * num_sources;
  if (n == 0) return;
  row_phases_scalar_kernel<T>
      <<<blocks_for(n), kThreads, 0, stream>>>(jones, num_stations, num_sources, px);
  FRINGE_CUDA_CHECK_KERNEL("row_phases_scalar_kernel");
}

#define FRINGE_INSTANTIATE(T)                                                                      \
  template void station_jones_full_cuda<T>(const StationBeamParams<double>*, std::size_t,          \
                                           const DeviceSourceDirections&, Jones<T>*,               \
                                           CUstream_st*);                                          \
  template void station_jones_scalar_cuda<T>(const StationBeamParams<double>*, std::size_t,        \
                                             const DeviceSourceDirections&, Complex<T>*,           \
                                             CUstream_st*);                                        \
  template void station_row_phases_cuda<T>(Jones<T>*, std::size_t, std::size_t, const Complex<T>*, \
                                           const Complex<T>*, CUstream_st*);                       \
  template void station_row_phases_cuda<T>(Complex<T>*, std::size_t, std::size_t,                  \
                                           const Complex<T>*, CUstream_st*);
FRINGE_INSTANTIATE(float)
FRINGE_INSTANTIATE(double)
#undef FRINGE_INSTANTIATE

}  // namespace fringe::jones
