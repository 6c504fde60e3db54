// bench_predict: throughput of the direct CPU predict (predict_direct_cpu) in every mode,
// Full/Scalar x double/float x smearing off/on (bandwidth and time) x point/Gaussian.
// Prints one JSON object per line and mode: name, stations, sources, threads, seconds (median
// of the repeats, one call = one (time, channel) of all baselines), throughput
// (source-baselines per second), unit, and cpu_seconds (median process CPU time: with one
// thread on a busy machine, work / cpu_seconds is the steadier figure). Threads:
// OMP_NUM_THREADS. Station (u, v, w) within 20 km, sources within 3 deg, 150 MHz, smearing
// with a 100 kHz channel and 10 s dumps, arcminute Gaussians.
// Usage: bench_predict [--stations N] [--sources S] [--repeats R] [--filter substring]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/common/bench_args.h"
#include "fringe/predict/predict.h"

namespace {

using namespace fringe;
using namespace fringe::predict;

struct Options {
  std::size_t stations = 128;
  std::size_t sources = 2048;
  int repeats = 5;
  std::string filter;
};

struct Timing {
  double seconds;      // wall clock, median
  double cpu_seconds;  // process CPU time, median (all threads; robust on a loaded machine)
};

template <typename T>
Timing time_mode(const Options& opt, Polarisation pol, bool smearing, bool gaussian) {
  const std::size_t ns = opt.stations, S = opt.sources;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> u(ns), v(ns), w(ns), x(ns), y(ns);
  for (std::size_t p = 0; p < ns; ++p) {
    u[p] = 20e3 * uni(rng), v[p] = 20e3 * uni(rng), w[p] = 500 * uni(rng);
    x[p] = 20e3 * uni(rng), y[p] = 20e3 * uni(rng);
  }
  std::vector<T> I(S), Q(S), U(S), V(S), ga(S), gb(S), gc(S);
  std::vector<double> l(S), m(S), n(S);
  for (std::size_t s = 0; s < S; ++s) {
    I[s] = T(1 + 0.5 * uni(rng)), Q[s] = T(0.1 * uni(rng)), U[s] = T(0.1 * uni(rng));
    V[s] = T(0.01 * uni(rng));
    l[s] = 0.05 * uni(rng), m[s] = 0.05 * uni(rng), n[s] = std::sqrt(1 - l[s] * l[s] - m[s] * m[s]);
    ga[s] = T(2e-7), gb[s] = T(1e-8), gc[s] = T(1e-7);
  }
  std::vector<Jones<T>> jones(pol == Polarisation::Full ? ns * S : 0);
  for (auto& j : jones)
    j = {{T(1 + 0.1 * uni(rng)), T(0.1 * uni(rng))},
         {T(0.05 * uni(rng)), T(0.05 * uni(rng))},
         {T(0.05 * uni(rng)), T(0.05 * uni(rng))},
         {T(1 + 0.1 * uni(rng)), T(0.1 * uni(rng))}};
  std::vector<Complex<T>> js(pol == Polarisation::Scalar ? ns * S : 0);
  for (auto& j : js) j = {T(1 + 0.1 * uni(rng)), T(0.1 * uni(rng))};

  PredictInput<T> in;
  in.polarisation = pol;
  in.frequency_hz = 150e6;
  in.channel_bandwidth_hz = smearing ? 100e3 : 0;
  in.sources = {S,
                I.data(),
                Q.data(),
                U.data(),
                V.data(),
                l.data(),
                m.data(),
                n.data(),
                gaussian ? ga.data() : nullptr,
                gaussian ? gb.data() : nullptr,
                gaussian ? gc.data() : nullptr};
  in.stations = {ns,
                 u.data(),
                 v.data(),
                 w.data(),
                 jones.empty() ? nullptr : jones.data(),
                 js.empty() ? nullptr : js.data()};
  if (smearing) in.time_smearing = {10.0, 1.0, 0.2, -0.5, x.data(), y.data()};
  std::vector<Complex<T>> cross(num_baselines(ns) * num_pols(pol));
  const PredictOutput<T> out{cross.data(), nullptr};
  predict_direct_cpu(in, out);  // warm-up
  std::vector<double> times, cpu;
  for (int r = 0; r < opt.repeats; ++r) {
    const std::clock_t c0 = std::clock();
    const auto t0 = std::chrono::steady_clock::now();
    predict_direct_cpu(in, out);
    const auto t1 = std::chrono::steady_clock::now();
    const std::clock_t c1 = std::clock();
    times.push_back(std::chrono::duration<double>(t1 - t0).count());
    cpu.push_back(double(c1 - c0) / CLOCKS_PER_SEC);
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu.begin(), cpu.end());
  return {times[times.size() / 2], cpu[cpu.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bench::Args("bench_predict")
      .value("--stations", "N", opt.stations)
      .value("--sources", "S", opt.sources)
      .value("--repeats", "R", opt.repeats)
      .value("--filter", "substring", opt.filter)
      .parse(argc, argv);
  if (opt.stations < 2 || opt.sources < 1 || opt.repeats < 1) {
    std::cerr << "error: need --stations >= 2, --sources >= 1, --repeats >= 1\n";
    return 2;
  }
  const double work = double(num_baselines(opt.stations)) * double(opt.sources);
  for (auto pol : {Polarisation::Full, Polarisation::Scalar}) {
    for (bool dbl : {true, false}) {
      for (bool smear : {false, true}) {
        for (bool gauss : {false, true}) {
          const std::string name =
              std::string("predict_direct_cpu/") + (pol == Polarisation::Full ? "full" : "scalar") +
              "/" + (dbl ? "double" : "float") + "/" + (smear ? "smearing" : "no_smearing") + "/" +
              (gauss ? "gaussian" : "point");
          if (!opt.filter.empty() && name.find(opt.filter) == std::string::npos) continue;
          const Timing t = dbl ? time_mode<double>(opt, pol, smear, gauss)
                               : time_mode<float>(opt, pol, smear, gauss);
          nlohmann::json j;
          j["name"] = name;
          j["stations"] = opt.stations;
          j["sources"] = opt.sources;
          j["threads"] = omp_get_max_threads();
          j["seconds"] = t.seconds;
          j["cpu_seconds"] = t.cpu_seconds;
          j["throughput"] = work / t.seconds;
          j["unit"] = "source-baselines/s";
          std::cout << j.dump() << std::endl;
        }
      }
    }
  }
  return 0;
}
