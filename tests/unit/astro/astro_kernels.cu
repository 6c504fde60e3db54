#include <cuda_runtime.h>

#include "astro_kernels.h"
#include "fringe/astro/direction.h"
#include "fringe/astro/horizontal_math.h"
#include "fringe/astro/parallactic_math.h"
#include "fringe/astro/station_uvw_math.h"

namespace fringe::astro::test {
namespace {

// One element: every per-element formula of fringe/astro, host and device alike.
template <typename T>
FRINGE_HD_INLINE void eval_one(const T* in, T* out) {
  const T x = in[0], y = in[1], z = in[2], ha = in[3], dec = in[4], lat = in[5];
  const T ra_off = in[6], dec0 = in[7];
  station_uvw(x, y, z, ha, dec0, out[0], out[1], out[2]);
  hadec_to_enu(ha, dec, lat, out[3], out[4], out[5]);
  hadec_to_azel(ha, dec, lat, out[6], out[7]);
  const T psi = hadec_to_parallactic_angle(ha, dec, lat);
  const Rotation2<T> r = parallactic_rotation(psi);
  out[8] = psi;
  out[9] = r.xy;
  radec_to_lmn(ra_off, dec, T(0), dec0, out[10], out[11], out[12]);
  lm_to_radec(out[10] * T(0.5), out[11] * T(0.5), T(0), dec0, out[13], out[14]);
}

template <typename T>
__global__ void eval_kernel(const T* in, T* out, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) eval_one(in + i * kNumInputs, out + i * kNumOutputs);
}

std::string check(cudaError_t e, const char* what) {
  return e == cudaSuccess ? std::string() : std::string(what) + ": " + cudaGetErrorString(e);
}

}  // namespace

int gpu_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

template <typename T>
std::string gpu_eval_astro(const T* in, T* out, std::size_t n) {
  T *d_in = nullptr, *d_out = nullptr;
  std::string err = check(cudaMalloc(&d_in, n * kNumInputs * sizeof(T)), "cudaMalloc");
  if (err.empty()) err = check(cudaMalloc(&d_out, n * kNumOutputs * sizeof(T)), "cudaMalloc");
  if (err.empty()) {
    err = check(cudaMemcpy(d_in, in, n * kNumInputs * sizeof(T), cudaMemcpyHostToDevice),
                "cudaMemcpy");
  }
  if (err.empty()) {
    const unsigned threads = 128;
    eval_kernel<T><<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(d_in, d_out, n);
    err = check(cudaGetLastError(), "eval_kernel launch");
  }
  if (err.empty()) err = check(cudaDeviceSynchronize(), "eval_kernel");
  if (err.empty()) {
    err = check(cudaMemcpy(out, d_out, n * kNumOutputs * sizeof(T), cudaMemcpyDeviceToHost),
                "cudaMemcpy");
  }
  cudaFree(d_in);
  cudaFree(d_out);
  return err;
}

template <typename T>
void host_eval_astro(const T* in, T* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) eval_one(in + i * kNumInputs, out + i * kNumOutputs);
}

template std::string gpu_eval_astro<float>(const float*, float*, std::size_t);
template std::string gpu_eval_astro<double>(const double*, double*, std::size_t);
template void host_eval_astro<float>(const float*, float*, std::size_t);
template void host_eval_astro<double>(const double*, double*, std::size_t);

}  // namespace fringe::astro::test
