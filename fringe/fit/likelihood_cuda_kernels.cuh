// Kernels of the CUDA likelihood (likelihood_cuda.cu; design in docs/gpu_likelihood.md).
//
// likelihood_kernel: one thread per row (baseline and time), a block of kThreads rows; the
// thread walks its channels in groups of G (group_size), and for each group:
//   1. forward: for every source (tiles of kTileSources staged in shared memory, read as
//      broadcasts), c_s at the group's first channel directly, then stepped along the group by
//      the recurrence of likelihood_cuda_math.h (equally spaced channels; otherwise each
//      channel directly), accumulating S = sum_s c_s B_s (without Jones: 4 complex sums
//      c (I + Q), c (I - Q), c U, c V with the spectral factor folded into the Stokes values);
//   2. M = G_p S G_q^H, chi2 += w |M - D|^2 (double), R = w (M - D); gain gradient per row
//      (double, add_gain_gradient); Y = G_p^H R G_q replaces S in registers;
//   3. gradient (Mode::Grad): a second walk over the sources, c_s recomputed the same way,
//      add_source_gradient per channel (float sums over the group's G channels), a warp
//      butterfly in double, the 4 warps summed in fixed order into the block's partial.
// Every sum is in a fixed order (no atomics): chi2 and gradients are per-block partials that
// the host (chi2) or reduce kernels (gradients) sum in block order.
#pragma once

#include <cuda_runtime.h>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/fit/likelihood_cuda_math.h"
#include "fringe/fit/likelihood_math.h"
#include "fringe/predict/predict_math.h"

namespace fringe::fit::cuda_detail {

constexpr int kThreads = 128;  // rows per block
constexpr int kWarps = kThreads / 32;
constexpr int kTileSources = 32;  // sources staged in shared memory at a time

enum class Mode : int { Chi2 = 0, Grad = 1, Model = 2 };

// Channels per thread group: the accumulators of a group live in registers (Full: 4 complex
// per channel, 64 registers for 8 float or 4 double channels). Float groups stop at 8: the
// float recurrence's error grows ~1.5e-7 per channel (RecurrenceStaysAccurate: < 2e-6 of
// |c_s| over 8 channels, 6e-6 over 16).
template <typename T, bool Full>
constexpr int group_size() {
  if constexpr (sizeof(T) == sizeof(float)) return 8;
  return Full ? 4 : 16;
}

template <typename T>
struct KernelArgs {
  // Data, [row] (uvw in metres) and [channel][row][pol] (vis, weight: coalesced over rows).
  const double *u, *v, *w;
  const int *a1, *a2, *tidx;
  const double *inv_lambda, *ln_f;  // [channel]: f / c0 (1/m), ln(f / Hz)
  const double* freq;               // [channel], Hz
  double bandwidth;                 // channel bandwidth (Hz) of bandwidth smearing, 0: off
  const double* time_smearing;      // [row][3] (ObservedData::time_smearing) or null: off
  const Complex<T>* vis;
  const T* wgt;
  const Jones<T>* jones4;    // [time][channel][station][source] or null
  const Complex<T>* jones1;  // the same for one product, or null
  int rows, channels, stations, sources;
  double d_inv_lambda;  // channel spacing / c0 (1/m)
  // Parameters, [k][source] and [k][station][2] (null: unit gains).
  const SourceTerm* terms;
  const Complex<T>* gains;
  // Outputs.
  double* chi_part;   // [k][gridDim.x]
  double* src_part;   // [k][gridDim.x][source][kNumInter]
  double* row_gain;   // [k][row][8]: d/d (Re, Im) g_pX, g_pY, then g_qX, g_qY
  Complex<T>* model;  // [row][channel][pol] (Mode::Model)
  int want_src, want_gain;
};

template <typename T, bool Full>
struct Acc;
template <typename T>
struct Acc<T, true> {
  using type = Jones<T>;
  static constexpr int kStokes = 4;
};
template <typename T>
struct Acc<T, false> {
  using type = Complex<T>;
  static constexpr int kStokes = 1;
};

template <typename T>
__device__ __forceinline__ void acc_zero(Jones<T>& a) {
  a = jones_zero<T>();
}
template <typename T>
__device__ __forceinline__ void acc_zero(Complex<T>& a) {
  a = {T(0), T(0)};
}

// Per-block shared state.
template <typename T, bool Full>
struct Shared {
  static constexpr int G = group_size<T, Full>();
  static constexpr int NS = Acc<T, Full>::kStokes;
  SourceTerm terms[kTileSources];
  T spec[G][kTileSources];                    // (f / f0)^alpha
  alignas(16) T stokes[G][kTileSources][NS];  // (I + Q, I - Q, U, V) spec, or I spec
  double inv_lambda[G], ln_f[G], freq[G];     // the group's channels
  double grad[kWarps][kTileSources][kNumInter];
  double red[kWarps];
};

// The 4 Stokes values of a Full entry in one (float) or two (double) 16-byte shared loads.
__device__ __forceinline__ void load4(const float* p, float* v) {
  const float4 x = *reinterpret_cast<const float4*>(p);
  v[0] = x.x;
  v[1] = x.y;
  v[2] = x.z;
  v[3] = x.w;
}
__device__ __forceinline__ void load4(const double* p, double* v) {
  const double2 x = reinterpret_cast<const double2*>(p)[0],
                y = reinterpret_cast<const double2*>(p)[1];
  v[0] = x.x;
  v[1] = x.y;
  v[2] = y.x;
  v[3] = y.y;
}

// Stages source tile `tile` (sources [tile * kTileSources, ...)) for the group starting at
// channel k0 with nj channels. Call between two __syncthreads().
template <typename T, bool Full>
__device__ void stage_tile(Shared<T, Full>& sh, const SourceTerm* terms, int num_sources, int tile,
                           int k0, int nj, const KernelArgs<T>& a) {
  constexpr int G = Shared<T, Full>::G;
  const int base = tile * kTileSources;
  const int ns = min(kTileSources, num_sources - base);
  const int t = threadIdx.x;
  if (t < ns) sh.terms[t] = terms[base + t];
  if (t < G) {
    const int k = min(k0 + t, a.channels - 1);
    sh.inv_lambda[t] = a.inv_lambda[k];
    sh.ln_f[t] = a.ln_f[k];
    sh.freq[t] = a.freq[k];
  }
  for (int i = t; i < G * kTileSources; i += kThreads) {
    const int j = i / kTileSources, si = i % kTileSources;
    T sp = T(0);
    T st[4] = {T(0), T(0), T(0), T(0)};
    if (si < ns && j < nj) {
      const SourceTerm& s = terms[base + si];
      const double ln_ratio = log_frequency_ratio(s, a.ln_f[k0 + j]);
      sp = detail::hd_exp(T(s.alpha * ln_ratio));
      if constexpr (Full) {
        st[0] = T(s.i + s.q) * sp;
        st[1] = T(s.i - s.q) * sp;
        st[2] = T(s.u) * sp;
        st[3] = T(s.v) * sp;
      } else {
        st[0] = T(s.i) * sp;
      }
    }
    sh.spec[j][si] = sp;
    for (int c = 0; c < Shared<T, Full>::NS; ++c) sh.stokes[j][si][c] = st[c];
  }
}

// The smearing factor (likelihood_math.h, smearing_factor) of source s at channel j of the
// group, evaluated directly for every channel (time smearing's argument grows with the
// frequency; smearing is an option outside the recurrence's fast path).
template <typename T, bool Full>
__device__ __forceinline__ SmearingFactor smearing_at(const SourceTerm& s, double uu, double vv,
                                                      double ww, const Shared<T, Full>& sh, int j,
                                                      const KernelArgs<T>& a, const double* tc) {
  const double scale =
      a.bandwidth > 0.0 ? predict::bandwidth_smearing_scale(a.bandwidth, sh.freq[j]) : 0.0;
  return smearing_factor(s, uu, vv, ww, sh.inv_lambda[j], scale, tc);
}

// One source's forward contribution to the group's accumulators. tc: the row's time-smearing
// coefficients or null.
template <typename T, bool Full, bool HasJones, bool Uniform>
__device__ __forceinline__ void forward_source(typename Acc<T, Full>::type* acc,
                                               const Shared<T, Full>& sh, int si, int nj, double uu,
                                               double vv, double ww, const KernelArgs<T>& a,
                                               std::size_t jbase_p, std::size_t jbase_q,
                                               std::size_t jstride, const double* tc) {
  constexpr int G = group_size<T, Full>();
  const SourceTerm& s = sh.terms[si];
  const bool smeared = a.bandwidth > 0.0 || tc != nullptr;
  Complex<T> c = source_coefficient_cw<T>(s, uu, vv, ww, sh.inv_lambda[0]);
  Complex<T> step{T(1), T(0)};
  T ratio_m1 = T(0);
  if constexpr (Uniform) {
    coefficient_step<T>(s, uu, vv, ww, sh.inv_lambda[0], a.d_inv_lambda, &step, &ratio_m1);
  }
#pragma unroll
  for (int j = 0; j < G; ++j) {
    if (j < nj) {
      if constexpr (!Uniform) {
        if (j > 0) c = source_coefficient_cw<T>(s, uu, vv, ww, sh.inv_lambda[j]);
      }
      // c stays without smearing (the recurrence); cs = c s_j.
      Complex<T> cs = c;
      if (smeared) cs = c * T(smearing_at(s, uu, vv, ww, sh, j, a, tc).s);
      if constexpr (!HasJones) {
        if constexpr (Full) {
          T st[4];
          load4(&sh.stokes[j][si][0], st);
          acc[j].a += cs * st[0];
          acc[j].d += cs * st[1];
          acc[j].b += cs * st[2];
          acc[j].c += cs * st[3];
        } else {
          acc[j] += cs * sh.stokes[j][si][0];
        }
      } else {
        const Complex<T> coef = cs * sh.spec[j][si];
        const std::size_t off = std::size_t(j) * jstride;
        if constexpr (Full) {
          const Jones<T> jp = a.jones4[jbase_p + off], jq = a.jones4[jbase_q + off];
          acc[j] +=
              jones_mul_h(predict::jones_times_brightness(jp, T(s.i), T(s.q), T(s.u), T(s.v)), jq) *
              coef;
        } else {
          acc[j] += coef * T(s.i) * a.jones1[jbase_p + off] * conj(a.jones1[jbase_q + off]);
        }
      }
      if constexpr (Uniform) {
        c = c * step;
        step = advance_step(step, ratio_m1);
      }
    }
  }
}

// One source's gradient contributions of the group (the thread's channels) into g.
template <typename T, bool Full, bool HasJones, bool Uniform>
__device__ __forceinline__ void gradient_source(T* g, const typename Acc<T, Full>::type* y,
                                                const Shared<T, Full>& sh, int si, int nj,
                                                double uu, double vv, double ww,
                                                const KernelArgs<T>& a, std::size_t jbase_p,
                                                std::size_t jbase_q, std::size_t jstride,
                                                const double* tc) {
  constexpr int G = group_size<T, Full>();
  const SourceTerm& s = sh.terms[si];
  const bool smeared = a.bandwidth > 0.0 || tc != nullptr;
  // c without smearing (coef0 of add_source_gradient_smeared).
  Complex<T> c = source_coefficient_cw<T>(s, uu, vv, ww, sh.inv_lambda[0]);
  Complex<T> step{T(1), T(0)};
  T ratio_m1 = T(0);
  if constexpr (Uniform) {
    coefficient_step<T>(s, uu, vv, ww, sh.inv_lambda[0], a.d_inv_lambda, &step, &ratio_m1);
  }
#pragma unroll
  for (int j = 0; j < G; ++j) {
    if (j < nj) {
      if constexpr (!Uniform) {
        if (j > 0) c = source_coefficient_cw<T>(s, uu, vv, ww, sh.inv_lambda[j]);
      }
      SmearingFactor sm{1.0, 0.0, 0.0};
      if (smeared) sm = smearing_at(s, uu, vv, ww, sh, j, a, tc);
      const Complex<T> coef = c * sh.spec[j][si];
      const double il = sh.inv_lambda[j];
      const double ln_ratio = log_frequency_ratio(s, sh.ln_f[j]);
      if constexpr (Full) {
        Jones<T> ys = y[j];
        if constexpr (HasJones) {
          const std::size_t off = std::size_t(j) * jstride;
          ys = jones_h(a.jones4[jbase_p + off]) * y[j] * a.jones4[jbase_q + off];
        }
        add_source_gradient_smeared<T, T>(g, s, ys, coef, sm, uu, vv, ww, il, ln_ratio);
      } else {
        Complex<T> ys = y[j];
        if constexpr (HasJones) {
          const std::size_t off = std::size_t(j) * jstride;
          ys = conj(a.jones1[jbase_p + off]) * y[j] * a.jones1[jbase_q + off];
        }
        add_source_gradient_scalar_smeared<T, T>(g, s, ys, coef, sm, uu, vv, ww, il, ln_ratio);
      }
      if constexpr (Uniform) {
        c = c * step;
        step = advance_step(step, ratio_m1);
      }
    }
  }
}

__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// Minimum blocks per SM: the kernel is latency-bound, so more resident warps beat the spills
// the register cap costs (H200, Montblanc's case: float chi2 3.38 -> 3.14 ms, double 6.56 ->
// 6.16 ms; benchmarks/RESULTS.md). The gradient keeps more live values: 2 blocks.
template <typename T, bool Full, bool HasJones, bool Uniform, Mode M>
__global__ void __launch_bounds__(kThreads, M == Mode::Grad ? 2 : 4)
    likelihood_kernel(KernelArgs<T> a) {
  constexpr int G = group_size<T, Full>();
  using AccT = typename Acc<T, Full>::type;
  __shared__ Shared<T, Full> sh;

  const int k = blockIdx.z;
  const int nsrc = a.sources;
  const SourceTerm* terms = a.terms + std::size_t(k) * nsrc;
  const Complex<T>* gains = a.gains ? a.gains + std::size_t(k) * 2 * a.stations : nullptr;
  const int num_row_tiles = (a.rows + kThreads - 1) / kThreads;
  const int num_groups = (a.channels + G - 1) / G;
  const int num_src_tiles = (nsrc + kTileSources - 1) / kTileSources;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::size_t jstride = std::size_t(a.stations) * nsrc;  // one channel of the Jones
  double chi = 0.0;

  for (int rt = blockIdx.x; rt < num_row_tiles; rt += gridDim.x) {
    const int row_raw = rt * kThreads + threadIdx.x;
    const bool valid = row_raw < a.rows;
    const int r = valid ? row_raw : a.rows - 1;  // idle threads compute a copy, weight 0
    const int p = a.a1[r], q = a.a2[r];
    const double uu = a.u[r], vv = a.v[r], ww = a.w[r];
    const double* tc = a.time_smearing ? a.time_smearing + 3 * std::size_t(r) : nullptr;
    Complex<T> gpx{T(1), T(0)}, gpy{T(1), T(0)}, gqx{T(1), T(0)}, gqy{T(1), T(0)};
    if (gains) {
      gpx = gains[2 * p];
      gpy = gains[2 * p + 1];
      gqx = gains[2 * q];
      gqy = gains[2 * q + 1];
    }
    double ggp[4] = {0, 0, 0, 0}, ggq[4] = {0, 0, 0, 0};

    for (int gi = 0; gi < num_groups; ++gi) {
      const int k0 = gi * G;
      const int nj = min(G, a.channels - k0);
      // Jones of (time, channel k0, station, source 0); + j jstride per channel.
      std::size_t jbase_p = 0, jbase_q = 0;
      if constexpr (HasJones) {
        const std::size_t base = (std::size_t(a.tidx[r]) * a.channels + k0) * jstride;
        jbase_p = base + std::size_t(p) * nsrc;
        jbase_q = base + std::size_t(q) * nsrc;
      }
      AccT acc[G];
#pragma unroll
      for (int j = 0; j < G; ++j) acc_zero(acc[j]);

      for (int tile = 0; tile < num_src_tiles; ++tile) {
        __syncthreads();
        stage_tile<T, Full>(sh, terms, nsrc, tile, k0, nj, a);
        __syncthreads();
        const int ns = min(kTileSources, nsrc - tile * kTileSources);
        const std::size_t so = std::size_t(tile) * kTileSources;
        for (int si = 0; si < ns; ++si) {
          forward_source<T, Full, HasJones, Uniform>(
              acc, sh, si, nj, uu, vv, ww, a, jbase_p + so + si, jbase_q + so + si, jstride, tc);
        }
      }

      // Model, residual, chi2, gain gradient; Y into acc.
#pragma unroll
      for (int j = 0; j < G; ++j) {
        if (j >= nj) continue;
        const std::size_t kc = std::size_t(k0 + j);
        if constexpr (Full) {
          Jones<T> sum = acc[j];
          if constexpr (!HasJones) {
            // acc = (sum c (I+Q), sum c U, sum c V, sum c (I-Q)); S_b = cU + i cV, S_c = cU - i cV.
            const Complex<T> cu = acc[j].b, cv = acc[j].c;
            sum.b = {cu.re - cv.im, cu.im + cv.re};
            sum.c = {cu.re + cv.im, cu.im - cv.re};
          }
          const Complex<T> mv[4] = {gpx * sum.a * conj(gqx), gpx * sum.b * conj(gqy),
                                    gpy * sum.c * conj(gqx), gpy * sum.d * conj(gqy)};
          if constexpr (M == Mode::Model) {
            if (valid) {
              Complex<T>* out = a.model + (std::size_t(r) * a.channels + kc) * 4;
              for (int pol = 0; pol < 4; ++pol) out[pol] = mv[pol];
            }
          } else {
            const std::size_t vi = (kc * a.rows + r) * 4;
            Complex<T> rv[4];
#pragma unroll
            for (int pol = 0; pol < 4; ++pol) {
              const T wgt = valid ? a.wgt[vi + pol] : T(0);
              const Complex<T> d = mv[pol] - a.vis[vi + pol];
              chi += double(wgt) * (double(d.re) * double(d.re) + double(d.im) * double(d.im));
              rv[pol] = d * wgt;
            }
            if constexpr (M == Mode::Grad) {
              const Jones<T> res{rv[0], rv[1], rv[2], rv[3]};
              if (a.want_gain) add_gain_gradient<T, double>(ggp, ggq, res, sum, gpx, gpy, gqx, gqy);
              acc[j] = Jones<T>{conj(gpx) * res.a * gqx, conj(gpx) * res.b * gqy,
                                conj(gpy) * res.c * gqx, conj(gpy) * res.d * gqy};
            }
          }
        } else {
          const Complex<T> sum = acc[j];
          const Complex<T> m = gpx * sum * conj(gqx);
          if constexpr (M == Mode::Model) {
            if (valid) a.model[std::size_t(r) * a.channels + kc] = m;
          } else {
            const std::size_t vi = kc * a.rows + r;
            const T wgt = valid ? a.wgt[vi] : T(0);
            const Complex<T> d = m - a.vis[vi];
            chi += double(wgt) * (double(d.re) * double(d.re) + double(d.im) * double(d.im));
            const Complex<T> res = d * wgt;
            if constexpr (M == Mode::Grad) {
              if (a.want_gain) add_gain_gradient_scalar<T, double>(ggp, ggq, res, sum, gpx, gqx);
              acc[j] = conj(gpx) * res * gqx;
            }
          }
        }
      }

      if constexpr (M == Mode::Grad) {
        if (a.want_src) {
          const bool first = rt == int(blockIdx.x) && gi == 0;
          for (int tile = 0; tile < num_src_tiles; ++tile) {
            __syncthreads();
            stage_tile<T, Full>(sh, terms, nsrc, tile, k0, nj, a);
            __syncthreads();
            const int ns = min(kTileSources, nsrc - tile * kTileSources);
            const std::size_t so = std::size_t(tile) * kTileSources;
            for (int si = 0; si < ns; ++si) {
              T g[kNumInter];
#pragma unroll
              for (int i = 0; i < kNumInter; ++i) g[i] = T(0);
              gradient_source<T, Full, HasJones, Uniform>(g, acc, sh, si, nj, uu, vv, ww, a,
                                                          jbase_p + so + si, jbase_q + so + si,
                                                          jstride, tc);
#pragma unroll
              for (int i = 0; i < kNumInter; ++i) {
                const double v = warp_sum(double(g[i]));
                if (lane == 0) sh.grad[warp][si][i] = v;
              }
            }
            __syncthreads();
            // The block's partial: 4 warps in order, added to this block's own slot.
            double* part =
                a.src_part + ((std::size_t(k) * gridDim.x + blockIdx.x) * nsrc + so) * kNumInter;
            for (int i = threadIdx.x; i < ns * kNumInter; i += kThreads) {
              const int si = i / kNumInter, c = i % kNumInter;
              double v = sh.grad[0][si][c];
              for (int wi = 1; wi < kWarps; ++wi) v += sh.grad[wi][si][c];
              part[i] = first ? v : part[i] + v;
            }
          }
        }
      }
    }
    if constexpr (M == Mode::Grad) {
      if (a.want_gain && valid) {
        double* out = a.row_gain + (std::size_t(k) * a.rows + r) * 8;
        for (int i = 0; i < 4; ++i) {
          out[i] = ggp[i];
          out[4 + i] = ggq[i];
        }
      }
    }
  }

  if constexpr (M != Mode::Model) {
    const double v = warp_sum(chi);
    __syncthreads();
    if (lane == 0) sh.red[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
      double s = sh.red[0];
      for (int wi = 1; wi < kWarps; ++wi) s += sh.red[wi];
      a.chi_part[std::size_t(k) * gridDim.x + blockIdx.x] = s;
    }
  }
}

// out[k][i] = sum over blocks b (in order) of part[k][b][i], i < n.
__global__ void __launch_bounds__(256)
    reduce_blocks_kernel(const double* part, int num_blocks, int n, double* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = blockIdx.y;
  if (i >= n) return;
  const double* p = part + std::size_t(k) * num_blocks * n + i;
  double s = 0.0;
  for (int b = 0; b < num_blocks; ++b) s += p[std::size_t(b) * n];
  out[std::size_t(k) * n + i] = s;
}

// Gain gradient of station blockIdx.x, set blockIdx.y: the rows of the station (CSR list
// entries = 2 row + side, side 0: the station is p, 1: q) summed by 128 threads in a fixed
// order, then a tree in shared memory.
__global__ void __launch_bounds__(128)
    reduce_gains_kernel(const double* row_gain, int rows, const int* offsets, const int* entries,
                        double* out) {
  __shared__ double sh[4][128];
  const int st = blockIdx.x, k = blockIdx.y, t = threadIdx.x;
  const int num_stations = gridDim.x;
  double v[4] = {0, 0, 0, 0};
  for (int e = offsets[st] + t; e < offsets[st + 1]; e += 128) {
    const int ent = entries[e];
    const double* g = row_gain + (std::size_t(k) * rows + (ent >> 1)) * 8 + 4 * (ent & 1);
    for (int c = 0; c < 4; ++c) v[c] += g[c];
  }
  for (int c = 0; c < 4; ++c) sh[c][t] = v[c];
  __syncthreads();
  for (int h = 64; h > 0; h >>= 1) {
    if (t < h) {
      for (int c = 0; c < 4; ++c) sh[c][t] += sh[c][t + h];
    }
    __syncthreads();
  }
  if (t < 4) out[(std::size_t(k) * num_stations + st) * 4 + t] = sh[t][0];
}

}  // namespace fringe::fit::cuda_detail
