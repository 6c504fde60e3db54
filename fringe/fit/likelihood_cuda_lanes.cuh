// The lanes kernel of the CUDA likelihood (likelihood_cuda.cu; design in docs/gpu_likelihood.md,
// "Lanes kernel"): equally spaced channels, no smearing, at least kMinLaneGroups groups.
//
// Eight lanes per row: lane j of a row handles group j of each round of kLanes groups of G
// channels (kLanes G channels a round). Per round and batch of kLanes sources, lane j is the
// owner of source j: it evaluates the source's c_s once in double at the round's first channel
// and carries it across the round's kLanes groups in double (carry_seeds,
// likelihood_cuda_math.h), writing each group's seed (c_s, step R) to shared memory; every lane
// then reads the seeds of its own group for the batch's sources and runs the float recurrence
// of the existing kernel along its G channels. The direct seed (double sincos, exponentials)
// is paid once per (row, source, round) instead of once per (row, source, group).
//
// The rest is the fused kernel's (likelihood_cuda_kernels.cuh): forward sums, residual, chi2,
// gain gradient (summed over the row's lanes by a fixed butterfly), source gradient (warp
// butterflies, warps in order), fixed-order per-block partials: no atomics, and the blocks of
// a set do not depend on K.
#pragma once

#include <type_traits>

#include "fringe/fit/likelihood_cuda_kernels.cuh"

namespace fringe::fit::cuda_detail {

constexpr int kLanes = 8;  // lanes per row = groups per round = sources per batch
constexpr int kLaneRows = kThreads / kLanes;  // rows per block
constexpr int kWarpRows = 32 / kLanes;        // rows per warp
constexpr int kMinLaneGroups = 6;             // fewer groups: the one-thread-per-row kernel

// Channels per group of the lanes kernel: as group_size, but 8 for one product in double (the
// seed buffer of 16 would not fit the 48 KiB of static shared memory).
template <typename T, bool Full>
constexpr int lane_group_size() {
  if constexpr (sizeof(T) == sizeof(float)) return 8;
  return Full ? 4 : 8;
}

// SourceTerm padded to 136 bytes: the owners' reads of 8 different terms hit different banks.
struct PaddedTerm {
  SourceTerm t;
  double pad;
};

template <typename T, bool Full>
struct LaneShared {
  static constexpr int G = lane_group_size<T, Full>();
  static constexpr int NS = Acc<T, Full>::kStokes;
  // Per group of the round, padded by one value: the 8 lanes of a row read the same source at
  // 8 different groups, which then fall into different banks (one 4- or 8-byte load per
  // source-visibility; the Stokes values are per source, a broadcast).
  static constexpr int kSpecStride = G * kLanes + 1;
  // ln(f / f0) per channel and source staged in T for float (the gradient's per-term inputs in
  // T); double reads ln f (the 48 KiB of static shared memory would not hold both).
  static constexpr bool kStageLnr = sizeof(T) == sizeof(float);
  PaddedTerm terms[kLanes];
  alignas(16) T stokes[kLanes][4];  // (I + Q, I - Q, U, V) or I at f0, per source
  T spec[kLanes][kSpecStride];      // (f / f0)^alpha, [group][(channel, source)]
  T lnr[kStageLnr ? kLanes : 1][kStageLnr ? kSpecStride : 1];
  double ln_f[kLanes][G + 1];
  // [warp][row][source][group ^ source] (the xor: conflict-free writes by the owners and reads).
  GroupSeed<T> seed[kWarps][kWarpRows][kLanes][kLanes];
  T ratio_m1[kWarps][kWarpRows][kLanes];
  double grad[kWarps][kLanes][kNumInter];
  double red[kWarps];
};

// Stages source batch `batch` (kLanes sources) for the round starting at channel rk0. Call
// between two __syncthreads().
template <typename T, bool Full>
__device__ void stage_batch(LaneShared<T, Full>& sh, const SourceTerm* terms, int num_sources,
                            int batch, int rk0, const KernelArgs<T>& a) {
  using Sh = LaneShared<T, Full>;
  constexpr int G = Sh::G, C = kLanes * G;
  const int base = batch * kLanes;
  const int ns = min(kLanes, num_sources - base);
  const int t = threadIdx.x;
  if (t < ns) {
    const SourceTerm& s = terms[base + t];
    sh.terms[t].t = s;
    if constexpr (Full) {
      sh.stokes[t][0] = T(s.i + s.q);
      sh.stokes[t][1] = T(s.i - s.q);
      sh.stokes[t][2] = T(s.u);
      sh.stokes[t][3] = T(s.v);
    } else {
      sh.stokes[t][0] = T(s.i);
    }
  }
  if (t < C) sh.ln_f[t / G][t % G] = a.ln_f[min(rk0 + t, a.channels - 1)];
  for (int i = t; i < C * kLanes; i += kThreads) {
    const int c = i / kLanes, si = i % kLanes;
    const int gr = c / G, jj = c % G;
    T sp = T(0), lnr = T(0);
    if (si < ns && rk0 + c < a.channels) {
      const SourceTerm& s = terms[base + si];
      const double ln_ratio = log_frequency_ratio(s, a.ln_f[rk0 + c]);
      lnr = T(ln_ratio);
      sp = detail::hd_exp(T(s.alpha * ln_ratio));
    }
    sh.spec[gr][jj * kLanes + si] = sp;
    if constexpr (Sh::kStageLnr) sh.lnr[gr][jj * kLanes + si] = lnr;
  }
}

// Mode::Grad serves chi2-only calls too (want_src = want_gain = 0): one instantiation, so the
// chi2 of a chi2-only call is bit for bit that of a gradient call (ptxas chooses which multiply
// and add to fuse per kernel: two instantiations of the same source rounded differently on the
// H200, BatchEqualsSingleCalls). 3 blocks per SM (168 registers): the float gradient then
// spills 56 bytes (4 blocks: 1 KiB), the forward pass keeps 12 warps per SM.
template <typename T, bool Full, bool HasJones, Mode M>
__global__ void __launch_bounds__(kThreads, 3) likelihood_lanes_kernel(KernelArgs<T> a) {
  static_assert(M != Mode::Chi2, "chi2-only calls run the Mode::Grad instantiation");
  using Sh = LaneShared<T, Full>;
  constexpr int G = Sh::G, C = kLanes * G;
  using AccT = typename Acc<T, Full>::type;
  __shared__ Sh sh;

  const int k = blockIdx.z;
  const int nsrc = a.sources;
  const SourceTerm* terms = a.terms + std::size_t(k) * nsrc;
  const Complex<T>* gains = a.gains ? a.gains + std::size_t(k) * 2 * a.stations : nullptr;
  const int num_row_tiles = (a.rows + kLaneRows - 1) / kLaneRows;
  const int num_rounds = (a.channels + C - 1) / C;
  const int num_batches = (nsrc + kLanes - 1) / kLanes;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int gl = lane % kLanes;  // the lane's group in a round, and the source it owns
  const int wr = lane / kLanes;  // the lane's row in the warp
  const std::size_t jstride = std::size_t(a.stations) * nsrc;
  const double dil = a.d_inv_lambda;
  double chi = 0.0;

  for (int rt = blockIdx.x; rt < num_row_tiles; rt += gridDim.x) {
    const int row_raw = rt * kLaneRows + int(threadIdx.x) / kLanes;
    const bool valid = row_raw < a.rows;
    const int r = valid ? row_raw : a.rows - 1;  // idle rows compute a copy, weight 0
    const int p = a.a1[r], q = a.a2[r];
    const double uu = a.u[r], vv = a.v[r], ww = a.w[r];
    Complex<T> gpx{T(1), T(0)}, gpy{T(1), T(0)}, gqx{T(1), T(0)}, gqy{T(1), T(0)};
    if (gains) {
      gpx = gains[2 * p];
      gpy = gains[2 * p + 1];
      gqx = gains[2 * q];
      gqy = gains[2 * q + 1];
    }
    double ggp[4] = {0, 0, 0, 0}, ggq[4] = {0, 0, 0, 0};

    for (int rd = 0; rd < num_rounds; ++rd) {
      const int rk0 = rd * C;
      const int k0 = rk0 + gl * G;             // the lane's first channel
      const int nj = min(G, a.channels - k0);  // <= 0: an idle lane in the last round
      const double il0 = a.inv_lambda[rk0];
      std::size_t jbase_p = 0, jbase_q = 0;
      if constexpr (HasJones) {
        const std::size_t base =
            (std::size_t(a.tidx[r]) * a.channels + std::size_t(max(min(k0, a.channels - 1), 0))) *
            jstride;
        jbase_p = base + std::size_t(p) * nsrc;
        jbase_q = base + std::size_t(q) * nsrc;
      }
      GroupSeed<T>* my_seeds = &sh.seed[warp][wr][gl][0];
      AccT acc[G];
#pragma unroll
      for (int j = 0; j < G; ++j) acc_zero(acc[j]);

      for (int b = 0; b < num_batches; ++b) {
        __syncthreads();
        stage_batch<T, Full>(sh, terms, nsrc, b, rk0, a);
        __syncthreads();
        const int ns = min(kLanes, nsrc - b * kLanes);
        if (gl < ns) {
          sh.ratio_m1[warp][wr][gl] =
              carry_seeds<T, G, kLanes>(sh.terms[gl].t, uu, vv, ww, il0, dil, my_seeds, gl);
        }
        __syncwarp();
        const std::size_t so = std::size_t(b) * kLanes;
        for (int si = 0; si < ns; ++si) {
          const GroupSeed<T> sd = sh.seed[warp][wr][si][gl ^ si];
          const T ratio_m1 = sh.ratio_m1[warp][wr][si];
          Complex<T> c = sd.c, step = sd.step;
          const T* sp = &sh.spec[gl][si];
          T st[4];
          if constexpr (Full) {
            load4(&sh.stokes[si][0], st);
          } else {
            st[0] = sh.stokes[si][0];
          }
          // Point sources (q - 1 = 0, the step constant: the same numbers) skip the step's update.
          const auto walk = [&](auto advance) {
#pragma unroll
            for (int j = 0; j < G; ++j) {
              if (j < nj) {
                if constexpr (!HasJones) {
                  const Complex<T> cs = c * sp[j * kLanes];
                  if constexpr (Full) {
                    acc[j].a += cs * st[0];
                    acc[j].d += cs * st[1];
                    acc[j].b += cs * st[2];
                    acc[j].c += cs * st[3];
                  } else {
                    acc[j] += cs * st[0];
                  }
                } else {
                  const SourceTerm& s = sh.terms[si].t;
                  const Complex<T> coef = c * sh.spec[gl][j * kLanes + si];
                  const std::size_t off = std::size_t(j) * jstride + so + si;
                  if constexpr (Full) {
                    const Jones<T> jp = a.jones4[jbase_p + off], jq = a.jones4[jbase_q + off];
                    acc[j] += jones_mul_h(predict::jones_times_brightness(jp, T(s.i), T(s.q),
                                                                          T(s.u), T(s.v)),
                                          jq) *
                              coef;
                  } else {
                    acc[j] +=
                        coef * T(s.i) * a.jones1[jbase_p + off] * conj(a.jones1[jbase_q + off]);
                  }
                }
                c = c * step;
                if constexpr (decltype(advance)::value) step = advance_step(step, ratio_m1);
              }
            }
          };
          if (ratio_m1 == T(0)) {
            walk(std::false_type{});
          } else {
            walk(std::true_type{});
          }
        }
      }

      // Model, residual, chi2, gain gradient; Y into acc (as likelihood_kernel).
#pragma unroll
      for (int j = 0; j < G; ++j) {
        if (j >= nj) continue;
        const std::size_t kc = std::size_t(k0 + j);
        if constexpr (Full) {
          Jones<T> sum = acc[j];
          if constexpr (!HasJones) {
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
          const bool first = rt == int(blockIdx.x) && rd == 0;
          // 2 pi f / c0 and (U, V) in wavelengths along the lane's channels: x0 + j dx in T.
          const double il_k0 = a.inv_lambda[max(min(k0, a.channels - 1), 0)];
          const T k_0 = T(kTwoPi * il_k0), k_d = T(kTwoPi * dil);
          const T ul_0 = T(uu * il_k0), ul_d = T(uu * dil);
          const T vl_0 = T(vv * il_k0), vl_d = T(vv * dil);
          // Without Jones the Y sums of the gradient are the same for every source: taken once.
          if constexpr (!HasJones) {
#pragma unroll
            for (int j = 0; j < G; ++j) {
              if constexpr (Full) {
                acc[j] = gradient_ysum(acc[j]);
              } else {
                acc[j] = conj(acc[j]);
              }
            }
          }
          for (int b = 0; b < num_batches; ++b) {
            __syncthreads();
            stage_batch<T, Full>(sh, terms, nsrc, b, rk0, a);
            __syncthreads();
            const int ns = min(kLanes, nsrc - b * kLanes);
            if (gl < ns) {
              sh.ratio_m1[warp][wr][gl] =
                  carry_seeds<T, G, kLanes>(sh.terms[gl].t, uu, vv, ww, il0, dil, my_seeds, gl);
            }
            __syncwarp();
            const std::size_t so = std::size_t(b) * kLanes;
            for (int si = 0; si < ns; ++si) {
              const SourceTerm& s = sh.terms[si].t;
              const GroupSeed<T> sd = sh.seed[warp][wr][si][gl ^ si];
              const T ratio_m1 = sh.ratio_m1[warp][wr][si];
              Complex<T> c = sd.c, step = sd.step;
              const T dl = T(uu - ww * s.l_over_n), dm = T(vv - ww * s.m_over_n);
              const StokesT<T> bs{T(s.i), T(s.q), T(s.u), T(s.v)};
              GradientMoments<T> mom;
#pragma unroll
              for (int j = 0; j < G; ++j) {
                if (j < nj) {
                  const Complex<T> coef = c * sh.spec[gl][j * kLanes + si];
                  T ln_ratio;
                  if constexpr (Sh::kStageLnr) {
                    ln_ratio = sh.lnr[gl][j * kLanes + si];
                  } else {
                    ln_ratio = T(log_frequency_ratio(s, sh.ln_f[gl][j]));
                  }
                  if constexpr (Full) {
                    Jones<T> ys = acc[j];
                    if constexpr (HasJones) {
                      const std::size_t off = std::size_t(j) * jstride + so + si;
                      ys = gradient_ysum(jones_h(a.jones4[jbase_p + off]) * acc[j] *
                                         a.jones4[jbase_q + off]);
                    }
                    mom.add(j, coef, ys, bs, ln_ratio);
                  } else {
                    Complex<T> ys = acc[j];
                    if constexpr (HasJones) {
                      const std::size_t off = std::size_t(j) * jstride + so + si;
                      ys = conj(conj(a.jones1[jbase_p + off]) * acc[j] * a.jones1[jbase_q + off]);
                    }
                    mom.add(j, coef, ys, bs.i, ln_ratio);
                  }
                  c = c * step;
                  step = advance_step(step, ratio_m1);
                }
              }
              T g[kNumInter];
              mom.finish(g, dl, dm, k_0, k_d, ul_0, ul_d, vl_0, vl_d);
#pragma unroll
              for (int i = 0; i < kNumInter; ++i) {
                const double v = warp_sum(double(g[i]));
                if (lane == 0) sh.grad[warp][si][i] = v;
              }
            }
            __syncthreads();
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
      if (a.want_gain) {
        // The row's kLanes lanes, a fixed butterfly (every lane ends with the same sums).
#pragma unroll
        for (int off = kLanes / 2; off > 0; off >>= 1) {
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            ggp[i] += __shfl_xor_sync(0xffffffffu, ggp[i], off);
            ggq[i] += __shfl_xor_sync(0xffffffffu, ggq[i], off);
          }
        }
        if (valid && gl == 0) {
          double* out = a.row_gain + (std::size_t(k) * a.rows + r) * 8;
          for (int i = 0; i < 4; ++i) {
            out[i] = ggp[i];
            out[4 + i] = ggq[i];
          }
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

}  // namespace fringe::fit::cuda_detail
