// W-projection gridding on a CUDA device (wproj_grid.h, grid_wproj_cuda). Two passes: the
// placement of each visibility (wproj_place.h, the CPU's formula), then, one warp per
// visibility, the scatter of value x weight x kernel onto the grid with atomic additions (all
// polarisations per kernel read). Totals on the host, from the placements and the kernel
// rows' tabulated sums, exactly as the CPU gridder. Kernels read as WKernelRows (OSKAR's
// rearranged order: consecutive lanes read consecutive values of a row).
#include <cstddef>
#include <vector>

#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
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
GridTotals grid_wproj_cuda(const WKernelRows<T>& k, const ConvVisView<T>& v, double cell_rad,
                           int grid_size, Complex<T>* grid, int device) {
  GridTotals totals;
  const std::size_t n = v.num_vis;
  if (n == 0) return totals;
  const CudaDeviceGuard guard(device);
  const int npol = v.num_pols;
  const std::size_t grid_len = std::size_t(npol) * grid_size * grid_size;

  GpuBuffer<int> d_support;
  GpuBuffer<std::size_t> d_start;
  GpuBuffer<Complex<T>> d_values, d_vis, d_grid;
  GpuBuffer<double> d_uu, d_vv, d_ww;
  GpuBuffer<float> d_weight;
  GpuBuffer<WPlacement> d_place;
  DeviceKernels dk{k.num_planes, k.oversample, d_support.upload(k.support.data(), k.num_planes),
                   d_start.upload(k.start.data(), k.num_planes)};
  d_values.upload(k.values.data(), k.values.size());
  d_uu.upload(v.uu, n);
  d_vv.upload(v.vv, n);
  d_ww.upload(v.ww, n);
  d_weight.upload(v.weight, n);
  d_vis.upload(v.vis, n * npol);
  d_grid.upload(grid, grid_len);
  d_place.reserve(n);

  const T grid_scale = T(grid_size) * T(cell_rad);
  wproj_place_kernel<T><<<(n + kBlock - 1) / kBlock, kBlock>>>(
      n, d_uu.data(), d_vv.data(), d_ww.data(), d_weight.data(), grid_scale, grid_size,
      T(k.w_scale), dk, d_place.data());
  FRINGE_CUDA_CHECK_KERNEL("wproj_place_kernel");
  const std::size_t blocks = (n * kWarp + kBlock - 1) / kBlock;  // a warp per visibility
  wproj_grid_kernel<T><<<blocks, kBlock>>>(n, d_place.data(), d_weight.data(), d_vis.data(), npol,
                                           dk, d_values.data(), grid_size, d_grid.data());
  FRINGE_CUDA_CHECK_KERNEL("wproj_grid_kernel");

  std::vector<WPlacement> place(n);
  d_place.download(place.data(), n);
  d_grid.download(grid, grid_len);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(nullptr));

  // Totals in visibility order (as the CPU gridder), outside ones' weights set to 0.
  for (std::size_t i = 0; i < n; ++i) {
    if (!(v.weight[i] > 0.0f)) continue;
    if (!place[i].gridded) {
      ++totals.outside;
      v.weight[i] = 0.0f;
      continue;
    }
    ++totals.gridded;
    totals.norm +=
        k.sum_of(place[i].plane, place[i].off_u, place[i].off_v) * double(T(v.weight[i]));
  }
  return totals;
}

template GridTotals grid_wproj_cuda<float>(const WKernelRows<float>&, const ConvVisView<float>&,
                                           double, int, Complex<float>*, int);
template GridTotals grid_wproj_cuda<double>(const WKernelRows<double>&, const ConvVisView<double>&,
                                            double, int, Complex<double>*, int);

}  // namespace fringe::imager
