// bench_predict_gpu: throughput of the CUDA direct predict (PredictCuda, device pointers) in the
// setup of OSKAR's measured GPU anchor (/work/shared/oskar-gpu-anchor.md, "OSKAR on the GPU:
// measured anchor (2026-11-21)"): 512 stations in a 35 km disk at the SKA-Low site, 1 channel at
// 100 MHz, 4 times (4 runs, one per dump, each with its own station (u, v, w)), a grid sky of
// 100 x 100 or 316 x 316 point sources of 1 Jy in a 5 deg field, phase centre RA 60 Dec -30
// near transit; smearing "on" = 1 MHz channels and 10 s dumps. Station Jones are given in every
// mode (Full: a rotation like OSKAR's E R for isotropic stations; Scalar: a unit phasor).
//
// One JSON object per line and mode: seconds (median over --repeats of the 4 runs, CUDA events,
// everything the predict does: time-smearing coefficients, station terms, cross-correlations),
// throughput in source-baselines/s (130816 baselines x sources x 4 / seconds, as the anchor),
// speedup_vs_oskar (throughput / OSKAR's for that row: an H200 figure, compare on an H200),
// achieved FLOP/s with the flops per source-baseline of our formulation (docs/gpu_predict.md:
// Full 64, Full smeared 109, Scalar 8, Scalar smeared 47; a division counts 1) and
// fraction_of_peak of the device's FP32 or FP64 FMA peak (SMs x clock x lanes x 2; lanes per SM
// from the compute capability, sm_90: 128 FP32, 64 FP64). Without a GPU it prints one line
// saying it skipped and exits 0.
// Usage: bench_predict_gpu [--repeats R] [--filter substring] [--sides 100,316] [--device D]
#include <cuda_runtime_api.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/common/bench_args.h"
#include "fringe/core/array.h"
#include "fringe/core/constants.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/predict/predict_cuda.h"

namespace {

using namespace fringe;
using namespace fringe::predict;

constexpr int kStations = 512;
constexpr int kTimes = 4;
constexpr double kFrequency = 100e6;                                    // Hz
constexpr double kRadius = 35e3;                                        // m
constexpr double kLat = -26.82 * kDegToRad, kLon = 116.76 * kDegToRad;  // SKA-Low site (approx.)
constexpr double kRa0 = 60 * kDegToRad, kDec0 = -30 * kDegToRad;
constexpr double kField = 5 * kDegToRad;
constexpr double kDumpSeconds = 10;            // smearing "on": time_average_sec
constexpr double kChannelWidth = 1e6;          // smearing "on": channel_bandwidth_hz
constexpr double kSiderealRate = 7.292115e-5;  // rad/s

struct Options {
  int repeats = 5;
  std::string filter;
  std::vector<int> sides{100, 316};
  int device = 0;
};

// OSKAR 2.13 correlate throughput (source-baselines/s) on an NVIDIA H200 SXM 141 GB, from
// /work/shared/oskar-gpu-anchor.md (the default-chunk rows), and the correlate seconds.
struct Anchor {
  const char* pol;
  bool smearing, dp;
  int side;
  double seconds, throughput;
};
constexpr Anchor kAnchor[] = {
    {"full", false, false, 100, 0.048, 1.087e11},   {"full", false, false, 316, 0.470, 1.112e11},
    {"full", false, true, 100, 0.092, 5.698e10},    {"full", false, true, 316, 0.906, 5.765e10},
    {"full", true, false, 100, 0.063, 8.325e10},    {"full", true, false, 316, 0.616, 8.488e10},
    {"full", true, true, 100, 0.144, 3.635e10},     {"full", true, true, 316, 1.433, 3.646e10},
    {"scalar", false, false, 100, 0.007, 7.293e11}, {"scalar", false, false, 316, 0.067, 7.797e11},
    {"scalar", false, true, 100, 0.011, 4.622e11},  {"scalar", false, true, 316, 0.103, 5.093e11},
    {"scalar", true, false, 100, 0.026, 1.995e11},  {"scalar", true, false, 316, 0.254, 2.059e11},
    {"scalar", true, true, 100, 0.045, 1.161e11},   {"scalar", true, true, 316, 0.445, 1.175e11},
};

const Anchor* anchor(bool full, bool smearing, bool dp, int side) {
  for (const Anchor& a : kAnchor)
    if (std::string(a.pol) == (full ? "full" : "scalar") && a.smearing == smearing && a.dp == dp &&
        a.side == side)
      return &a;
  return nullptr;
}

// Flops per source-baseline of the cross kernel (docs/gpu_predict.md "Flop counts"): the
// 2x2 multiply-accumulate is 32 FMA (Scalar 4); smearing adds per sinc 17 (argument 5,
// separable numerator 3, series 9) for bandwidth and time, 2 to combine, 1 division, and the
// scaling by the factor (8 Full, 2 Scalar).
double flops_per_source_baseline(bool full, bool smearing) {
  const double mac = full ? 64 : 8;
  return smearing ? mac + 17 + 17 + 2 + 1 + (full ? 8 : 2) : mac;
}

struct DevicePeak {
  std::string name;
  int sm_count = 0;
  double clock_hz = 0;
  int fp32_lanes = 0, fp64_lanes = 0;  // FMA units per SM
  double fp32() const { return sm_count * clock_hz * fp32_lanes * 2.0; }
  double fp64() const { return sm_count * clock_hz * fp64_lanes * 2.0; }
};

DevicePeak device_peak(int device) {
  DevicePeak d;
  cudaDeviceProp prop{};
  FRINGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  d.name = prop.name;
  int khz = 0;
  FRINGE_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  FRINGE_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, device));
  d.clock_hz = khz * 1e3;
  // FMA lanes per SM (CUDA C Programming Guide, "Arithmetic Instructions" throughput table).
  const int cc = prop.major * 10 + prop.minor;
  if (cc == 90 || cc == 100) {
    d.fp32_lanes = 128, d.fp64_lanes = 64;
  } else if (cc == 80 || cc == 70) {
    d.fp32_lanes = 64, d.fp64_lanes = 32;
  } else {
    d.fp32_lanes = 128, d.fp64_lanes = 2;  // consumer parts (8.6, 8.9, 12.x)
  }
  return d;
}

// Station geometry of one dump: (u, v, w) and offset-ECEF x, y (docs/conventions.md, "Coordinates
// and (u, v, w)").
struct Stations {
  std::vector<double> x, y, z;  // offset ECEF (m)
};

Stations random_disk() {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> uni(0, 1);
  Stations st;
  for (int p = 0; p < kStations; ++p) {
    const double r = kRadius * std::sqrt(uni(rng)), a = 2 * kPi * uni(rng);
    const double e = r * std::cos(a), n = r * std::sin(a), u = 0;
    // ENU -> offset ECEF at (kLat, kLon).
    const double sl = std::sin(kLat), cl = std::cos(kLat), so = std::sin(kLon), co = std::cos(kLon);
    st.x.push_back(-so * e - sl * co * n + cl * co * u);
    st.y.push_back(co * e - sl * so * n + cl * so * u);
    st.z.push_back(cl * n + sl * u);
  }
  return st;
}

// Greenwich apparent sidereal time of dump t: the field transits the array centre at t = 1.5.
double gast_of(int t) { return kRa0 - kLon + (t - 1.5) * kDumpSeconds * kSiderealRate; }

void station_uvw(const Stations& st, double gast, std::vector<double>& u, std::vector<double>& v,
                 std::vector<double>& w) {
  const double h0 = gast - kRa0, sh = std::sin(h0), ch = std::cos(h0);
  const double sd = std::sin(kDec0), cdec = std::cos(kDec0);
  u.resize(kStations), v.resize(kStations), w.resize(kStations);
  for (int p = 0; p < kStations; ++p) {
    const double x = st.x[p], y = st.y[p], z = st.z[p];
    u[p] = x * sh + y * ch;
    v[p] = -sd * ch * x + sd * sh * y + cdec * z;
    w[p] = cdec * ch * x - cdec * sh * y + sd * z;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

class Events {
 public:
  Events() {
    FRINGE_CUDA_CHECK(cudaEventCreate(&start_));
    FRINGE_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~Events() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  void start(cudaStream_t s) { FRINGE_CUDA_CHECK(cudaEventRecord(start_, s)); }
  double stop(cudaStream_t s) {
    FRINGE_CUDA_CHECK(cudaEventRecord(stop_, s));
    FRINGE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    FRINGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Device inputs of one (side, polarisation, precision): sources, Jones, 4 dumps of stations.
template <typename T>
struct Inputs {
  std::size_t sources = 0;
  Array<T> flux;
  Array<double> l, m, n;
  Array<Jones<T>> jones;
  Array<Complex<T>> jones_scalar;
  Array<double> u[kTimes], v[kTimes], w[kTimes], x, y;
  Array<Complex<T>> cross[kTimes];
};

template <typename T>
Inputs<T> make_inputs(int side, bool full, const Stations& st, int device) {
  const auto gpu = MemoryLocation::gpu(device);
  const std::size_t S = static_cast<std::size_t>(side) * side;
  Inputs<T> in;
  in.sources = S;
  std::vector<double> l(S), m(S), n(S);
  for (int i = 0; i < side; ++i) {
    for (int j = 0; j < side; ++j) {
      const std::size_t s = static_cast<std::size_t>(i) * side + j;
      const double dl = kField * ((i + 0.5) / side - 0.5), dm = kField * ((j + 0.5) / side - 0.5);
      l[s] = std::sin(dl), m[s] = std::sin(dm), n[s] = std::sqrt(1 - l[s] * l[s] - m[s] * m[s]);
    }
  }
  in.flux = Array<T>::from_host(std::vector<T>(S, T(1)), gpu);
  in.l = Array<double>::from_host(l, gpu);
  in.m = Array<double>::from_host(m, gpu);
  in.n = Array<double>::from_host(n, gpu);
  const std::size_t NS = static_cast<std::size_t>(kStations) * S;
  if (full) {
    std::vector<Jones<T>> j(NS);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(NS); ++k) {
      const double psi = 0.3 + 1e-3 * static_cast<double>(k / S) + 0.5 * l[k % S];
      const T c = static_cast<T>(std::cos(psi)), s = static_cast<T>(std::sin(psi));
      j[k] = {{c, 0}, {-s, 0}, {s, 0}, {c, 0}};
    }
    in.jones = Array<Jones<T>>::from_host(j, gpu);
  } else {
    std::vector<Complex<T>> j(NS);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(NS); ++k) {
      const double phi = 1e-3 * static_cast<double>(k / S) + 0.5 * m[k % S];
      j[k] = {static_cast<T>(std::cos(phi)), static_cast<T>(std::sin(phi))};
    }
    in.jones_scalar = Array<Complex<T>>::from_host(j, gpu);
  }
  for (int t = 0; t < kTimes; ++t) {
    std::vector<double> u, v, w;
    station_uvw(st, gast_of(t), u, v, w);
    in.u[t] = Array<double>::from_host(u, gpu);
    in.v[t] = Array<double>::from_host(v, gpu);
    in.w[t] = Array<double>::from_host(w, gpu);
    const std::size_t nb = num_baselines(kStations) * (full ? 4 : 1);
    in.cross[t] = Array<Complex<T>>(nb, gpu);
    in.cross[t].zero();
  }
  in.x = Array<double>::from_host(st.x, gpu);
  in.y = Array<double>::from_host(st.y, gpu);
  return in;
}

template <typename T>
DevicePredictInput<T> device_input(const Inputs<T>& d, bool full, bool smearing, int t) {
  DevicePredictInput<T> in;
  in.polarisation = full ? Polarisation::Full : Polarisation::Scalar;
  in.frequency_hz = kFrequency;
  in.channel_bandwidth_hz = smearing ? kChannelWidth : 0;
  in.sources = {d.sources,  d.flux.data(), nullptr, nullptr, nullptr, d.l.data(),
                d.m.data(), d.n.data(),    nullptr, nullptr, nullptr};
  in.stations = {kStations,
                 d.u[t].data(),
                 d.v[t].data(),
                 d.w[t].data(),
                 full ? d.jones.data() : nullptr,
                 full ? nullptr : d.jones_scalar.data()};
  if (smearing) in.time_smearing = {kDumpSeconds, gast_of(t), kRa0, kDec0, d.x.data(), d.y.data()};
  return in;
}

struct Result {
  double seconds = 0, seconds_min = 0;
  std::size_t chunk = 0;
};

template <typename T>
Result time_mode(Inputs<T>& d, bool full, bool smearing, int repeats, int device) {
  PredictCuda<T> eval(device);
  cudaStream_t stream = nullptr;
  FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  Events ev;
  std::vector<double> times;
  for (int r = 0; r <= repeats; ++r) {  // r = 0: warm-up (scratch allocation, first launches)
    ev.start(stream);
    for (int t = 0; t < kTimes; ++t) {
      DevicePredictOutput<T> out;
      out.cross = d.cross[t].data();
      eval.run(device_input(d, full, smearing, t), out, stream);
    }
    const double s = ev.stop(stream);
    if (r > 0) times.push_back(s);
  }
  eval.synchronize();
  Result res;
  res.seconds = median(times);
  res.seconds_min = *std::min_element(times.begin(), times.end());
  res.chunk = eval.chunk_sources(device_input(d, full, smearing, 0));
  cudaStreamDestroy(stream);
  return res;
}

template <typename T>
void run_size(const Options& opt, int side, bool full, const Stations& st, const DevicePeak& peak) {
  const bool dp = sizeof(T) == sizeof(double);
  const std::string prefix = std::string("predict_direct_cuda/") + (full ? "full" : "scalar") +
                             "/" + (dp ? "double" : "float") + "/";
  const std::string suffix = "/n" + std::to_string(side);
  bool any = false;
  for (bool smear : {false, true})
    any = any || opt.filter.empty() ||
          (prefix + (smear ? "smearing" : "no_smearing") + suffix).find(opt.filter) !=
              std::string::npos;
  if (!any) return;
  Inputs<T> d = make_inputs<T>(side, full, st, opt.device);
  for (bool smear : {false, true}) {
    const std::string name = prefix + (smear ? "smearing" : "no_smearing") + suffix;
    if (!opt.filter.empty() && name.find(opt.filter) == std::string::npos) continue;
    const Result r = time_mode<T>(d, full, smear, opt.repeats, opt.device);
    const double work = double(num_baselines(kStations)) * double(d.sources) * kTimes;
    const double throughput = work / r.seconds;
    const double fps = flops_per_source_baseline(full, smear);
    const double peak_flops = dp ? peak.fp64() : peak.fp32();
    nlohmann::json j;
    j["name"] = name;
    j["device"] = peak.name;
    j["stations"] = kStations;
    j["sources"] = d.sources;
    j["times"] = kTimes;
    j["chunk_sources"] = r.chunk;
    j["repeats"] = opt.repeats;
    j["seconds"] = r.seconds;
    j["seconds_min"] = r.seconds_min;
    j["throughput"] = throughput;
    j["unit"] = "source-baselines/s";
    j["flop_per_source_baseline"] = fps;
    j["flops"] = throughput * fps;
    j["peak_flops"] = peak_flops;
    j["peak"] = dp ? "fp64" : "fp32";
    j["fraction_of_peak"] = throughput * fps / peak_flops;
    if (const Anchor* a = anchor(full, smear, dp, side)) {
      j["oskar_seconds"] = a->seconds;
      j["oskar_throughput"] = a->throughput;
      j["speedup_vs_oskar"] = throughput / a->throughput;
      j["oskar_device"] = "NVIDIA H200 SXM 141 GB (oskar-gpu-anchor.md)";
    }
    std::cout << j.dump() << std::endl;
  }
}

std::vector<int> parse_sides(const std::string& s) {
  std::vector<int> r;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) r.push_back(bench::Args::parse_value<int>(item));
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bench::Args("bench_predict_gpu")
      .value("--repeats", "R", opt.repeats)
      .value("--filter", "substring", opt.filter)
      .option("--sides", "100,316", [&](const std::string& v) { opt.sides = parse_sides(v); })
      .value("--device", "D", opt.device)
      .parse(argc, argv);
  if (opt.repeats < 1 || opt.sides.empty()) {
    std::cerr << "error: need --repeats >= 1 and at least one side\n";
    return 2;
  }
  const auto gpus = cuda_devices();
  if (gpus.empty() || opt.device >= static_cast<int>(gpus.size())) {
    nlohmann::json j;
    j["name"] = "predict_direct_cuda";
    j["skipped"] = true;
    j["note"] = gpus.empty() ? "no CUDA GPU" : "no CUDA device " + std::to_string(opt.device);
    std::cout << j.dump() << std::endl;
    return 0;
  }
  try {
    FRINGE_CUDA_CHECK(cudaSetDevice(opt.device));
    const DevicePeak peak = device_peak(opt.device);
    const Stations st = random_disk();
    for (int side : opt.sides) {
      for (bool full : {true, false}) {
        run_size<double>(opt, side, full, st, peak);
        run_size<float>(opt, side, full, st, peak);
      }
    }
  } catch (const fringe::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
