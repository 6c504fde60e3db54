// Kernels of the CUDA direct predict (private to predict_cuda.cu; design, launch geometry and
// register use in docs/gpu_predict.md). Every per-element formula comes from predict_math.h.
//
//  time_coefficients_kernel  per station: time-smearing coefficients (du, dv, dw).
//  station_terms_kernel      per (station, source) of a chunk, once: K (phase in double,
//                            range-reduced before a float sincos), K J, (K J) B, the sines and
//                            cosines of the per-station smearing terms (double: and the terms
//                            themselves), and the per-source rows.
//  cross_kernel              per block a tile of block_p stations p x block_q stations q (after
//                            SDP Memo 076: the block's warps walk the same sources, staged
//                            through shared memory in tiles of 32 sources by a cp.async double
//                            buffer; each warp owns a tile_p x tile_q sub-tile of baselines with
//                            one source per lane, and reduces with warp shuffles at the end).
//  autos_kernel              per station: sum_s J B J^H over all sources (block reduction).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/predict/predict.h"
#include "fringe/predict/predict_cuda_layout.h"
#include "fringe/predict/predict_math.h"

namespace fringe::predict::cuda_detail {
// The kernels and their argument blocks get an inline namespace of their own, so that the host
// emulation of the tests (FRINGE_PREDICT_CUDA_EMULATION) links beside this library without
// symbol clashes.
#ifdef FRINGE_PREDICT_CUDA_EMULATION
inline namespace emulated {
#else
inline namespace device {
#endif

constexpr unsigned kFullMask = 0xffffffffu;

template <typename T>
struct alignas(16) Quad {
  T x, y, z, w;
};

// ---------------------------------------------------------------------------------------------
// cp.async (sm_80+): 16-byte copies global -> shared that bypass registers (PTX ISA 7.0+,
// "cp.async"); older architectures fall back to an ordinary copy.
__device__ __forceinline__ void copy16_async(void* shared_dst, const void* global_src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src)
               : "memory");
#else
  *static_cast<uint4*>(shared_dst) = *static_cast<const uint4*>(global_src);
#endif
}
__device__ __forceinline__ void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
// Waits until at most `kPending` committed groups of this thread are still in flight.
template <int kPending>
__device__ __forceinline__ void copy_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// The block's dynamic shared memory (16-byte aligned). A host-side emulation of the kernels
// (tests/unit/predict/predict_cuda_emulation.cpp) defines FRINGE_PREDICT_CUDA_EMULATION and
// provides its own.
#ifndef FRINGE_PREDICT_CUDA_EMULATION
__device__ __forceinline__ unsigned char* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char smem[];
  return smem;
}
#endif

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(kFullMask, v, offset);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Time-smearing coefficients of each station (predict_math.h; docs/conventions.md, "Smearing").
struct TimeArgs {
  const double* x;  // offset-ECEF x, y (m)
  const double* y;
  double ha0, dec0, tau_s, inv_lambda;
  int num_stations;
  double* tcoef;  // [N][3]
};

__global__ void __launch_bounds__(128) time_coefficients_kernel(const TimeArgs a) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= a.num_stations) return;
  const TimeSmearingCoefficients c =
      time_smearing_coefficients(a.x[p], a.y[p], a.ha0, a.dec0, a.tau_s, a.inv_lambda);
  a.tcoef[3 * p + 0] = c.du;
  a.tcoef[3 * p + 1] = c.dv;
  a.tcoef[3 * p + 2] = c.dw;
}

// ---------------------------------------------------------------------------------------------
// Per (station, source) terms of one source chunk into the scratch rows (predict_cuda_layout.h).
template <typename T>
struct TermsArgs {
  const T* stokes_i;
  const T* stokes_q;  // nullptr = 0
  const T* stokes_u;
  const T* stokes_v;
  const double* l;
  const double* m;
  const double* n;
  const T* gauss_a;
  const T* gauss_b;
  const T* gauss_c;
  const double* u;  // station (u, v, w), m
  const double* v;
  const double* w;
  const Jones<T>* jones;             // [station][num_sources], nullptr = identity
  const Complex<T>* jones_scalar;    // [station][num_sources], nullptr = 1
  const double* tcoef;               // [N][3]
  std::size_t num_sources;           // all sources (Jones row length)
  std::size_t begin, count;          // the chunk
  std::size_t capacity;              // C, the row stride
  std::size_t fill;                  // sources written: count rounded up to a tile (<= C)
  int num_stations, station_offset;  // grid.y covers stations [offset, offset + gridDim.y)
  double inv_lambda;                 // 1/m
  double bw_scale;                   // dnu / (2 nu)
  T* station_rows;
  T* p_rows;
  T* source_rows;
};

constexpr int kTermsThreads = 128;

template <class M>
__global__ void __launch_bounds__(kTermsThreads)
    station_terms_kernel(const TermsArgs<typename M::Real> a) {
  using T = typename M::Real;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(kTermsThreads) + threadIdx.x;
  const int p = a.station_offset + static_cast<int>(blockIdx.y);
  if (i >= a.fill || p >= a.num_stations) return;
  const bool valid = i < a.count;
  const std::size_t s = a.begin + (valid ? i : 0);
  const std::size_t C = a.capacity;
  T* st = a.station_rows + static_cast<std::size_t>(p) * M::station_rows * C + i;
  T* pr = a.p_rows + static_cast<std::size_t>(p) * M::jones_rows * C + i;

  double phase = 0.0, l = 0.0, mm = 0.0, n1 = 0.0;
  if (valid) {
    l = a.l[s];
    mm = a.m[s];
    n1 = a.n[s] - 1.0;
    phase = station_phase(a.u[p], a.v[p], a.w[p], l, mm, n1, a.inv_lambda);
  }
  const Complex<T> k = station_phasor<T>(phase);
  const T flux_i = valid ? a.stokes_i[s] : T(0);
  const std::size_t js = static_cast<std::size_t>(p) * a.num_sources + s;
  if constexpr (M::full) {
    const Jones<T> kj = a.jones ? a.jones[js] * k : Jones<T>{k, {0, 0}, {0, 0}, k};
    const T q = (valid && a.stokes_q) ? a.stokes_q[s] : T(0);
    const T uu = (valid && a.stokes_u) ? a.stokes_u[s] : T(0);
    const T vv = (valid && a.stokes_v) ? a.stokes_v[s] : T(0);
    const Jones<T> kjb = jones_times_brightness(kj, flux_i, q, uu, vv);  // zero when !valid
    const T kv[8] = {kj.a.re, kj.a.im, kj.b.re, kj.b.im, kj.c.re, kj.c.im, kj.d.re, kj.d.im};
    const T bv[8] = {kjb.a.re, kjb.a.im, kjb.b.re, kjb.b.im,
                     kjb.c.re, kjb.c.im, kjb.d.re, kjb.d.im};
#pragma unroll
    for (int c = 0; c < 8; ++c) {
      st[c * C] = valid ? kv[c] : T(0);
      pr[c * C] = bv[c];
    }
  } else {
    const Complex<T> kj = a.jones_scalar ? a.jones_scalar[js] * k : k;
    st[0] = valid ? kj.re : T(0);
    st[C] = valid ? kj.im : T(0);
    pr[0] = kj.re * flux_i;
    pr[C] = kj.im * flux_i;
  }
  if constexpr (M::bw) {
    double sn = 0.0, cs = 0.0;
    const double x = phase * a.bw_scale;  // 0 when !valid
    if (valid) sincos(x, &sn, &cs);
    st[M::bw_row * C] = static_cast<T>(sn);
    st[(M::bw_row + 1) * C] = static_cast<T>(cs);
    if constexpr (M::station_args) st[(M::bw_row + 2) * C] = static_cast<T>(x);
  }
  if constexpr (M::time) {
    double sn = 0.0, cs = 0.0, x = 0.0;
    if (valid) {
      const double* tc = a.tcoef + 3 * p;
      x = tc[0] * l + tc[1] * mm + tc[2] * n1;
      sincos(x, &sn, &cs);
    }
    st[M::time_row * C] = static_cast<T>(sn);
    st[(M::time_row + 1) * C] = static_cast<T>(cs);
    if constexpr (M::station_args) st[(M::time_row + 2) * C] = static_cast<T>(x);
  }
  if (p == 0) {
    T* src = a.source_rows + i;
    if constexpr (M::source_lmn) {
      src[0] = static_cast<T>(l);
      src[C] = static_cast<T>(mm);
      src[2 * C] = static_cast<T>(n1);
    }
    if constexpr (M::gauss) {
      src[M::gauss_row * C] = valid ? a.gauss_a[s] : T(0);
      src[(M::gauss_row + 1) * C] = valid ? a.gauss_b[s] : T(0);
      src[(M::gauss_row + 2) * C] = valid ? a.gauss_c[s] : T(0);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Cross-correlations of one source chunk.
template <typename T>
struct CrossArgs {
  const T* station_rows;
  const T* p_rows;
  const T* source_rows;
  std::size_t capacity;  // C
  int num_tiles;         // tiles of kTileSources covering the chunk's sources
  int num_stations;
  const double* u;  // station (u, v, w), m
  const double* v;
  const double* w;
  const double* tcoef;  // [N][3]
  double inv_lambda;    // 1/m
  double uv_scale;      // 1 (metres) or inv_lambda (wavelengths) for the uv filter
  double uv_min, uv_max;
  T two_pi_bw;  // 2 pi dnu / (2 nu)
  Complex<T>* cross;
};

// Global source of stage row r of the block tile (stations past the end are clamped: their
// baselines are never written).
template <class M>
__device__ const typename M::Real* stage_row_source(const CrossArgs<typename M::Real>& a,
                                                    const BlockTile& bt, int r) {
  const std::size_t C = a.capacity;
  const int last = a.num_stations - 1;
  constexpr int np_rows = M::block_p * M::station_rows;
  constexpr int nq_rows = M::block_q * M::station_rows;
  if (r < np_rows) {
    const int p = min(bt.p0 + r / M::station_rows, last), c = r % M::station_rows;
    if (c < M::jones_rows) return a.p_rows + (static_cast<std::size_t>(p) * M::jones_rows + c) * C;
    return a.station_rows + (static_cast<std::size_t>(p) * M::station_rows + c) * C;
  }
  if (r < np_rows + nq_rows) {
    r -= np_rows;
    const int q = min(bt.q0 + r / M::station_rows, last), c = r % M::station_rows;
    return a.station_rows + (static_cast<std::size_t>(q) * M::station_rows + c) * C;
  }
  return a.source_rows + static_cast<std::size_t>(r - np_rows - nq_rows) * C;
}

// Issues the cp.async copies of the tile starting at source s0 into one stage.
template <class M>
__device__ __forceinline__ void stage_tile(const typename M::Real* const* rows,
                                           typename M::Real* stage, std::size_t s0) {
  constexpr int total = M::stage_rows * M::copies_per_row;
  for (int k = threadIdx.x; k < total; k += M::threads) {
    const int r = k / M::copies_per_row, c = k % M::copies_per_row;
    copy16_async(stage + r * kTileSources + c * M::copy_reals, rows[r] + s0 + c * M::copy_reals);
  }
}

// Constants of baseline (p, q) of the block tile (CPU: make_plan in predict_cpu.cpp).
template <class M>
__device__ void baseline_constants(const CrossArgs<typename M::Real>& a, int p, int q,
                                   Quad<typename M::Real>* c, int* flag) {
  using T = typename M::Real;
  const bool inside = p < q && q < a.num_stations;
  int keep = 0;
  if (inside) {
    const double du = a.u[p] - a.u[q], dv = a.v[p] - a.v[q], dw = a.w[p] - a.w[q];
    const double len = sqrt(du * du + dv * dv) * a.uv_scale;
    keep = len >= a.uv_min && len <= a.uv_max;
    const T uu = static_cast<T>(du * a.inv_lambda), vv = static_cast<T>(dv * a.inv_lambda),
            ww = static_cast<T>(dw * a.inv_lambda);
    if constexpr (M::gauss) c[M::gauss_const] = {uu * uu, T(2) * uu * vv, vv * vv, T(0)};
    if constexpr (M::bw && !M::station_args)
      c[M::bw_const] = {a.two_pi_bw * uu, a.two_pi_bw * vv, a.two_pi_bw * ww, T(0)};
    if constexpr (M::time && !M::station_args) {
      const double* tp = a.tcoef + 3 * p;
      const double* tq = a.tcoef + 3 * q;
      c[M::time_const] = {static_cast<T>(tp[0] - tq[0]), static_cast<T>(tp[1] - tq[1]),
                          static_cast<T>(tp[2] - tq[2]), T(0)};
    }
  } else {
#pragma unroll
    for (int k = 0; k < M::num_consts; ++k) c[k] = {T(0), T(0), T(0), T(0)};
  }
  *flag = keep;
}

// One sinc factor as numerator and denominator: (sinc_series(x), 1) for |x| < kSincSeriesLimit,
// else (sep, x) with sep = sin(x) from the separable numerator (the same values as
// predict_math.h's sinc_separable; |x| < lim is x < lim && x > -lim, NaN included). On the
// device both sides are computed and picked by selp in one asm block, so the compiler cannot
// turn the choice into a branch: the unrolled baselines of a warp tile then stay one basic block
// and their dependency chains interleave.
template <typename T>
__device__ __forceinline__ void sinc_parts(T x, T sep, T& num, T& den) {
  const T series = sinc_series(x);
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == sizeof(double)) {
    asm("{\n\t.reg .pred p;\n\t.reg .f64 t;\n\t"
        "abs.f64 t, %2;\n\tsetp.lt.f64 p, t, %5;\n\t"
        "selp.f64 %0, %3, %4, p;\n\tselp.f64 %1, %6, %2, p;\n\t}"
        : "=d"(num), "=d"(den)
        : "d"(x), "d"(series), "d"(sep), "d"(kSincSeriesLimit), "d"(1.0));
  } else {
    asm("{\n\t.reg .pred p;\n\t.reg .f32 t;\n\t"
        "abs.f32 t, %2;\n\tsetp.lt.f32 p, t, %5;\n\t"
        "selp.f32 %0, %3, %4, p;\n\tselp.f32 %1, %6, %2, p;\n\t}"
        : "=f"(num), "=f"(den)
        : "f"(x), "f"(series), "f"(sep), "f"(static_cast<float>(kSincSeriesLimit)), "f"(1.0f));
  }
#else
  const bool s = x < T(kSincSeriesLimit) && x > -T(kSincSeriesLimit);
  num = s ? series : sep;
  den = s ? T(1) : x;
#endif
}

// num / den for the smearing factor, where |den| >= kSincSeriesLimit^2 and is finite (no special
// cases), without the IEEE division's slow-path branch. Double: the hardware reciprocal
// estimate, one cubic Newton step (error ~e0^3) and a residual correction of the quotient:
// within ~1 ulp of the correctly rounded quotient for any estimate better than 2^-8. Float:
// div.approx (__fdividef, max 2 ulp), far inside the documented float bound. The host (the
// emulation of the tests) divides.
template <typename T>
__device__ __forceinline__ T smear_divide(T num, T den) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == sizeof(double)) {
    double r;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(den));
    const double e = fma(-den, r, 1.0);
    r = fma(r, fma(e, e, e), r);
    const double q = num * r;
    return fma(r, fma(-den, q, num), q);
  } else {
    return __fdividef(num, den);
  }
#else
  return num / den;
#endif
}

// f = g s_bw s_t of one source on one baseline (the CPU's source_factor: one division for both
// sinc factors; the sine numerators are separable, sinc_series below kSincSeriesLimit). The
// sinc arguments: x_p - x_q of the per-station rows (station_args, double) or the baseline
// constants times the source's (l, m, n - 1).
template <class M>
__device__ __forceinline__ typename M::Real source_factor(const Quad<typename M::Real>* c,
                                                          const typename M::Real (&src)[6],
                                                          const typename M::Real (&ps)[6],
                                                          const typename M::Real (&qs)[6]) {
  using T = typename M::Real;
  T f = T(1);
  if constexpr (M::gauss) {
    const Quad<T> g = c[M::gauss_const];
    f = detail::hd_exp(-(src[3] * g.x + src[4] * g.y + src[5] * g.z));
  }
  if constexpr (M::smear) {
    T num = T(1), den = T(1);
    if constexpr (M::bw) {
      T x;
      if constexpr (M::station_args) {
        x = ps[4] - qs[4];
      } else {
        const Quad<T> b = c[M::bw_const];
        x = b.x * src[0] + b.y * src[1] + b.z * src[2];
      }
      const T sep = ps[0] * qs[1] - ps[1] * qs[0];  // sin x_p cos x_q - cos x_p sin x_q
      sinc_parts(x, sep, num, den);
    }
    if constexpr (M::time) {
      T x;
      if constexpr (M::station_args) {
        x = ps[5] - qs[5];
      } else {
        const Quad<T> t = c[M::time_const];
        x = t.x * src[0] + t.y * src[1] + t.z * src[2];
      }
      const T sep = ps[2] * qs[3] - ps[3] * qs[2];
      T n, d;
      sinc_parts(x, sep, n, d);
      if constexpr (M::bw) {
        num *= n;
        den *= d;
      } else {
        num = n;
        den = d;
      }
    }
    f *= smear_divide(num, den);
  }
  return f;
}

// acc += (f P) Q^H for one source: Full = jones_mul_h(P f, Q) written out in reals as fused
// multiply-adds (XX = Pa Qa* + Pb Qb*, XY = Pa Qc* + Pb Qd*, YX = Pc Qa* + Pd Qb*,
// YY = Pc Qc* + Pd Qd*); Scalar = f P conj(Q). The real factor scales the p side, whose
// registers are reloaded per baseline anyway (the CPU scales Q: same value, last-bit rounding).
template <class M>
__device__ __forceinline__ void accumulate(typename M::Real (&acc)[M::jones_rows],
                                           const typename M::Real (&p)[M::jones_rows],
                                           const typename M::Real (&q)[M::jones_rows],
                                           typename M::Real f) {
  using T = typename M::Real;
  T g[M::jones_rows];
#pragma unroll
  for (int k = 0; k < M::jones_rows; ++k) g[k] = M::factor ? p[k] * f : p[k];
  if constexpr (M::full) {
#pragma unroll
    for (int row = 0; row < 2; ++row) {  // P row (a, b) or (c, d)
#pragma unroll
      for (int col = 0; col < 2; ++col) {  // Q row (a, b) or (c, d)
        const T* pr = g + 4 * row;
        const T* qr = q + 4 * col;
        T& re = acc[4 * row + 2 * col];
        T& im = acc[4 * row + 2 * col + 1];
        re += pr[0] * qr[0];
        re += pr[1] * qr[1];
        re += pr[2] * qr[2];
        re += pr[3] * qr[3];
        im += pr[1] * qr[0];
        im -= pr[0] * qr[1];
        im += pr[3] * qr[2];
        im -= pr[2] * qr[3];
      }
    }
  } else {
    acc[0] += g[0] * q[0];
    acc[0] += g[1] * q[1];
    acc[1] += g[1] * q[0];
    acc[1] -= g[0] * q[1];
  }
}

// One station's terms of one source as a lane holds them: Jones reals, smearing sin/cos.
template <class M>
struct LaneTerms {
  typename M::Real v[M::jones_rows];
  // sin, cos of the bandwidth term; sin, cos of the time term; the bandwidth and time
  // arguments x (station_args)
  typename M::Real sm[6];
};

template <class M>
__device__ __forceinline__ LaneTerms<M> load_terms(const typename M::Real* row) {
  using T = typename M::Real;
  LaneTerms<M> t;
#pragma unroll
  for (int k = 0; k < M::jones_rows; ++k) t.v[k] = row[k * kTileSources];
#pragma unroll
  for (int k = 0; k < 6; ++k) t.sm[k] = T(0);
  if constexpr (M::bw) {
    t.sm[0] = row[M::bw_row * kTileSources];
    t.sm[1] = row[(M::bw_row + 1) * kTileSources];
    if constexpr (M::station_args) t.sm[4] = row[(M::bw_row + 2) * kTileSources];
  }
  if constexpr (M::time) {
    t.sm[2] = row[M::time_row * kTileSources];
    t.sm[3] = row[(M::time_row + 1) * kTileSources];
    if constexpr (M::station_args) t.sm[5] = row[(M::time_row + 2) * kTileSources];
  }
  return t;
}

// One warp, one stage: its tile_p x tile_q baselines, one source per lane. The q side is loaded
// once per source; the p side once per source too when it is small (Scalar: preload_p), else
// once per baseline (Full: fewer live registers).
template <class M>
__device__ __forceinline__ void warp_tile(
    const typename M::Real* stage, const Quad<typename M::Real>* consts, int wp, int wq, int lane,
    typename M::Real (&acc)[M::tile_p][M::tile_q][M::jones_rows]) {
  using T = typename M::Real;
  constexpr int kRow = M::station_rows * kTileSources;  // one station's rows in a stage
  const T* P = stage + lane + wp * M::tile_p * kRow;
  const T* Q = stage + lane + (M::block_p + wq * M::tile_q) * kRow;
  const T* R = stage + lane + (M::block_p + M::block_q) * kRow;
  T src[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};  // l, m, n - 1, a, b, c
  if constexpr (M::source_lmn) {
#pragma unroll
    for (int k = 0; k < 3; ++k) src[k] = R[k * kTileSources];
  }
  if constexpr (M::gauss) {
#pragma unroll
    for (int k = 0; k < 3; ++k) src[3 + k] = R[(M::gauss_row + k) * kTileSources];
  }
  constexpr bool kPreload = !M::full;
  LaneTerms<M> pre[kPreload ? M::tile_p : 1];
  if constexpr (kPreload) {
#pragma unroll
    for (int i = 0; i < M::tile_p; ++i) pre[i] = load_terms<M>(P + i * kRow);
  }
#pragma unroll
  for (int j = 0; j < M::tile_q; ++j) {
    const LaneTerms<M> qt = load_terms<M>(Q + j * kRow);
#pragma unroll
    for (int i = 0; i < M::tile_p; ++i) {
      LaneTerms<M> pt;
      if constexpr (kPreload)
        pt = pre[i];
      else
        pt = load_terms<M>(P + i * kRow);
      T f = T(1);
      if constexpr (M::factor) {
        const int k = (wp * M::tile_p + i) * M::block_q + wq * M::tile_q + j;
        f = source_factor<M>(consts + k * M::num_consts, src, pt.sm, qt.sm);
      }
      accumulate<M>(acc[i][j], pt.v, qt.v, f);
    }
  }
}

template <class M>
__global__ void __launch_bounds__(M::threads, M::min_blocks)
    cross_kernel(const CrossArgs<typename M::Real> a) {
  using T = typename M::Real;
  T* stages = reinterpret_cast<T*>(dynamic_shared());
  Quad<T>* consts = reinterpret_cast<Quad<T>*>(stages + kStages * M::stage_reals);
  const T** rows = reinterpret_cast<const T**>(consts + M::num_consts * M::block_baselines);
  int* flags = reinterpret_cast<int*>(rows + M::stage_rows);

  const BlockTile bt = block_tile(blockIdx.x, a.num_stations, M::block_p, M::block_q);
  for (int r = threadIdx.x; r < M::stage_rows; r += M::threads)
    rows[r] = stage_row_source<M>(a, bt, r);
  for (int k = threadIdx.x; k < M::block_baselines; k += M::threads)
    baseline_constants<M>(a, bt.p0 + k / M::block_q, bt.q0 + k % M::block_q,
                          consts + k * M::num_consts, flags + k);
  __syncthreads();

  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const int wp = warp / M::warps_q, wq = warp % M::warps_q;
  bool active = false;
#pragma unroll
  for (int i = 0; i < M::tile_p; ++i)
#pragma unroll
    for (int j = 0; j < M::tile_q; ++j)
      active = active || flags[(wp * M::tile_p + i) * M::block_q + wq * M::tile_q + j] != 0;

  T acc[M::tile_p][M::tile_q][M::jones_rows];
#pragma unroll
  for (int i = 0; i < M::tile_p; ++i)
#pragma unroll
    for (int j = 0; j < M::tile_q; ++j)
#pragma unroll
      for (int k = 0; k < M::jones_rows; ++k) acc[i][j][k] = T(0);

  // Double-buffered pipeline: the copies of tile t + 1 fly while tile t is summed.
  stage_tile<M>(rows, stages, 0);
  copy_async_commit();
  for (int t = 0; t < a.num_tiles; ++t) {
    if (t + 1 < a.num_tiles)
      stage_tile<M>(rows, stages + ((t + 1) % kStages) * M::stage_reals,
                    static_cast<std::size_t>(t + 1) * kTileSources);
    copy_async_commit();
    copy_async_wait<kStages - 1>();
    __syncthreads();
    if (active) warp_tile<M>(stages + (t % kStages) * M::stage_reals, consts, wp, wq, lane, acc);
    __syncthreads();
  }

  // Warp sums; lane (i tile_q + j) adds baseline (i, j) into the output.
  const int n = a.num_stations;
#pragma unroll
  for (int i = 0; i < M::tile_p; ++i) {
#pragma unroll
    for (int j = 0; j < M::tile_q; ++j) {
      const int ps = wp * M::tile_p + i, qs = wq * M::tile_q + j;
      T sum[M::jones_rows];
#pragma unroll
      for (int k = 0; k < M::jones_rows; ++k) sum[k] = active ? warp_sum(acc[i][j][k]) : T(0);
      if (lane == (i * M::tile_q + j) % kWarpSize && flags[ps * M::block_q + qs]) {
        const int p = bt.p0 + ps, q = bt.q0 + qs;
        Complex<T>* out = a.cross + baseline_index(p, q, n) * (M::jones_rows / 2);
#pragma unroll
        for (int k = 0; k < M::jones_rows / 2; ++k)
          out[k] += Complex<T>{sum[2 * k], sum[2 * k + 1]};
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Auto-correlations A_p += sum_s J B J^H (K cancels; no smearing, no Gaussian factor).
template <typename T>
struct AutoArgs {
  const T* stokes_i;
  const T* stokes_q;
  const T* stokes_u;
  const T* stokes_v;
  const Jones<T>* jones;
  const Complex<T>* jones_scalar;
  std::size_t num_sources;
  Complex<T>* autos;
};

constexpr int kAutoThreads = 256;

template <typename T, bool kFull>
__global__ void __launch_bounds__(kAutoThreads) autos_kernel(const AutoArgs<T> a) {
  constexpr int kReals = kFull ? 8 : 1;
  __shared__ T partial[kAutoThreads / kWarpSize][kReals];
  const std::size_t p = blockIdx.x;
  const std::size_t S = a.num_sources;
  T acc[kReals];
#pragma unroll
  for (int k = 0; k < kReals; ++k) acc[k] = T(0);
  for (std::size_t s = threadIdx.x; s < S; s += kAutoThreads) {
    if constexpr (kFull) {
      const Jones<T> j = a.jones ? a.jones[p * S + s] : jones_identity<T>();
      const T q = a.stokes_q ? a.stokes_q[s] : T(0);
      const T u = a.stokes_u ? a.stokes_u[s] : T(0);
      const T v = a.stokes_v ? a.stokes_v[s] : T(0);
      const Jones<T> t = jones_mul_h(jones_times_brightness(j, a.stokes_i[s], q, u, v), j);
      const T tv[8] = {t.a.re, t.a.im, t.b.re, t.b.im, t.c.re, t.c.im, t.d.re, t.d.im};
#pragma unroll
      for (int k = 0; k < 8; ++k) acc[k] += tv[k];
    } else {
      const T g = a.jones_scalar ? abs2(a.jones_scalar[p * S + s]) : T(1);
      acc[0] += g * a.stokes_i[s];
    }
  }
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
#pragma unroll
  for (int k = 0; k < kReals; ++k) acc[k] = warp_sum(acc[k]);
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < kReals; ++k) partial[warp][k] = acc[k];
  }
  __syncthreads();
  if (threadIdx.x < kReals) {
    T total = T(0);
    for (int w = 0; w < kAutoThreads / kWarpSize; ++w) total += partial[w][threadIdx.x];
    if constexpr (kFull) {
      Complex<T>& z = a.autos[4 * p + threadIdx.x / 2];  // reals a.re a.im b.re ... d.im
      (threadIdx.x % 2 == 0 ? z.re : z.im) += total;
    } else {
      a.autos[p].re += total;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Host side: the argument blocks of one run, built from a PredictInput whose arrays are on the
// device and a scratch buffer laid out by scratch_layout (shared by predict_cuda.cu and the
// host emulation of the tests, so both launch the kernels with the same arguments).
template <class M>
struct RunPlan {
  using T = typename M::Real;
  int num_stations = 0;
  long long block_tiles = 0;  // blocks of cross_kernel
  TimeArgs time{};
  TermsArgs<T> terms{};
  CrossArgs<T> cross{};

  // Points the terms and cross arguments at sources [begin, begin + count) (one chunk).
  void set_chunk(std::size_t begin, std::size_t count) {
    terms.begin = begin;
    terms.count = count;
    terms.fill = align_up(count, kTileSources);
    cross.num_tiles = static_cast<int>(terms.fill / kTileSources);
  }
};

template <class M>
RunPlan<M> make_run_plan(const PredictInput<typename M::Real>& in,
                         Complex<typename M::Real>* cross_out, unsigned char* scratch,
                         std::size_t capacity) {
  using T = typename M::Real;
  const auto& src = in.sources;
  const auto& sta = in.stations;
  const ScratchLayout lay = scratch_layout<M>(sta.count, capacity);
  double* tcoef = reinterpret_cast<double*>(scratch + lay.tcoef_offset);
  T* station_rows = reinterpret_cast<T*>(scratch + lay.station_offset);
  T* p_rows = reinterpret_cast<T*>(scratch + lay.p_offset);
  T* source_rows = reinterpret_cast<T*>(scratch + lay.source_offset);
  const double inv_lambda = in.frequency_hz / kSpeedOfLight;
  const double bw_scale = bandwidth_smearing_scale(in.channel_bandwidth_hz, in.frequency_hz);
  RunPlan<M> r;
  r.num_stations = static_cast<int>(sta.count);
  r.block_tiles = num_block_tiles(r.num_stations, M::block_p, M::block_q);
  const TimeSmearing& ts = in.time_smearing;
  r.time = {ts.station_x, ts.station_y, ts.gast - ts.ra0, ts.dec0,
            ts.tau_s,     inv_lambda,   r.num_stations,   tcoef};
  TermsArgs<T>& t = r.terms;
  t.stokes_i = src.stokes_i;
  t.stokes_q = src.stokes_q;
  t.stokes_u = src.stokes_u;
  t.stokes_v = src.stokes_v;
  t.l = src.l;
  t.m = src.m;
  t.n = src.n;
  t.gauss_a = src.gauss_a;
  t.gauss_b = src.gauss_b;
  t.gauss_c = src.gauss_c;
  t.u = sta.u;
  t.v = sta.v;
  t.w = sta.w;
  t.jones = sta.jones;
  t.jones_scalar = sta.jones_scalar;
  t.tcoef = tcoef;
  t.num_sources = src.count;
  t.capacity = capacity;
  t.num_stations = r.num_stations;
  t.station_offset = 0;
  t.inv_lambda = inv_lambda;
  t.bw_scale = bw_scale;
  t.station_rows = station_rows;
  t.p_rows = p_rows;
  t.source_rows = source_rows;
  CrossArgs<T>& c = r.cross;
  c.station_rows = station_rows;
  c.p_rows = p_rows;
  c.source_rows = source_rows;
  c.capacity = capacity;
  c.num_stations = r.num_stations;
  c.u = sta.u;
  c.v = sta.v;
  c.w = sta.w;
  c.tcoef = tcoef;
  c.inv_lambda = inv_lambda;
  c.uv_scale = in.uv_filter.in_wavelengths ? inv_lambda : 1.0;
  c.uv_min = in.uv_filter.min;
  c.uv_max = in.uv_filter.max;
  c.two_pi_bw = static_cast<T>(kTwoPi * bw_scale);
  c.cross = cross_out;
  return r;
}

template <typename T>
AutoArgs<T> make_auto_args(const PredictInput<T>& in, Complex<T>* autos) {
  const auto& s = in.sources;
  return {
      s.stokes_i, s.stokes_q, s.stokes_u, s.stokes_v, in.stations.jones, in.stations.jones_scalar,
      s.count,    autos};
}

}  // namespace emulated / device
}  // namespace fringe::predict::cuda_detail
