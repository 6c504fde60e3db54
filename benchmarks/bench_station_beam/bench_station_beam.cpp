// bench_station_beam: throughput of the aperture-array station beam (Jones E) on the CPU and
// the GPU, for the SKA-Low AA4 model (512 stations x 256 dipoles) and the observation of
// oskar-gpu-anchor.md's aperture-array table (100 MHz, 4 times of 60 s from 2000-01-01 13:30
// UTC, grid skies of 100 x 100 and 316 x 316 sources in a 5 deg field at RA 60, Dec -30).
// One JSON object per line and measurement: name, seconds, throughput, unit and the sizes.
//   af_cpu/<precision>/threads_<n>: the CPU E stage (evaluate_station_jones_full: plans,
//       array factors, element pattern, parallactic rotation), OpenMP on all cores and on one;
//   sincos_bound/<kind>: the GPU's sin/cos-pair rate (bench_gpu.cu), the roofline of the
//       array factor (one pair per element-source term);
//   af_gpu/<precision>/spt_<S>: the GPU beam kernel alone (J = E R, all 512 stations, 316^2
//       sources, one time), S sources per thread; ratio_to_bound = rate / sincos bound;
//   jones_e_aa4/<precision>/n<side>: the GPU E stage of the 4 times (host plans, upload and
//       prepare kernel, beam kernel), against OSKAR's Jones E time on an H200.
//   aa_pattern_cpu/<precision>/<case>/threads_<n>, aa_pattern_gpu/<precision>/<case>: element
//       patterns (issue 19) on the same model and time: <case> is `dipole` (functional),
//       `sw_uniform` (every antenna one spherical-wave type, order --sw-order), `sw_mixed`
//       (antennas alternating between two spherical-wave types: grouped evaluation,
//       docs/station_beams.md) or `dipole_mixed_angles` (dipoles alternating between feed angles
//       0 and 90 deg: grouped); ratio_to_dipole = seconds / the dipole's. CPU: the E stage of
//       --cpu-stations stations; GPU: the beam kernel alone (J = E R, all stations, 316^2
//       sources). The coefficient files are synthetic (a short dipole's l = 1 TM term plus
//       seeded terms up to the order), written to a temporary folder and removed after.
// Throughput unit: element-source evaluations per second (elements x sources x stations x
// times). Without a CUDA GPU the GPU rows are replaced by a note line.
// Usage: bench_station_beam [--model DIR] [--cpu-stations N] [--cpu-sources S] [--repeats R]
//                           [--sw-order L] [--filter substring]
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "benchmarks/common/bench_args.h"
#include "fringe/astro/time.h"
#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_plans.h"
#include "fringe/jones/station_jones.h"
#include "fringe/sky/generators.h"
#include "fringe/telescope/tm_loader.h"
#ifdef FRINGE_HAVE_CUDA
#include "bench_gpu.h"
#endif

namespace {

using namespace fringe;
using namespace fringe::jones;
using Clock = std::chrono::steady_clock;
constexpr const char* kUnit = "element-source evaluations/s";

struct Options {
  std::string model = std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa4.tm";
  std::size_t cpu_stations = 64;
  std::size_t cpu_sources = 4096;  // 16 blocks of 256 directions: all threads busy
  int repeats = 5;
  int sw_order = 3;  // highest order l of the synthetic spherical-wave files
  std::string filter;
};

// The observation of oskar-gpu-anchor.md's aperture-array table.
struct Observation {
  telescope::TelescopeModel tel;
  StationBeamConfig config;
  std::unique_ptr<ApertureArrayModel> model;
  std::vector<astro::Geodetic> sites;
  BeamPointing pointing = default_pointing(false, 60.0 * kDegToRad, -30.0 * kDegToRad);
  double freq_hz = 100e6;
  std::vector<double> gast;  // dump centres of the 4 times
  std::size_t elements = 0;  // elements of station 0 (all levels)
};

Observation load_observation(const std::string& dir) {
  Observation o;
  o.tel = telescope::load_telescope_model(dir);
  return o;
}

ApertureArrayConfig dipole_aa() {
  ApertureArrayConfig aa;
  aa.element_pattern.functional_type = ElementFunctionalType::Dipole;
  aa.element_pattern.enable_numerical = false;
  return aa;
}

// Fills in the beam configuration and model of an observation whose telescope is loaded.
void prepare_observation(Observation& o, const ApertureArrayConfig& aa = dipole_aa()) {
  o.config.station_type = StationType::ApertureArray;
  o.config.aperture_array = aa;
  o.model = std::make_unique<ApertureArrayModel>(o.tel, o.config.aperture_array);
  o.sites = station_sites(o.tel);
  const double mjd0 = astro::calendar_to_mjd(2000, 1, 1, 13, 30);
  for (int t = 0; t < 4; ++t) o.gast.push_back(astro::gast_rad(mjd0 + (t + 0.5) * 60.0 / 86400.0));
  const AaNode& root = o.model->nodes()[std::size_t(o.model->station_node(0))];
  o.elements = root.size();
}

// Plans of the first `count` stations at time t (OpenMP over stations).
std::vector<AaStationPlan> make_plans(const Observation& o, std::size_t count, int t) {
  StationJonesInput in;
  in.stations = std::span<const astro::Geodetic>(o.sites).first(count);
  in.pointing = o.pointing;
  in.gast_rad = o.gast[std::size_t(t)];
  in.freq_hz = o.freq_hz;
  in.aperture_array = o.model.get();
  in.time_index = t;
  return aperture_array_plans(o.config, in);
}

sky::SkyModel grid_sky(std::uint64_t side) {
  sky::GridConfig g;
  g.side_length = side;
  g.fov_rad = 5.0 * kDegToRad;
  g.mean_flux_jy = 1.0;
  return sky::generate_grid(g, 60.0 * kDegToRad, -30.0 * kDegToRad);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool wanted(const Options& opt, const std::string& name) {
  return opt.filter.empty() || name.find(opt.filter) != std::string::npos;
}

void emit(const nlohmann::json& j) { std::cout << j.dump() << std::endl; }

// The library's E stage for cpu_stations stations (fewer sources on one thread), one time, on
// `threads` OpenMP threads: median seconds of `repeats` runs after a warm-up.
struct CpuTiming {
  std::size_t stations = 0, sources = 0;
  double seconds = 0.0;
};
template <typename T>
CpuTiming time_cpu_e_stage(const Options& opt, const Observation& o, const sky::SkyModel& sky,
                           int threads, int repeats) {
  const std::size_t np = std::min(opt.cpu_stations, o.sites.size());
  std::size_t ns = std::min(opt.cpu_sources, sky.ra.size());
  if (threads == 1) ns = std::max<std::size_t>(16, ns / 8);
  StationJonesInput in;
  in.stations = std::span(o.sites).first(np);
  in.pointing = o.pointing;
  in.gast_rad = o.gast[0];
  in.freq_hz = o.freq_hz;
  in.ra = std::span(sky.ra).first(ns);
  in.dec = std::span(sky.dec).first(ns);
  in.aperture_array = o.model.get();
  std::vector<Jones<T>> out(np * ns);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  evaluate_station_jones_full<T>(o.config, in, out);  // warm-up
  std::vector<double> times;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    const auto t0 = Clock::now();
    evaluate_station_jones_full<T>(o.config, in, out);
    times.push_back(seconds_since(t0));
  }
  omp_set_num_threads(saved);
  return {np, ns, median(times)};
}

// (a) CPU: the library's E stage for cpu_stations stations, one time.
template <typename T>
void bench_cpu(const Options& opt, const Observation& o, const sky::SkyModel& sky, int threads) {
  const std::string name = std::string("af_cpu/") + (sizeof(T) == 8 ? "double" : "float") +
                           "/threads_" + std::to_string(threads);
  if (!wanted(opt, name)) return;
  const CpuTiming timing = time_cpu_e_stage<T>(opt, o, sky, threads, opt.repeats / 2);
  const std::size_t np = timing.stations, ns = timing.sources;
  const double t = timing.seconds;
  const double work = double(np) * double(o.elements) * double(ns);
  emit({{"name", name},
        {"stations", np},
        {"elements", o.elements},
        {"sources", ns},
        {"times", 1},
        {"threads", threads},
        {"seconds", t},
        {"throughput", work / t},
        {"unit", kUnit}});
}

// Element-pattern cases (issue 19) on the model of `o` (see the header comment).
enum class PatternCase { Dipole, SwUniform, SwMixed, DipoleMixedAngles };
constexpr PatternCase kPatternCases[] = {PatternCase::Dipole, PatternCase::SwUniform,
                                         PatternCase::SwMixed, PatternCase::DipoleMixedAngles};

const char* case_name(PatternCase c) {
  switch (c) {
    case PatternCase::Dipole:
      return "dipole";
    case PatternCase::SwUniform:
      return "sw_uniform";
    case PatternCase::SwMixed:
      return "sw_mixed";
    case PatternCase::DipoleMixedAngles:
      return "dipole_mixed_angles";
  }
  return "";
}

// Synthetic spherical-wave coefficient files of types 0 and 1 at 100 MHz, orders 1..order:
// the l = 1 TM pair of a short dipole (as tests/data/oskar-reference/spherical_wave_aa) plus
// seeded terms of amplitude 0.05 / l for the other orders and parts, different per type.
void write_sw_files(const std::filesystem::path& dir, int order) {
  std::filesystem::create_directories(dir);
  for (int type = 0; type < 2; ++type) {
    std::uint64_t state = 12345u + 777u * std::uint64_t(type);
    const auto next = [&state] {  // splitmix64 to [-1, 1)
      std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return double((z ^ (z >> 31)) >> 11) * 0x1.0p-52 - 1.0;
    };
    for (const char* feed : {"x", "y"}) {
      for (const char* mode : {"te", "tm"}) {
        for (const char* part : {"re", "im"}) {
          std::ofstream f(dir / (std::string("element_pattern_spherical_wave_") + feed + "_" +
                                 mode + "_" + part + "_" + std::to_string(type) + "_100.txt"));
          f.precision(17);
          for (int l = 1; l <= order; ++l) {
            for (int m = -l; m <= l; ++m) {
              double v = 0.05 / double(l) * next();
              if (l == 1 && std::string(mode) == "tm" && std::string(part) == "re" && m != 0)
                v = m == -1 ? 1.0 : -1.0;
              f << (m > -l ? " " : "") << v;
            }
            f << '\n';
          }
        }
      }
    }
  }
}

// An observation of the same telescope for one pattern case. `sw_dir` holds the files.
std::unique_ptr<Observation> pattern_observation(const Observation& base, PatternCase c,
                                                 const std::filesystem::path& sw_dir) {
  auto o = std::make_unique<Observation>();
  o->tel = base.tel;
  ApertureArrayConfig aa = dipole_aa();
  if (c == PatternCase::SwUniform || c == PatternCase::SwMixed) {
    // Files at the model's root apply to every station (the station folders have none).
    o->tel.directory = sw_dir.string();
    aa.element_pattern.enable_numerical = true;
  }
  for (auto& m : o->tel.station_models) {
    const std::size_t n = m.num_elements();
    if (c == PatternCase::SwMixed) {
      m.element_types.assign(n, 0);
      for (std::size_t k = 1; k < n; k += 2) m.element_types[k] = 1;
    }
    if (c == PatternCase::DipoleMixedAngles) {
      for (auto& f : m.feeds)
        for (std::size_t k = 1; k < n; k += 2) f.feed_angle[k].alpha += kPi / 2;
    }
  }
  prepare_observation(*o, aa);
  return o;
}

// The CPU E stage of one pattern case (as bench_cpu); returns seconds.
template <typename T>
double bench_pattern_cpu(const Options& opt, const Observation& o, const sky::SkyModel& sky,
                         PatternCase c, int threads, double dipole_seconds) {
  const std::string name = std::string("aa_pattern_cpu/") + (sizeof(T) == 8 ? "double" : "float") +
                           "/" + case_name(c) + "/threads_" + std::to_string(threads);
  if (!wanted(opt, name)) return 0.0;
  const CpuTiming timing = time_cpu_e_stage<T>(opt, o, sky, threads, opt.repeats);
  const std::size_t np = timing.stations, ns = timing.sources;
  const double t = timing.seconds;
  const AaStationPlan plan = make_plans(o, 1, 0).front();
  nlohmann::json j{
      {"name", name},
      {"stations", np},
      {"elements", o.elements},
      {"groups", plan.groups.size()},
      {"sw_order", c == PatternCase::SwUniform || c == PatternCase::SwMixed ? opt.sw_order : 0},
      {"sources", ns},
      {"times", 1},
      {"threads", threads},
      {"seconds", t},
      {"throughput", double(np) * double(o.elements) * double(ns) / t},
      {"unit", kUnit}};
  if (dipole_seconds > 0.0) j["ratio_to_dipole"] = t / dipole_seconds;
  emit(j);
  return t;
}

#ifdef FRINGE_HAVE_CUDA
// OSKAR's Jones E seconds (oskar-gpu-anchor.md, H200 SXM, 4 times, 512 x 256 dipoles).
double oskar_jones_e(bool dbl, std::uint64_t side) {
  if (dbl) return side == 100 ? 0.243 : 1.709;
  return side == 100 ? 0.180 : 1.205;
}

struct Bounds {
  double single = 0.0, dbl = 0.0;
};

Bounds bench_sincos(const Options& opt, const bench::GpuDescription& gpu) {
  Bounds b;
  const double mufu_pairs = gpu.multiprocessors * 8.0 * gpu.clock_ghz * 1e9;  // 16 MUFU/clk/SM
  const struct {
    bench::SincosKind kind;
    const char* name;
  } kinds[] = {{bench::SincosKind::Float, "sincos_bound/float_sincosf_reduced"},
               {bench::SincosKind::DoublePi, "sincos_bound/double_sincospi"},
               {bench::SincosKind::DoubleRadian, "sincos_bound/double_sincos"}};
  for (const auto& k : kinds) {
    const double rate = bench::sincos_rate(k.kind, opt.repeats);
    nlohmann::json j{{"name", k.name}, {"throughput", rate}, {"unit", "sincos pairs/s"}};
    j["seconds"] = 1.0 / rate;  // per pair
    if (k.kind == bench::SincosKind::Float) {
      j["fraction_of_peak"] = rate / mufu_pairs;
      j["peak_note"] = "MUFU: 16 results/clk/SM at the maximum SM clock, 2 per pair";
      b.single = rate;
    }
    if (k.kind == bench::SincosKind::DoublePi) b.dbl = rate;
    emit(j);
  }
  return b;
}

// (a) GPU kernel alone, one time step, all stations, every sources-per-thread variant; returns
// the fastest variant.
template <typename T>
int bench_gpu_kernel(const Options& opt, const Observation& o, const sky::SkyModel& sky,
                     double bound) {
  const char* prec = sizeof(T) == 8 ? "double" : "float";
  const std::vector<AaStationPlan> plans = make_plans(o, o.sites.size(), 0);
  bench::GpuBeam<T> gb(sky.ra, sky.dec, plans.size());
  gb.set_plans(plans);
  const double work = double(plans.size()) * double(o.elements) * double(sky.ra.size());
  int best = 2;
  double best_t = 1e300;
  for (bool full : {true, false}) {
    for (int spt : {1, 2, 4}) {
      const std::string name =
          std::string(full ? "af_gpu/" : "af_gpu_scalar/") + prec + "/spt_" + std::to_string(spt);
      if (!wanted(opt, name)) continue;
      gb.evaluate(full, spt);  // warm-up
      std::vector<double> times;
      for (int r = 0; r < opt.repeats; ++r) times.push_back(gb.evaluate(full, spt));
      const double t = median(times);
      if (full && t < best_t) best_t = t, best = spt;
      emit({{"name", name},
            {"stations", plans.size()},
            {"elements", o.elements},
            {"sources", sky.ra.size()},
            {"times", 1},
            {"sources_per_thread", spt},
            {"seconds", t},
            {"throughput", work / t},
            {"unit", kUnit},
            {"sincos_bound", bound},
            {"ratio_to_bound", work / t / bound}});
    }
  }
  return best;
}

// (c) The E stage of the 4 times on the GPU.
template <typename T>
void bench_gpu_stage(const Options& opt, const Observation& o, std::uint64_t side, int spt,
                     double bound) {
  const bool dbl = sizeof(T) == 8;
  const std::string name =
      std::string("jones_e_aa4/") + (dbl ? "double" : "float") + "/n" + std::to_string(side);
  if (!wanted(opt, name)) return;
  const sky::SkyModel sky = grid_sky(side);
  const std::size_t np = o.sites.size();
  bench::GpuBeam<T> gb(sky.ra, sky.dec, np);
  std::vector<double> total, kernel, plan, upload;
  for (int r = 0; r < std::max(2, opt.repeats / 2) + 1; ++r) {  // the first pass warms up
    double k = 0.0, p = 0.0, u = 0.0;
    const auto t0 = Clock::now();
    for (int t = 0; t < 4; ++t) {
      const auto tp = Clock::now();
      const std::vector<AaStationPlan> plans = make_plans(o, np, t);
      p += seconds_since(tp);
      u += gb.set_plans(plans);
      k += gb.evaluate(true, spt);
    }
    if (r == 0) continue;
    total.push_back(seconds_since(t0));
    kernel.push_back(k);
    plan.push_back(p);
    upload.push_back(u);
  }
  const double work = double(np) * double(o.elements) * double(sky.ra.size()) * 4.0;
  const double t = median(total), tk = median(kernel), oskar = oskar_jones_e(dbl, side);
  emit({{"name", name},
        {"stations", np},
        {"elements", o.elements},
        {"sources", sky.ra.size()},
        {"times", 4},
        {"sources_per_thread", spt},
        {"seconds", t},
        {"kernel_seconds", tk},
        {"plan_seconds", median(plan)},
        {"upload_seconds", median(upload)},
        {"throughput", work / t},
        {"kernel_throughput", work / tk},
        {"unit", kUnit},
        {"ratio_to_bound", work / tk / bound},
        {"oskar_seconds", oskar},
        {"oskar_device", "H200 SXM (oskar-gpu-anchor.md)"},
        {"speedup_vs_oskar", oskar / t},
        {"kernel_speedup_vs_oskar", oskar / tk}});
}

// The GPU beam kernel alone (J = E R, all stations, one time) for one pattern case; returns
// kernel seconds (0 when filtered out).
template <typename T>
double bench_pattern_gpu(const Options& opt, const Observation& o, const sky::SkyModel& sky,
                         PatternCase c, double dipole_seconds) {
  const std::string name =
      std::string("aa_pattern_gpu/") + (sizeof(T) == 8 ? "double" : "float") + "/" + case_name(c);
  if (!wanted(opt, name)) return 0.0;
  const std::vector<AaStationPlan> plans = make_plans(o, o.sites.size(), 0);
  bench::GpuBeam<T> gb(sky.ra, sky.dec, plans.size());
  gb.set_plans(plans);
  // The evaluator's default sources per thread first (its result is returned; float: 4, or 2
  // for grouped stations); grouped cases also at the other count (name suffix /spt_<S>).
  const bool grouped = !plans.front().groups.empty();
  const int spt_default = sizeof(T) == 8 ? 2 : (grouped ? 2 : 4);
  const int spt_other = sizeof(T) == 8 ? 1 : (grouped ? 4 : 2);
  double t_default = 0.0;
  for (const int spt : {spt_default, spt_other}) {
    if (spt != spt_default && !grouped) break;
    gb.evaluate(true, spt);  // warm-up
    std::vector<double> times;
    for (int r = 0; r < opt.repeats; ++r) times.push_back(gb.evaluate(true, spt));
    const double t = median(times);
    if (spt == spt_default) t_default = t;
    nlohmann::json j{
        {"name", spt == spt_default ? name : name + "/spt_" + std::to_string(spt)},
        {"stations", plans.size()},
        {"elements", o.elements},
        {"groups", plans.front().groups.size()},
        {"sw_order", c == PatternCase::SwUniform || c == PatternCase::SwMixed ? opt.sw_order : 0},
        {"sources", sky.ra.size()},
        {"times", 1},
        {"sources_per_thread", spt},
        {"seconds", t},
        {"throughput", double(plans.size()) * double(o.elements) * double(sky.ra.size()) / t},
        {"unit", kUnit}};
    if (dipole_seconds > 0.0) j["ratio_to_dipole"] = t / dipole_seconds;
    emit(j);
  }
  return t_default;
}

void bench_gpu(const Options& opt, const Observation& o, const sky::SkyModel& sky316) {
  const bench::GpuDescription gpu = bench::describe_gpu();
  emit({{"name", "gpu_device"},
        {"device", gpu.name},
        {"multiprocessors", gpu.multiprocessors},
        {"clock_ghz", gpu.clock_ghz}});
  const Bounds b = bench_sincos(opt, gpu);
  const int spt_d = bench_gpu_kernel<double>(opt, o, sky316, b.dbl);
  const int spt_f = bench_gpu_kernel<float>(opt, o, sky316, b.single);
  for (std::uint64_t side : {100u, 316u}) {
    bench_gpu_stage<double>(opt, o, side, spt_d, b.dbl);
    bench_gpu_stage<float>(opt, o, side, spt_f, b.single);
  }
}
#endif

Options parse(int argc, char** argv) {
  Options opt;
  bench::Args("bench_station_beam")
      .value("--model", "DIR", opt.model)
      .value("--cpu-stations", "N", opt.cpu_stations)
      .value("--cpu-sources", "S", opt.cpu_sources)
      .value("--repeats", "R", opt.repeats)
      .value("--sw-order", "L", opt.sw_order)
      .value("--filter", "substring", opt.filter)
      .parse(argc, argv);
  if (opt.cpu_stations < 1 || opt.cpu_sources < 1 || opt.repeats < 1 || opt.sw_order < 1) {
    std::cerr << "error: need --cpu-stations >= 1, --cpu-sources >= 1, --repeats >= 1, "
                 "--sw-order >= 1\n";
    std::exit(2);
  }
  return opt;
}

// The element-pattern cases (CPU, then GPU when there is one), skipped unless the filter
// selects one of their names.
void bench_patterns(const Options& opt, const Observation& base, const sky::SkyModel& sky) {
  bool any = false;
  for (const char* where : {"aa_pattern_cpu/", "aa_pattern_gpu/"})
    for (const char* prec : {"double/", "float/"})
      for (PatternCase c : kPatternCases)
        any = any || wanted(opt, std::string(where) + prec + case_name(c) + "/threads_1");
  if (!any) return;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("fringe_bench_sw_" + std::to_string(::getpid()));
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup{dir};
  write_sw_files(dir, opt.sw_order);
  std::vector<std::unique_ptr<Observation>> obs;
  for (PatternCase c : kPatternCases) obs.push_back(pattern_observation(base, c, dir));
  for (int threads : {omp_get_max_threads(), 1}) {
    double dipole_d = 0.0, dipole_f = 0.0;
    for (std::size_t i = 0; i < obs.size(); ++i) {
      const PatternCase c = kPatternCases[i];
      const double td = bench_pattern_cpu<double>(opt, *obs[i], sky, c, threads, dipole_d);
      const double tf = bench_pattern_cpu<float>(opt, *obs[i], sky, c, threads, dipole_f);
      if (c == PatternCase::Dipole) dipole_d = td, dipole_f = tf;
    }
  }
#ifdef FRINGE_HAVE_CUDA
  if (cuda_devices().empty()) return;
  double dipole_d = 0.0, dipole_f = 0.0;
  for (std::size_t i = 0; i < obs.size(); ++i) {
    const PatternCase c = kPatternCases[i];
    const double td = bench_pattern_gpu<double>(opt, *obs[i], sky, c, dipole_d);
    const double tf = bench_pattern_gpu<float>(opt, *obs[i], sky, c, dipole_f);
    if (c == PatternCase::Dipole) dipole_d = td, dipole_f = tf;
  }
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  try {
    Observation o = load_observation(opt.model);
    prepare_observation(o);
    const sky::SkyModel sky316 = grid_sky(316);
    for (int threads : {omp_get_max_threads(), 1}) {
      bench_cpu<double>(opt, o, sky316, threads);
      bench_cpu<float>(opt, o, sky316, threads);
    }
    bench_patterns(opt, o, sky316);
#ifdef FRINGE_HAVE_CUDA
    if (!cuda_devices().empty()) {
      bench_gpu(opt, o, sky316);
      return 0;
    }
#endif
    emit({{"name", "gpu"}, {"note", "no CUDA GPU (or no CUDA build): GPU rows skipped"}});
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
