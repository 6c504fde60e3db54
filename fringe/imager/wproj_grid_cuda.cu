// W-projection gridding on a CUDA device (wproj_grid.h, grid_wproj_cuda). Two passes: the
// placement of each visibility (wproj_place.h, the CPU's formula), then, one warp per
// visibility, the scatter of value x weight x kernel onto the grid with atomic additions (all
// polarisations per kernel read). Totals on the host, from the placements and the kernel
// rows' tabulated sums, exactly as the CPU gridder. Kernels read as WKernelRows (OSKAR's
// rearranged order: consecutive lanes read consecutive values of a row).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/core/gpu_buffer.cuh"
#include "fringe/imager/wproj_grid.h"
#include "fringe/imager/wproj_place.h"

namespace fringe::imager {

namespace {

constexpr int kWarp = 32;
constexpr int kBlock = 256;

struct DeviceKernels {
  int num_planes, oversample;
  const int* support;
  const std::size_t* start;
};

template <typename T>
__device__ const Complex<T>* kernel_row(const DeviceKernels& k, const Complex<T>* values,
                                        const WPlacement& p, int j) {
  const int s = p.support, len = 2 * s + 1;
  const int e = s * k.oversample + k.oversample / 2 + 1;
  const int a = p.off_u < 0 ? -p.off_u : p.off_u;
  int iv = p.off_v + j * k.oversample;
  iv = iv < 0 ? -iv : iv;
  return values + k.start[p.plane] + (std::size_t(a) * e + iv) * len;
}

// One thread per visibility: its placement (not gridded when its weight is not > 0).
template <typename T>
__global__ void wproj_place_kernel(std::size_t n, const double* uu, const double* vv,
                                   const double* ww, const float* weight, T grid_scale,
                                   int grid_size, T w_scale, DeviceKernels k, WPlacement* place) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  WPlacement p;
  if (weight[i] > 0.0f)
    p = wproj_place(T(uu[i]), T(vv[i]), T(ww[i]), grid_scale, grid_size, k.oversample, w_scale,
                    k.num_planes, k.support);
  place[i] = p;
}

template <typename T>
__global__ void wproj_grid_kernel(std::size_t n, const WPlacement* place, const float* weight,
                                  const Complex<T>* vis, int num_pols, DeviceKernels k,
                                  const Complex<T>* values, int grid_size, Complex<T>* grid) {
  const std::size_t i = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const int lane = threadIdx.x % kWarp;
  if (i >= n) return;
  const WPlacement p = place[i];
  if (!p.gridded) return;
  const T wt = T(weight[i]);
  const int s = p.support, len = 2 * s + 1;
  const std::size_t cells = std::size_t(grid_size) * grid_size;
  for (int idx = lane; idx < len * len; idx += kWarp) {
    const int j = idx / len - s, c = idx % len;
    const Complex<T> kc = kernel_row(k, values, p, j)[p.off_u >= 0 ? c : len - 1 - c];
    const T c_re = kc.re, c_im = p.conj ? -kc.im : kc.im;
    const std::size_t cell = std::size_t(p.gv + j) * grid_size + (p.gu - s + c);
    for (int q = 0; q < num_pols; ++q) {
      const Complex<T> val = vis[i * num_pols + q];
      const T v_re = wt * val.re, v_im = wt * val.im;
      Complex<T>& g = grid[q * cells + cell];
      atomicAdd(&g.re, v_re * c_re - v_im * c_im);
      atomicAdd(&g.im, v_im * c_re + v_re * c_im);
    }
  }
}

}  // namespace

template <typename T>
struct WProjGridCuda<T>::Impl {
  int device = 0, grid_size = 0, npol = 1;
  std::size_t grid_len = 0;
  const WKernelRows<T>* k = nullptr;
  GpuBuffer<int> d_support;
  GpuBuffer<std::size_t> d_start;
  GpuBuffer<Complex<T>> d_values, d_vis, d_grid;
  GpuBuffer<double> d_uu, d_vv, d_ww;
  GpuBuffer<float> d_weight;
  GpuBuffer<WPlacement> d_place;
  DeviceKernels dk{};
  std::vector<WPlacement> place;
};

template <typename T>
WProjGridCuda<T>::WProjGridCuda(const WKernelRows<T>& k, int grid_size, int num_pols, int device)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  d.device = device;
  d.grid_size = grid_size;
  d.npol = num_pols;
  d.grid_len = std::size_t(num_pols) * grid_size * grid_size;
  d.k = &k;
  const CudaDeviceGuard guard(device);
  d.dk =
      DeviceKernels{k.num_planes, k.oversample, d.d_support.upload(k.support.data(), k.num_planes),
                    d.d_start.upload(k.start.data(), k.num_planes)};
  d.d_values.upload(k.values.data(), k.values.size());
  d.d_grid.zero(d.grid_len);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

template <typename T>
WProjGridCuda<T>::~WProjGridCuda() = default;

template <typename T>
GridTotals WProjGridCuda<T>::grid(const ConvVisView<T>& v, double cell_rad) {
  Impl& d = *impl_;
  const WKernelRows<T>& k = *d.k;
  GridTotals totals;
  const std::size_t n = v.num_vis;
  if (n == 0) return totals;
  if (v.num_pols != d.npol)
    throw Error("W-projection GPU gridder: " + std::to_string(v.num_pols) +
                " polarisations given to a grid of " + std::to_string(d.npol));
  const CudaDeviceGuard guard(d.device);
  d.d_uu.upload(v.uu, n);
  d.d_vv.upload(v.vv, n);
  d.d_ww.upload(v.ww, n);
  d.d_weight.upload(v.weight, n);
  d.d_vis.upload(v.vis, n * d.npol);
  d.d_place.reserve(n);

  const int g = d.grid_size;
  const T grid_scale = T(g) * T(cell_rad);
  wproj_place_kernel<T><<<(n + kBlock - 1) / kBlock, kBlock>>>(
      n, d.d_uu.data(), d.d_vv.data(), d.d_ww.data(), d.d_weight.data(), grid_scale, g,
      T(k.w_scale), d.dk, d.d_place.data());
  FRINGE_CUDA_CHECK_KERNEL("wproj_place_kernel");
  const std::size_t blocks = (n * kWarp + kBlock - 1) / kBlock;  // a warp per visibility
  wproj_grid_kernel<T><<<blocks, kBlock>>>(n, d.d_place.data(), d.d_weight.data(), d.d_vis.data(),
                                           d.npol, d.dk, d.d_values.data(), g, d.d_grid.data());
  FRINGE_CUDA_CHECK_KERNEL("wproj_grid_kernel");

  d.place.resize(n);
  d.d_place.download(d.place.data(), n);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(nullptr));

  // Totals in visibility order (as the CPU gridder), outside ones' weights set to 0.
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v.weight[i] > 0.0f)) continue;
    const WPlacement& p = d.place[i];
    if (!p.gridded) {
      ++totals.outside;
      v.weight[i] = 0.0f;
      continue;
    }
    ++totals.gridded;
    totals.norm += k.sum_of(p.plane, p.off_u, p.off_v) * double(T(v.weight[i]));
  }
  return totals;
}

template <typename T>
void WProjGridCuda<T>::add_grid_to_host(Complex<T>* host) const {
  const Impl& d = *impl_;
  const CudaDeviceGuard guard(d.device);
  std::vector<Complex<T>> g(d.grid_len);
  d.d_grid.download(g.data(), d.grid_len);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  for (std::size_t i = 0; i < d.grid_len; ++i) {
    host[i].re += g[i].re;
    host[i].im += g[i].im;
  }
}

template <typename T>
Complex<T>* WProjGridCuda<T>::device_grid() {
  return impl_->d_grid.data();
}

template <typename T>
GridTotals grid_wproj_cuda(const WKernelRows<T>& k, const ConvVisView<T>& v, double cell_rad,
                           int grid_size, Complex<T>* grid, int device) {
  if (v.num_vis == 0) return {};
  WProjGridCuda<T> gpu(k, grid_size, v.num_pols, device);
  const GridTotals totals = gpu.grid(v, cell_rad);
  gpu.add_grid_to_host(grid);
  return totals;
}

template class WProjGridCuda<float>;
template class WProjGridCuda<double>;
template GridTotals grid_wproj_cuda<float>(const WKernelRows<float>&, const ConvVisView<float>&,
                                           double, int, Complex<float>*, int);
template GridTotals grid_wproj_cuda<double>(const WKernelRows<double>&, const ConvVisView<double>&,
                                            double, int, Complex<double>*, int);

}  // namespace fringe::imager
