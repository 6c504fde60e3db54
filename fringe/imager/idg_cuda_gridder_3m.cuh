// Gridder kernel variant with three real multiplications per complex multiply-add (the
// "3M" or Gauss form), selected with CudaIdgOptions::gridder_variant (idg_cuda.h). Same
// blocking, staging and results as gridder_kernel (idg_cuda_kernels.cuh) up to rounding.
//
// Why: with the channel recurrence the default inner loop issues 16 FFMA (4 polarisations x
// acc += v z) + 4 for the phasor step z *= exp(i dk_step pb) per visibility-pixel, 20 FP32
// instructions against the 17 the roofline counts. With v = a + i b and z = c + i s,
//   v z = (k1 - k3) + i (k1 + k2),  k1 = c (a + b),  k2 = a (s - c),  k3 = b (c + s)
// (the 3M method, attributed to Gauss; its rounding: Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., ch. 23), where a + b belongs to the visibility (shared by
// a thread's pixels: staged once) and c + s, s - c to the pixel's phasor (shared by the 4
// polarisations). Stepping the phasor of theta + pi/4 instead of theta gives
//   cos(theta + pi/4) = (c - s) / sqrt2,  sin(theta + pi/4) = (c + s) / sqrt2,
// so c + s and s - c come from the stepped phasor for free, and sqrt2 c is one FADD of its two
// parts: per visibility-pixel 4 (step) + 1 (FADD) + 3 NPOL FFMA = 17 FP32 instructions for
// 4 polarisations. Three accumulators per polarisation, S1 = sum c (a + b),
// S2 = sum a cos(theta + pi/4), S3 = sum b sin(theta + pi/4), combine at the end as
//   Re = S1 - sqrt2 S3,  Im = S1 - sqrt2 S2.
// Without the recurrence (uneven channels, double) the sincos of theta + pi/4 gives the same
// two parts: 1 FFMA + sincos + 1 FADD + 3 NPOL FFMA.
// Cost: 12 accumulators per pixel instead of 8 (more registers, fewer pixels per thread or
// fewer blocks per SM) and 12 values staged per visibility instead of 8 (a, b, (a + b) / sqrt2).
// Rounding: each product is formed once and summed as in the 4M form; the final combination
// adds one rounding of S3 (S2) times sqrt2. No cancellation beyond that of the result itself:
// |S1|, |S2|, |S3| <= sum |a| + |b|, the same bound as the 4M accumulators'.
#pragma once

#include "fringe/imager/idg_cuda_kernels.cuh"

namespace fringe::imager::cuda_kernels {

// The single-precision gridder variants (CudaIdgOptions::gridder_variant, idg_cuda.h;
// docs/imager.md, "CUDA kernels"). Double precision always runs gridder_kernel with
// KernelConfig<double>'s blocking.
struct GridderVariant {
  bool g3;         // the 3M form (gridder_3m_kernel), else gridder_kernel
  int ppt;         // pixels per thread
  int min_blocks;  // blocks per SM (__launch_bounds__: registers <= 65536 / (128 min_blocks))
  bool step3;      // 3M only: the phasor step in the 3M form (gauss_step)
  int unroll;      // 3M only: channels per inner-loop iteration (gridder_kernel: 2)
};
inline constexpr GridderVariant kGridderVariants[] = {
    {false, 8, 4, false, 2},  // 0: 4M
    {false, 8, 3, false, 2},  // 1: 4M at 3 blocks per SM
    {true, 8, 3, false, 2},   // 2: 3M
    {true, 4, 4, false, 2},   // 3: 3M, 4 pixels per thread
    {true, 4, 4, true, 2},    // 4: 3 with the 3M phasor step
    {true, 4, 4, true, 4},    // 5: 4 unrolled over 4 channels
};

// Dynamic shared memory of gridder_3m_kernel: as gridder_smem_bytes with GaussVis values.
template <typename T, int NPOL, int PPT>
constexpr std::size_t gridder_3m_smem_bytes() {
  return (kVisCap / NPOL) * sizeof(GaussVis<T, NPOL>) + 2 * kRowCap * sizeof(Vec4<T>) +
         std::size_t(kGridThreads) * PPT * sizeof(Vec4<T>) + kVisCap * sizeof(T);
}

// STEP3: the channel recurrence's phasor step in the 3M form too (gauss_step,
// idg_cuda_kernels.cuh: it reuses the FADD x = c + s, so 16 FP32 instructions per
// visibility-pixel instead of 17); UNROLL: channels per iteration of the inner loop (the loop
// counter, branch and address arithmetic amortised over UNROLL x PPT visibility-pixels).
template <typename T, int NPOL, int PPT, bool REC, int MINB, bool STEP3 = false, int UNROLL = 2>
__global__ void __launch_bounds__(kGridThreads, MINB)
    gridder_3m_kernel(const DevSubgrid* __restrict__ subgrids, const double* __restrict__ uvw,
                      const Complex<T>* __restrict__ vis, const float* __restrict__ weight,
                      const double* __restrict__ freq, int nchan_total, int ns, T width_lm,
                      T dk_step, const T* __restrict__ taper_sign,
                      const Complex<T>* __restrict__ aterms, int aterm_stations,
                      Complex<T>* __restrict__ out) {
  using GV = GaussVis<T, NPOL>;
  constexpr T kSqrt2 = T(1.41421356237309504880);
  constexpr T kInvSqrt2 = T(0.70710678118654752440);
  constexpr T kQuarterPi = T(0.78539816339744830962);
  FRINGE_IMAGER_DYNAMIC_SHARED(smem);
  GV* shv = reinterpret_cast<GV*>(smem);                              // [row][chan]
  Vec4<T>* shrow = reinterpret_cast<Vec4<T>*>(shv + kVisCap / NPOL);  // [row][-A, -B]
  Vec4<T>* shlmn = shrow + 2 * kRowCap;                               // [k][thread]
  T* shdk = reinterpret_cast<T*>(shlmn + kGridThreads * PPT);         // [chan]
  const DevSubgrid s = subgrids[blockIdx.x];
  const int np = ns * ns, nc = static_cast<int>(s.num_channels);
  const int tid = threadIdx.x;
  const int pix0 = blockIdx.y * (kGridThreads * PPT);
  const int rows_per_chunk = min(kRowCap, max(1, kVisCap / (nc * NPOL)));
  const double f_ref = freq[subgrid_ref_channel(s.chan_begin, s.num_channels)];
  // STEP3 with the recurrence: the row term of channel 0, A_r + dk_0 B_r, is staged instead of
  // A_r and dk_step B_r instead of B_r (formed in double), and pi/4 starts the dot product's
  // FMA chain, so channel 0's phase takes 3 FFMAs per pixel and row instead of 3 FMA + FADD +
  // FFMA, and the step's phase no FMUL.
  constexpr bool kFold = REC && STEP3;

#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int p = min(pix0 + tid + k * kGridThreads, np - 1);
    Vec4<T> x{T(0), T(0), T(0), T(0)};
    pixel_lmn<T>(p % ns, p / ns, ns, width_lm, &x.x, &x.y, &x.z);
    shlmn[k * kGridThreads + tid] = x;
  }
  for (int c = tid; c < nc; c += kGridThreads)
    shdk[c] = T(channel_dk(freq[s.chan_begin + c], f_ref));
  // S1, S2, S3 of (pixel k, polarisation q).
  T s1[PPT][NPOL], s2[PPT][NPOL], s3[PPT][NPOL];
#pragma unroll
  for (int k = 0; k < PPT; ++k)
#pragma unroll
    for (int q = 0; q < NPOL; ++q) s1[k][q] = s2[k][q] = s3[k][q] = T(0);

  for (std::uint32_t r0 = 0; r0 < s.num_rows; r0 += rows_per_chunk) {
    const int nr = min(rows_per_chunk, static_cast<int>(s.num_rows - r0));
    __syncthreads();
    for (int i = tid; i < nr; i += kGridThreads) {
      const std::size_t row = s.row_begin + r0 + i;
      const double u[3] = {uvw[3 * row], uvw[3 * row + 1], uvw[3 * row + 2]};
      double a[3];
      row_phase_terms(u, f_ref, s.us, s.vs, s.w0, a);
      double b[3] = {u[0], u[1], u[2]};
      if constexpr (kFold) {
        const double dk0 = channel_dk(freq[s.chan_begin], f_ref);
        for (int j = 0; j < 3; ++j) {
          a[j] += dk0 * u[j];
          b[j] *= double(dk_step);
        }
      }
      shrow[2 * i] = {T(-a[0]), T(-a[1]), T(-a[2]), T(0)};
      shrow[2 * i + 1] = {T(-b[0]), T(-b[1]), T(-b[2]), T(0)};
    }
    for (int i = tid; i < nr * nc; i += kGridThreads) {
      const int r = i / nc, c = i % nc;
      const std::size_t k = (s.row_begin + r0 + r) * std::size_t(nchan_total) + s.chan_begin + c;
      const float w = weight[k];
      GV x;
#pragma unroll
      for (int q = 0; q < NPOL; ++q) {
        const Complex<T> v = vis[k * NPOL + q];
        x.v[q] = w > 0.0f ? Complex<T>{v.re * T(w), v.im * T(w)} : Complex<T>{T(0), T(0)};
        x.g[q] = (x.v[q].re + x.v[q].im) * kInvSqrt2;
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
        if constexpr (kFold)
          pa[k] = dot3_add(a.x, a.y, a.z, x, kQuarterPi);
        else
          pa[k] = a.x * x.x + a.y * x.y + a.z * x.z + kQuarterPi;
        pb[k] = b.x * x.x + b.y * x.y + b.z * x.z;
      }
      const GV* vr = shv + r * nc;
      if constexpr (REC && STEP3) {
        Complex<T> ph[PPT];
        Step3<T> w[PPT];
#pragma unroll
        for (int k = 0; k < PPT; ++k) {
          phase_sincos(pa[k], &ph[k].im, &ph[k].re);  // pa: channel 0's phase (kFold)
          T sn, cs;
          phase_sincos(pb[k], &sn, &cs);  // pb: dk_step B . lmn (kFold)
          w[k] = make_step3(cs, sn);
        }
#pragma unroll UNROLL
        for (int c = 0; c < nc; ++c) {
          const GV v = vr[c];
#pragma unroll
          for (int k = 0; k < PPT; ++k) {
            const T x = ph[k].re + ph[k].im;
            gauss_mac<T, NPOL>(s1[k], s2[k], s3[k], v, x, ph[k].re, ph[k].im);
            gauss_step(ph[k], x, w[k]);
          }
        }
      } else if constexpr (REC) {
        Complex<T> ph[PPT], st[PPT];
        const T dk0 = shdk[0];
#pragma unroll
        for (int k = 0; k < PPT; ++k) {
          phase_sincos(pa[k] + dk0 * pb[k], &ph[k].im, &ph[k].re);
          phase_sincos(dk_step * pb[k], &st[k].im, &st[k].re);
        }
#pragma unroll UNROLL
        for (int c = 0; c < nc; ++c) {
          const GV v = vr[c];
#pragma unroll
          for (int k = 0; k < PPT; ++k) {
            gauss_mac<T, NPOL>(s1[k], s2[k], s3[k], v, ph[k].re + ph[k].im, ph[k].re, ph[k].im);
            ph[k] = cmul(ph[k], st[k]);
          }
        }
      } else {
#pragma unroll UNROLL
        for (int c = 0; c < nc; ++c) {
          const T dk = shdk[c];
          const GV v = vr[c];
#pragma unroll
          for (int k = 0; k < PPT; ++k) {
            T sn, cs;
            phase_sincos(pa[k] + dk * pb[k], &sn, &cs);
            gauss_mac<T, NPOL>(s1[k], s2[k], s3[k], v, cs + sn, cs, sn);
          }
        }
      }
    }
  }
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int p = pix0 + tid + k * kGridThreads;
    if (p >= np) continue;
    Complex<T> acc[NPOL];
#pragma unroll
    for (int q = 0; q < NPOL; ++q)
      acc[q] = {s1[k][q] - kSqrt2 * s3[k][q], s1[k][q] - kSqrt2 * s2[k][q]};
    if (aterms != nullptr) {  // A_p^H X A_q
      const Complex<T>* ap = aterm_at(aterms, aterm_stations, s.aterm_index, s.station1, np, p);
      const Complex<T>* aq = aterm_at(aterms, aterm_stations, s.aterm_index, s.station2, np, p);
      if constexpr (NPOL == 4)
        aterm_adjoint(ap, aq, acc);
      else
        acc[0] = conj(ap[0]) * acc[0] * aq[0];
    }
    const T ts = taper_sign[p];
#pragma unroll
    for (int q = 0; q < NPOL; ++q)
      out[(std::size_t(blockIdx.x) * NPOL + q) * np + p] = {acc[q].re * ts, acc[q].im * ts};
  }
}

}  // namespace fringe::imager::cuda_kernels
