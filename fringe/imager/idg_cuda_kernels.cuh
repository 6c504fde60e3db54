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

constexpr int kThreads = 256;        // threads per block: adder, splitter, checkerboard
constexpr int kGridThreads = 128;    // threads per block: gridder
constexpr int kDegridThreads = 128;  // threads per block: degridder
constexpr int kVisCap = 1024;  // gridder: visibility values (x polarisations) staged per chunk
constexpr int kRowCap = 64;    // gridder: rows staged per chunk at most

// Per-precision blocking (Veenboer 2021, section 4.3: several pixels or visibilities per
// thread so that one shared-memory read of a visibility or pixel serves many sincos/FMA
// groups). Single precision: a gridder thread owns 8 subgrid pixels (128 threads: 1024
// pixels, the whole of a 32 x 32 subgrid) and a degridder thread 8 channels of one row, with
// <= 128 registers so that 4 blocks (16 warps) share an SM; double: 4 and 4 (2 blocks).
// kPixChunk: subgrid pixels the degridder stages in shared memory at once (48 KiB with 4
// polarisations).
template <typename T>
struct KernelConfig;
template <>
struct KernelConfig<float> {
  static constexpr int kPixelsPerThread = 8, kChannelsPerThread = 8, kMinBlocks = 4;
  static constexpr int kPixChunk = 1024;
};
template <>
struct KernelConfig<double> {
  static constexpr int kPixelsPerThread = 4, kChannelsPerThread = 4, kMinBlocks = 2;
  static constexpr int kPixChunk = 512;
};

// Four values read from shared memory with one (float) or two (double) 16-byte loads.
template <typename T>
struct alignas(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16) Vec4 {
  T x, y, z, w;
};
// The NPOL polarisations of one visibility or pixel, read with 16-byte loads where they fill
// them (Complex<T> alone is only aligned to sizeof(T)).
template <typename T, int NPOL>
struct alignas(NPOL * sizeof(Complex<T>) < 16 ? NPOL * sizeof(Complex<T>) : 16) PolVec {
  Complex<T> v[NPOL];
};

// acc += x * (c + i s) as four explicit FMAs (acc.re + (x.re c - x.im s) would take an extra
// FMUL or FADD per pair; the host emulation uses plain arithmetic).
template <typename T>
__device__ __forceinline__ void cmac(Complex<T>& acc, Complex<T> x, T c, T s) {
#ifdef __CUDA_ARCH__
  acc.re = fma(x.re, c, acc.re);
  acc.re = fma(-x.im, s, acc.re);
  acc.im = fma(x.re, s, acc.im);
  acc.im = fma(x.im, c, acc.im);
#else
  acc.re += x.re * c;
  acc.re -= x.im * s;
  acc.im += x.re * s;
  acc.im += x.im * c;
#endif
}

// a * b with explicit FMAs (FMUL + FFMA per part).
template <typename T>
__device__ __forceinline__ Complex<T> cmul(Complex<T> a, Complex<T> b) {
#ifdef __CUDA_ARCH__
  return {fma(a.re, b.re, -a.im * b.im), fma(a.re, b.im, a.im * b.re)};
#else
  return a * b;
#endif
}

// The 3M form of acc += v z (idg_cuda_gridder_3m.cuh explains it): the NPOL polarisations of
// one visibility or pixel value, (a, b) per polarisation, then g = (a + b) / sqrt2 per
// polarisation; padded to 16 bytes (float) for 16-byte loads.
template <typename T, int NPOL>
struct alignas(16) GaussVis {
  Complex<T> v[NPOL];
  T g[NPOL];
};

// acc += v z in the 3M form: x = sqrt2 cos(theta), (pc, ps) = the phasor of
// theta + pi/4; s1, s2, s3 the accumulators per polarisation.
template <typename T, int NPOL>
__device__ __forceinline__ void gauss_mac(T (&s1)[NPOL], T (&s2)[NPOL], T (&s3)[NPOL],
                                          const GaussVis<T, NPOL>& v, T x, T pc, T ps) {
#pragma unroll
  for (int q = 0; q < NPOL; ++q) {
#ifdef __CUDA_ARCH__
    s1[q] = fma(x, v.g[q], s1[q]);
    s2[q] = fma(v.v[q].re, pc, s2[q]);
    s3[q] = fma(v.v[q].im, ps, s3[q]);
#else
    s1[q] += x * v.g[q];
    s2[q] += v.v[q].re * pc;
    s3[q] += v.v[q].im * ps;
#endif
  }
}

// The phasor step z *= w of the 3M kernels' channel recurrence in the 3M form, with
// z = (zc, zs) and w = (c, s): with x = zc + zs,
//   z' = (c x - (c + s) zs, c x + (s - c) zc)
// (the 3M method again; Higham, ch. 23), and x = zc + zs is the sqrt2 cos(theta) that
// gauss_mac needs anyway (z: the phasor of theta + pi/4), so the step costs one FMUL and two
// FFMAs instead of the 4M form's four instructions. Step3 holds w's three terms, formed once
// per row and pixel.
template <typename T>
struct Step3 {
  T c, neg_sum, diff;  // c, -(c + s), s - c
};
template <typename T>
__device__ __forceinline__ Step3<T> make_step3(T c, T s) {
  return {c, -(c + s), s - c};
}
template <typename T>
__device__ __forceinline__ void gauss_step(Complex<T>& z, T x, const Step3<T>& w) {
  const T t = w.c * x;
#ifdef __CUDA_ARCH__
  z = {fma(z.im, w.neg_sum, t), fma(z.re, w.diff, t)};
#else
  z = {t + z.im * w.neg_sum, t + z.re * w.diff};
#endif
}

// (a0, a1, a2) . x + c as a chain of FMAs starting from c.
template <typename T>
__device__ __forceinline__ T dot3_add(T a0, T a1, T a2, const Vec4<T>& x, T c) {
#ifdef __CUDA_ARCH__
  return fma(a0, x.x, fma(a1, x.y, fma(a2, x.z, c)));
#else
  return a0 * x.x + a1 * x.y + a2 * x.z + c;
#endif
}

// Each of v... summed over the lanes lane ^ m, m = FROM, 2 FROM, ... < 32 (warp shuffles;
// the values interleaved at each m, which is the order the degridders were measured with).
template <int FROM, typename... T>
__device__ __forceinline__ void xor_lane_sums(T&... v) {
#pragma unroll
  for (int m = FROM; m < 32; m *= 2) ((v += __shfl_xor_sync(0xffffffffu, v, m)), ...);
}

// The degridder's accumulators of CPT channels x NPOL polarisations: complex sums (4M form,
// G3 = false) or the three real sums of the 3M form (G3 = true; its phasor is that of
// theta + kPhaseOffset, pi/4).
template <typename T, int CPT, int NPOL, bool G3>
struct DegridAcc;
template <typename T, int CPT, int NPOL>
struct DegridAcc<T, CPT, NPOL, false> {
  using Values = PolVec<T, NPOL>;
  Complex<T> a[CPT][NPOL];
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < CPT; ++i)
#pragma unroll
      for (int q = 0; q < NPOL; ++q) a[i][q] = {T(0), T(0)};
  }
  // Channel i += y (c + i s).
  __device__ __forceinline__ void mac(int i, const Values& y, T c, T s) {
#pragma unroll
    for (int q = 0; q < NPOL; ++q) cmac(a[i][q], y.v[q], c, s);
  }
  // Sums over the lanes lane ^ m, m = FROM, 2 FROM, ... < 32 (warp shuffles).
  template <int FROM>
  __device__ __forceinline__ void warp_sum() {
#pragma unroll
    for (int i = 0; i < CPT; ++i)
#pragma unroll
      for (int q = 0; q < NPOL; ++q) xor_lane_sums<FROM>(a[i][q].re, a[i][q].im);
  }
  __device__ __forceinline__ Complex<T> value(int i, int q) const { return a[i][q]; }
};
template <typename T, int CPT, int NPOL>
struct DegridAcc<T, CPT, NPOL, true> {
  using Values = GaussVis<T, NPOL>;
  static constexpr T kPhaseOffset = T(0.78539816339744830962);
  T s1[CPT][NPOL], s2[CPT][NPOL], s3[CPT][NPOL];
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < CPT; ++i)
#pragma unroll
      for (int q = 0; q < NPOL; ++q) s1[i][q] = s2[i][q] = s3[i][q] = T(0);
  }
  // (c, s): the phasor of theta + pi/4; x = c + s.
  __device__ __forceinline__ void mac(int i, const Values& y, T x, T c, T s) {
    gauss_mac<T, NPOL>(s1[i], s2[i], s3[i], y, x, c, s);
  }
  __device__ __forceinline__ void mac(int i, const Values& y, T c, T s) { mac(i, y, c + s, c, s); }
  template <int FROM>
  __device__ __forceinline__ void warp_sum() {
#pragma unroll
    for (int i = 0; i < CPT; ++i)
#pragma unroll
      for (int q = 0; q < NPOL; ++q) xor_lane_sums<FROM>(s1[i][q], s2[i][q], s3[i][q]);
  }
  __device__ __forceinline__ Complex<T> value(int i, int q) const {
    constexpr T kSqrt2 = T(1.41421356237309504880);
    return {s1[i][q] - kSqrt2 * s3[i][q], s1[i][q] - kSqrt2 * s2[i][q]};
  }
};

// Dynamic shared memory of the gridder: visibilities [row][chan] (kVisCap values), row terms
// [row][2] (A_r, B_r, negated), pixel (l, m, n - 1) [k][thread], channel terms [chan].
template <typename T, int PPT = KernelConfig<T>::kPixelsPerThread>
constexpr std::size_t gridder_smem_bytes() {
  return kVisCap * sizeof(Complex<T>) + 2 * kRowCap * sizeof(Vec4<T>) +
         std::size_t(kGridThreads) * PPT * sizeof(Vec4<T>) + kVisCap * sizeof(T);
}
// Dynamic shared memory of the degridder: pixel values [pixel] and (l, m, n - 1) [pixel] of
// one chunk of min(np, kPixChunk) pixels.
template <typename T, int NPOL, bool G3 = false>
constexpr std::size_t degridder_smem_bytes(int np) {
  const int chunk = np < KernelConfig<T>::kPixChunk ? np : KernelConfig<T>::kPixChunk;
  using V = typename DegridAcc<T, 1, NPOL, G3>::Values;
  return std::size_t(chunk) * (sizeof(V) + sizeof(Vec4<T>));
}

struct DevSubgrid {
  std::uint32_t row_begin, num_rows, chan_begin, num_channels;
  std::int32_t x0, y0;
  std::int32_t station1, station2, aterm_index;
  std::int32_t pad;  // the subgrid's layer in a w-layer stack (adder_kernel), else 0
  double us, vs, w0;
};

// A-terms of station `station` at subgrid pixel p: 4 values ([interval][station][pixel][4]).
template <typename T>
__device__ __forceinline__ const Complex<T>* aterm_at(const Complex<T>* aterms, int stations,
                                                      int interval, int station, int np, int p) {
  return aterms + ((std::size_t(interval) * stations + station) * np + p) * 4;
}

// sincos of a phase: float: the hardware approximation (__sincosf: one FMUL by 1/(2 pi) and
// MUFU.SIN/COS; absolute error 2^-21 in [-pi, pi], growing as |x| x 6e-8 beyond, i.e. < 5e-6
// for the |phase| < ~70 rad that phases about a subgrid's centre reach, well below the
// single-precision target); double: the accurate sincos.
__device__ __forceinline__ void phase_sincos(float x, float* s, float* c) { __sincosf(x, s, c); }
__device__ __forceinline__ void phase_sincos(double x, double* s, double* c) { sincos(x, s, c); }

template <typename T>
__device__ __forceinline__ void atomic_add(T* a, T v) {
  atomicAdd(a, v);
}
// g += v; on sm_90 a float pair is one 8-byte vector atomic (atomicAdd(float2*)), halving
// the adder's atomics.
template <typename T>
__device__ __forceinline__ void atomic_add(Complex<T>* g, Complex<T> v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (sizeof(T) == 4) {
    atomicAdd(reinterpret_cast<float2*>(g), make_float2(v.re, v.im));
    return;
  }
#endif
  atomic_add(&g->re, v.re);
  atomic_add(&g->im, v.im);
}

// The channel spacing [Hz] if the channels are evenly spaced (every spacing equal to the
// first within 1e-9 of it: a phase error below 1e-7 rad for any baseline the single-precision
// kernels handle), else 0. With it, the single-precision kernels step each phasor from
// channel to channel (REC) instead of evaluating a sincos per channel.
inline double even_channel_spacing(const double* f, std::size_t n) {
  if (n < 2 || f[1] == f[0]) return 0.0;
  const double d = f[1] - f[0], tol = 1e-9 * (d < 0 ? -d : d);
  for (std::size_t c = 1; c < n; ++c) {
    const double e = (f[c] - f[0]) - double(c) * d;
    if (e > tol || e < -tol) return 0.0;
  }
  return d;
}

// Gridder: block (blockIdx.x) = subgrid, blockIdx.y = a group of kGridThreads x PPT of its
// pixels (one group for 32 x 32 subgrids in single precision), thread = PPT pixels
// (p = group start + threadIdx.x + k kGridThreads). The rows of the subgrid go through shared
// memory in chunks (weighted visibilities, the row terms A_r, B_r); per row each thread forms
// pa = -A_r . lmn and pb = -B_r . lmn of its pixels once, and per visibility (row, channel)
// and pixel the inner loop is one FMA (phase = pa + dk_c pb), one sincos and 4 x NPOL FMAs,
// the visibility (NPOL values) and dk_c read from shared memory once for PPT pixels.
template <typename T, int NPOL, int PPT, bool REC, int MINB = KernelConfig<T>::kMinBlocks>
__global__ void __launch_bounds__(kGridThreads, MINB)
    gridder_kernel(const DevSubgrid* __restrict__ subgrids, const double* __restrict__ uvw,
                   const Complex<T>* __restrict__ vis, const float* __restrict__ weight,
                   const double* __restrict__ freq, int nchan_total, int ns, T width_lm, T dk_step,
                   const T* __restrict__ taper_sign, const Complex<T>* __restrict__ aterms,
                   int aterm_stations, Complex<T>* __restrict__ out) {
  using PV = PolVec<T, NPOL>;
  FRINGE_IMAGER_DYNAMIC_SHARED(smem);
  PV* shv = reinterpret_cast<PV*>(smem);                              // [row][chan]
  Vec4<T>* shrow = reinterpret_cast<Vec4<T>*>(shv + kVisCap / NPOL);  // [row][-A, -B]
  Vec4<T>* shlmn = shrow + 2 * kRowCap;                               // [k][thread]
  T* shdk = reinterpret_cast<T*>(shlmn + kGridThreads * PPT);         // [chan]
  const DevSubgrid s = subgrids[blockIdx.x];
  const int np = ns * ns, nc = static_cast<int>(s.num_channels);
  const int tid = threadIdx.x;
  const int pix0 = blockIdx.y * (kGridThreads * PPT);
  const int rows_per_chunk = min(kRowCap, max(1, kVisCap / (nc * NPOL)));
  const double f_ref = freq[subgrid_ref_channel(s.chan_begin, s.num_channels)];

  // (l, m, n - 1) of this thread's pixels: in shared memory (read once per row) to keep
  // registers for the accumulators. Each thread reads only its own entries.
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int p = min(pix0 + tid + k * kGridThreads, np - 1);
    Vec4<T> x{T(0), T(0), T(0), T(0)};
    pixel_lmn<T>(p % ns, p / ns, ns, width_lm, &x.x, &x.y, &x.z);
    shlmn[k * kGridThreads + tid] = x;
  }
  for (int c = tid; c < nc; c += kGridThreads)
    shdk[c] = T(channel_dk(freq[s.chan_begin + c], f_ref));
  Complex<T> acc[PPT][NPOL];
#pragma unroll
  for (int k = 0; k < PPT; ++k)
#pragma unroll
    for (int q = 0; q < NPOL; ++q) acc[k][q] = {T(0), T(0)};

  for (std::uint32_t r0 = 0; r0 < s.num_rows; r0 += rows_per_chunk) {
    const int nr = min(rows_per_chunk, static_cast<int>(s.num_rows - r0));
    __syncthreads();
    for (int i = tid; i < nr; i += kGridThreads) {
      const std::size_t row = s.row_begin + r0 + i;
      const double u[3] = {uvw[3 * row], uvw[3 * row + 1], uvw[3 * row + 2]};
      double a[3];
      row_phase_terms(u, f_ref, s.us, s.vs, s.w0, a);
      // Negated: the gridder's phasor is exp(+i phi) = exp(-i (A . lmn + dk B . lmn)).
      shrow[2 * i] = {T(-a[0]), T(-a[1]), T(-a[2]), T(0)};
      shrow[2 * i + 1] = {T(-u[0]), T(-u[1]), T(-u[2]), T(0)};
    }
    for (int i = tid; i < nr * nc; i += kGridThreads) {
      const int r = i / nc, c = i % nc;
      const std::size_t k = (s.row_begin + r0 + r) * std::size_t(nchan_total) + s.chan_begin + c;
      const float w = weight[k];
      PV x;
#pragma unroll
      for (int q = 0; q < NPOL; ++q) {
        const Complex<T> v = vis[k * NPOL + q];
        x.v[q] = w > 0.0f ? Complex<T>{v.re * T(w), v.im * T(w)} : Complex<T>{T(0), T(0)};
      }
      shv[i] = x;
    }
    __syncthreads();
    for (int r = 0; r < nr; ++r) {
      const Vec4<T> a = shrow[2 * r], b = shrow[2 * r + 1];
      T pa[PPT], pb[PPT];
#pragma unroll
      for (int k = 0; k < PPT; ++k) {
        const Vec4<T> x = shlmn[k * kGridThreads + tid];
        pa[k] = a.x * x.x + a.y * x.y + a.z * x.z;
        pb[k] = b.x * x.x + b.y * x.y + b.z * x.z;
      }
      const PV* vr = shv + r * nc;
      if constexpr (REC) {
        // Evenly spaced channels: dk_c = dk_0 + c dk_step, so the phasor of channel c + 1 is
        // that of channel c times exp(i dk_step pb): per visibility-pixel one complex
        // multiplication (4 FP32 instructions, no MUFU) replaces FMA + sincos; two sincos per
        // row and pixel start it.
        Complex<T> ph[PPT], st[PPT];
        const T dk0 = shdk[0];
#pragma unroll
        for (int k = 0; k < PPT; ++k) {
          phase_sincos(pa[k] + dk0 * pb[k], &ph[k].im, &ph[k].re);
          phase_sincos(dk_step * pb[k], &st[k].im, &st[k].re);
        }
#pragma unroll 2
        for (int c = 0; c < nc; ++c) {
          const PV v = vr[c];
#pragma unroll
          for (int k = 0; k < PPT; ++k) {
#pragma unroll
            for (int q = 0; q < NPOL; ++q) cmac(acc[k][q], v.v[q], ph[k].re, ph[k].im);
            ph[k] = cmul(ph[k], st[k]);
          }
        }
      } else {
#pragma unroll 2
        for (int c = 0; c < nc; ++c) {
          const T dk = shdk[c];
          const PV v = vr[c];
#pragma unroll
          for (int k = 0; k < PPT; ++k) {
            T sn, cs;
            phase_sincos(pa[k] + dk * pb[k], &sn, &cs);
#pragma unroll
            for (int q = 0; q < NPOL; ++q) cmac(acc[k][q], v.v[q], cs, sn);
          }
        }
      }
    }
  }
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int p = pix0 + tid + k * kGridThreads;
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

// Degridder: block = subgrid, thread = a task of CPT consecutive channels of one row (tasks
// row-major, threadIdx.x + i kDegridThreads). The subgrid's pixels (times sign x taper, with
// the A-terms) and their (l, m, n - 1) are staged in shared memory, all of them at once when
// they fit (np <= kPixChunk: one stage, then no barrier), else chunk by chunk for each round of
// tasks. Per pixel a thread reads the pixel (broadcast: every thread reads the same one) and
// forms pa = A_r . lmn, pb = B_r . lmn once for its CPT channels; per visibility and pixel the
// inner loop is one FMA, one sincos and 4 x NPOL FMAs. G3: the 3M form of the complex
// multiply-adds (DegridAcc; idg_cuda_gridder_3m.cuh), pixel values staged with (a + b) / sqrt2;
// STEP3 (G3 only): the channel recurrence's phasor step in the 3M form too (gauss_step).
template <typename T, int NPOL, int CPT, bool REC, int MINB = KernelConfig<T>::kMinBlocks,
          bool G3 = false, bool STEP3 = false>
__global__ void __launch_bounds__(kDegridThreads, MINB)
    degridder_kernel(const DevSubgrid* __restrict__ subgrids, const double* __restrict__ uvw,
                     const double* __restrict__ freq, int nchan_total, int ns, T width_lm,
                     T dk_step, const T* __restrict__ taper_sign,
                     const Complex<T>* __restrict__ sub, const Complex<T>* __restrict__ aterms,
                     int aterm_stations, Complex<T>* __restrict__ vis) {
  using Acc = DegridAcc<T, CPT, NPOL, G3>;
  using PV = typename Acc::Values;
  static_assert(G3 || !STEP3, "the 3M phasor step needs the 3M accumulators");
  // STEP3 with the recurrence: a task's row terms are A_r + dk_c0 B_r (its first channel's)
  // and dk_step B_r (formed in double), and pi/4 starts the dot product's FMA chain.
  constexpr bool kFold = REC && STEP3;
  constexpr int kChunk = KernelConfig<T>::kPixChunk;
  FRINGE_IMAGER_DYNAMIC_SHARED(smem);
  const DevSubgrid s = subgrids[blockIdx.x];
  const int np = ns * ns, nc = static_cast<int>(s.num_channels);
  const int chunk = min(np, kChunk);
  PV* shs = reinterpret_cast<PV*>(smem);                     // [pixel]
  Vec4<T>* shlmn = reinterpret_cast<Vec4<T>*>(shs + chunk);  // [pixel]
  const int groups = (nc + CPT - 1) / CPT;
  const int ntasks = static_cast<int>(s.num_rows) * groups;
  const double f_ref = freq[subgrid_ref_channel(s.chan_begin, s.num_channels)];
  const int tid = threadIdx.x;

  // Pixels [p0, p0 + npc) into shared memory.
  auto stage = [&](int p0, int npc) {
    for (int j = tid; j < npc; j += kDegridThreads) {
      const int p = p0 + j;
      Vec4<T> lmn{T(0), T(0), T(0), T(0)};
      pixel_lmn<T>(p % ns, p / ns, ns, width_lm, &lmn.x, &lmn.y, &lmn.z);
      shlmn[j] = lmn;
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
      PV v;
#pragma unroll
      for (int q = 0; q < NPOL; ++q) {
        v.v[q] = x[q];
        if constexpr (G3) v.g[q] = (x[q].re + x[q].im) * T(0.70710678118654752440);
      }
      shs[j] = v;
    }
  };
  // A task's row terms (computed in double, as in the gridder) and channel terms.
  struct Task {
    T a[3], b[3], dk[CPT];
    std::size_t row;
    int c0;
  };
  auto make_task = [&](int t) {
    Task k;
    k.row = s.row_begin + t / groups;
    k.c0 = (t % groups) * CPT;
    const double u[3] = {uvw[3 * k.row], uvw[3 * k.row + 1], uvw[3 * k.row + 2]};
    double ad[3];
    row_phase_terms(u, f_ref, s.us, s.vs, s.w0, ad);
    double bd[3] = {u[0], u[1], u[2]};
    if constexpr (kFold) {  // A_r + dk_c0 B_r (the task's first channel) and dk_step B_r
      const double dk_c0 = channel_dk(freq[s.chan_begin + k.c0], f_ref);
      for (int i = 0; i < 3; ++i) {
        ad[i] += dk_c0 * u[i];
        bd[i] *= double(dk_step);
      }
    }
    for (int i = 0; i < 3; ++i) {
      k.a[i] = T(ad[i]);
      k.b[i] = T(bd[i]);
    }
#pragma unroll
    for (int j = 0; j < CPT; ++j) {
      const int c = min(k.c0 + j, nc - 1);  // channels past nc: computed, not written
      k.dk[j] = T(channel_dk(freq[s.chan_begin + c], f_ref));
    }
    return k;
  };
  // Pixels j0, j0 + stride, ... below npc of the staged chunk.
  auto accumulate = [&](const Task& k, int j0, int npc, int stride, Acc& acc) {
#pragma unroll 2
    for (int j = j0; j < npc; j += stride) {
      const Vec4<T> x = shlmn[j];
      T pa;
      if constexpr (kFold) {
        pa = dot3_add(k.a[0], k.a[1], k.a[2], x, Acc::kPhaseOffset);  // channel c0's phase + pi/4
      } else {
        pa = k.a[0] * x.x + k.a[1] * x.y + k.a[2] * x.z;
        if constexpr (G3) pa += Acc::kPhaseOffset;  // (x + 0 is not free: -0 + 0 = +0)
      }
      const T pb = k.b[0] * x.x + k.b[1] * x.y + k.b[2] * x.z;
      const PV y = shs[j];
      if constexpr (kFold) {
        // As below, with the 3M phasor step (gauss_step); pa holds channel c0's phase, pb the
        // step's.
        Complex<T> ph, st;
        phase_sincos(pa, &ph.im, &ph.re);  // exp(-i phi)
        phase_sincos(pb, &st.im, &st.re);
        const Step3<T> w = make_step3(st.re, st.im);
#pragma unroll
        for (int i = 0; i < CPT; ++i) {
          const T x = ph.re + ph.im;
          acc.mac(i, y, x, ph.re, ph.im);
          if (i + 1 < CPT) gauss_step(ph, x, w);
        }
      } else if constexpr (REC) {
        // Evenly spaced channels: the phasor of channel i + 1 is that of channel i times
        // exp(i dk_step pb) (as in the gridder): two sincos per pixel for CPT channels.
        Complex<T> ph, st;
        phase_sincos(pa + k.dk[0] * pb, &ph.im, &ph.re);  // exp(-i phi)
        phase_sincos(dk_step * pb, &st.im, &st.re);
#pragma unroll
        for (int i = 0; i < CPT; ++i) {
          acc.mac(i, y, ph.re, ph.im);
          if (i + 1 < CPT) ph = cmul(ph, st);
        }
      } else {
#pragma unroll
        for (int i = 0; i < CPT; ++i) {
          T sn, cs;
          phase_sincos(pa + k.dk[i] * pb, &sn, &cs);  // exp(-i phi)
          acc.mac(i, y, cs, sn);
        }
      }
    }
  };
  auto write = [&](const Task& k, const Acc& acc) {
#pragma unroll
    for (int i = 0; i < CPT; ++i) {
      if (k.c0 + i >= nc) continue;
      const std::size_t v = k.row * nchan_total + s.chan_begin + k.c0 + i;
#pragma unroll
      for (int q = 0; q < NPOL; ++q) vis[v * NPOL + q] = acc.value(i, q);
    }
  };

  if (np <= kChunk) {
    // All pixels staged once; the tasks then need no barrier. kSplit lanes of a warp share a
    // task, each summing every kSplit-th pixel (consecutive pixels across the lanes: no bank
    // conflicts), and their sums are added with warp shuffles: a block takes
    // kDegridThreads / kSplit tasks per round, so the last, partly filled round of a subgrid
    // wastes less (a subgrid has ~2 x 185 tasks of 8 channels in the benchmark).
    stage(0, np);
    __syncthreads();
    constexpr int kSplit = 4, kPerWarp = 32 / kSplit, kPerRound = kDegridThreads / kSplit;
    const int lane = tid & 31, warp = tid >> 5;
    const int part = lane / kPerWarp, slot = warp * kPerWarp + lane % kPerWarp;
    for (int t0 = 0; t0 < ntasks; t0 += kPerRound) {
      if (t0 + warp * kPerWarp >= ntasks) break;  // the same for the whole warp
      const int t = t0 + slot;
      const bool valid = t < ntasks;
      const Task k = make_task(valid ? t : 0);
      Acc acc;
      acc.zero();
      accumulate(k, part, np, kSplit, acc);
      acc.template warp_sum<kPerWarp>();
      if (valid && part == 0) write(k, acc);
    }
  } else {
    for (int t0 = 0; t0 < ntasks; t0 += kDegridThreads) {
      const int t = t0 + tid;
      const bool valid = t < ntasks;
      const Task k = make_task(valid ? t : 0);
      Acc acc;
      acc.zero();
      for (int p0 = 0; p0 < np; p0 += kChunk) {
        const int npc = min(kChunk, np - p0);
        __syncthreads();
        stage(p0, npc);
        __syncthreads();
        if (valid) accumulate(k, 0, npc, 1, acc);
      }
      if (valid) write(k, acc);
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
  grid += std::size_t(s.pad) * npol * gs * gs;  // its w layer's grid in a stack (else pad 0)
  for (int p = threadIdx.x; p < np; p += kThreads) {
    const int x = p % ns, y = p / ns;
    const T sign = ((x + y) & 1) ? T(-1) : T(1);
    for (int q = 0; q < npol; ++q) {
      const Complex<T> v = sub[(std::size_t(blockIdx.x) * npol + q) * np + p];
      Complex<T>* g = grid + std::size_t(q) * gs * gs + std::size_t(s.y0 + y) * gs + (s.x0 + x);
      atomic_add(g, Complex<T>{sign * v.re, sign * v.im});
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
