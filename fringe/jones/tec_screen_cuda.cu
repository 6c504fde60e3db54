// Kernel of tec_screen_cuda.h: one thread per (station, source), grid-stride.
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
__global__ void tec_screen_kernel(TecPlaneView<T> plane, std::size_t num_stations, const double* u,
                                  const double* v, std::size_t ns, const double* l, const double* m,
                                  T inv_freq_hz, Complex<T>* jones) {
  const std::size_t total = num_stations * ns;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < total;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t p = i / ns, s = i % ns;
    const T tec = tec_at_pierce_point<T>(plane, T(u[p]), T(v[p]), T(l[s]), T(m[s]));
    jones[i] *= tec_phase_factor<T>(tec, inv_freq_hz);
  }
}

}  // namespace

template <typename T>
void apply_tec_screen_cuda(const TecPlaneView<T>& plane, std::size_t num_stations, const double* u,
                           const double* v, std::size_t ns, const double* l, const double* m,
                           T inv_freq_hz, Complex<T>* jones, CUstream_st* stream) {
  const std::size_t n = num_stations * ns;
  if (n == 0) return;
  tec_screen_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(plane, num_stations, u, v, ns, l, m,
                                                               inv_freq_hz, jones);
  FRINGE_CUDA_CHECK_KERNEL("tec_screen_kernel");
}

template void apply_tec_screen_cuda<float>(const TecPlaneView<float>&, std::size_t, const double*,
                                           const double*, std::size_t, const double*, const double*,
                                           float, Complex<float>*, CUstream_st*);
template void apply_tec_screen_cuda<double>(const TecPlaneView<double>&, std::size_t, const double*,
                                            const double*, std::size_t, const double*,
                                            const double*, double, Complex<double>*, CUstream_st*);

}  // namespace fringe::jones
