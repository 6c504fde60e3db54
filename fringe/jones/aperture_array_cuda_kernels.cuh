// Device side of the aperture-array beam (aperture_array_cuda.cu, the only includer): the
// packed layouts, the prepare kernel and the beam kernel. Design in aperture_array_cuda.cu and
// docs/gpu_station_beam.md. Units: positions in m before packing, phases in turns (float) or
// half-turns (double) after; angles in rad.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/jones.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/jones_math.h"
#include "fringe/jones/spherical_wave_plain.h"

namespace fringe::jones::aa_cuda {

constexpr int kThreads = 128;  // threads per block
constexpr int kTile = 256;     // elements staged in shared memory at a time
constexpr unsigned kFullMask = 0xffffffffu;
// Grouped stations of at most this many spherical-wave groups that share feed angles are
// evaluated in one spherical-wave pass (StationDev::sw_merged); the kernels hold each group's
// array factors of their S sources in registers, 2 kMaxMergedGroups S complex values. Two:
// with four the float kernel held 168 registers at 2 sources per thread (18.75 % occupancy)
// for every merged station; stations of 3 or more such groups take Variant::kGrouped.
constexpr int kMaxMergedGroups = 2;

enum class Mode : int { Full = 0, FullNoRotation = 1, Scalar = 2 };

template <typename T>
struct alignas(4 * sizeof(T)) Vec4 {
  T x, y, z, w;
};

// Packed positions are k0 r times this: float phases in turns, double in half-turns (sincospi).
template <typename T>
constexpr double phase_unit() {
  return sizeof(T) == sizeof(float) ? 1.0 / kTwoPi : 1.0 / kPi;
}

// One station as the kernels see it.
template <typename T>
struct StationDev {
  double lst, sin_lat, cos_lat;   // rad; sin/cos of the geodetic latitude
  double beam_e, beam_n, beam_u;  // b: reference direction of the packed phases
  double k0;                      // rad/m
  ElementParams<T> element;       // element.sw unused: sw_offset into KernelArgs::sw instead
  T norm, norm_scalar;            // Full and Scalar normalisation factors
  int sw_offset;                  // spherical-wave coefficients of the station, or -1
  // levels[level_begin, + num_levels): the levels whose array factors multiply; a grouped
  // station (aperture_array.h) follows them with one LevelDev per group, and its groups'
  // element patterns are groups[group_begin, + num_groups) (num_groups 0: not grouped).
  int level_begin, num_levels;
  int group_begin, num_groups;
  // 1: the groups (2 .. kMaxMergedGroups, aa_sw_mergeable with each other) are evaluated in one
  // spherical-wave pass with coefficients weighted by their array factors (SwWeightedSets),
  // instead of one pattern per group; polarised modes only.
  int sw_merged;
  int beam_off;
};

// One group of a grouped station: the element pattern of its antennas.
template <typename T>
struct GroupDev {
  ElementParams<T> element;  // element.sw unused: sw_offset into KernelArgs::sw instead
  int sw_offset;             // or -1 (functional pattern)
};

// One level (station, tile, ...) of a station: a range of packed elements.
struct LevelDev {
  int elem_begin;  // into pos and weight
  int num_elements;
  int pos_y_begin;  // into pos_y; -1 when X and Y positions are equal
  int has_z;        // some element has z != 0
  int same_feeds;   // equal positions and weights for X and Y: AF_y = AF_x
};

// sin and cos of 2 pi t (t in turns): exact reduction of t to [-1/2, 1/2] (round to nearest
// with the 1.5 * 2^23 trick, valid for |t| < 2^22), then the hardware sin/cos (MUFU), whose
// absolute error is <= 2^-21.19 on [-pi, pi] (CUDA C Programming Guide, intrinsic functions).
__device__ __forceinline__ void sincos_phase(float t, float* s, float* c) {
  const float r = __fsub_rn(__fadd_rn(t, 12582912.0f), 12582912.0f);
  __sincosf(__fmul_rn(__fsub_rn(t, r), 6.28318530717958647692f), s, c);
}
// sin and cos of pi t (t in half-turns), double precision.
__device__ __forceinline__ void sincos_phase(double t, double* s, double* c) { sincospi(t, s, c); }

__device__ __forceinline__ float fma_t(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double fma_t(double a, double b, double c) { return fma(a, b, c); }

template <bool kHasZ, typename T>
__device__ __forceinline__ T phase_of(const Vec4<T>& p, T de, T dn, T du) {
  if constexpr (kHasZ) return fma_t(p.x, de, fma_t(p.y, dn, p.z * du));
  return fma_t(p.x, de, p.y * dn);
}

// acc += w exp(i phi) with (s, c) = (sin phi, cos phi): four fused multiply-adds.
template <typename T>
__device__ __forceinline__ void accumulate(Complex<T>& acc, T w_re, T w_im, T s, T c) {
  acc.re = fma_t(w_re, c, fma_t(-w_im, s, acc.re));
  acc.im = fma_t(w_re, s, fma_t(w_im, c, acc.im));
}

// The hot loop: `count` staged elements for the thread's S sources.
template <typename T, int S, bool kTwoFeeds, bool kSamePos, bool kHasZ>
__device__ __forceinline__ void accumulate_tile(int count, const Vec4<T>* __restrict__ s_pos,
                                                const Vec4<T>* __restrict__ s_pos_y,
                                                const Vec4<T>* __restrict__ s_w, const T (&de)[S],
                                                const T (&dn)[S], const T (&du)[S],
                                                Complex<T> (&ax)[S], Complex<T> (&ay)[S]) {
#pragma unroll 2
  for (int k = 0; k < count; ++k) {
    const Vec4<T> p = s_pos[k];
    const Vec4<T> w = s_w[k];
    Vec4<T> q = p;
    if constexpr (kTwoFeeds && !kSamePos) q = s_pos_y[k];
#pragma unroll
    for (int j = 0; j < S; ++j) {
      T s, c;
      sincos_phase(phase_of<kHasZ>(p, de[j], dn[j], du[j]), &s, &c);
      accumulate(ax[j], w.x, w.y, s, c);
      if constexpr (kTwoFeeds) {
        if constexpr (!kSamePos) sincos_phase(phase_of<kHasZ>(q, de[j], dn[j], du[j]), &s, &c);
        accumulate(ay[j], w.z, w.w, s, c);
      }
    }
  }
}

template <typename T, Mode M, int S>
__device__ __forceinline__ void dispatch_tile(const LevelDev& lv, int count, const Vec4<T>* s_pos,
                                              const Vec4<T>* s_pos_y, const Vec4<T>* s_w,
                                              const T (&de)[S], const T (&dn)[S], const T (&du)[S],
                                              Complex<T> (&ax)[S], Complex<T> (&ay)[S]) {
  if (M == Mode::Scalar || lv.same_feeds) {  // one feed (AF_y = AF_x is copied by the caller)
    if (lv.has_z)
      accumulate_tile<T, S, false, true, true>(count, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
    else
      accumulate_tile<T, S, false, true, false>(count, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
  } else if (lv.pos_y_begin < 0) {
    if (lv.has_z)
      accumulate_tile<T, S, true, true, true>(count, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
    else
      accumulate_tile<T, S, true, true, false>(count, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
  } else {
    if (lv.has_z)
      accumulate_tile<T, S, true, false, true>(count, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
    else
      accumulate_tile<T, S, true, false, false>(count, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
  }
}

// Packs one station's elements for the kernels: positions scaled to phase units and weights
// rotated to the beam direction, w' = w exp(+i k0 r . b) (in double). One block per station.
template <typename T>
struct PrepareArgs {
  const StationDev<T>* stations;
  const LevelDev* levels;
  const Vec4<double>* raw_pos;    // m
  const Vec4<double>* raw_pos_y;  // m
  const Vec4<double>* raw_w;      // (wx.re, wx.im, wy.re, wy.im)
  Vec4<T>* pos;
  Vec4<T>* pos_y;
  Vec4<T>* weight;
};

__device__ __forceinline__ Complex<double> rotate(double re, double im, double k0,
                                                  const Vec4<double>& r, double be, double bn,
                                                  double bu) {
  double s, c;
  sincos(k0 * (r.x * be + r.y * bn + r.z * bu), &s, &c);
  return Complex<double>{re, im} * Complex<double>{c, s};
}

template <typename T>
__global__ void __launch_bounds__(kThreads) aa_prepare_kernel(const PrepareArgs<T> a) {
  const StationDev<T>& st = a.stations[blockIdx.x];
  const double scale = st.k0 * phase_unit<T>();
  for (int l = 0; l < st.num_levels + st.num_groups; ++l) {
    const LevelDev lv = a.levels[st.level_begin + l];
    for (int k = threadIdx.x; k < lv.num_elements; k += kThreads) {
      const int i = lv.elem_begin + k;
      const Vec4<double> r = a.raw_pos[i], w = a.raw_w[i];
      const Vec4<double> ry = lv.pos_y_begin >= 0 ? a.raw_pos_y[lv.pos_y_begin + k] : r;
      const Complex<double> wx = rotate(w.x, w.y, st.k0, r, st.beam_e, st.beam_n, st.beam_u);
      const Complex<double> wy = rotate(w.z, w.w, st.k0, ry, st.beam_e, st.beam_n, st.beam_u);
      a.weight[i] = {T(wx.re), T(wx.im), T(wy.re), T(wy.im)};
      a.pos[i] = {T(scale * r.x), T(scale * r.y), T(scale * r.z), T(0)};
      if (lv.pos_y_begin >= 0)
        a.pos_y[lv.pos_y_begin + k] = {T(scale * ry.x), T(scale * ry.y), T(scale * ry.z), T(0)};
    }
  }
}

// Polarised element response on the device: plain spherical-wave coefficients (pre-normalised
// when packed, aperture_array_cuda.cu) through aa_sw_jones_plain, every other pattern through
// aa_element_jones.
template <typename T>
__device__ __forceinline__ Jones<T> aa_element_jones_gpu(const ElementParams<T>& p, T e, T n, T u) {
  if (aa_sw_plain(p))
    return aa_sw_jones_plain(p, sw_feed_trig(p), SwCoeffSet<T>{p.sw}, p.sw_l_max, p.sw_norm, e, n,
                             u);
  return aa_element_jones(p, e, n, u);
}

template <typename T>
struct KernelArgs {
  const StationDev<T>* stations;
  const LevelDev* levels;
  const Vec4<T>* pos;
  const Vec4<T>* pos_y;
  const Vec4<T>* weight;
  const double* ra;
  const double* sin_dec;
  const double* cos_dec;
  std::size_t num_sources;
  void* out;                  // Jones<T> or Complex<T>, [station][source]
  const Complex<T>* sw;       // spherical-wave coefficients of all stations (StationDev::sw_offset)
  const GroupDev<T>* groups;  // element patterns of the groups of grouped stations
};

// Array factors (ax; ay unless Scalar) of one level or group for the thread's S sources:
// elements staged through shared memory in tiles (every thread of the block calls this).
// ay = ax when the level's feeds share positions and weights.
template <typename T, Mode M, int S>
__device__ __forceinline__ void level_factors(const KernelArgs<T>& a, const LevelDev& lv, bool any,
                                              Vec4<T>* s_pos, Vec4<T>* s_pos_y, Vec4<T>* s_w,
                                              const T (&de)[S], const T (&dn)[S], const T (&du)[S],
                                              Complex<T> (&ax)[S], Complex<T> (&ay)[S]) {
#pragma unroll
  for (int j = 0; j < S; ++j) ax[j] = ay[j] = {T(0), T(0)};
  for (int k0 = 0; k0 < lv.num_elements; k0 += kTile) {
    const int count = min(kTile, lv.num_elements - k0);
    __syncthreads();  // the previous tile is no longer read
    for (int i = threadIdx.x; i < count; i += kThreads) {
      s_pos[i] = a.pos[lv.elem_begin + k0 + i];
      s_w[i] = a.weight[lv.elem_begin + k0 + i];
      if constexpr (M != Mode::Scalar) {
        if (lv.pos_y_begin >= 0) s_pos_y[i] = a.pos_y[lv.pos_y_begin + k0 + i];
      }
    }
    __syncthreads();
    if (any) dispatch_tile<T, M, S>(lv, count, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
  }
  if constexpr (M != Mode::Scalar) {
    if (lv.same_feeds) {
#pragma unroll
      for (int j = 0; j < S; ++j) ay[j] = ax[j];
    }
  }
}

// A merged grouped station (StationDev::sw_merged): the array factors of its groups, then per
// source one spherical-wave pass whose coefficients are the groups' weighted by their array
// factors and normalisations (and feeds exchanged when swap_xy, which aa_sw_jones undoes), so
//   gsum = sum_g aa_jones(E_g, AF_g^x, AF_g^y)
// at the cost of one pattern per source instead of one per group.
template <typename T, Mode M, int S>
__device__ __forceinline__ void merged_groups(const KernelArgs<T>& a, const StationDev<T>& st,
                                              bool any, const bool (&active)[S], Vec4<T>* s_pos,
                                              Vec4<T>* s_pos_y, Vec4<T>* s_w, const T (&de)[S],
                                              const T (&dn)[S], const T (&du)[S],
                                              Jones<T> (&gsum)[S]) {
  Complex<T> mx[kMaxMergedGroups][S], my[kMaxMergedGroups][S];
#pragma unroll
  for (int g = 0; g < kMaxMergedGroups; ++g) {
    if (g < st.num_groups) {  // the same for the whole block: barriers inside are safe
      const LevelDev lv = a.levels[st.level_begin + st.num_levels + g];
      level_factors<T, M, S>(a, lv, any, s_pos, s_pos_y, s_w, de, dn, du, mx[g], my[g]);
    }
  }
  const GroupDev<T>* groups = a.groups + st.group_begin;
  const ElementParams<T>& el = groups[0].element;  // the shared feed angles, taper, feed order
  const SwFeedTrig<T> trig = sw_feed_trig(el);
  int l_max = 0;
#pragma unroll
  for (int g = 0; g < kMaxMergedGroups; ++g)
    if (g < st.num_groups) l_max = max(l_max, groups[g].element.sw_l_max);
#pragma unroll
  for (int j = 0; j < S; ++j) {
    if (!active[j]) continue;
    SwWeightedSets<T, kMaxMergedGroups> w{};
    w.count = st.num_groups;
#pragma unroll
    for (int g = 0; g < kMaxMergedGroups; ++g) {
      if (g < st.num_groups) {
        const GroupDev<T>& gd = groups[g];
        const int lg = gd.element.sw_l_max;
        w.a[g] = a.sw + gd.sw_offset;
        w.num_modes[g] = lg * (lg + 2);
        const Complex<T> fx = mx[g][j] * gd.element.sw_norm, fy = my[g][j] * gd.element.sw_norm;
        w.fx[g] = el.swap_xy ? fy : fx;
        w.fy[g] = el.swap_xy ? fx : fy;
      }
    }
    const T et = static_cast<T>(static_cast<double>(de[j]) + st.beam_e);
    const T nt = static_cast<T>(static_cast<double>(dn[j]) + st.beam_n);
    const T ut = static_cast<T>(static_cast<double>(du[j]) + st.beam_u);
    gsum[j] = aa_sw_jones_plain(el, trig, w, l_max, T(1), et, nt, ut);
  }
}

// The kernel variants by the kind of stations in the set (each launched only when needed, so
// the lighter ones keep their registers): kUniform, no grouped station; kGrouped, grouped
// stations as the sum over groups of the group's element pattern times its array factor (one
// pattern per group and source); kMerged, every grouped station has sw_merged (one pattern per
// source, polarised modes).
enum class Variant : int { kUniform = 0, kGrouped = 1, kMerged = 2 };

template <typename T, Mode M, int S, Variant V>
__global__ void __launch_bounds__(kThreads)
    aa_beam_kernel(const KernelArgs<T> a, const std::size_t station_offset) {
  constexpr bool kGrouped = V != Variant::kUniform;
  __shared__ Vec4<T> s_pos[kTile];
  __shared__ Vec4<T> s_pos_y[M == Mode::Scalar ? 1 : kTile];
  __shared__ Vec4<T> s_w[kTile];
  const std::size_t p = station_offset + blockIdx.y;
  const StationDev<T>& st = a.stations[p];
  const std::size_t n = a.num_sources;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(kThreads * S) + threadIdx.x;

  // Source directions relative to the beam direction, in T.
  T de[S], dn[S], du[S];
  bool active[S];
  bool any = false;
#pragma unroll
  for (int j = 0; j < S; ++j) {
    const std::size_t s = first + static_cast<std::size_t>(j) * kThreads;
    de[j] = dn[j] = du[j] = T(0);
    active[j] = false;
    if (s < n && !st.beam_off) {
      double sh, ch, e, nn, u;
      sincos(st.lst - a.ra[s], &sh, &ch);
      source_enu(sh, ch, a.sin_dec[s], a.cos_dec[s], st.sin_lat, st.cos_lat, e, nn, u);
      if (!(u < 0.0)) {
        active[j] = true;
        de[j] = static_cast<T>(e - st.beam_e);
        dn[j] = static_cast<T>(nn - st.beam_n);
        du[j] = static_cast<T>(u - st.beam_u);
      }
    }
    any = any || active[j];
  }
  any = __any_sync(kFullMask, any);  // every lane reaches this (no early exit before barriers)

  Complex<T> fx[S], fy[S];  // product of the levels' array factors
#pragma unroll
  for (int j = 0; j < S; ++j) fx[j] = fy[j] = {T(1), T(0)};
  for (int l = 0; l < st.num_levels; ++l) {
    const LevelDev lv = a.levels[st.level_begin + l];
    Complex<T> ax[S], ay[S];
    level_factors<T, M, S>(a, lv, any, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
#pragma unroll
    for (int j = 0; j < S; ++j) {
      fx[j] = fx[j] * ax[j];
      if constexpr (M != Mode::Scalar) fy[j] = fy[j] * ay[j];
    }
  }

  // Grouped stations: sum over groups of E_g(s) AF_g(s), the element pattern once per (group,
  // source); the direction is rebuilt from its offset to the beam direction (in double).
  Jones<T> gsum[kGrouped && M != Mode::Scalar ? S : 1];
  Complex<T> gsum_s[kGrouped && M == Mode::Scalar ? S : 1];
  const bool grouped = kGrouped && st.num_groups > 0;
  if constexpr (kGrouped) {
    if constexpr (M == Mode::Scalar) {
#pragma unroll
      for (int j = 0; j < S; ++j) gsum_s[j] = {T(0), T(0)};
    } else {
#pragma unroll
      for (int j = 0; j < S; ++j) gsum[j] = Jones<T>{};
    }
    if constexpr (V == Variant::kMerged && M != Mode::Scalar) {
      if (grouped)
        merged_groups<T, M, S>(a, st, any, active, s_pos, s_pos_y, s_w, de, dn, du, gsum);
    }
    for (int g = 0; g < (V == Variant::kMerged ? 0 : st.num_groups); ++g) {
      const LevelDev lv = a.levels[st.level_begin + st.num_levels + g];
      Complex<T> ax[S], ay[S];
      level_factors<T, M, S>(a, lv, any, s_pos, s_pos_y, s_w, de, dn, du, ax, ay);
      const GroupDev<T>& gd = a.groups[st.group_begin + g];
      ElementParams<T> el = gd.element;
      el.sw = gd.sw_offset >= 0 ? a.sw + gd.sw_offset : nullptr;
#pragma unroll
      for (int j = 0; j < S; ++j) {
        if (!active[j]) continue;
        const T et = static_cast<T>(static_cast<double>(de[j]) + st.beam_e);
        const T nt = static_cast<T>(static_cast<double>(dn[j]) + st.beam_n);
        const T ut = static_cast<T>(static_cast<double>(du[j]) + st.beam_u);
        if constexpr (M == Mode::Scalar) {
          gsum_s[j] += ax[j] * aa_element_scalar(el, et, nt, ut);
        } else {
          gsum[j] += aa_jones(aa_element_jones_gpu(el, et, nt, ut), ax[j], ay[j]);
        }
      }
    }
  }

  // Element pattern, normalisation and parallactic rotation; zeros where inactive.
#pragma unroll
  for (int j = 0; j < S; ++j) {
    const std::size_t s = first + static_cast<std::size_t>(j) * kThreads;
    if (s >= n) continue;
    const std::size_t idx = p * n + s;
    double sh = 0.0, ch = 1.0, e = 0.0, nn = 0.0, u = 1.0;
    const double sd = a.sin_dec[s], cd = a.cos_dec[s];
    if (active[j]) {
      sincos(st.lst - a.ra[s], &sh, &ch);
      source_enu(sh, ch, sd, cd, st.sin_lat, st.cos_lat, e, nn, u);
    }
    const T et = static_cast<T>(e), nt = static_cast<T>(nn), ut = static_cast<T>(u);
    if constexpr (M == Mode::Scalar) {
      Complex<T> v{T(0), T(0)};
      if (active[j] && grouped) {
        v = fx[j] * gsum_s[kGrouped ? j : 0] * st.norm_scalar;
      } else if (active[j]) {
        v = fx[j] * (aa_element_scalar(st.element, et, nt, ut) * st.norm_scalar);
      }
      static_cast<Complex<T>*>(a.out)[idx] = v;
    } else {
      Jones<T> jm{};
      if (active[j]) {
        if (grouped) {
          const Jones<T>& gj = gsum[kGrouped ? j : 0];
          const Complex<T> x = fx[j] * st.norm, y = fy[j] * st.norm;
          jm = Jones<T>{x * gj.a, x * gj.b, y * gj.c, y * gj.d};
        } else {
          ElementParams<T> el = st.element;
          el.sw = st.sw_offset >= 0 ? a.sw + st.sw_offset : nullptr;
          jm = aa_jones(aa_element_jones_gpu(el, et, nt, ut), fx[j] * st.norm, fy[j] * st.norm);
        }
        if constexpr (M == Mode::Full) {
          const astro::Rotation2<double> r =
              parallactic_rotation_from_terms(sh, ch, sd, cd, st.sin_lat, st.cos_lat);
          const astro::Rotation2<T> rt{static_cast<T>(r.xx), static_cast<T>(r.xy),
                                       static_cast<T>(r.yx), static_cast<T>(r.yy)};
          jm = jones_times_rotation(jm, rt);
        }
      }
      static_cast<Jones<T>*>(a.out)[idx] = jm;
    }
  }
}

}  // namespace fringe::jones::aa_cuda
