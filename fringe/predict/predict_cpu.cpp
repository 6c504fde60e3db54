// CPU back end of the direct predict (predict.h): OpenMP threads over station rows p (each
// thread owns the baselines (p, q > p) of its rows, so sums never race and do not depend on
// the thread count), SIMD over sources in structure-of-arrays tiles.
//
// Per source tile: (1) per station and source, K J (phase in double, predict_math.h) and the
// sines/cosines of the per-station smearing terms, stored as separate real arrays;
// (2) per row p, P = (K J)_p B for the tile; per q > p one vectorised sweep over the tile
// accumulates P (K J)_q^H f, f = g s_bw s_t. Kernels are templates on (matrix, Gaussian,
// bandwidth smearing, time smearing), and the row kernel is compiled three times (x86-64-v4
// with AVX-512, x86-64-v3 with AVX2/FMA, baseline x86-64 with SSE2) and the best one for
// the CPU is picked at load time (GCC target_clones), so no -march flag is needed. Results
// on one machine do not depend on the thread count; they may differ in the last bits
// between machines with different vector units (FMA, vector width).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/predict/predict.h"
#include "fringe/predict/predict_math.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FRINGE_PREDICT_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define FRINGE_PREDICT_CLONES
#endif

namespace fringe::predict {

namespace {

// ---------------------------------------------------------------------------------------------
// exp(x) for x <= 0 written so that it vectorises (no libm call): x = k ln2 + r, |r| <= ln2/2
// (Cody & Waite 1980 two-constant reduction), e^r by its Taylor series (truncation below
// 5e-18 in double, 5e-9 in float), times 2^k built in the exponent bits. Results below
// ~1e-307 (double) / ~1e-38 (float) are returned as 0.
inline double exp_nonpositive(double x) {
  constexpr double kLog2e = 1.4426950408889634074;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kShifter = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to integer
  constexpr double kMin = -708.0;
  const double xc = x < kMin ? kMin : x;
  const double t = xc * kLog2e + kShifter;
  const double k = t - kShifter;
  const double r = (xc - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0 / 6227020800.0;  // 1/13!
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  const std::int64_t ki = std::bit_cast<std::int64_t>(t) - std::bit_cast<std::int64_t>(kShifter);
  const double y = p * std::bit_cast<double>((ki + 1023) << 52);
  return x < kMin ? 0.0 : y;
}

inline float exp_nonpositive(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693145751953125f;
  constexpr float kLn2Lo = 1.428606765330187045e-06f;
  constexpr float kShifter = 12582912.0f;  // 1.5 * 2^23
  constexpr float kMin = -87.0f;
  const float xc = x < kMin ? kMin : x;
  const float t = xc * kLog2e + kShifter;
  const float k = t - kShifter;
  const float r = (xc - k * kLn2Hi) - k * kLn2Lo;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const std::int32_t ki = std::bit_cast<std::int32_t>(t) - std::bit_cast<std::int32_t>(kShifter);
  const float y = p * std::bit_cast<float>((ki + 127) << 23);
  return x < kMin ? 0.0f : y;
}

// ---------------------------------------------------------------------------------------------
// Layout of one source tile.
constexpr std::size_t kTileSources = 256;
// Stations q are visited in blocks whose tile data fits in this many bytes (half of a 2 MB
// L2 cache), so each row p streams them from L2 rather than L3 or memory.
constexpr std::size_t kStationBlockBytes = std::size_t(1) << 20;

// Source components (in T) of a tile: l, m, n - 1, a, b, c.
enum SourceComp { kL = 0, kM, kN1, kGa, kGb, kGc, kNumSourceComps };
// Station components: K J (8 reals: a.re a.im b.re b.im c.re c.im d.re d.im, or 2 in Scalar
// mode), then sin, cos of the bandwidth term, then sin, cos of the time term.
template <bool kFull>
constexpr std::size_t kJonesComps = kFull ? 8 : 2;
template <bool kFull>
constexpr std::size_t kStationComps = kJonesComps<kFull> + 4;

template <typename T>
struct Plan {
  std::size_t num_stations = 0;
  std::size_t num_sources = 0;
  double inv_lambda = 0;
  double bw_scale = 0;  // dnu / (2 nu); 0 = bandwidth smearing off
  bool time_on = false;
  std::vector<TimeSmearingCoefficients> tcoef;  // per station
  // Per baseline.
  std::vector<unsigned char> keep;
  std::vector<T> uu, vv, ww;  // (U, V, W) in wavelengths
};

template <typename T>
struct TileData {
  std::size_t begin = 0, count = 0, station_comps = 0;
  std::vector<T> src;      // [comp][kTileSources]
  std::vector<T> station;  // [station][comp][kTileSources]
  const T* src_comp(int c) const { return src.data() + c * kTileSources; }
  const T* st(std::size_t p, std::size_t c) const {
    return station.data() + (p * station_comps + c) * kTileSources;
  }
  T* st(std::size_t p, std::size_t c) {
    return station.data() + (p * station_comps + c) * kTileSources;
  }
};

// The per-station terms of station p for the tile: K J, and the sines and cosines of the
// smearing terms. Branches are hoisted out of the source loops.
template <typename T, bool kFull>
void fill_station(const PredictInput<T>& in, const Plan<T>& plan, TileData<T>& tile, std::size_t p,
                  double* phase) {
  const auto& src = in.sources;
  const auto& sta = in.stations;
  const std::size_t b0 = tile.begin, cnt = tile.count;
  const double* __restrict l = src.l + b0;
  const double* __restrict m = src.m + b0;
  const double* __restrict n = src.n + b0;
  const double up = sta.u[p], vp = sta.v[p], wp = sta.w[p];
  for (std::size_t i = 0; i < cnt; ++i)
    phase[i] = station_phase(up, vp, wp, l[i], m[i], n[i] - 1.0, plan.inv_lambda);
  constexpr std::size_t nj = kJonesComps<kFull>;
  if constexpr (kFull) {
    T* __restrict c[8];
    for (std::size_t k = 0; k < 8; ++k) c[k] = tile.st(p, k);
    const Jones<T>* j = sta.jones ? sta.jones + p * src.count + b0 : nullptr;
    for (std::size_t i = 0; i < cnt; ++i) {
      const Complex<T> k = station_phasor<T>(phase[i]);
      const Jones<T> kj = j ? j[i] * k : Jones<T>{k, {0, 0}, {0, 0}, k};
      c[0][i] = kj.a.re, c[1][i] = kj.a.im, c[2][i] = kj.b.re, c[3][i] = kj.b.im;
      c[4][i] = kj.c.re, c[5][i] = kj.c.im, c[6][i] = kj.d.re, c[7][i] = kj.d.im;
    }
  } else {
    T* __restrict cr = tile.st(p, 0);
    T* __restrict ci = tile.st(p, 1);
    const Complex<T>* j = sta.jones_scalar ? sta.jones_scalar + p * src.count + b0 : nullptr;
    for (std::size_t i = 0; i < cnt; ++i) {
      const Complex<T> k = station_phasor<T>(phase[i]);
      const Complex<T> kj = j ? j[i] * k : k;
      cr[i] = kj.re, ci[i] = kj.im;
    }
  }
  if (plan.bw_scale > 0) {
    T* __restrict bs = tile.st(p, nj);
    T* __restrict bc = tile.st(p, nj + 1);
    for (std::size_t i = 0; i < cnt; ++i) {
      const double x = phase[i] * plan.bw_scale;
      bs[i] = static_cast<T>(std::sin(x));
      bc[i] = static_cast<T>(std::cos(x));
    }
  }
  if (plan.time_on) {
    const TimeSmearingCoefficients tc = plan.tcoef[p];
    T* __restrict ts = tile.st(p, nj + 2);
    T* __restrict tcs = tile.st(p, nj + 3);
    for (std::size_t i = 0; i < cnt; ++i) {
      const double x = tc.du * l[i] + tc.dv * m[i] + tc.dw * (n[i] - 1.0);
      ts[i] = static_cast<T>(std::sin(x));
      tcs[i] = static_cast<T>(std::cos(x));
    }
  }
}

template <typename T>
void fill_sources(const PredictInput<T>& in, TileData<T>& tile) {
  const auto& src = in.sources;
  T* c[kNumSourceComps];
  for (int k = 0; k < kNumSourceComps; ++k) c[k] = tile.src.data() + k * kTileSources;
  for (std::size_t i = 0; i < tile.count; ++i) {
    const std::size_t s = tile.begin + i;
    c[kL][i] = static_cast<T>(src.l[s]);
    c[kM][i] = static_cast<T>(src.m[s]);
    c[kN1][i] = static_cast<T>(src.n[s] - 1.0);
    c[kGa][i] = src.gauss_a ? src.gauss_a[s] : T(0);
    c[kGb][i] = src.gauss_b ? src.gauss_b[s] : T(0);
    c[kGc][i] = src.gauss_c ? src.gauss_c[s] : T(0);
  }
}

// P = (K J)_p B for the tile (Full), or (K J)_p I (Scalar), into buffer p_buf [comp][tile].
template <typename T, bool kFull>
void form_row_terms(const PredictInput<T>& in, const TileData<T>& tile, std::size_t p, T* p_buf) {
  const auto& src = in.sources;
  const std::size_t b0 = tile.begin;
  if constexpr (kFull) {
    for (std::size_t i = 0; i < tile.count; ++i) {
      const Jones<T> j{{tile.st(p, 0)[i], tile.st(p, 1)[i]},
                       {tile.st(p, 2)[i], tile.st(p, 3)[i]},
                       {tile.st(p, 4)[i], tile.st(p, 5)[i]},
                       {tile.st(p, 6)[i], tile.st(p, 7)[i]}};
      const T q = src.stokes_q ? src.stokes_q[b0 + i] : T(0);
      const T u = src.stokes_u ? src.stokes_u[b0 + i] : T(0);
      const T v = src.stokes_v ? src.stokes_v[b0 + i] : T(0);
      const Jones<T> jb = jones_times_brightness(j, src.stokes_i[b0 + i], q, u, v);
      p_buf[0 * kTileSources + i] = jb.a.re, p_buf[1 * kTileSources + i] = jb.a.im;
      p_buf[2 * kTileSources + i] = jb.b.re, p_buf[3 * kTileSources + i] = jb.b.im;
      p_buf[4 * kTileSources + i] = jb.c.re, p_buf[5 * kTileSources + i] = jb.c.im;
      p_buf[6 * kTileSources + i] = jb.d.re, p_buf[7 * kTileSources + i] = jb.d.im;
    }
  } else {
    const T* jr = tile.st(p, 0);
    const T* ji = tile.st(p, 1);
    for (std::size_t i = 0; i < tile.count; ++i) {
      const T flux = src.stokes_i[b0 + i];
      p_buf[i] = jr[i] * flux;
      p_buf[kTileSources + i] = ji[i] * flux;
    }
  }
}

template <typename T>
struct RowArgs {
  const Plan<T>* plan;
  const TileData<T>* tile;
  const T* p_buf;
  Complex<T>* cross;
};

// The smearing and Gaussian factor f of source i on a baseline; num / den keeps it to one
// division per source for both sinc factors.
template <typename T, bool kGauss, bool kBw, bool kTime>
inline T source_factor(std::size_t i, const T* __restrict l, const T* __restrict m,
                       const T* __restrict n1, const T* __restrict ga, const T* __restrict gb,
                       const T* __restrict gc, T gu2, T guv2, T gv2, T bu, T bv, T bw,
                       const T* __restrict bsp, const T* __restrict bcp, const T* __restrict bsq,
                       const T* __restrict bcq, T tu, T tv, T tw, const T* __restrict tsp,
                       const T* __restrict tcp, const T* __restrict tsq, const T* __restrict tcq) {
  T f = T(1);
  if constexpr (kGauss) {
    f = exp_nonpositive(-(ga[i] * gu2 + gb[i] * guv2 + gc[i] * gv2));
  }
  if constexpr (kBw || kTime) {
    T num = T(1), den = T(1);
    const T lim = T(kSincSeriesLimit);
    if constexpr (kBw) {
      // Both branches are evaluated and then selected, so the loop has no control flow.
      const T x = bu * l[i] + bv * m[i] + bw * n1[i];
      const T sep = bsp[i] * bcq[i] - bcp[i] * bsq[i];
      const T ser = sinc_series(x);
      const bool series = std::fabs(x) < lim;
      num = series ? ser : sep;
      den = series ? T(1) : x;
    }
    if constexpr (kTime) {
      const T x = tu * l[i] + tv * m[i] + tw * n1[i];
      const T sep = tsp[i] * tcq[i] - tcp[i] * tsq[i];
      const T ser = sinc_series(x);
      const bool series = std::fabs(x) < lim;
      num *= series ? ser : sep;
      den *= series ? T(1) : x;
    }
    f *= num / den;
  }
  return f;
}

// Baselines (p, q) for q in [q_begin, q_end), q > p, of one tile.
template <typename T, bool kFull, bool kGauss, bool kBw, bool kTime>
FRINGE_PREDICT_CLONES void cross_row(const RowArgs<T>& a, std::size_t p, std::size_t q_begin,
                                     std::size_t q_end) {
  const Plan<T>& plan = *a.plan;
  const TileData<T>& tile = *a.tile;
  const std::size_t ns = plan.num_stations;
  const std::size_t cnt = tile.count;
  constexpr std::size_t nj = kJonesComps<kFull>;
  const T* __restrict l = tile.src_comp(kL);
  const T* __restrict m = tile.src_comp(kM);
  const T* __restrict n1 = tile.src_comp(kN1);
  const T* __restrict ga = tile.src_comp(kGa);
  const T* __restrict gb = tile.src_comp(kGb);
  const T* __restrict gc = tile.src_comp(kGc);
  const T* __restrict bsp = tile.st(p, nj);
  const T* __restrict bcp = tile.st(p, nj + 1);
  const T* __restrict tsp = tile.st(p, nj + 2);
  const T* __restrict tcp = tile.st(p, nj + 3);
  const T two_pi_bw = static_cast<T>(kTwoPi * plan.bw_scale);
  for (std::size_t q = std::max(p + 1, q_begin); q < q_end; ++q) {
    const std::size_t b = static_cast<std::size_t>(baseline_index(p, q, ns));
    if (!plan.keep[b]) continue;
    const T uu = plan.uu[b], vv = plan.vv[b], ww = plan.ww[b];
    const T gu2 = uu * uu, guv2 = T(2) * uu * vv, gv2 = vv * vv;
    const T bu = two_pi_bw * uu, bv = two_pi_bw * vv, bw = two_pi_bw * ww;
    T tu = 0, tv = 0, tw = 0;
    if constexpr (kTime) {
      tu = static_cast<T>(plan.tcoef[p].du - plan.tcoef[q].du);
      tv = static_cast<T>(plan.tcoef[p].dv - plan.tcoef[q].dv);
      tw = static_cast<T>(plan.tcoef[p].dw - plan.tcoef[q].dw);
    }
    const T* __restrict bsq = tile.st(q, nj);
    const T* __restrict bcq = tile.st(q, nj + 1);
    const T* __restrict tsq = tile.st(q, nj + 2);
    const T* __restrict tcq = tile.st(q, nj + 3);
    if constexpr (kFull) {
      const T* __restrict par = a.p_buf + 0 * kTileSources;
      const T* __restrict pai = a.p_buf + 1 * kTileSources;
      const T* __restrict pbr = a.p_buf + 2 * kTileSources;
      const T* __restrict pbi = a.p_buf + 3 * kTileSources;
      const T* __restrict pcr = a.p_buf + 4 * kTileSources;
      const T* __restrict pci = a.p_buf + 5 * kTileSources;
      const T* __restrict pdr = a.p_buf + 6 * kTileSources;
      const T* __restrict pdi = a.p_buf + 7 * kTileSources;
      const T* __restrict qar = tile.st(q, 0);
      const T* __restrict qai = tile.st(q, 1);
      const T* __restrict qbr = tile.st(q, 2);
      const T* __restrict qbi = tile.st(q, 3);
      const T* __restrict qcr = tile.st(q, 4);
      const T* __restrict qci = tile.st(q, 5);
      const T* __restrict qdr = tile.st(q, 6);
      const T* __restrict qdi = tile.st(q, 7);
      T xr = 0, xi = 0, yr = 0, yi = 0, zr = 0, zi = 0, wr = 0, wi = 0;
#pragma omp simd reduction(+ : xr, xi, yr, yi, zr, zi, wr, wi)
      for (std::size_t i = 0; i < cnt; ++i) {
        const T f = source_factor<T, kGauss, kBw, kTime>(i, l, m, n1, ga, gb, gc, gu2, guv2, gv2,
                                                         bu, bv, bw, bsp, bcp, bsq, bcq, tu, tv, tw,
                                                         tsp, tcp, tsq, tcq);
        // Q scaled by f; V = P Q^H elementwise (jones_mul_h written out in reals).
        const T a_r = qar[i] * f, a_i = qai[i] * f, b_r = qbr[i] * f, b_i = qbi[i] * f;
        const T c_r = qcr[i] * f, c_i = qci[i] * f, d_r = qdr[i] * f, d_i = qdi[i] * f;
        // XX = Pa conj(Qa) + Pb conj(Qb)
        xr += par[i] * a_r + pai[i] * a_i + pbr[i] * b_r + pbi[i] * b_i;
        xi += pai[i] * a_r - par[i] * a_i + pbi[i] * b_r - pbr[i] * b_i;
        // XY = Pa conj(Qc) + Pb conj(Qd)
        yr += par[i] * c_r + pai[i] * c_i + pbr[i] * d_r + pbi[i] * d_i;
        yi += pai[i] * c_r - par[i] * c_i + pbi[i] * d_r - pbr[i] * d_i;
        // YX = Pc conj(Qa) + Pd conj(Qb)
        zr += pcr[i] * a_r + pci[i] * a_i + pdr[i] * b_r + pdi[i] * b_i;
        zi += pci[i] * a_r - pcr[i] * a_i + pdi[i] * b_r - pdr[i] * b_i;
        // YY = Pc conj(Qc) + Pd conj(Qd)
        wr += pcr[i] * c_r + pci[i] * c_i + pdr[i] * d_r + pdi[i] * d_i;
        wi += pci[i] * c_r - pcr[i] * c_i + pdi[i] * d_r - pdr[i] * d_i;
      }
      Complex<T>* v = a.cross + 4 * b;
      v[0] += Complex<T>{xr, xi};
      v[1] += Complex<T>{yr, yi};
      v[2] += Complex<T>{zr, zi};
      v[3] += Complex<T>{wr, wi};
    } else {
      const T* __restrict pr = a.p_buf;
      const T* __restrict pi = a.p_buf + kTileSources;
      const T* __restrict qr = tile.st(q, 0);
      const T* __restrict qi = tile.st(q, 1);
      T xr = 0, xi = 0;
#pragma omp simd reduction(+ : xr, xi)
      for (std::size_t i = 0; i < cnt; ++i) {
        const T f = source_factor<T, kGauss, kBw, kTime>(i, l, m, n1, ga, gb, gc, gu2, guv2, gv2,
                                                         bu, bv, bw, bsp, bcp, bsq, bcq, tu, tv, tw,
                                                         tsp, tcp, tsq, tcq);
        const T a_r = qr[i] * f, a_i = qi[i] * f;
        xr += pr[i] * a_r + pi[i] * a_i;
        xi += pi[i] * a_r - pr[i] * a_i;
      }
      a.cross[b] += Complex<T>{xr, xi};
    }
  }
}

template <typename T>
using RowFn = void (*)(const RowArgs<T>&, std::size_t, std::size_t, std::size_t);

template <typename T, bool kFull, bool kGauss>
RowFn<T> pick_row(bool bw, bool time) {
  if (bw)
    return time ? cross_row<T, kFull, kGauss, true, true>
                : cross_row<T, kFull, kGauss, true, false>;
  return time ? cross_row<T, kFull, kGauss, false, true>
              : cross_row<T, kFull, kGauss, false, false>;
}

template <typename T>
RowFn<T> pick_row(bool full, bool gauss, bool bw, bool time) {
  if (full) return gauss ? pick_row<T, true, true>(bw, time) : pick_row<T, true, false>(bw, time);
  return gauss ? pick_row<T, false, true>(bw, time) : pick_row<T, false, false>(bw, time);
}

template <typename T>
bool any_gaussian(const SourceArrays<T>& src) {
  if (!src.gauss_a) return false;
  for (std::size_t s = 0; s < src.count; ++s)
    if (src.gauss_a[s] != T(0) || src.gauss_b[s] != T(0) || src.gauss_c[s] != T(0)) return true;
  return false;
}

template <typename T>
Plan<T> make_plan(const PredictInput<T>& in) {
  Plan<T> plan;
  const std::size_t ns = in.stations.count;
  plan.num_stations = ns;
  plan.num_sources = in.sources.count;
  plan.inv_lambda = in.frequency_hz / kSpeedOfLight;
  plan.bw_scale = bandwidth_smearing_scale(in.channel_bandwidth_hz, in.frequency_hz);
  const TimeSmearing& ts = in.time_smearing;
  plan.time_on = ts.tau_s > 0;
  if (plan.time_on) {
    plan.tcoef.resize(ns);
    for (std::size_t p = 0; p < ns; ++p)
      plan.tcoef[p] = time_smearing_coefficients(ts.station_x[p], ts.station_y[p], ts.gast - ts.ra0,
                                                 ts.dec0, ts.tau_s, plan.inv_lambda);
  }
  const std::size_t nb = num_baselines(ns);
  plan.keep.resize(nb);
  plan.uu.resize(nb);
  plan.vv.resize(nb);
  plan.ww.resize(nb);
  const double uv_scale = in.uv_filter.in_wavelengths ? plan.inv_lambda : 1.0;
  const auto& st = in.stations;
  for (std::size_t p = 0; p < ns; ++p) {
    for (std::size_t q = p + 1; q < ns; ++q) {
      const std::size_t b = static_cast<std::size_t>(baseline_index(p, q, ns));
      const double du = st.u[p] - st.u[q], dv = st.v[p] - st.v[q], dw = st.w[p] - st.w[q];
      const double len = std::sqrt(du * du + dv * dv) * uv_scale;
      plan.keep[b] = len >= in.uv_filter.min && len <= in.uv_filter.max;
      plan.uu[b] = static_cast<T>(du * plan.inv_lambda);
      plan.vv[b] = static_cast<T>(dv * plan.inv_lambda);
      plan.ww[b] = static_cast<T>(dw * plan.inv_lambda);
    }
  }
  return plan;
}

template <typename T, bool kFull>
void predict_cross(const PredictInput<T>& in, Complex<T>* cross) {
  const Plan<T> plan = make_plan(in);
  const RowFn<T> row =
      pick_row<T>(kFull, any_gaussian(in.sources), plan.bw_scale > 0, plan.time_on);
  const std::size_t ns = plan.num_stations;
  TileData<T> tile;
  tile.station_comps = kStationComps<kFull>;
  tile.src.assign(kNumSourceComps * kTileSources, T(0));
  tile.station.assign(ns * tile.station_comps * kTileSources, T(0));
  const std::size_t touched =
      kJonesComps<kFull> + (plan.bw_scale > 0 ? 2 : 0) + (plan.time_on ? 2 : 0);
  const std::size_t block =
      std::max<std::size_t>(8, kStationBlockBytes / (touched * kTileSources * sizeof(T)));
  for (std::size_t begin = 0; begin < in.sources.count; begin += kTileSources) {
    tile.begin = begin;
    tile.count = std::min(kTileSources, in.sources.count - begin);
    fill_sources(in, tile);
#pragma omp parallel
    {
      std::vector<T> p_buf(kJonesComps<kFull> * kTileSources);
      std::vector<double> phase(kTileSources);
#pragma omp for schedule(static)
      for (std::size_t p = 0; p < ns; ++p) fill_station<T, kFull>(in, plan, tile, p, phase.data());
      const RowArgs<T> args{&plan, &tile, p_buf.data(), cross};
      // Within one tile every baseline gets exactly one term, so how baselines are spread
      // over threads cannot change any sum (tiles are added in order).
      for (std::size_t q0 = 1; q0 < ns; q0 += block) {
        const std::size_t q1 = std::min(ns, q0 + block);
#pragma omp for schedule(dynamic, 1)
        for (std::size_t p = 0; p < q1 - 1; ++p) {
          form_row_terms<T, kFull>(in, tile, p, p_buf.data());
          row(args, p, q0, q1);
        }
      }
    }
  }
}

// A_p = sum_s J_p B J_p^H (K cancels; no smearing, no Gaussian factor).
template <typename T>
void predict_autos(const PredictInput<T>& in, Complex<T>* autos) {
  const auto& src = in.sources;
  const auto& sta = in.stations;
  const bool full = in.polarisation == Polarisation::Full;
  const std::ptrdiff_t ns = static_cast<std::ptrdiff_t>(sta.count);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t p = 0; p < ns; ++p) {
    if (full) {
      Jones<T> acc = jones_zero<T>();
      for (std::size_t s = 0; s < src.count; ++s) {
        const Jones<T> j = sta.jones ? sta.jones[p * src.count + s] : jones_identity<T>();
        const T q = src.stokes_q ? src.stokes_q[s] : T(0);
        const T u = src.stokes_u ? src.stokes_u[s] : T(0);
        const T v = src.stokes_v ? src.stokes_v[s] : T(0);
        acc += jones_mul_h(jones_times_brightness(j, src.stokes_i[s], q, u, v), j);
      }
      Complex<T>* out = autos + 4 * p;
      out[0] += acc.a, out[1] += acc.b, out[2] += acc.c, out[3] += acc.d;
    } else {
      T acc = 0;
      for (std::size_t s = 0; s < src.count; ++s) {
        const T g = sta.jones_scalar ? abs2(sta.jones_scalar[p * src.count + s]) : T(1);
        acc += g * src.stokes_i[s];
      }
      autos[p] += Complex<T>{acc, T(0)};
    }
  }
}

void require(bool ok, const std::string& what) {
  if (!ok) throw Error("predict: " + what);
}

}  // namespace

template <typename T>
void validate(const PredictInput<T>& in, const PredictOutput<T>& out) {
  const auto& src = in.sources;
  const auto& sta = in.stations;
  require(in.frequency_hz > 0 && std::isfinite(in.frequency_hz),
          "frequency must be positive, got " + std::to_string(in.frequency_hz) + " Hz");
  require(in.channel_bandwidth_hz >= 0 && std::isfinite(in.channel_bandwidth_hz),
          "channel bandwidth must be >= 0 Hz, got " + std::to_string(in.channel_bandwidth_hz));
  require(
      in.time_smearing.tau_s >= 0 && std::isfinite(in.time_smearing.tau_s),
      "time-smearing averaging time must be >= 0 s, got " + std::to_string(in.time_smearing.tau_s));
  require(in.uv_filter.min >= 0 && in.uv_filter.min <= in.uv_filter.max,
          "uv filter needs 0 <= min <= max, got min " + std::to_string(in.uv_filter.min) +
              ", max " + std::to_string(in.uv_filter.max));
  if (src.count > 0) {
    require(src.stokes_i && src.l && src.m && src.n,
            "sources need Stokes I, l, m and n arrays (one is missing)");
    const int ng = !!src.gauss_a + !!src.gauss_b + !!src.gauss_c;
    require(ng == 0 || ng == 3, "Gaussian sources need all of a, b and c (or none)");
  }
  if (sta.count > 0) {
    require(sta.u && sta.v && sta.w, "stations need u, v and w arrays (one is missing)");
    if (in.time_smearing.tau_s > 0)
      require(in.time_smearing.station_x && in.time_smearing.station_y,
              "time smearing needs the station offset-ECEF x and y arrays");
  }
  (void)out;
}

template <typename T>
void predict_direct_cpu(const PredictInput<T>& in, const PredictOutput<T>& out) {
  validate(in, out);
  if (in.sources.count == 0 || in.stations.count == 0) return;
  const bool full = in.polarisation == Polarisation::Full;
  if (out.cross && in.stations.count >= 2) {
    if (full)
      predict_cross<T, true>(in, out.cross);
    else
      predict_cross<T, false>(in, out.cross);
  }
  if (out.autos) predict_autos(in, out.autos);
}

template void validate(const PredictInput<float>&, const PredictOutput<float>&);
template void validate(const PredictInput<double>&, const PredictOutput<double>&);
template void predict_direct_cpu(const PredictInput<float>&, const PredictOutput<float>&);
template void predict_direct_cpu(const PredictInput<double>&, const PredictOutput<double>&);

}  // namespace fringe::predict
