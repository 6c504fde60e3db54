#include <cuda_runtime.h>
#include <cufft.h>

#include <string>

#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/imager/conv_fft_cuda.h"

namespace fringe::imager {

namespace {

void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS)
    throw Error(std::string("cuFFT error ") + std::to_string(static_cast<int>(r)) + " in " + what);
}

// (-1)^(x + y) over one g x g plane per blockIdx.y.
template <typename T>
__global__ void checkerboard(Complex<T>* grid, int g) {
  const long long plane = static_cast<long long>(g) * g;
  Complex<T>* p = grid + blockIdx.y * plane;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < plane;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int x = static_cast<int>(i % g), y = static_cast<int>(i / g);
    if ((x + y) & 1) {
      p[i].re = -p[i].re;
      p[i].im = -p[i].im;
    }
  }
}

cufftResult exec(cufftHandle h, Complex<float>* d) {
  auto* p = reinterpret_cast<cufftComplex*>(d);
  return cufftExecC2C(h, p, p, CUFFT_FORWARD);
}
cufftResult exec(cufftHandle h, Complex<double>* d) {
  auto* p = reinterpret_cast<cufftDoubleComplex*>(d);
  return cufftExecZ2Z(h, p, p, CUFFT_FORWARD);
}

// The plan, destroyed on every path out.
struct Plan {
  cufftHandle h = 0;
  ~Plan() {
    if (h) cufftDestroy(h);
  }
};

}  // namespace

template <typename T>
void fft_device_grid_to_host(Complex<T>* device_grid, int g, int num_pols, int device, void* stream,
                             Complex<T>* host_grid) {
  CudaDeviceGuard guard(device);
  auto s = static_cast<cudaStream_t>(stream);
  const dim3 blocks(static_cast<unsigned>((static_cast<long long>(g) * g + 255) / 256 > 4096
                                              ? 4096
                                              : (static_cast<long long>(g) * g + 255) / 256),
                    static_cast<unsigned>(num_pols));
  checkerboard<T><<<blocks, 256, 0, s>>>(device_grid, g);
  FRINGE_CUDA_CHECK(cudaGetLastError());
  // One batched plan for all polarisations (planes are contiguous); CUFFT_FORWARD is the sign
  // -1 transform the CPU path uses.
  Plan plan;
  int n[2] = {g, g};
  check_cufft(cufftPlanMany(&plan.h, 2, n, nullptr, 1, g * g, nullptr, 1, g * g,
                            sizeof(T) == 4 ? CUFFT_C2C : CUFFT_Z2Z, num_pols),
              "cufftPlanMany (grid FFT)");
  check_cufft(cufftSetStream(plan.h, s), "cufftSetStream (grid FFT)");
  check_cufft(exec(plan.h, device_grid), "cufftExec (grid FFT)");
  FRINGE_CUDA_CHECK(cudaMemcpyAsync(host_grid, device_grid,
                                    sizeof(Complex<T>) * static_cast<size_t>(g) * g * num_pols,
                                    cudaMemcpyDeviceToHost, s));
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(s));
}

template void fft_device_grid_to_host<float>(Complex<float>*, int, int, int, void*,
                                             Complex<float>*);
template void fft_device_grid_to_host<double>(Complex<double>*, int, int, int, void*,
                                              Complex<double>*);

}  // namespace fringe::imager
