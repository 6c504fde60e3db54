// bench_stefcal: StEFCal speed (issue 9), JSON lines.
//  - "single": one problem of 1000 stations, 300 iterations (no convergence test), float and
//    double, on the GPU (targets on an H100/H200: <= 2 ms float, <= 4 ms double; SDP Memo 091
//    reports 25 ms on a K40 in single precision) and on the CPU (one problem = one thread).
//  - "batched": 512 stations, 1, 20 and 1000 problems, 300 iterations: throughput in
//    problems x stations^2 x iterations per second and GFLOP/s.
//  - "converge": one 1000-station problem with noise solved to the default tolerance 1e-6
//    (iterations and time).
//  - "full_jones_single" (1 problem) and "full_jones_batched" (20 problems) of 256 stations,
//    300 iterations, 2x2 gains: GPU kernel on the 4x4 A, B form (stefcal_math.h); CPU
//    (single only): solve_full_jones on the samples of the cell (one sample per baseline).
//    GFLOP/s from stefcal_full_jones_flops_per_iteration (256 n^2 + 28 n), bytes per
//    iteration 2 x 16 n^2 complex values.
// GFLOP/s use stefcal_flops_per_iteration (stefcal.h: 10 n^2 + 3 n per iteration, our count
// of memo 091's inner loop). Memory: A (complex) and B (real) are read once per iteration,
// bytes_per_iteration = n^2 (sizeof(complex) + sizeof(real)) per problem; fraction_of_peak_bw
// is that traffic over the device's DRAM bandwidth (2 x memory clock x bus width; the
// single-problem matrices fit in L2, so it can exceed 1). Times: the median of --reps solves
// after one warm-up (GPU: CUDA events around the kernel, inputs already on the device; CPU:
// wall clock). GPU lines say whether the kernel read the rows of A and B from shared memory
// (rows_in_shared, shared_bytes_per_block: chosen when they fit, stefcal_cuda.h);
// --shared-rows off (or --no-shared-rows) forces global memory, --shared-rows both times
// every GPU case both ways (auto: the solver's choice); the second way's scalar lines then
// carry max_rel_gain_diff_vs_first, the largest |g - g_first| / |g_first| against the first
// way's gains (0 expected: the same arithmetic in the same order). --case NAME (repeatable: single,
// converge, full_jones, batched; default all) runs only those cases.
// Usage: bench_stefcal [--device N] [--reps R] [--iterations I] [--no-cpu] [--no-gpu]
//                      [--cpu-max-problems P] [--warps-per-row W] [--blocks-per-sm B]
//                      [--shared-rows auto|off|both] [--no-shared-rows] [--case NAME]...
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks/common/bench_args.h"
#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/stefcal.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#ifdef FRINGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "fringe/calibrate/stefcal_cuda.h"
#include "fringe/core/cuda_check.h"
#endif

namespace {

using fringe::Complex;
namespace cal = fringe::calibrate;

struct Options {
  int device = 0;
  int reps = 5;
  int iterations = 300;
  bool cpu = true;
  bool gpu = true;
  int cpu_max_problems = 20;
  int warps_per_row = 0;
  int blocks_per_sm = 0;
  std::vector<bool> shared_rows{true};  // GPU runs: allow rows in shared memory (each entry)
  std::set<std::string> cases;          // empty: all
  bool run(const std::string& name) const { return cases.empty() || cases.count(name) > 0; }
};

// num problems of n stations in A, B form: model M random complex, gains of amplitude
// 0.5..1.5 and any phase, R = g_p M conj(g_q) + noise of rms sigma.
template <typename T>
void make_problems(int num, int n, double sigma, std::vector<Complex<T>>& a, std::vector<T>& b) {
  const std::size_t nn = std::size_t(n) * n;
  a.assign(nn * num, {T(0), T(0)});
  b.assign(nn * num, T(0));
  std::mt19937_64 rng(91);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::uniform_real_distribution<double> amp(0.5, 1.5), ph(-fringe::kPi, fringe::kPi);
  for (int k = 0; k < num; ++k) {
    std::vector<Complex<double>> g(n);
    for (auto& x : g) x = fringe::polar(amp(rng), ph(rng));
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        const Complex<double> m{1.0 + 0.3 * nd(rng), 0.3 * nd(rng)};
        Complex<double> r = g[p] * m * fringe::conj(g[q]);
        r += Complex<double>{sigma * nd(rng), sigma * nd(rng)};
        const Complex<double> arm = r * fringe::conj(m);
        const std::size_t pq = nn * k + std::size_t(p) * n + q,
                          qp = nn * k + std::size_t(q) * n + p;
        a[pq] = fringe::complex_cast<T>(arm);
        a[qp] = fringe::complex_cast<T>(fringe::conj(arm));
        b[pq] = b[qp] = T(fringe::abs2(m));
      }
    }
  }
}

// num full-Jones cells of n stations (one sample per baseline): 2x2 gains near diag(g_X, g_Y)
// with leakage, a polarised model, R = G_p M G_q^H + noise of rms sigma; and their A, B.
template <typename T>
void make_full_jones_problems(int num, int n, double sigma, std::vector<cal::CalCell<T>>& cells,
                              std::vector<Complex<T>>& a, std::vector<Complex<T>>& b) {
  std::mt19937_64 rng(93);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::uniform_real_distribution<double> amp(0.5, 1.5), ph(-fringe::kPi, fringe::kPi);
  auto rc = [&](double s) { return Complex<double>{s * nd(rng), s * nd(rng)}; };
  cells.assign(num, {});
  a.clear();
  b.clear();
  for (int k = 0; k < num; ++k) {
    std::vector<fringe::Jones<double>> g(n);
    for (auto& x : g) {
      x = {fringe::polar(amp(rng), ph(rng)), rc(0.2), rc(0.2), fringe::polar(amp(rng), ph(rng))};
    }
    cal::CalCell<T>& c = cells[k];
    c.num_stations = n;
    c.num_pols = 4;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        const fringe::Jones<double> m{Complex<double>{1.0, 0.0} + rc(0.3), rc(0.3), rc(0.3),
                                      Complex<double>{1.0, 0.0} + rc(0.3)};
        const fringe::Jones<double> r = fringe::jones_sandwich(g[p], m, g[q]);
        c.station1.push_back(p);
        c.station2.push_back(q);
        for (const Complex<double>& v : {r.a, r.b, r.c, r.d}) {
          c.data.push_back(fringe::complex_cast<T>(v + rc(sigma)));
        }
        for (const Complex<double>& v : {m.a, m.b, m.c, m.d}) {
          c.model.push_back(fringe::complex_cast<T>(v));
        }
        for (int i = 0; i < 4; ++i) c.weight.push_back(T(1));
      }
    }
    std::vector<Complex<T>> ak, bk;
    cal::build_full_jones_normal_equations(c, std::vector<std::uint8_t>(n, 0), ak, bk);
    a.insert(a.end(), ak.begin(), ak.end());
    b.insert(b.end(), bk.begin(), bk.end());
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Peak {
  std::string name;
  double dram_bytes_per_sec = 0;
};

template <typename T>
void emit(const std::string& name, const std::string& backend, const Options& opt, int num, int n,
          int iterations, double seconds, const Peak& peak, double target_sec,
          const nlohmann::json& extra, bool full_jones = false) {
  nlohmann::json j;
  j["name"] = name;
  j["backend"] = backend;
  if (backend != "cpu") j["device"] = peak.name;
  j["precision"] = sizeof(T) == 8 ? "double" : "float";
  j["problems"] = num;
  j["stations"] = n;
  j["iterations"] = iterations;
  j["reps"] = opt.reps;
  j["time_s"] = seconds;
  j["time_ms"] = seconds * 1e3;
  const double pairs = double(num) * n * double(n) * iterations;
  j["throughput_pairs_iter_per_s"] = pairs / seconds;
  const double flops = num *
                       (full_jones ? cal::stefcal_full_jones_flops_per_iteration(n)
                                   : cal::stefcal_flops_per_iteration(n)) *
                       iterations;
  j["gflops"] = flops / seconds * 1e-9;
  const double pair_bytes = full_jones ? 2.0 * cal::kFullJonesTerms * sizeof(Complex<T>)
                                       : double(sizeof(Complex<T>) + sizeof(T));
  const double bytes = double(num) * n * double(n) * pair_bytes * iterations;
  if (full_jones) j["gains"] = "full_jones";
  j["effective_bandwidth_gb_s"] = bytes / seconds * 1e-9;
  if (peak.dram_bytes_per_sec > 0 && backend != "cpu") {
    j["fraction_of_peak_bw"] = bytes / seconds / peak.dram_bytes_per_sec;
  }
  if (target_sec > 0) {
    j["target_ms"] = target_sec * 1e3;
    j["meets_target"] = seconds <= target_sec;
  }
  if (backend == "cpu") j["cpu_threads"] = fringe::cpu_thread_count();
  for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
  std::cout << j.dump() << std::endl;
}

cal::SolverOptions fixed_iterations(int iterations) {
  cal::SolverOptions o;
  o.max_iterations = iterations;
  o.tolerance = 0;  // never converged: exactly `iterations` updates
  o.stall_checks = 0;
  return o;
}

template <typename T>
double time_cpu(int num, int n, const std::vector<Complex<T>>& a, const std::vector<T>& b,
                const cal::SolverOptions& o, int reps, cal::SolveStatus& last) {
  std::vector<double> times;
  std::vector<cal::SolveStatus> st(num);
  for (int r = 0; r <= reps; ++r) {
    std::vector<Complex<T>> g(std::size_t(n) * num, {T(1), T(0)});
    const auto t0 = std::chrono::steady_clock::now();
    cal::solve_scalar_batch_cpu(num, n, a.data(), b.data(), g.data(), st.data(), o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) times.push_back(s);
  }
  last = st[0];
  return median(times);
}

#ifdef FRINGE_HAVE_CUDA
// first: the gains of the case's first GPU run (filled when empty, else compared with).
template <typename T>
double time_gpu(const Options& opt, bool shared_rows, int num, int n,
                const std::vector<Complex<T>>& a, const std::vector<T>& b,
                const cal::SolverOptions& o, cal::SolveStatus& last, nlohmann::json& extra,
                std::vector<Complex<T>>& first) {
  cal::StefcalCuda<T> gpu(opt.device, num, n, opt.warps_per_row, opt.blocks_per_sm, shared_rows);
  gpu.upload(a.data(), b.data());
  const std::vector<Complex<T>> g0(std::size_t(n) * num, {T(1), T(0)});
  std::vector<double> times;
  for (int r = 0; r <= opt.reps; ++r) {
    const double s = gpu.solve(g0.data(), o);
    if (r > 0) times.push_back(s);
  }
  std::vector<Complex<T>> g(g0.size());
  std::vector<cal::SolveStatus> st(num);
  gpu.download(g.data(), st.data());
  last = st[0];
  if (first.empty()) {
    first = g;
  } else {
    double worst = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      const double s = fringe::abs(first[i]);
      worst = std::max(worst, s > 0 ? fringe::abs(g[i] - first[i]) / s : fringe::abs(g[i]));
    }
    extra["max_rel_gain_diff_vs_first"] = worst;
  }
  extra["grid_blocks"] = gpu.grid_blocks();
  extra["warps_per_row"] = gpu.warps_per_row();
  extra["rows_in_shared"] = gpu.rows_in_shared();
  extra["shared_bytes_per_block"] = gpu.shared_bytes_per_block();
  return median(times);
}

template <typename T>
double time_gpu_full_jones(const Options& opt, bool shared_rows, int num, int n,
                           const std::vector<Complex<T>>& a, const std::vector<Complex<T>>& b,
                           const cal::SolverOptions& o, cal::SolveStatus& last,
                           nlohmann::json& extra) {
  cal::StefcalCudaFullJones<T> gpu(opt.device, num, n, opt.warps_per_row, opt.blocks_per_sm,
                                   shared_rows);
  gpu.upload(a.data(), b.data());
  const std::vector<fringe::Jones<T>> g0(std::size_t(n) * num, fringe::jones_identity<T>());
  std::vector<double> times;
  for (int r = 0; r <= opt.reps; ++r) {
    const double s = gpu.solve(g0.data(), o);
    if (r > 0) times.push_back(s);
  }
  std::vector<fringe::Jones<T>> g(g0.size());
  std::vector<cal::SolveStatus> st(num);
  gpu.download(g.data(), st.data());
  last = st[0];
  extra["grid_blocks"] = gpu.grid_blocks();
  extra["warps_per_row"] = gpu.warps_per_row();
  extra["rows_in_shared"] = gpu.rows_in_shared();
  extra["shared_bytes_per_block"] = gpu.shared_bytes_per_block();
  return median(times);
}

Peak device_peak(int device) {
  Peak p;
  cudaDeviceProp prop{};
  FRINGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  p.name = prop.name;
  int mem_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess) {
    p.dram_bytes_per_sec = 2.0 * mem_khz * 1e3 * bus_bits / 8.0;  // double data rate
  }
  cudaGetLastError();
  return p;
}
#endif

template <typename T>
void run_precision(const Options& opt, bool have_gpu, const Peak& peak) {
  const bool dp = sizeof(T) == 8;
  const cal::SolverOptions fixed = fixed_iterations(opt.iterations);
  std::vector<Complex<T>> a;
  std::vector<T> b;
  cal::SolveStatus st;
  // One problem, 1000 stations (also the converging case).
  if (opt.run("single") || opt.run("converge")) make_problems<T>(1, 1000, 0.1, a, b);
  [[maybe_unused]] const double target = dp ? 4e-3 : 2e-3;  // issue 9 GPU targets
  if (opt.run("single")) {
#ifdef FRINGE_HAVE_CUDA
    std::vector<Complex<T>> first;
    for (const bool shared : opt.shared_rows) {
      if (!have_gpu) break;
      nlohmann::json extra;
      const double s = time_gpu<T>(opt, shared, 1, 1000, a, b, fixed, st, extra, first);
      emit<T>("single", "gpu", opt, 1, 1000, st.iterations, s, peak, target, extra);
    }
#else
    (void)have_gpu;
#endif
    if (opt.cpu) {
      const double s = time_cpu<T>(1, 1000, a, b, fixed, opt.reps, st);
      emit<T>("single", "cpu", opt, 1, 1000, st.iterations, s, peak, 0, {});
    }
  }
  // Converging problem (default tolerance).
  if (opt.run("converge")) {
    cal::SolverOptions conv;
    conv.max_iterations = 1000;
#ifdef FRINGE_HAVE_CUDA
    std::vector<Complex<T>> first;
    for (const bool shared : opt.shared_rows) {
      if (!have_gpu) break;
      nlohmann::json extra;
      const double s = time_gpu<T>(opt, shared, 1, 1000, a, b, conv, st, extra, first);
      extra["state"] = cal::solve_state_name(st.state);
      emit<T>("converge", "gpu", opt, 1, 1000, st.iterations, s, peak, 0, extra);
    }
#endif
    if (opt.cpu) {
      const double s = time_cpu<T>(1, 1000, a, b, conv, opt.reps, st);
      emit<T>("converge", "cpu", opt, 1, 1000, st.iterations, s, peak, 0,
              {{"state", cal::solve_state_name(st.state)}});
    }
  }
  // Full-Jones, 256 stations: one problem (GPU and CPU) and 20 problems (GPU).
  if (opt.run("full_jones")) {
    constexpr int kJonesStations = 256;
    for (int num : {1, 20}) {
      const bool cpu = opt.cpu && num == 1;
      if (!have_gpu && !cpu) continue;
      std::vector<cal::CalCell<T>> cells;
      std::vector<Complex<T>> ja, jb;
      make_full_jones_problems<T>(num, kJonesStations, 0.1, cells, ja, jb);
      const std::string name = num == 1 ? "full_jones_single" : "full_jones_batched";
#ifdef FRINGE_HAVE_CUDA
      for (const bool shared : opt.shared_rows) {
        if (!have_gpu) break;
        nlohmann::json extra;
        const double s =
            time_gpu_full_jones<T>(opt, shared, num, kJonesStations, ja, jb, fixed, st, extra);
        emit<T>(name, "gpu", opt, num, kJonesStations, st.iterations, s, peak, 0, extra, true);
      }
#endif
      if (cpu) {
        std::vector<double> times;
        const std::vector<std::uint8_t> flags(kJonesStations, 0);
        for (int r = 0; r <= opt.reps; ++r) {
          std::vector<fringe::Jones<T>> g(kJonesStations, fringe::jones_identity<T>());
          const auto t0 = std::chrono::steady_clock::now();
          st = cal::solve_full_jones(cells[0], flags, g, fixed);
          const double s =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          if (r > 0) times.push_back(s);
        }
        emit<T>(name, "cpu", opt, 1, kJonesStations, st.iterations, median(times), peak, 0,
                {{"form", "samples (solve_full_jones, one thread)"}}, true);
      }
    }
  }
  // Batched, 512 stations.
  for (int num : {1, 20, 1000}) {
    if (!opt.run("batched")) break;
    const bool cpu = opt.cpu && num <= opt.cpu_max_problems;
    if (!have_gpu && !cpu) continue;
    make_problems<T>(num, 512, 0.1, a, b);
#ifdef FRINGE_HAVE_CUDA
    std::vector<Complex<T>> first;
    for (const bool shared : opt.shared_rows) {
      if (!have_gpu) break;
      nlohmann::json extra;
      const double s = time_gpu<T>(opt, shared, num, 512, a, b, fixed, st, extra, first);
      emit<T>("batched", "gpu", opt, num, 512, st.iterations, s, peak, 0, extra);
    }
#endif
    if (cpu) {
      const double s = time_cpu<T>(num, 512, a, b, fixed, opt.reps, st);
      emit<T>("batched", "cpu", opt, num, 512, st.iterations, s, peak, 0, {});
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  try {
    bench::Args args("bench_stefcal");
    args.value("--device", "N", opt.device)
        .option("--reps", "R",
                [&](const std::string& v) { opt.reps = std::max(1, args.parse_value<int>(v)); })
        .option(
            "--iterations", "I",
            [&](const std::string& v) { opt.iterations = std::max(2, args.parse_value<int>(v)); })
        .flag("--no-cpu", [&] { opt.cpu = false; })
        .flag("--no-gpu", [&] { opt.gpu = false; })
        .value("--cpu-max-problems", "P", opt.cpu_max_problems)
        .value("--warps-per-row", "W", opt.warps_per_row)
        .value("--blocks-per-sm", "B", opt.blocks_per_sm)
        .option("--shared-rows", "auto|off|both",
                [&](const std::string& v) {
                  if (v == "auto")
                    opt.shared_rows = {true};
                  else if (v == "off")
                    opt.shared_rows = {false};
                  else if (v == "both")
                    opt.shared_rows = {true, false};
                  else
                    throw std::invalid_argument("expected auto, off or both");
                })
        .flag("--no-shared-rows", [&] { opt.shared_rows = {false}; })
        .option("--case", "single|converge|full_jones|batched",
                [&](const std::string& v) {
                  if (v != "single" && v != "converge" && v != "full_jones" && v != "batched")
                    throw std::invalid_argument("expected single, converge, full_jones or batched");
                  opt.cases.insert(v);
                })
        .parse(argc, argv);
    bool have_gpu = false;
    Peak peak;
#ifdef FRINGE_HAVE_CUDA
    const auto gpus = fringe::cuda_devices();
    have_gpu = opt.gpu && opt.device < int(gpus.size());
    if (have_gpu) peak = device_peak(opt.device);
#endif
    if (opt.gpu && !have_gpu) {
      nlohmann::json j;
      j["name"] = "stefcal_gpu";
      j["skipped"] = true;
      j["note"] = "no CUDA GPU (or built without CUDA): CPU numbers only";
      std::cout << j.dump() << std::endl;
    }
    run_precision<float>(opt, have_gpu, peak);
    run_precision<double>(opt, have_gpu, peak);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
