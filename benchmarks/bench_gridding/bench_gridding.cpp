// bench_gridding: throughput of the FFT imager's convolutional gridder and degridder
// (docs/gpu_gridding.md) in two cases:
//  - memo086: SDP Memo 086's (NVIDIA, gridding on GPUs) size: 400,000 visibilities on a
//    4096 x 4096 grid with a 2-D kernel of about 128 x 128 points; OSKAR's kernels are separable
//    with an odd width, so support 64 (129 x 129 points), oversample 8. Reported in TFLOPS at
//    the memo's count of 8 flop per visibility per kernel point (8 x 129^2 x visibilities per
//    second; the memo's K40-era best: 146-151 GFLOPS single precision).
//  - spheroidal: OSKAR's default FFT kernel size (support 3: 7 x 7, oversample 100), 16.7 M
//    visibilities (--vis) on a 4096 x 4096 grid, in visibilities per second.
//  - custom: --support S, --oversample O, --vis N on a 4096 x 4096 grid (to find where one
//    formulation overtakes another).
// uv coverage: S stations random in a disk, Earth-rotation tracks at Dec +90 deg (circles),
// visibilities in Measurement Set order (time-major, baselines inner), the longest baseline
// just inside the grid (support + 2 cells from its edge); 1 polarisation unless --pols.
// Kernel values: a Gaussian stand-in of the same table size (the work does not depend on them).
//
// One JSON line per case, routine (grid, degrid), device, precision and GPU formulation
// (scatter, tiled, gather; degrid has one): `seconds` is the median over --repeats of the GPU
// time of a call with the visibilities already in GPU memory (prepare + tile sort + kernel,
// CUDA events; `prepare_seconds`, `sort_seconds`, `kernel_seconds` its parts, medians too),
// `vis_per_s` and `tflops` from it, `kernel_vis_per_s` and `kernel_tflops` from the kernel
// alone; `transfer_seconds` and `host_call_seconds`: one more call from host arrays (the
// copies to the GPU, and the call's wall time). On the CPU `seconds` is the wall time of
// grid_simple_cpu / degrid_simple_cpu (all threads, --cpu-vis visibilities). Without CUDA (or a
// GPU) the gpu lines say "skipped". Usage: bench_gridding [--case memo086|spheroidal|custom|all]
// [--support S] [--oversample O]
//                       [--device cpu|gpu|both]
//                       [--precision single|double|both] [--vis N] [--cpu-vis N] [--pols P]
//                       [--repeats R] [--threads T]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/common/bench_args.h"
#include "fringe/core/device.h"
#include "fringe/imager/conv_degrid.h"
#include "fringe/imager/conv_grid.h"
#ifdef FRINGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "fringe/imager/conv_grid_cuda.h"
#endif

namespace {

using namespace fringe;
using namespace fringe::imager;

struct Options {
  std::string which = "all";
  std::string device = "both";
  std::string precision = "both";
  long long vis = 1 << 24;      // spheroidal case on the GPU
  long long cpu_vis = 1 << 21;  // spheroidal case on the CPU
  int pols = 1;
  int repeats = 5;
  int threads = 0;
  int support = 8;     // --case custom
  int oversample = 8;  // --case custom
};

struct Case {
  std::string name;
  int grid = 4096;
  int support = 3;
  int oversample = 100;
  int stations = 256;
  std::size_t vis = 0;
};

ConvKernel1d make_kernel(int support, int oversample) {
  ConvKernel1d k;
  k.support = support;
  k.oversample = oversample;
  k.values.resize(std::size_t(oversample) * (support + 1));
  for (std::size_t i = 0; i < k.values.size(); ++i) {
    const double x = double(i) / oversample / (0.5 * (support + 1));
    k.values[i] = std::exp(-0.5 * x * x);
  }
  return k;
}

template <typename T>
struct Data {
  std::vector<double> uu, vv, ww;
  std::vector<Complex<T>> vis;
  std::vector<float> weight;
  double cell_rad = 0.0;
};

template <typename T>
Data<T> make_data(const Case& c, std::size_t n, int pols) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<std::array<double, 2>> st(c.stations);
  for (auto& s : st) do {
      s = {uni(rng), uni(rng)};
    } while (s[0] * s[0] + s[1] * s[1] > 1.0);
  std::vector<std::array<double, 2>> bl;
  for (int p = 0; p < c.stations; ++p)
    for (int q = p + 1; q < c.stations; ++q)
      bl.push_back({st[p][0] - st[q][0], st[p][1] - st[q][1]});
  Data<T> d;
  d.uu.resize(n);
  d.vv.resize(n);
  d.ww.assign(n, 0.0);
  const double dh = 2.0 * 3.141592653589793 / 86400.0 * 10.0;  // 10 s dumps [rad]
  double max_uv = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t t = i / bl.size(), b = i % bl.size();
    const double h = dh * double(t);
    d.uu[i] = std::cos(h) * bl[b][0] - std::sin(h) * bl[b][1];
    d.vv[i] = std::sin(h) * bl[b][0] + std::cos(h) * bl[b][1];
    max_uv = std::max(max_uv, std::max(std::abs(d.uu[i]), std::abs(d.vv[i])));
  }
  // grid_size x cell_rad = cells per wavelength; the farthest point support + 2 cells inside.
  d.cell_rad = (c.grid / 2 - c.support - 2) / max_uv / c.grid;
  d.vis.resize(n * pols);
  for (std::size_t i = 0; i < d.vis.size(); ++i)
    d.vis[i] = {T(1.0 + 0.25 * double(i % 7)), T(0.5 - 0.125 * double(i % 5))};
  d.weight.assign(n, 1.0f);
  return d;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

nlohmann::json base_line(const Case& c, const std::string& routine, const std::string& device,
                         bool dbl, int pols, std::size_t n) {
  const int w = 2 * c.support + 1;
  return {{"bench", "gridding"},
          {"case", c.name},
          {"routine", routine},
          {"device", device},
          {"precision", dbl ? "double" : "single"},
          {"grid", c.grid},
          {"support", c.support},
          {"kernel_width", w},
          {"oversample", c.oversample},
          {"pols", pols},
          {"visibilities", n}};
}

void add_rates(nlohmann::json& j, const Case& c, std::size_t n, double seconds,
               double kernel_seconds) {
  const double w = 2 * c.support + 1;
  const double flop = 8.0 * w * w * double(n);  // memo 086's count
  j["seconds"] = seconds;
  j["vis_per_s"] = seconds > 0 ? double(n) / seconds : 0.0;
  j["tflops"] = seconds > 0 ? flop / seconds * 1e-12 : 0.0;
  if (kernel_seconds > 0) {
    j["kernel_seconds"] = kernel_seconds;
    j["kernel_vis_per_s"] = double(n) / kernel_seconds;
    j["kernel_tflops"] = flop / kernel_seconds * 1e-12;
  }
}

template <typename T>
void bench_cpu(const Options& o, const Case& c, std::size_t n) {
  const Data<T> d = make_data<T>(c, n, o.pols);
  const ConvKernel1d k = make_kernel(c.support, c.oversample);
  const std::size_t plane = std::size_t(c.grid) * c.grid;
  std::vector<Complex<T>> grid(plane * o.pols);
  std::vector<double> tg, td;
  GridTotals tot;
  std::vector<float> weight = d.weight;
  const ConvVisView<T> view{n,           o.pols,       d.uu.data(),  d.vv.data(),
                            d.ww.data(), d.vis.data(), weight.data()};
  std::vector<Complex<T>> out(n * o.pols);
  const ConvDegridView<T> dview{n, o.pols, d.uu.data(), d.vv.data(), out.data()};
  for (int r = 0; r < o.repeats; ++r) {
    std::fill(grid.begin(), grid.end(), Complex<T>{T(0), T(0)});
    auto t0 = std::chrono::steady_clock::now();
    tot = grid_simple_cpu(k, view, d.cell_rad, c.grid, grid.data(), o.threads);
    tg.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    t0 = std::chrono::steady_clock::now();
    degrid_simple_cpu(k, dview, d.cell_rad, c.grid, grid.data(), o.threads);
    td.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  for (const char* routine : {"grid", "degrid"}) {
    nlohmann::json j = base_line(c, routine, "cpu", sizeof(T) == 8, o.pols, n);
    j["threads"] = threads;
    j["outside"] = tot.outside;
    j["repeats"] = o.repeats;
    add_rates(j, c, n, median(std::string(routine) == "grid" ? tg : td), 0.0);
    std::cout << j.dump() << std::endl;
  }
}

#ifdef FRINGE_HAVE_CUDA
template <typename T>
T* to_device(const std::vector<T>& h) {
  void* p = nullptr;
  if (cudaMalloc(&p, std::max<std::size_t>(1, h.size()) * sizeof(T)) != cudaSuccess)
    throw std::runtime_error("cudaMalloc failed");
  cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return static_cast<T*>(p);
}

template <typename T>
void bench_gpu(const Options& o, const Case& c, std::size_t n) {
  const Data<T> d = make_data<T>(c, n, o.pols);
  const ConvKernel1d k = make_kernel(c.support, c.oversample);
  double* uu = to_device(d.uu);
  double* vv = to_device(d.vv);
  Complex<T>* vis = to_device(d.vis);
  float* weight = to_device(d.weight);
  Complex<T>* out = to_device(std::vector<Complex<T>>(n * o.pols));
  const ConvVisView<T> view{n, o.pols, uu, vv, nullptr, vis, weight};
  const ConvDegridView<T> dview{n, o.pols, uu, vv, out};
  // Tiled twice: its default tile side and the other one of 32 and 64.
  const int def_tile = default_tile_size(c.support, o.pols, sizeof(T) == 8);
  const int other_tile = def_tile == 32 ? 64 : 32;
  const std::pair<ConvGridMethod, int> configs[] = {{ConvGridMethod::Scatter, 0},
                                                    {ConvGridMethod::Tiled, 0},
                                                    {ConvGridMethod::Tiled, other_tile},
                                                    {ConvGridMethod::Gather, 0}};
  for (const auto& [m, tile] : configs) {
    ConvCudaOptions opt;
    opt.method = m;
    opt.tile_size = tile;
    ConvGridCuda<T> g(k, c.grid, o.pols, opt);
    std::vector<double> tot, prep, sort, kern;
    GridTotals totals;
    g.grid_device(view, d.cell_rad);  // warm-up (allocations)
    for (int r = 0; r < o.repeats; ++r) {
      g.zero_grid();
      totals = g.grid_device(view, d.cell_rad);
      const ConvCudaTimings& t = g.timings();
      tot.push_back(t.total);
      prep.push_back(t.prepare);
      sort.push_back(t.sort);
      kern.push_back(t.kernel);
    }
    nlohmann::json j = base_line(c, "grid", "gpu", sizeof(T) == 8, o.pols, n);
    j["method"] = to_string(m);
    if (m == ConvGridMethod::Tiled) j["tile_size"] = tile > 0 ? tile : def_tile;
    j["outside"] = totals.outside;
    j["prepare_seconds"] = median(prep);
    j["sort_seconds"] = median(sort);
    j["repeats"] = o.repeats;
    j["auto"] = to_string(auto_grid_method(c.support, o.pols, sizeof(T) == 8));
    // One call from host arrays (grid_simple_cuda's path): the copies to the GPU (pageable
    // memory) and the whole call's wall time, for the end-to-end imager.
    {
      std::vector<float> w = d.weight;
      const ConvVisView<T> hview{n,           o.pols,       d.uu.data(), d.vv.data(),
                                 d.ww.data(), d.vis.data(), w.data()};
      const auto t0 = std::chrono::steady_clock::now();
      g.grid(hview, d.cell_rad);
      j["host_call_seconds"] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      j["transfer_seconds"] = g.timings().transfer;
    }
    add_rates(j, c, n, median(tot), median(kern));
    std::cout << j.dump() << std::endl;
    if (m == ConvGridMethod::Scatter) {
      std::vector<double> dt, dk;
      g.degrid_device(dview, d.cell_rad);
      for (int r = 0; r < o.repeats; ++r) {
        g.degrid_device(dview, d.cell_rad);
        dt.push_back(g.timings().total);
        dk.push_back(g.timings().kernel);
      }
      nlohmann::json jd = base_line(c, "degrid", "gpu", sizeof(T) == 8, o.pols, n);
      jd["method"] = "gather";
      jd["prepare_seconds"] = g.timings().prepare;
      jd["repeats"] = o.repeats;
      add_rates(jd, c, n, median(dt), median(dk));
      std::cout << jd.dump() << std::endl;
    }
  }
  cudaFree(uu);
  cudaFree(vv);
  cudaFree(vis);
  cudaFree(weight);
  cudaFree(out);
}
#endif

template <typename T>
void run_case(const Options& o, const Case& c) {
  if (o.device != "gpu") bench_cpu<T>(o, c, c.name == "memo086" ? c.vis : std::size_t(o.cpu_vis));
  if (o.device == "cpu") return;
#ifdef FRINGE_HAVE_CUDA
  if (!cuda_devices().empty()) {
    bench_gpu<T>(o, c, c.vis);
    return;
  }
#endif
  nlohmann::json j = base_line(c, "grid", "gpu", sizeof(T) == 8, o.pols, c.vis);
  j["skipped"] = "no CUDA build or no GPU";
  std::cout << j.dump() << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  bench::Args args("bench_gridding");
  args.value("--case", "memo086|spheroidal|custom|all", o.which)
      .value("--device", "cpu|gpu|both", o.device)
      .value("--precision", "single|double|both", o.precision)
      .value("--vis", "N", o.vis)
      .value("--cpu-vis", "N", o.cpu_vis)
      .value("--pols", "P", o.pols)
      .value("--repeats", "R", o.repeats)
      .value("--threads", "T", o.threads)
      .value("--support", "S", o.support)
      .value("--oversample", "O", o.oversample);
  args.parse(argc, argv);
  if (o.pols < 1 || o.pols > 4 || o.repeats < 1 || o.vis < 1 || o.cpu_vis < 1) {
    std::cerr << "error: --pols must be 1..4, --repeats, --vis and --cpu-vis >= 1\n";
    return 2;
  }
  std::vector<Case> cases;
  if (o.which == "memo086" || o.which == "all")
    cases.push_back({"memo086", 4096, 64, 8, 100, 400000});
  if (o.which == "spheroidal" || o.which == "all")
    cases.push_back({"spheroidal", 4096, 3, 100, 256, std::size_t(o.vis)});
  if (o.which == "custom") {
    if (o.support < 1 || o.support > 256 || o.oversample < 1) {
      std::cerr << "error: --support must be 1..256 and --oversample >= 1\n";
      return 2;
    }
    cases.push_back({"custom", 4096, o.support, o.oversample, 256, std::size_t(o.vis)});
  }
  if (cases.empty()) {
    std::cerr << "error: --case " << o.which << ": expected memo086, spheroidal, custom or all\n";
    return 2;
  }
  try {
    for (const Case& c : cases) {
      if (o.precision != "double") run_case<float>(o, c);
      if (o.precision != "single") run_case<double>(o, c);
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_gridding: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
