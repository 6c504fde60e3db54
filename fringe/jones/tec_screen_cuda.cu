// Kernels of tec_screen_cuda.h: one thread per (station, point), grid-stride.
#include "fringe/core/cuda_check.h"
#include "fringe/jones/tec_screen_cuda.h"

namespace fringe::jones {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return unsigned(b < 65535u * 16u ? (b > 0 ? b : 1) : 65535u * 16u);
}

template <typename T>
__global__ void tec_screen_kernel(TecPlaneView<T> plane, TecPoints g, T inv_freq_hz,
                                  Complex<T>* jones) {
  const std::size_t total = g.num_stations * g.num_points;
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < total;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t p = k / g.num_points, i = k % g.num_points;
    jones[k] *= tec_phase_factor<T>(tec_of_point<T>(plane, g, p, i), inv_freq_hz);
  }
}

template <typename T>
__global__ void tec_screen_full_kernel(TecPlaneView<T> plane, TecPoints g, T inv_freq_hz,
                                       Jones<T>* jones) {
  const std::size_t total = g.num_stations * g.num_points;
  for (std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; k < total;
       k += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t p = k / g.num_points, i = k % g.num_points;
    const T tec = tec_of_point<T>(plane, g, p, i);
    jones[k] = jones[k] * tec_faraday_jones<T>(tec, inv_freq_hz, T(g.b_los[k]));
  }
}

}  // namespace

template <typename T>
void apply_tec_screen_cuda(const TecPlaneView<T>& plane, const TecPoints& points, T inv_freq_hz,
                           Complex<T>* jones, CUstream_st* stream) {
  const std::size_t n = points.num_stations * points.num_points;
  if (n == 0) return;
  tec_screen_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(plane, points, inv_freq_hz, jones);
  FRINGE_CUDA_CHECK_KERNEL("tec_screen_kernel");
}

template <typename T>
void apply_tec_screen_cuda(const TecPlaneView<T>& plane, const TecPoints& points, T inv_freq_hz,
                           Jones<T>* jones, CUstream_st* stream) {
  const std::size_t n = points.num_stations * points.num_points;
  if (n == 0) return;
  tec_screen_full_kernel<T>
      <<<blocks_for(n), kThreads, 0, stream>>>(plane, points, inv_freq_hz, jones);
  FRINGE_CUDA_CHECK_KERNEL("tec_screen_full_kernel");
}

template void apply_tec_screen_cuda<float>(const TecPlaneView<float>&, const TecPoints&, float,
                                           Complex<float>*, CUstream_st*);
template void apply_tec_screen_cuda<double>(const TecPlaneView<double>&, const TecPoints&, double,
                                            Complex<double>*, CUstream_st*);
template void apply_tec_screen_cuda<float>(const TecPlaneView<float>&, const TecPoints&, float,
                                           Jones<float>*, CUstream_st*);
template void apply_tec_screen_cuda<double>(const TecPlaneView<double>&, const TecPoints&, double,
                                            Jones<double>*, CUstream_st*);

}  // namespace fringe::jones
