// bench_imager: throughput of IDG gridding and degridding (van der Tol et al. 2018; Veenboer
// 2021, whose P100 figures are 0.235e9 and 0.230e9 visibilities/s) in the thesis' setup:
// 8192 x 8192 grid, subgrids of 32 x 32, kernel 9 (taper 7), 16 channels, 4 polarisations,
// 120 stations (7140 baselines, random in a 2 km disk, planar, observed at Dec +90 deg so that
// w = 0 and one w layer suffices), dumps of 0.9 s at 150 MHz with 12.2 kHz channels (the
// LOFAR-like case where a channel group fits one subgrid). The pixel size is chosen so the
// longest baseline just fits the grid.
//
// One JSON line per routine (gridding, degridding) and device (cpu, gpu): visibilities (rows x
// channels, each with 4 polarisations), seconds of the routine (gridder kernel + subgrid FFT +
// adder, or splitter + subgrid FFT + degridder kernel; host<->device copies of the
// visibilities and the grid are reported separately as transfer_seconds) and vis_per_s. On the
// GPU `seconds` is the GPU time of all batches with the back end's two streams overlapping
// (CudaIdgTimings::compute, median of --repeats calls); kernel_seconds, fft_seconds and
// adder_seconds come from one more call with a single stream, where each step's events time it
// alone (serial_seconds is their sum), and give the kernel's own rate and its roofline
// fraction:
//   per visibility and subgrid pixel the gridder and the degridder need 1 sincos (2 MUFU
//   operations: __sincosf) and 17 FP32 FMAs (1 for the phase, 16 for 4 complex multiply-adds;
//   the per-row dot products are shared by the row's channels and left out); the bound is
//   SMs x clock / max(17 / FP32 lanes, 2 / 16 MUFU lanes) vis-pixels per second (lanes per SM
//   from the compute capability; 16 MUFU; clock: the maximum SM clock the driver reports).
//   The kernels also issue one FMUL per sincos (__sincosf's scaling by 1/(2 pi)) and some
//   shared-memory loads, so about 20 of 17 counted instructions: an SM that issues one
//   instruction per clock per scheduler reaches at most ~0.85 of this bound.
// Without a GPU the gpu lines say "skipped".
// Usage: bench_imager [--times T] [--cpu-times T] [--stations S] [--channels C] [--grid G]
//                     [--subgrid N] [--device cpu|gpu|both] [--double] [--repeats R]
//                     [--variant K] [--degridder-variant K]
// --variant K, --degridder-variant K: the CUDA gridder and degridder kernel variants
// (CudaIdgOptions::gridder_variant and degridder_variant, idg_cuda.h; single precision;
// default: CudaIdgOptions' defaults), recorded as "gridder_variant" and "degridder_variant"
// in the gpu lines.
// Memory: about 36 MB of host and GPU memory per time step (120 stations, 16 channels,
// single precision) plus 2 GiB (4 GiB in double) for the grid on each side; --times 2048
// grids 2.3e8 visibilities.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/common/bench_args.h"
#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/plan.h"
#ifdef FRINGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "fringe/imager/idg_cuda.h"
#endif

namespace {

using namespace fringe;
using namespace fringe::imager;

struct Options {
  int times = 256;
  int cpu_times = 8;
  int stations = 120;
  int channels = 16;
  int grid = 8192;
  int subgrid = 32;
  int repeats = 3;
  std::string device = "both";
  bool double_precision = false;
  bool plan_only = false;
  int variant = -1;            // CUDA gridder kernel variant (-1: CudaIdgOptions' default)
  int degridder_variant = -1;  // CUDA degridder kernel variant (-1: CudaIdgOptions' default)
};

template <typename T>
VisBuffer<T> make_data(const Options& o, int times) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const double radius = 2000.0;
  std::vector<std::array<double, 2>> st(o.stations);
  for (auto& s : st) {
    do {
      s = {radius * uni(rng), radius * uni(rng)};
    } while (s[0] * s[0] + s[1] * s[1] > radius * radius);
  }
  const int nbl = o.stations * (o.stations - 1) / 2;
  VisBuffer<T> v;
  v.resize(std::size_t(nbl) * times, o.channels, 4);
  for (int c = 0; c < o.channels; ++c) v.freq_hz.push_back(150e6 + c * 12.2e3);
  const double omega = 7.292115e-5 * 0.9;  // Earth rotation per dump [rad]
  std::size_t row = 0;
  int b = 0;
  for (int p = 0; p < o.stations; ++p)
    for (int q = p + 1; q < o.stations; ++q, ++b)
      for (int t = 0; t < times; ++t, ++row) {
        const double h = omega * t, lx = st[p][0] - st[q][0], ly = st[p][1] - st[q][1];
        v.uvw_m[row] = {std::sin(h) * lx + std::cos(h) * ly, -std::cos(h) * lx + std::sin(h) * ly,
                        0.0};
        v.time_s[row] = 0.9 * t;
        v.baseline[row] = b;
      }
      // Values do not change the work; a cheap pattern keeps the set-up short for many times.
#pragma omp parallel for
  for (std::size_t i = 0; i < v.vis.size(); ++i)
    v.vis[i] = {T(1.0 + 0.25 * double(i % 7)), T(0.5 - 0.125 * double(i % 5))};
  std::fill(v.weight.begin(), v.weight.end(), 1.0f);
  return v;
}

GridGeometry geometry(const Options& o, double max_uv_lambda) {
  GridGeometry g;
  g.grid_size = g.image_size = o.grid;
  g.subgrid_size = o.subgrid;
  g.kernel_size = 9;
  g.taper_support = 7;
  const double du = 1.02 * max_uv_lambda / (o.grid / 2 - o.subgrid);
  g.cell_rad = 1.0 / (o.grid * du);
  return g;
}

template <typename T>
void bench(const Options& o, const std::string& device) {
  const int times = device == "cpu" ? o.cpu_times : o.times;
  VisBuffer<T> v = make_data<T>(o, times);
  double max_uv = 0;
  for (const auto& u : v.uvw_m) max_uv = std::max(max_uv, std::hypot(u[0], u[1]));
  max_uv *= v.freq_hz.back() / kSpeedOfLight;
  const GridGeometry g = geometry(o, max_uv);
  const auto tp = std::chrono::steady_clock::now();
  const Plan plan = make_plan(
      g, {v.num_rows, v.num_channels, v.uvw_m, v.time_s, v.baseline, v.freq_hz}, v.weight);
  const double plan_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - tp).count();
  std::size_t slots = 0;  // visibility slots the kernels process (rows x channels per subgrid)
  for (const auto& s : plan.subgrids) slots += std::size_t(s.num_rows) * s.num_channels;
  const Taper taper(TaperType::KaiserBessel, 7);
  const std::size_t gsize = std::size_t(4) * g.grid_size * g.grid_size;
  nlohmann::json base = {{"bench", "imager"},
                         {"device", device},
                         {"precision", sizeof(T) == 4 ? "single" : "double"},
                         {"grid", g.grid_size},
                         {"subgrid", g.subgrid_size},
                         {"kernel", g.kernel_size},
                         {"channels", o.channels},
                         {"pols", 4},
                         {"stations", o.stations},
                         {"times", times},
                         {"visibilities", plan.num_gridded},
                         {"outside", plan.num_outside},
                         {"subgrids", plan.subgrids.size()},
                         {"plan_seconds", plan_seconds},
                         {"mean_visibilities_per_subgrid", double(slots) / plan.subgrids.size()}};
  {
    // How full the subgrids are: quartiles of rows and of visibility slots per subgrid.
    std::vector<std::size_t> rows, vis;
    for (const auto& s : plan.subgrids) {
      rows.push_back(s.num_rows);
      vis.push_back(std::size_t(s.num_rows) * s.num_channels);
    }
    std::sort(rows.begin(), rows.end());
    std::sort(vis.begin(), vis.end());
    auto q = [](const std::vector<std::size_t>& x, double f) {
      return x.empty() ? std::size_t(0) : x[std::size_t(f * double(x.size() - 1))];
    };
    base["rows_per_subgrid_quartiles"] = {q(rows, 0), q(rows, 0.25), q(rows, 0.5), q(rows, 0.75),
                                          q(rows, 1)};
    base["vis_per_subgrid_quartiles"] = {q(vis, 0), q(vis, 0.25), q(vis, 0.5), q(vis, 0.75),
                                         q(vis, 1)};
  }
  if (o.plan_only) {
    std::cout << base.dump() << std::endl;
    return;
  }
  std::vector<Complex<T>> grid(gsize);
  std::unique_ptr<IdgBackend<T>> backend;
  double lanes = 0, mufu = 16, sms = 0, clock_hz = 0;
#ifdef FRINGE_HAVE_CUDA
  CudaIdgTimings tm;
  std::unique_ptr<IdgBackend<T>> serial;  // one stream: per-step timings
#endif
  if (device == "cpu") {
    backend = make_cpu_backend<T>();
    base["cpu_threads"] = omp_get_max_threads();
  } else {
#ifdef FRINGE_HAVE_CUDA
    CudaIdgOptions opt;
    opt.timings = &tm;
    if (o.variant >= 0) opt.gridder_variant = o.variant;
    if (o.degridder_variant >= 0) opt.degridder_variant = o.degridder_variant;
    backend = make_cuda_backend<T>(opt);
    opt.num_streams = 1;
    serial = make_cuda_backend<T>(opt);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    sms = prop.multiProcessorCount;
    clock_hz = clock_khz * 1e3;
    lanes = (prop.major >= 9 || (prop.major == 8 && prop.minor >= 6)) ? 128 : 64;
    if (prop.major == 8 && prop.minor == 0) lanes = 64;
    base["gpu"] = prop.name;
    base["gridder_variant"] = opt.gridder_variant;
    base["degridder_variant"] = opt.degridder_variant;
#endif
  }
  for (const char* routine : {"gridding", "degridding"}) {
    const bool gridding = std::string(routine) == "gridding";
    std::vector<double> wall, compute, xfer;
    auto call = [&](IdgBackend<T>& b) {
      if (gridding)
        b.grid(g, taper, plan.subgrids, v, grid.data());
      else
        b.degrid(g, taper, plan.subgrids, grid.data(), v);
    };
    for (int r = 0; r < o.repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      call(*backend);
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
#ifdef FRINGE_HAVE_CUDA
      if (device == "gpu") {
        compute.push_back(tm.compute);
        xfer.push_back(tm.transfer);
      }
#endif
    }
    auto median = [](std::vector<double> x) {
      std::sort(x.begin(), x.end());
      return x.empty() ? 0.0 : x[x.size() / 2];
    };
    nlohmann::json j = base;
    j["routine"] = routine;
    j["wall_seconds"] = median(wall);
    if (device == "cpu") {
      j["seconds"] = median(wall);
      j["vis_per_s"] = plan.num_gridded / median(wall);
    } else {
#ifdef FRINGE_HAVE_CUDA
      call(*serial);  // each step timed alone
      const double k = tm.kernel, f = tm.fft, a = tm.adder, c = median(compute);
      j["seconds"] = c;
      j["vis_per_s"] = plan.num_gridded / c;
      j["transfer_seconds"] = median(xfer);
      j["kernel_seconds"] = k;
      j["fft_seconds"] = f;
      j["adder_seconds"] = a;
      j["serial_seconds"] = tm.compute;
      j["kernel_vis_per_s"] = plan.num_gridded / k;
      const double fma = 17.0;
      const double per_sm = std::max(fma / lanes, 2.0 / mufu);  // clocks per vis-pixel per SM
      const double bound_vis_pixel = sms * clock_hz / per_sm;
      const double achieved = double(slots) * g.subgrid_size * g.subgrid_size / k;
      j["sm_clock_hz"] = clock_hz;
      j["bound_vis_pixel_per_s"] = bound_vis_pixel;
      j["achieved_vis_pixel_per_s"] = achieved;
      j["roofline_fraction"] = achieved / bound_vis_pixel;
      j["bound_vis_per_s"] = bound_vis_pixel / (g.subgrid_size * g.subgrid_size);
#endif
    }
    std::cout << j.dump() << std::endl;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  bench::Args args("bench_imager");
  args.value("--times", "T", o.times)
      .value("--cpu-times", "T", o.cpu_times)
      .value("--stations", "S", o.stations)
      .value("--channels", "C", o.channels)
      .value("--grid", "G", o.grid)
      .value("--subgrid", "N", o.subgrid)
      .value("--device", "cpu|gpu|both", o.device)
      .flag("--double", o.double_precision)
      .value("--repeats", "R", o.repeats)
      .flag("--plan-only", o.plan_only)
      .value("--variant", "K", o.variant)
      .value("--degridder-variant", "K", o.degridder_variant)
      .parse(argc, argv);
  try {
    for (const std::string d : {"cpu", "gpu"}) {
      if (o.device != "both" && o.device != d) continue;
      if (d == "gpu" && cuda_devices().empty()) {
        std::cout << nlohmann::json{{"bench", "imager"},
                                    {"device", "gpu"},
                                    {"skipped", "no CUDA device"}}
                         .dump()
                  << std::endl;
        continue;
      }
      if (o.double_precision)
        bench<double>(o, d);
      else
        bench<float>(o, d);
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
