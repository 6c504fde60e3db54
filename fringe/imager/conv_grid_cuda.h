// The CUDA gridder and degridder of the FFT imager: OSKAR's separable tabulated kernel
// (ConvKernel1d, e.g. the 7 x 7 spheroidal oversampled 100 times) with the conventions of
// grid_simple_cpu (conv_grid.h) and degrid_simple_cpu (conv_degrid.h). Three formulations
// (docs/gpu_gridding.md), all reading the kernel table through the read-only cache and doing
// every polarisation of a visibility in one pass:
//  - Scatter: a group of lanes per visibility (a lane per kernel column, looping over rows)
//    adds to the grid in GPU memory with native FP32/FP64 atomicAdd; no sorting.
//  - Tiled: visibilities bucketed on the GPU by the grid tiles (TS x TS cells) their support
//    touches (counting sort: warp-aggregated counts, a scan, a fill); fixed-size chunks of the
//    sorted list per thread block, so a crowded tile is shared by several blocks; each block
//    adds into the tile's patch in shared memory (shared-memory atomics) and flushes its
//    non-zero cells once per tile with global atomics.
//  - Gather: the same buckets, but each thread owns 4 cells of a 32 x 32 tile in registers and
//    loops over the tile's visibilities (no atomics until the flush): for large kernels.
// Atomics make the order of the additions, and so the last bits of the grid, vary from run to
// run; docs/gpu_gridding.md gives the bound against the CPU.
// Only built with the CUDA back end (FRINGE_HAVE_CUDA); errors are fringe::Error naming the
// CUDA call or kernel.
#pragma once

#include <cstddef>
#include <memory>

#include "fringe/core/complex.h"
#include "fringe/imager/conv_degrid.h"
#include "fringe/imager/conv_grid.h"

namespace fringe::imager {

enum class ConvGridMethod { Auto, Scatter, Tiled, Gather };

const char* to_string(ConvGridMethod m);

// Seconds of the last grid() / degrid() call's steps on the GPU (CUDA events).
struct ConvCudaTimings {
  double transfer = 0.0;  // host -> device copies of the visibilities (host-array calls only)
  double prepare = 0.0;   // cells, kernel offsets, weighted values, counts and norm
  double sort = 0.0;      // tile buckets (Tiled and Gather only)
  double kernel = 0.0;    // the gridding / degridding kernel itself
  double total = 0.0;     // prepare + sort + kernel (+ transfer)
};

struct ConvCudaOptions {
  int device = 0;
  ConvGridMethod method = ConvGridMethod::Auto;
  int tile_size = 0;  // Tiled: cells per tile side, 8 to 128 (0: default_tile_size); halved
                      // until the patch fits in shared memory. Gather always uses 32.
};

// The formulation Auto picks for a kernel support (half-width, cells), polarisation count and
// precision, and Tiled's default tile side, from the H200 measurements in
// benchmarks/RESULTS.md ("Convolutional gridding").
ConvGridMethod auto_grid_method(int support, int num_pols, bool double_precision);
int default_tile_size(int support, int num_pols, bool double_precision);

// A gridder whose grid [num_pols][grid_size][grid_size] stays in GPU memory, for chaining with
// a cuFFT transform (device_grid(), stream()). Not thread-safe; one per host thread.
template <typename T>
class ConvGridCuda {
 public:
  ConvGridCuda(const ConvKernel1d& k, int grid_size, int num_pols, const ConvCudaOptions& opt);
  ~ConvGridCuda();
  ConvGridCuda(const ConvGridCuda&) = delete;
  ConvGridCuda& operator=(const ConvGridCuda&) = delete;

  // Grids host visibilities (v.num_pols must equal num_pols) onto the device grid, adding to
  // it; sets v.weight[k] = 0 on the host for visibilities outside the grid (as the CPU).
  GridTotals grid(const ConvVisView<T>& v, double cell_rad);
  // The same with every pointer of v in GPU memory (device weights are zeroed likewise).
  GridTotals grid_device(const ConvVisView<T>& v, double cell_rad);

  // Predicts v.vis (host) from the device grid: V = sum over the support of grid x kernel
  // (the adjoint of grid() without the weights); outside visibilities get 0. Returns how many
  // were outside.
  std::size_t degrid(const ConvDegridView<T>& v, double cell_rad);
  // The same with every pointer of v in GPU memory.
  std::size_t degrid_device(const ConvDegridView<T>& v, double cell_rad);

  void zero_grid();
  void upload_grid(const Complex<T>* host);       // replaces the device grid
  void add_grid_to_host(Complex<T>* host) const;  // host grid += device grid
  Complex<T>* device_grid();                      // [num_pols][grid_size][grid_size]
  void* stream() const;                           // the cudaStream_t all work runs on
  const ConvCudaTimings& timings() const;
  ConvGridMethod method_used() const;  // of the last grid call

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// grid_simple_cpu's twin on CUDA device `device`: host arrays in, the result added to the host
// grid, v.weight zeroed for visibilities outside the grid. Method: auto_grid_method.
template <typename T>
GridTotals grid_simple_cuda(const ConvKernel1d& k, const ConvVisView<T>& v, double cell_rad,
                            int grid_size, Complex<T>* grid, int device);

// degrid_simple_cpu's twin on CUDA device `device` (host arrays). Returns how many
// visibilities were outside the grid (their values set to 0).
template <typename T>
std::size_t degrid_simple_cuda(const ConvKernel1d& k, const ConvDegridView<T>& v, double cell_rad,
                               int grid_size, const Complex<T>* grid, int device);

}  // namespace fringe::imager
