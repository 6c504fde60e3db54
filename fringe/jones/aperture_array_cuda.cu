// CUDA kernels of the aperture-array station beam (aperture_array_cuda.h; design and measured
// rates in docs/gpu_station_beam.md).
//
// One block = one station x (128 threads x S sources); each thread owns S sources (strided by
// the block size, so loads and stores stay coalesced). The array factor
//   AF_f(s) = sum_k w_kf exp(+i k0 r_kf . s)                      (aperture_array_math.h)
// is evaluated as the identical sum
//   AF_f(s) = sum_k w'_kf exp(+i k0 r_kf . (s - b)),   w'_kf = w_kf exp(+i k0 r_kf . b)
// with b the station's beam direction: set_plans uploads positions and weights in double and a
// prepare kernel folds exp(+i k0 r . b) into the weights (in double), so the per-element phase
// stays small near the beam, which keeps single precision accurate. Element records (scaled positions, weights) are staged through shared memory in
// tiles of kTile elements and read as broadcasts; one sincos serves both feeds when their
// positions are equal. Float: the phase in turns is reduced exactly to [-1/2, 1/2] and fed to
// the hardware __sincosf; double: sincospi on the phase in half-turns (no Cody-Waite step).
// Geometry (hour angle, ENU direction, parallactic rotation) is per (station, source) and done
// in double; the element pattern in T.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/array.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/error.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_cuda.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/jones_math.h"

namespace fringe::jones {
namespace {

constexpr int kThreads = 128;  // threads per block
constexpr int kTile = 256;     // elements staged in shared memory at a time
constexpr unsigned kFullMask = 0xffffffffu;
constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 2.0 * kPi;

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
  double lst, sin_lat, cos_lat;     // rad; sin/cos of the geodetic latitude
  double beam_e, beam_n, beam_u;    // b: reference direction of the packed phases
  double k0;                        // rad/m
  ElementParams<T> element;
  T norm, norm_scalar;  // Full and Scalar normalisation factors
  int level_begin, num_levels;
  int beam_off;
};

// One level (station, tile, ...) of a station: a range of packed elements.
struct LevelDev {
  int elem_begin;    // into pos and weight
  int num_elements;
  int pos_y_begin;   // into pos_y; -1 when X and Y positions are equal
  int has_z;         // some element has z != 0
};

// ------------------------------------------------------------------------------------------
// Device side.

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
                                                const Vec4<T>* __restrict__ s_w,
                                                const T (&de)[S], const T (&dn)[S],
                                                const T (&du)[S], Complex<T> (&ax)[S],
                                                Complex<T> (&ay)[S]) {
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
__device__ __forceinline__ void dispatch_tile(const LevelDev& lv, int count,
                                              const Vec4<T>* s_pos, const Vec4<T>* s_pos_y,
                                              const Vec4<T>* s_w, const T (&de)[S],
                                              const T (&dn)[S], const T (&du)[S],
                                              Complex<T> (&ax)[S], Complex<T> (&ay)[S]) {
  if constexpr (M == Mode::Scalar) {
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
  for (int l = 0; l < st.num_levels; ++l) {
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
  void* out;  // Jones<T> or Complex<T>, [station][source]
};

template <typename T, Mode M, int S>
__global__ void __launch_bounds__(kThreads)
    aa_beam_kernel(const KernelArgs<T> a, const std::size_t station_offset) {
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
#pragma unroll
    for (int j = 0; j < S; ++j) {
      fx[j] = fx[j] * ax[j];
      if constexpr (M != Mode::Scalar) fy[j] = fy[j] * ay[j];
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
      if (active[j]) v = fx[j] * (aa_element_scalar(st.element, et, nt, ut) * st.norm_scalar);
      static_cast<Complex<T>*>(a.out)[idx] = v;
    } else {
      Jones<T> jm{};
      if (active[j]) {
        jm = aa_jones(aa_element(st.element, et, nt, ut), fx[j] * st.norm, fy[j] * st.norm);
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

// ------------------------------------------------------------------------------------------
// Host side.

class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    FRINGE_CUDA_CHECK(cudaGetDevice(&previous_));
    changed_ = device != previous_;
    if (changed_) FRINGE_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() {
    if (changed_) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

template <typename T>
ElementParams<T> element_cast(const ElementParams<double>& e) {
  ElementParams<T> r;
  r.kind = e.kind;
  r.taper = e.taper;
  r.kl = static_cast<T>(e.kl);
  r.cos_kl = static_cast<T>(e.cos_kl);
  r.dipole_norm = static_cast<T>(e.dipole_norm);
  r.taper_param = static_cast<T>(e.taper_param);
  r.alpha_x = static_cast<T>(e.alpha_x);
  r.alpha_y = static_cast<T>(e.alpha_y);
  r.swap_xy = e.swap_xy;
  return r;
}

// The plans as flat arrays (raw positions in m and unrotated weights, in double).
template <typename T>
struct Packed {
  std::vector<StationDev<T>> stations;
  std::vector<LevelDev> levels;
  std::vector<Vec4<double>> pos, pos_y, weight;
};

std::string station_name(const AaStationPlan& plan) {
  return "aa_station_jones_cuda: station " + std::to_string(plan.station);
}

int checked_int(std::size_t v, const AaStationPlan& plan) {
  if (v > 0x7fffffffu) throw Error(station_name(plan) + ": more than 2^31 elements in all");
  return static_cast<int>(v);
}

template <typename T>
void pack_level(const AaStationPlan& plan, const AaLevel& level, Packed<T>& pk) {
  const AaFeed* fx = level.feed[0];
  const AaFeed* fy = level.feed[1] ? level.feed[1] : level.feed[0];
  if (!fx) throw Error(station_name(plan) + ": a level of the plan has no elements");
  const std::size_t n = fx->x_true.size();
  const auto sized = [n](const AaFeed* f) {
    return f->x_true.size() == n && f->y_true.size() == n && f->z_true.size() == n;
  };
  if (!sized(fx) || !sized(fy) || level.weight[0].size() != n || level.weight[1].size() != n)
    throw Error(station_name(plan) + ": element positions and weights differ in number");
  const bool same = level.same_positions;
  LevelDev lv{checked_int(pk.pos.size(), plan), checked_int(n, plan),
              same ? -1 : checked_int(pk.pos_y.size(), plan), 0};
  for (std::size_t k = 0; k < n; ++k) {
    const double z = fx->z_true[k], zy = fy->z_true[k];
    if (z != 0.0 || (!same && zy != 0.0)) lv.has_z = 1;
    pk.pos.push_back({fx->x_true[k], fx->y_true[k], z, 0.0});
    if (!same) pk.pos_y.push_back({fy->x_true[k], fy->y_true[k], zy, 0.0});
    const Complex<double> wx = level.weight[0][k], wy = level.weight[1][k];
    pk.weight.push_back({wx.re, wx.im, wy.re, wy.im});
  }
  pk.levels.push_back(lv);
}

template <typename T>
Packed<T> pack_plans(std::span<const AaStationPlan> plans) {
  Packed<T> pk;
  pk.stations.reserve(plans.size());
  for (const AaStationPlan& plan : plans) {
    if (!plan.uniform) {
      throw Error(station_name(plan) +
                  " is not uniform (mixed feed angles or element types, or distinct tiles): the "
                  "GPU back end evaluates uniform stations only; use the CPU path (aa_beam_enu)");
    }
    StationDev<T> st{};
    st.lst = plan.lst;
    st.sin_lat = plan.sin_lat;
    st.cos_lat = plan.cos_lat;
    st.beam_e = plan.beam_enu.x;
    st.beam_n = plan.beam_enu.y;
    st.beam_u = plan.beam_enu.z;
    st.k0 = plan.k0;
    st.element = element_cast<T>(plan.element);
    st.norm = static_cast<T>(plan.norm);
    st.norm_scalar = static_cast<T>(plan.norm_scalar);
    st.level_begin = checked_int(pk.levels.size(), plan);
    st.num_levels = checked_int(plan.levels.size(), plan);
    st.beam_off = plan.beam_off ? 1 : 0;
    for (const AaLevel& level : plan.levels) pack_level(plan, level, pk);
    pk.stations.push_back(st);
  }
  return pk;
}

template <typename T>
const char* kernel_name(Mode m, int s) {
  static const char* names[2][3][3] = {
      {{"aa_beam_kernel<float, full, 1>", "aa_beam_kernel<float, full, 2>",
        "aa_beam_kernel<float, full, 4>"},
       {"aa_beam_kernel<float, full_no_rotation, 1>", "aa_beam_kernel<float, full_no_rotation, 2>",
        "aa_beam_kernel<float, full_no_rotation, 4>"},
       {"aa_beam_kernel<float, scalar, 1>", "aa_beam_kernel<float, scalar, 2>",
        "aa_beam_kernel<float, scalar, 4>"}},
      {{"aa_beam_kernel<double, full, 1>", "aa_beam_kernel<double, full, 2>",
        "aa_beam_kernel<double, full, 4>"},
       {"aa_beam_kernel<double, full_no_rotation, 1>",
        "aa_beam_kernel<double, full_no_rotation, 2>",
        "aa_beam_kernel<double, full_no_rotation, 4>"},
       {"aa_beam_kernel<double, scalar, 1>", "aa_beam_kernel<double, scalar, 2>",
        "aa_beam_kernel<double, scalar, 4>"}}};
  return names[sizeof(T) == sizeof(double)][static_cast<int>(m)][s == 1 ? 0 : s == 2 ? 1 : 2];
}

template <typename T, Mode M, int S>
void launch(const KernelArgs<T>& args, std::size_t num_stations, cudaStream_t stream) {
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * S;
  const std::size_t blocks = (args.num_sources + per_block - 1) / per_block;
  if (blocks > 0x7fffffffu) throw Error("aa_station_jones_cuda: too many sources in one chunk");
  constexpr std::size_t kMaxY = 65535;  // grid y limit
  for (std::size_t p0 = 0; p0 < num_stations; p0 += kMaxY) {
    const dim3 grid(static_cast<unsigned>(blocks),
                    static_cast<unsigned>(std::min(kMaxY, num_stations - p0)));
    aa_beam_kernel<T, M, S><<<grid, kThreads, 0, stream>>>(args, p0);
    FRINGE_CUDA_CHECK_KERNEL(kernel_name<T>(M, S));
  }
}

template <typename T, Mode M>
void launch_mode(const KernelArgs<T>& args, std::size_t num_stations, int per_thread,
                 cudaStream_t stream) {
  if (per_thread == 1)
    launch<T, M, 1>(args, num_stations, stream);
  else if (per_thread == 4)
    launch<T, M, 4>(args, num_stations, stream);
  else
    launch<T, M, 2>(args, num_stations, stream);
}

}  // namespace

template <typename T>
struct AaBeamCuda<T>::Impl {
  int device = 0;
  cudaStream_t stream = nullptr;
  int per_thread = 2;
  std::size_t num_stations = 0;
  Array<StationDev<T>> stations;
  Array<LevelDev> levels;
  Array<Vec4<double>> raw_pos, raw_pos_y, raw_weight;  // as uploaded
  Array<Vec4<T>> pos, pos_y, weight;                   // as the beam kernels read them

  explicit Impl(int d) : device(d) {
    DeviceGuard guard(device);
    FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }
  ~Impl() {
    if (stream) {
      DeviceGuard guard(device);
      cudaStreamDestroy(stream);
    }
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  template <typename U>
  void reserve(Array<U>& a, std::size_t n) {
    if (a.size() < std::max<std::size_t>(n, 1))
      a = Array<U>(std::max<std::size_t>(n, 1), MemoryLocation::gpu(device));
  }
  template <typename U>
  void upload(Array<U>& dst, const std::vector<U>& src) {
    reserve(dst, src.size());
    if (!src.empty())
      FRINGE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), src.size() * sizeof(U),
                                        cudaMemcpyHostToDevice, stream));
  }

  KernelArgs<T> args(const AaDeviceSources& src, void* out) const {
    return {stations.data(), levels.data(), pos.data(), pos_y.data(), weight.data(),
            src.ra, src.sin_dec, src.cos_dec, src.size, out};
  }
};

template <typename T>
AaBeamCuda<T>::AaBeamCuda(int device) : impl_(std::make_unique<Impl>(device)) {}
template <typename T>
AaBeamCuda<T>::~AaBeamCuda() = default;
template <typename T>
AaBeamCuda<T>::AaBeamCuda(AaBeamCuda&&) noexcept = default;
template <typename T>
AaBeamCuda<T>& AaBeamCuda<T>::operator=(AaBeamCuda&&) noexcept = default;

template <typename T>
void AaBeamCuda<T>::set_plans(std::span<const AaStationPlan> plans) {
  const Packed<T> pk = pack_plans<T>(plans);
  DeviceGuard guard(impl_->device);
  FRINGE_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));  // kernels in flight read the old data
  impl_->upload(impl_->stations, pk.stations);
  impl_->upload(impl_->levels, pk.levels);
  impl_->upload(impl_->raw_pos, pk.pos);
  impl_->upload(impl_->raw_pos_y, pk.pos_y);
  impl_->upload(impl_->raw_weight, pk.weight);
  impl_->reserve(impl_->pos, pk.pos.size());
  impl_->reserve(impl_->pos_y, pk.pos_y.size());
  impl_->reserve(impl_->weight, pk.weight.size());
  if (!pk.stations.empty()) {
    const PrepareArgs<T> args{impl_->stations.data(),  impl_->levels.data(),
                              impl_->raw_pos.data(),   impl_->raw_pos_y.data(),
                              impl_->raw_weight.data(), impl_->pos.data(),
                              impl_->pos_y.data(),     impl_->weight.data()};
    if (pk.stations.size() > 0x7fffffffu) throw Error("aa_station_jones_cuda: too many stations");
    aa_prepare_kernel<T><<<static_cast<unsigned>(pk.stations.size()), kThreads, 0,
                           impl_->stream>>>(args);
    FRINGE_CUDA_CHECK_KERNEL(sizeof(T) == sizeof(float) ? "aa_prepare_kernel<float>"
                                                        : "aa_prepare_kernel<double>");
  }
  // The host vectors die at return: wait for the (possibly staged) copies.
  FRINGE_CUDA_CHECK_KERNEL_SYNC(sizeof(T) == sizeof(float) ? "aa_prepare_kernel<float>"
                                                           : "aa_prepare_kernel<double>",
                                impl_->stream);
  impl_->num_stations = plans.size();
}

template <typename T>
std::size_t AaBeamCuda<T>::num_stations() const {
  return impl_->num_stations;
}

template <typename T>
void AaBeamCuda<T>::evaluate_full(const AaDeviceSources& sources, bool parallactic,
                                  Jones<T>* out) {
  if (impl_->num_stations == 0 || sources.size == 0) return;
  DeviceGuard guard(impl_->device);
  const KernelArgs<T> args = impl_->args(sources, out);
  if (parallactic)
    launch_mode<T, Mode::Full>(args, impl_->num_stations, impl_->per_thread, impl_->stream);
  else
    launch_mode<T, Mode::FullNoRotation>(args, impl_->num_stations, impl_->per_thread,
                                         impl_->stream);
}

template <typename T>
void AaBeamCuda<T>::evaluate_scalar(const AaDeviceSources& sources, Complex<T>* out) {
  if (impl_->num_stations == 0 || sources.size == 0) return;
  DeviceGuard guard(impl_->device);
  launch_mode<T, Mode::Scalar>(impl_->args(sources, out), impl_->num_stations,
                               impl_->per_thread, impl_->stream);
}

template <typename T>
void AaBeamCuda<T>::synchronize() {
  DeviceGuard guard(impl_->device);
  FRINGE_CUDA_CHECK_KERNEL_SYNC("aa_beam_kernel", impl_->stream);
}

template <typename T>
void AaBeamCuda<T>::set_sources_per_thread(int n) {
  if (n != 1 && n != 2 && n != 4)
    throw Error("AaBeamCuda: sources per thread must be 1, 2 or 4, not " + std::to_string(n));
  impl_->per_thread = n;
}

template <typename T>
int AaBeamCuda<T>::device() const {
  return impl_->device;
}

template <typename T>
void* AaBeamCuda<T>::cuda_stream() const {
  return impl_->stream;
}

namespace {

// RA and sin/cos Dec of host sources, on a GPU.
struct DeviceSourceArrays {
  Array<double> ra, sin_dec, cos_dec;
  DeviceSourceArrays(std::span<const double> r, std::span<const double> d, int device) {
    std::vector<double> sd(d.size()), cd(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) {
      sd[i] = std::sin(d[i]);
      cd[i] = std::cos(d[i]);
    }
    const MemoryLocation gpu = MemoryLocation::gpu(device);
    ra = Array<double>::from_host(r, gpu);
    sin_dec = Array<double>::from_host(sd, gpu);
    cos_dec = Array<double>::from_host(cd, gpu);
  }
  AaDeviceSources view() const { return {ra.data(), sin_dec.data(), cos_dec.data(), ra.size()}; }
};

void check_sizes(std::size_t stations, std::size_t ra, std::size_t dec, std::size_t out) {
  if (ra != dec || out != stations * ra) {
    throw Error("aa_station_jones_cuda: " + std::to_string(ra) + " RA and " +
                std::to_string(dec) + " Dec values for an output of " + std::to_string(out) +
                " (expected stations x sources = " + std::to_string(stations) + " x " +
                std::to_string(ra) + ")");
  }
}

}  // namespace

template <typename T>
void aa_station_jones_cuda(std::span<const AaStationPlan> plans, std::span<const double> ra,
                           std::span<const double> dec, bool parallactic, std::span<Jones<T>> out,
                           int device) {
  check_sizes(plans.size(), ra.size(), dec.size(), out.size());
  if (out.empty()) return;
  AaBeamCuda<T> beam(device);
  beam.set_plans(plans);
  const DeviceSourceArrays src(ra, dec, device);
  Array<Jones<T>> d_out(out.size(), MemoryLocation::gpu(device));
  beam.evaluate_full(src.view(), parallactic, d_out.data());
  beam.synchronize();
  copy_bytes(out.data(), MemoryLocation::host(), d_out.data(), d_out.location(), d_out.bytes());
}

template <typename T>
void aa_station_scalar_cuda(std::span<const AaStationPlan> plans, std::span<const double> ra,
                            std::span<const double> dec, std::span<Complex<T>> out, int device) {
  check_sizes(plans.size(), ra.size(), dec.size(), out.size());
  if (out.empty()) return;
  AaBeamCuda<T> beam(device);
  beam.set_plans(plans);
  const DeviceSourceArrays src(ra, dec, device);
  Array<Complex<T>> d_out(out.size(), MemoryLocation::gpu(device));
  beam.evaluate_scalar(src.view(), d_out.data());
  beam.synchronize();
  copy_bytes(out.data(), MemoryLocation::host(), d_out.data(), d_out.location(), d_out.bytes());
}

template class AaBeamCuda<float>;
template class AaBeamCuda<double>;
template void aa_station_jones_cuda<float>(std::span<const AaStationPlan>,
                                           std::span<const double>, std::span<const double>,
                                           bool, std::span<Jones<float>>, int);
template void aa_station_jones_cuda<double>(std::span<const AaStationPlan>,
                                            std::span<const double>, std::span<const double>,
                                            bool, std::span<Jones<double>>, int);
template void aa_station_scalar_cuda<float>(std::span<const AaStationPlan>,
                                            std::span<const double>, std::span<const double>,
                                            std::span<Complex<float>>, int);
template void aa_station_scalar_cuda<double>(std::span<const AaStationPlan>,
                                             std::span<const double>, std::span<const double>,
                                             std::span<Complex<double>>, int);

}  // namespace fringe::jones
