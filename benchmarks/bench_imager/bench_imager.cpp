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
// adder, or splitter + subgrid FFT + degridder kernel; plus host<->device copies of the
// visibilities and the grid on the GPU, reported separately), vis_per_s (routine, without the
// copies) and, on the GPU, the kernel's own rate and its roofline fraction:
//   per visibility and subgrid pixel the gridder issues 1 sincos (2 MUFU operations:
//   __sincosf) and 17 FP32 instructions (1 phase FMA, 16 for 4 complex multiply-adds); the
//   bound is SMs x clock / max(17 / FP32 lanes, 2 / 16 MUFU lanes) vis-pixels per second
//   (lanes per SM from the compute capability; 16 MUFU). The degridder's count is the same
//   plus 6 FMAs for the two dot products per pixel (23).
// Without a GPU the gpu lines say "skipped".
// Usage: bench_imager [--times T] [--cpu-times T] [--stations S] [--channels C] [--grid G]
//                     [--subgrid N] [--device cpu|gpu|both] [--double] [--repeats R]
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

#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/plan.h"
#ifdef FRINGE_IMAGER_CUDA
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
  max_uv *= v.freq_hz.back() / 299792458.0;
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
  std::vector<Complex<T>> grid(gsize);
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
  std::unique_ptr<IdgBackend<T>> backend;
  double lanes = 0, mufu = 16, sms = 0, clock_hz = 0;
#ifdef FRINGE_IMAGER_CUDA
  CudaIdgTimings tm;
#endif
  if (device == "cpu") {
    backend = make_cpu_backend<T>();
    base["cpu_threads"] = omp_get_max_threads();
  } else {
#ifdef FRINGE_IMAGER_CUDA
    CudaIdgOptions opt;
    opt.timings = &tm;
    backend = make_cuda_backend<T>(opt);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    sms = prop.multiProcessorCount;
    clock_hz = clock_khz * 1e3;
    lanes = (prop.major >= 9 || (prop.major == 8 && prop.minor >= 6)) ? 128 : 64;
    if (prop.major == 8 && prop.minor == 0) lanes = 64;
    base["gpu"] = prop.name;
#endif
  }
  for (const char* routine : {"gridding", "degridding"}) {
    const bool gridding = std::string(routine) == "gridding";
    std::vector<double> wall, kern, fft, add, xfer;
    for (int r = 0; r < o.repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      if (gridding)
        backend->grid(g, taper, plan.subgrids, v, grid.data());
      else
        backend->degrid(g, taper, plan.subgrids, grid.data(), v);
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
#ifdef FRINGE_IMAGER_CUDA
      if (device == "gpu") {
        kern.push_back(tm.kernel);
        fft.push_back(tm.fft);
        add.push_back(tm.adder);
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
      const double k = median(kern), f = median(fft), a = median(add);
      j["kernel_seconds"] = k;
      j["fft_seconds"] = f;
      j["adder_seconds"] = a;
      j["transfer_seconds"] = median(xfer);
      j["seconds"] = k + f + a;
      j["vis_per_s"] = plan.num_gridded / (k + f + a);
      j["kernel_vis_per_s"] = plan.num_gridded / k;
      const double fma = gridding ? 17.0 : 23.0;
      const double per_sm = std::max(fma / lanes, 2.0 / mufu);  // clocks per vis-pixel per SM
      const double bound_vis_pixel = sms * clock_hz / per_sm;
      const double achieved = double(slots) * g.subgrid_size * g.subgrid_size / k;
      j["bound_vis_pixel_per_s"] = bound_vis_pixel;
      j["achieved_vis_pixel_per_s"] = achieved;
      j["roofline_fraction"] = achieved / bound_vis_pixel;
      j["bound_vis_per_s"] = bound_vis_pixel / (g.subgrid_size * g.subgrid_size);
    }
    std::cout << j.dump() << std::endl;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "error: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--times")
      o.times = std::stoi(next());
    else if (a == "--cpu-times")
      o.cpu_times = std::stoi(next());
    else if (a == "--stations")
      o.stations = std::stoi(next());
    else if (a == "--channels")
      o.channels = std::stoi(next());
    else if (a == "--grid")
      o.grid = std::stoi(next());
    else if (a == "--subgrid")
      o.subgrid = std::stoi(next());
    else if (a == "--repeats")
      o.repeats = std::stoi(next());
    else if (a == "--device")
      o.device = next();
    else if (a == "--double")
      o.double_precision = true;
    else {
      std::cerr << "usage: bench_imager [--times T] [--cpu-times T] [--stations S] [--channels C]"
                   " [--grid G] [--subgrid N] [--device cpu|gpu|both] [--double] [--repeats R]\n";
      return 2;
    }
  }
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
