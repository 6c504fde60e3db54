// bench_likelihood: seconds per chi-squared evaluation of the likelihood (fringe/fit,
// docs/gpu_likelihood.md) on the GPU, in Montblanc's case (Perkins et al. 2015, Table 6: 64
// stations, 64 channels, 100 times, 50 point + 50 Gaussian sources, four products) in float and
// double, chi2 only, with gradients (every source parameter and the gains) and a batch of K = 16
// parameter sets; the SKA-Low scale (512 stations, 64 channels, 100 sources, Full, float) as
// source-visibility terms per second; and the CPU back end on a small case.
//
// Synthetic observation: stations uniformly random on a 10 km disc at latitude -30 deg, phase
// centre at declination -40 deg, uvw of each time from the Earth's rotation over +-3 h of hour
// angle, 64 channels of 1 MHz from 100 MHz; sources within 1 deg of the centre, Gaussians of
// 10-60 arcsec FWHM, spectral index -0.7 at 130 MHz; data = the GPU model of the true sky
// plus unit Gaussian noise, weights 1. Timed: evaluate() from the host (derive_terms, upload,
// kernels, reductions, copies back), the median of --repeats calls after one warm-up call.
//
// One JSON object per line: seconds (per call), seconds_per_set (K sets per call),
// terms_per_second = rows x channels x sources x 4 / seconds_per_set (4 products per
// source-visibility, as issue 21 counts them), target_seconds where issue 21 sets one.
// Without a GPU it prints one line saying it skipped and exits 0.
// Usage: bench_likelihood [--repeats R] [--filter substring] [--device D] [--ska-times T]
// (--ska-times: times of the SKA-Low case, default 4: its host arrays grow by 0.8 GB a time)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/common/bench_args.h"
#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/fit/likelihood.h"

namespace {

using namespace fringe;
using namespace fringe::fit;

struct Options {
  int repeats = 5;
  std::string filter;
  int device = 0;
  int ska_times = 4;
};

struct Case {
  int stations, channels, times, point, gauss;
};

constexpr double kLat = -30 * kDegToRad, kDec0 = -40 * kDegToRad, kRa0 = 1.0;

// All baselines p < q at each time; uvw from the Earth's rotation (hour angle -3 h .. +3 h).
ObservedData make_observation(const Case& c, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::vector<double> e(c.stations), n(c.stations);
  for (int s = 0; s < c.stations; ++s) {
    const double r = 5e3 * std::sqrt(u01(rng)), a = kTwoPi * u01(rng);
    e[s] = r * std::cos(a);
    n[s] = r * std::sin(a);
  }
  ObservedData d;
  d.num_pols = 4;
  d.num_stations = std::size_t(c.stations);
  d.num_channels = std::size_t(c.channels);
  for (int k = 0; k < c.channels; ++k) d.frequency_hz.push_back(100e6 + 1e6 * k);
  for (int t = 0; t < c.times; ++t) {
    const double h = (c.times > 1 ? -3.0 + 6.0 * t / (c.times - 1) : 0.0) * kPi / 12.0;
    const double sh = std::sin(h), ch = std::cos(h), sd = std::sin(kDec0), cd = std::cos(kDec0);
    for (int p = 0; p < c.stations; ++p) {
      for (int q = p + 1; q < c.stations; ++q) {
        // Local (east, north, up = 0) to equatorial (X towards H = 0, Y east, Z pole).
        const double de = e[p] - e[q], dn = n[p] - n[q];
        const double x = -std::sin(kLat) * dn, y = de, z = std::cos(kLat) * dn;
        d.antenna1.push_back(p);
        d.antenna2.push_back(q);
        d.time_index.push_back(t);
        d.uvw.push_back(sh * x + ch * y);
        d.uvw.push_back(-sd * ch * x + sd * sh * y + cd * z);
        d.uvw.push_back(cd * ch * x - cd * sh * y + sd * z);
      }
    }
  }
  d.num_rows = d.antenna1.size();
  d.data.assign(d.num_values(), {0.0, 0.0});
  d.weight.assign(d.num_values(), 1.0);
  return d;
}

SourceParameters make_sky(const Case& c, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  SourceParameters p;
  const int n = c.point + c.gauss;
  p.resize(std::size_t(n));
  for (int s = 0; s < n; ++s) {
    p[Param::Ra][s] = kRa0 + kDegToRad * (2 * u01(rng) - 1) / std::cos(kDec0);
    p[Param::Dec][s] = kDec0 + kDegToRad * (2 * u01(rng) - 1);
    p[Param::I][s] = 0.5 + 2 * u01(rng);
    p[Param::Q][s] = 0.1 * (u01(rng) - 0.5);
    p[Param::U][s] = 0.1 * (u01(rng) - 0.5);
    p[Param::V][s] = 0.02 * (u01(rng) - 0.5);
    p[Param::SpectralIndex][s] = -0.7;
    p.ref_freq_hz[s] = 130e6;
    if (s >= c.point) {
      const double arcsec = kDegToRad / 3600;
      p[Param::Major][s] = (10 + 50 * u01(rng)) * arcsec;
      p[Param::Minor][s] = p[Param::Major][s] * (0.3 + 0.7 * u01(rng));
      p[Param::PositionAngle][s] = kPi * u01(rng);
    }
  }
  return p;
}

// A parameter set near the truth (what a sampler evaluates).
SourceParameters perturb(const SourceParameters& p, std::mt19937_64& rng) {
  std::normal_distribution<double> n01(0.0, 1.0);
  SourceParameters q = p;
  for (std::size_t s = 0; s < p.size(); ++s) {
    q[Param::I][s] *= 1 + 0.01 * n01(rng);
    q[Param::Ra][s] += 1e-6 * n01(rng);
    q[Param::Dec][s] += 1e-6 * n01(rng);
  }
  return q;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median seconds of one evaluate() of `sets` (after a warm-up call).
double time_evaluate(LikelihoodBackend& be, const std::vector<SourceParameters>& sets,
                     GradientRequest req, int repeats) {
  std::vector<double> chi(sets.size());
  std::vector<Gradient> grads(sets.size());
  const bool g = req.sources || req.gains;
  std::vector<double> t;
  for (int r = 0; r <= repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    be.evaluate(sets, {}, req, chi.data(), g ? grads.data() : nullptr);
    const auto t1 = std::chrono::steady_clock::now();
    if (r > 0) t.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  if (!std::isfinite(chi[0]) || chi[0] <= 0) throw Error("chi2 is not a positive number");
  return median(t);
}

bool wanted(const Options& opt, const std::string& name) {
  return opt.filter.empty() || name.find(opt.filter) != std::string::npos;
}

struct Problem {
  Case c;
  ObservedData data;
  SourceParameters truth;
};

// Data = model of the true sky (GPU, double) + unit noise, or zeros (model_data false).
Problem make_problem(const Case& c, bool model_data, int device) {
  std::mt19937_64 rng(2015);
  Problem pr{c, make_observation(c, rng), make_sky(c, rng)};
  if (!model_data) return pr;
  std::normal_distribution<double> n01(0.0, 1.0);
  auto be = make_likelihood_cuda(pr.data, {}, {kRa0, kDec0}, Precision::Double, device);
  pr.data.data = be->model(pr.truth, {});
  for (auto& v : pr.data.data) v = {v.re + n01(rng), v.im + n01(rng)};
  return pr;
}

void emit(const std::string& name, const std::string& device, const Problem& pr,
          const std::string& precision, int K, double seconds, double target,
          double single_seconds) {
  const double rows = double(pr.data.num_rows), sources = double(pr.truth.size());
  const double per_set = seconds / K;
  nlohmann::json j;
  j["name"] = name;
  j["device"] = device;
  j["precision"] = precision;
  j["stations"] = pr.c.stations;
  j["channels"] = pr.c.channels;
  j["times"] = pr.c.times;
  j["rows"] = pr.data.num_rows;
  j["sources"] = pr.truth.size();
  j["K"] = K;
  j["seconds"] = seconds;
  j["seconds_per_set"] = per_set;
  j["terms_per_second"] = rows * pr.c.channels * sources * 4 / per_set;
  if (target > 0) {
    j["target_seconds"] = target;
    j["meets_target"] = per_set <= target;
  }
  if (single_seconds > 0) j["speedup_vs_single_calls"] = single_seconds * K / seconds;
  std::cout << j.dump() << std::endl;
}

void montblanc(const Options& opt, const std::string& device) {
  const std::string base = "likelihood/montblanc/";
  bool any = false;
  for (const char* p : {"float", "double"})
    for (const char* m : {"/chi2", "/grad", "/batch16"}) any = any || wanted(opt, base + p + m);
  if (!any) return;
  const Problem pr = make_problem({64, 64, 100, 50, 50}, true, opt.device);
  std::mt19937_64 rng(7);
  std::vector<SourceParameters> sets;
  for (int k = 0; k < 16; ++k) sets.push_back(perturb(pr.truth, rng));
  for (Precision prec : {Precision::Single, Precision::Double}) {
    const bool dp = prec == Precision::Double;
    const std::string p = base + (dp ? "double" : "float");
    if (!wanted(opt, p + "/chi2") && !wanted(opt, p + "/grad") && !wanted(opt, p + "/batch16"))
      continue;
    auto be = make_likelihood_cuda(pr.data, {}, {kRa0, kDec0}, prec, opt.device);
    const double target = dp ? 2e-3 : 1e-3;
    const std::vector<SourceParameters> one(sets.begin(), sets.begin() + 1);
    double single = 0;
    if (wanted(opt, p + "/chi2") || wanted(opt, p + "/batch16")) {
      single = time_evaluate(*be, one, {}, opt.repeats);
      if (wanted(opt, p + "/chi2"))
        emit(p + "/chi2", device, pr, dp ? "double" : "float", 1, single, target, 0);
    }
    if (wanted(opt, p + "/grad")) {
      const double s = time_evaluate(*be, one, {true, true}, opt.repeats);
      emit(p + "/grad", device, pr, dp ? "double" : "float", 1, s, 2 * target, 0);
    }
    if (wanted(opt, p + "/batch16")) {
      const double s = time_evaluate(*be, sets, {}, opt.repeats);
      emit(p + "/batch16", device, pr, dp ? "double" : "float", 16, s, 0, single);
    }
  }
}

void ska_low(const Options& opt, const std::string& device) {
  const std::string name = "likelihood/ska_low/float/chi2";
  if (!wanted(opt, name)) return;
  // Zero data (the time does not depend on the values; the model and noise of 512 stations
  // would cost minutes of host time). --ska-times 4 by default: 523264 rows, 3.3e9 terms.
  const Problem pr = make_problem({512, 64, opt.ska_times, 50, 50}, false, opt.device);
  auto be = make_likelihood_cuda(pr.data, {}, {kRa0, kDec0}, Precision::Single, opt.device);
  const std::vector<SourceParameters> one{pr.truth};
  const double s = time_evaluate(*be, one, {}, opt.repeats);
  emit(name, device, pr, "float", 1, s, 0, 0);
}

void small_cpu(const Options& opt, const std::string& device) {
  const std::string cpu_name = "likelihood/small/cpu/double/chi2";
  const std::string gpu_name = "likelihood/small/gpu/double/chi2";
  if (!wanted(opt, cpu_name) && !wanted(opt, gpu_name)) return;
  const Problem pr = make_problem({64, 64, 10, 50, 50}, true, opt.device);
  const std::vector<SourceParameters> one{pr.truth};
  if (wanted(opt, cpu_name)) {
    auto be = make_likelihood_cpu(pr.data, {}, {kRa0, kDec0}, Precision::Double);
    const double s = time_evaluate(*be, one, {}, std::min(opt.repeats, 3));
    emit(cpu_name, "cpu (" + std::to_string(cpu_thread_count()) + " threads)", pr, "double", 1, s,
         0, 0);
  }
  if (wanted(opt, gpu_name)) {
    auto be = make_likelihood_cuda(pr.data, {}, {kRa0, kDec0}, Precision::Double, opt.device);
    emit(gpu_name, device, pr, "double", 1, time_evaluate(*be, one, {}, opt.repeats), 0, 0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bench::Args("bench_likelihood")
      .value("--repeats", "R", opt.repeats)
      .value("--filter", "substring", opt.filter)
      .value("--device", "D", opt.device)
      .value("--ska-times", "T", opt.ska_times)
      .parse(argc, argv);
  if (opt.repeats < 1 || opt.ska_times < 1) {
    std::cerr << "error: need --repeats >= 1 and --ska-times >= 1\n";
    return 2;
  }
  const auto gpus = cuda_devices();
  if (gpus.empty() || opt.device < 0 || opt.device >= static_cast<int>(gpus.size())) {
    nlohmann::json j;
    j["name"] = "likelihood";
    j["skipped"] = true;
    j["note"] = gpus.empty() ? "no CUDA GPU" : "no CUDA device " + std::to_string(opt.device);
    std::cout << j.dump() << std::endl;
    return 0;
  }
  try {
    const std::string device = gpus[std::size_t(opt.device)].name;
    montblanc(opt, device);
    ska_low(opt, device);
    small_cpu(opt, device);
  } catch (const fringe::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
