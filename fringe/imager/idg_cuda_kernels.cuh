// The CUDA kernels of the IDG back end (idg_cuda.cu): gridder, degridder, adder and splitter.
// In a header so that a host emulation (tests/unit/imager/idg_cuda_emulation.cpp) can compile
// the same kernels with a host compiler and check their indexing and formulas without a GPU.
// Formulas: idg_math.h, geometry.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fringe/core/complex.h"
#include "fringe/imager/aterms.h"
#include "fringe/imager/geometry.h"
#include "fringe/imager/idg_math.h"

#ifndef FRINGE_IMAGER_DYNAMIC_SHARED
#define FRINGE_IMAGER_DYNAMIC_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
#endif

namespace fringe::imager::cuda_kernels {

constexpr int kThreads = 256;   // threads per block (gridder, degridder, adder)
constexpr int kVisCap = 512;    // visibility values (x polarisations) staged per chunk
constexpr int kPixChunk = 256;  // subgrid pixels staged per chunk by the degridder

struct DevSubgrid {
  std::uint32_t row_begin, num_rows, chan_begin, num_channels;
  std::int32_t x0, y0;
  std::int32_t station1, station2, aterm_index, pad;
  double us, vs, w0;
};

// A-terms of station `station` at subgrid pixel p: 4 values ([interval][station][pixel][4]).
template <typename T>
__device__ __forceinline__ const Complex<T>* aterm_at(const Complex<T>* aterms, int stations,
                                                      int interval, int station, int np, int p) {
  return aterms + ((std::size_t(interval) * stations + station) * np + p) * 4;
}

// sincos of a phase: float: the hardware approximation (__sincosf: MUFU.SIN/COS after one
// multiplication by 1/(2 pi); absolute error 2^-21 in [-pi, pi], growing as |x| x 6e-8 beyond,
// i.e. < 5e-6 for the |phase| < ~70 rad that phases about a subgrid's centre reach, well below
// the single-precision target); double: the accurate sincos.
__device__ __forceinline__ void phase_sincos(float x, float* s, float* c) { __sincosf(x, s, c); }
__device__ __forceinline__ void phase_sincos(double x, double* s, double* c) { sincos(x, s, c); }

template <typename T>
__device__ __forceinline__ void atomic_add(T* a, T v) {
  atomicAdd(a, v);
}

// Gridder: block = subgrid, thread = PPT pixels; rows staged in shared memory in chunks.
template <typename T, int NPOL, int PPT>
__global__ void __launch_bounds__(kThreads)
    gridder_kernel(const DevSubgrid* __restrict__ subgrids, const double* __restrict__ uvw,
                   const Complex<T>* __restrict__ vis, const float* __restrict__ weight,
                   const double* __restrict__ freq, int nchan_total, int ns, T width_lm,
                   const T* __restrict__ taper_sign, const Complex<T>* __restrict__ aterms,
                   int aterm_stations, Complex<T>* __restrict__ out) {
  FRINGE_IMAGER_DYNAMIC_SHARED(smem);
  const DevSubgrid s = subgrids[blockIdx.x];
  const int np = ns * ns, nc = static_cast<int>(s.num_channels);
  const int rows_per_chunk = max(1, kVisCap / (nc * NPOL));
  Complex<T>* shv = reinterpret_cast<Complex<T>*>(smem);  // [row][chan][pol]
  T* sha = reinterpret_cast<T*>(shv + kVisCap);           // [row][3]
  T* shb = sha + 3 * kVisCap;                             // [row][3]
  T* shdk = shb + 3 * kVisCap;                            // [chan]
  const double f_ref = freq[subgrid_ref_channel(s.chan_begin, s.num_channels)];

  T l[PPT], m[PPT], n[PPT];
  Complex<T> acc[PPT][NPOL];
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int p = threadIdx.x + k * kThreads;
    pixel_lmn<T>(p % ns, p / ns, ns, width_lm, &l[k], &m[k], &n[k]);
#pragma unroll
    for (int q = 0; q < NPOL; ++q) acc[k][q] = {T(0), T(0)};
  }
  for (int c = threadIdx.x; c < nc; c += kThreads)
    shdk[c] = T(channel_dk(freq[s.chan_begin + c], f_ref));
  for (std::uint32_t r0 = 0; r0 < s.num_rows; r0 += rows_per_chunk) {
    const int nr = min(rows_per_chunk, static_cast<int>(s.num_rows - r0));
    __syncthreads();
    for (int i = threadIdx.x; i < nr; i += kThreads) {
      const std::size_t row = s.row_begin + r0 + i;
      const double u[3] = {uvw[3 * row], uvw[3 * row + 1], uvw[3 * row + 2]};
      double a[3];
      row_phase_terms(u, f_ref, s.us, s.vs, s.w0, a);
      for (int k = 0; k < 3; ++k) {
        sha[3 * i + k] = T(a[k]);
        shb[3 * i + k] = T(u[k]);
      }
    }
    for (int i = threadIdx.x; i < nr * nc; i += kThreads) {
      const int r = i / nc, c = i % nc;
      const std::size_t k = (s.row_begin + r0 + r) * std::size_t(nchan_total) + s.chan_begin + c;
      const float w = weight[k];
      for (int q = 0; q < NPOL; ++q) {
        const Complex<T> v = vis[k * NPOL + q];
        shv[i * NPOL + q] =
            w > 0.0f ? Complex<T>{v.re * T(w), v.im * T(w)} : Complex<T>{T(0), T(0)};
      }
    }
    __syncthreads();
    for (int r = 0; r < nr; ++r) {
      T pa[PPT], pb[PPT];
#pragma unroll
      for (int k = 0; k < PPT; ++k) {
        pa[k] = sha[3 * r] * l[k] + sha[3 * r + 1] * m[k] + sha[3 * r + 2] * n[k];
        pb[k] = shb[3 * r] * l[k] + shb[3 * r + 1] * m[k] + shb[3 * r + 2] * n[k];
      }
      for (int c = 0; c < nc; ++c) {
        const T dk = shdk[c];
        Complex<T> v[NPOL];
#pragma unroll
        for (int q = 0; q < NPOL; ++q) v[q] = shv[(r * nc + c) * NPOL + q];
#pragma unroll
        for (int k = 0; k < PPT; ++k) {
          T sn, cs;
          phase_sincos(-(pa[k] + dk * pb[k]), &sn, &cs);
#pragma unroll
          for (int q = 0; q < NPOL; ++q) {
            acc[k][q].re += v[q].re * cs - v[q].im * sn;
            acc[k][q].im += v[q].re * sn + v[q].im * cs;
          }
        }
      }
    }
  }
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int p = threadIdx.x + k * kThreads;
    if (p >= np) continue;
    if (aterms != nullptr) {  // A_p^H X A_q
      const Complex<T>* ap = aterm_at(aterms, aterm_stations, s.aterm_index, s.station1, np, p);
      const Complex<T>* aq = aterm_at(aterms, aterm_stations, s.aterm_index, s.station2, np, p);
      if constexpr (NPOL == 4)
        aterm_adjoint(ap, aq, acc[k]);
      else
        acc[k][0] = conj(ap[0]) * acc[k][0] * aq[0];
    }
    const T ts = taper_sign[p];
#pragma unroll
    for (int q = 0; q < NPOL; ++q)
      out[(std::size_t(blockIdx.x) * NPOL + q) * np + p] = {acc[k][q].re * ts, acc[k][q].im * ts};
  }
}

// Degridder: block = subgrid, thread = one visibility (row, channel) at a time; the
// subgrid's pixels (times sign x taper) staged in shared memory in chunks.
template <typename T, int NPOL>
__global__ void __launch_bounds__(kThreads)
    degridder_kernel(const DevSubgrid* __restrict__ subgrids, const double* __restrict__ uvw,
                     const double* __restrict__ freq, int nchan_total, int ns, T width_lm,
                     const T* __restrict__ taper_sign, const Complex<T>* __restrict__ sub,
                     const Complex<T>* __restrict__ aterms, int aterm_stations,
                     Complex<T>* __restrict__ vis) {
  __shared__ Complex<T> shs[kPixChunk * NPOL];
  __shared__ T shl[kPixChunk], shm[kPixChunk], shn[kPixChunk];
  const DevSubgrid s = subgrids[blockIdx.x];
  const int np = ns * ns, nc = static_cast<int>(s.num_channels);
  const int nvis = static_cast<int>(s.num_rows) * nc;
  const double f_ref = freq[subgrid_ref_channel(s.chan_begin, s.num_channels)];
  for (int v0 = 0; v0 < nvis; v0 += kThreads) {
    const int i = v0 + threadIdx.x;
    const bool valid = i < nvis;
    T a[3] = {0, 0, 0}, b[3] = {0, 0, 0}, dk = 0;
    std::size_t row = 0;
    int c = 0;
    if (valid) {
      row = s.row_begin + i / nc;
      c = i % nc;
      const double u[3] = {uvw[3 * row], uvw[3 * row + 1], uvw[3 * row + 2]};
      double ad[3];
      row_phase_terms(u, f_ref, s.us, s.vs, s.w0, ad);
      for (int k = 0; k < 3; ++k) {
        a[k] = T(ad[k]);
        b[k] = T(u[k]);
      }
      dk = T(channel_dk(freq[s.chan_begin + c], f_ref));
    }
    Complex<T> acc[NPOL];
#pragma unroll
    for (int q = 0; q < NPOL; ++q) acc[q] = {T(0), T(0)};
    for (int p0 = 0; p0 < np; p0 += kPixChunk) {
      const int npc = min(kPixChunk, np - p0);
      __syncthreads();
      for (int j = threadIdx.x; j < npc; j += kThreads) {
        const int p = p0 + j;
        pixel_lmn<T>(p % ns, p / ns, ns, width_lm, &shl[j], &shm[j], &shn[j]);
        const T ts = taper_sign[p];
        Complex<T> x[NPOL];
#pragma unroll
        for (int q = 0; q < NPOL; ++q) {
          const Complex<T> y = sub[(std::size_t(blockIdx.x) * NPOL + q) * np + p];
          x[q] = {y.re * ts, y.im * ts};
        }
        if (aterms != nullptr) {  // A_p X A_q^H
          const Complex<T>* ap = aterm_at(aterms, aterm_stations, s.aterm_index, s.station1, np, p);
          const Complex<T>* aq = aterm_at(aterms, aterm_stations, s.aterm_index, s.station2, np, p);
          if constexpr (NPOL == 4)
            aterm_apply(ap, aq, x);
          else
            x[0] = ap[0] * x[0] * conj(aq[0]);
        }
#pragma unroll
        for (int q = 0; q < NPOL; ++q) shs[j * NPOL + q] = x[q];
      }
      __syncthreads();
      if (valid) {
        for (int j = 0; j < npc; ++j) {
          const T pa = a[0] * shl[j] + a[1] * shm[j] + a[2] * shn[j];
          const T pb = b[0] * shl[j] + b[1] * shm[j] + b[2] * shn[j];
          T sn, cs;
          phase_sincos(pa + dk * pb, &sn, &cs);  // exp(-i phi)
#pragma unroll
          for (int q = 0; q < NPOL; ++q) {
            const Complex<T> x = shs[j * NPOL + q];
            acc[q].re += x.re * cs - x.im * sn;
            acc[q].im += x.re * sn + x.im * cs;
          }
        }
      }
    }
    if (valid) {
      const std::size_t k = row * nchan_total + s.chan_begin + c;
#pragma unroll
      for (int q = 0; q < NPOL; ++q) vis[k * NPOL + q] = acc[q];
    }
  }
}

// Adder: (-1)^(x+y) x subgrid added onto the device grid with atomics.
template <typename T>
__global__ void adder_kernel(const DevSubgrid* __restrict__ subgrids,
                             const Complex<T>* __restrict__ sub, int npol, int ns, int gs,
                             Complex<T>* __restrict__ grid) {
  const DevSubgrid s = subgrids[blockIdx.x];
  const int np = ns * ns;
  for (int p = threadIdx.x; p < np; p += kThreads) {
    const int x = p % ns, y = p / ns;
    const T sign = ((x + y) & 1) ? T(-1) : T(1);
    for (int q = 0; q < npol; ++q) {
      const Complex<T> v = sub[(std::size_t(blockIdx.x) * npol + q) * np + p];
      Complex<T>* g = grid + std::size_t(q) * gs * gs + std::size_t(s.y0 + y) * gs + (s.x0 + x);
      atomic_add(&g->re, sign * v.re);
      atomic_add(&g->im, sign * v.im);
    }
  }
}

// Splitter: subgrid = (-1)^(x+y) x its part of the device grid.
template <typename T>
__global__ void splitter_kernel(const DevSubgrid* __restrict__ subgrids,
                                const Complex<T>* __restrict__ grid, int npol, int ns, int gs,
                                Complex<T>* __restrict__ sub) {
  const DevSubgrid s = subgrids[blockIdx.x];
  const int np = ns * ns;
  for (int p = threadIdx.x; p < np; p += kThreads) {
    const int x = p % ns, y = p / ns;
    const T sign = ((x + y) & 1) ? T(-1) : T(1);
    for (int q = 0; q < npol; ++q) {
      const Complex<T> v = grid[std::size_t(q) * gs * gs + std::size_t(s.y0 + y) * gs + (s.x0 + x)];
      sub[(std::size_t(blockIdx.x) * npol + q) * np + p] = {sign * v.re, sign * v.im};
    }
  }
}

// Multiplies plane pixel (x, y) of `count` size x size planes by (-1)^(x+y) (FFT centring).
template <typename T>
__global__ void checkerboard_kernel(Complex<T>* __restrict__ data, int size, std::size_t total) {
  const std::size_t plane = std::size_t(size) * size;
  for (std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x; i < total;
       i += std::size_t(gridDim.x) * kThreads) {
    const std::size_t p = i % plane;
    if (((p / size) + (p % size)) & 1) {
      data[i].re = -data[i].re;
      data[i].im = -data[i].im;
    }
  }
}

}  // namespace fringe::imager::cuda_kernels
