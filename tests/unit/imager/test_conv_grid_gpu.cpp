// The CUDA gridder/degridder of the FFT imager (conv_grid_cuda.h) against a brute-force
// reference written here from OSKAR 2.13's simple gridder (oskar_grid_simple.c: cell =
// round(pos) + grid_size / 2, pos_u = -u grid_size cell_rad, pos_v = v grid_size cell_rad,
// kernel offset round((round(pos) - pos) oversample), support wholly on the grid or skipped),
// element by element, for every formulation, float and double, 1 and 4 polarisations; and the
// CPU degridder (degrid_simple_cpu) against the same reference and as the adjoint of gridding.
// The GPU tests skip without a CUDA device.
//
// Tolerance (docs/gpu_gridding.md): the reference sums in double; a cell that m visibilities
// touch, with terms t_i = w_i v_i k_i, differs by at most 2 (m + 5) u sum |t_i| where u is the
// unit roundoff of T (2^-24 float, 2^-53 double): 5 roundings per term (w v, the two tabulated
// samples rounded to T, their product, the product with the value) and m - 1 additions in any
// order (the GPU's atomics add in a run-dependent order), doubled to cover the reference's own
// rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "fringe/core/device.h"
#include "fringe/imager/conv_degrid.h"
#include "fringe/imager/conv_grid.h"
#include "fringe/imager/conv_grid_cuda.h"

namespace fringe::imager {
namespace {

bool have_gpu() { return !cuda_devices().empty(); }

// A smooth positive tabulated kernel (a Gaussian of 1 cell sigma, in OSKAR's 1-D layout).
// The convention tests need no particular shape; the spheroidal one is tested elsewhere.
ConvKernel1d test_kernel(int support, int oversample) {
  ConvKernel1d k;
  k.support = support;
  k.oversample = oversample;
  k.values.resize(static_cast<std::size_t>(oversample) * (support + 1));
  for (std::size_t i = 0; i < k.values.size(); ++i) {
    const double x = static_cast<double>(i) / oversample;
    k.values[i] = std::exp(-0.5 * x * x / (0.25 * (support + 1) * (support + 1)));
  }
  return k;
}

struct VisSet {
  int num_pols = 1;
  std::vector<double> uu, vv, ww;
  std::vector<Complex<double>> vis;
  std::vector<float> weight;
  std::size_t size() const { return uu.size(); }
};

// n random visibilities in a disk of radius r_max wavelengths (some past the grid's edge),
// a crowd of n_crowd in one cell (several chunks of one tile), a few of weight 0.
VisSet random_vis(std::size_t n, std::size_t n_crowd, double r_max, int num_pols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  VisSet s;
  s.num_pols = num_pols;
  for (std::size_t i = 0; i < n + n_crowd; ++i) {
    double u = 0.0, v = 0.0;
    if (i < n) {
      do {
        u = uni(rng);
        v = uni(rng);
      } while (u * u + v * v > 1.0);
      u *= r_max;
      v *= r_max;
    } else {
      u = 3.3 + 0.2 * uni(rng);
      v = -7.1 + 0.2 * uni(rng);
    }
    s.uu.push_back(u);
    s.vv.push_back(v);
    s.ww.push_back(0.0);
    s.weight.push_back(i % 97 == 5 ? 0.0f : static_cast<float>(0.5 + 0.5 * (uni(rng) + 1.0)));
    for (int p = 0; p < num_pols; ++p) s.vis.push_back({uni(rng), uni(rng)});
  }
  return s;
}

// The reference gridder in double: the grid, the per-cell sum of |terms| and count of terms
// (for the tolerance), counts and norm (sum over gridded visibilities of weight x the sum of
// the 2-D kernel samples used).
// OSKAR's placement, in the gridding precision T (its single-precision imager computes the
// positions in float): centre cell and kernel offsets (oversampled samples).
struct Place {
  int gu, gv, ou, ov;
};
template <typename T>
Place place(double uu, double vv, double cell_rad, int grid_size, int os) {
  const T scale = T(grid_size) * T(cell_rad);
  const T pu = -T(uu) * scale, pv = T(vv) * scale;
  return {static_cast<int>(std::round(pu)) + grid_size / 2,
          static_cast<int>(std::round(pv)) + grid_size / 2,
          static_cast<int>(std::round((std::round(pu) - pu) * T(os))),
          static_cast<int>(std::round((std::round(pv) - pv) * T(os)))};
}

struct RefGrid {
  std::vector<Complex<double>> grid;
  std::vector<double> abs_sum;
  std::vector<int> terms;
  std::size_t gridded = 0, outside = 0;
  double norm = 0.0;
};

template <typename T>
RefGrid reference_grid(const ConvKernel1d& k, const VisSet& s, double cell_rad, int grid_size) {
  const int sup = k.support, os = k.oversample, np = s.num_pols;
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  RefGrid r;
  r.grid.assign(np * plane, {0.0, 0.0});
  r.abs_sum.assign(np * plane, 0.0);
  r.terms.assign(plane, 0);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double w = s.weight[i];
    if (!(w > 0.0)) continue;
    const Place pl = place<T>(s.uu[i], s.vv[i], cell_rad, grid_size, os);
    const int gu = pl.gu, gv = pl.gv, ou = pl.ou, ov = pl.ov;
    if (gu + sup >= grid_size || gu - sup < 0 || gv + sup >= grid_size || gv - sup < 0) {
      ++r.outside;
      continue;
    }
    ++r.gridded;
    double sum = 0.0;
    for (int j = -sup; j <= sup; ++j) {
      for (int q = -sup; q <= sup; ++q) {
        const double c = k.values[std::abs(ou + q * os)] * k.values[std::abs(ov + j * os)];
        const std::size_t cell = static_cast<std::size_t>(gv + j) * grid_size + (gu + q);
        sum += c;
        ++r.terms[cell];
        for (int p = 0; p < np; ++p) {
          const Complex<double> x = s.vis[i * np + p];
          r.grid[p * plane + cell].re += w * x.re * c;
          r.grid[p * plane + cell].im += w * x.im * c;
          r.abs_sum[p * plane + cell] += w * (std::abs(x.re) + std::abs(x.im)) * c;
        }
      }
    }
    r.norm += w * sum;
  }
  return r;
}

template <typename T>
std::vector<Complex<T>> to_t(const std::vector<Complex<double>>& x) {
  std::vector<Complex<T>> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    y[i] = {static_cast<T>(x[i].re), static_cast<T>(x[i].im)};
  return y;
}

template <typename T>
void expect_grid_near(const RefGrid& r, const std::vector<Complex<T>>& g, int np, std::size_t plane,
                      const char* what) {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  int bad = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double tol = 2.0 * (r.terms[i % plane] + 5) * u * r.abs_sum[i] + 1e-300;
    const double dre = std::abs(g[i].re - r.grid[i].re), dim = std::abs(g[i].im - r.grid[i].im);
    if ((dre > tol || dim > tol) && ++bad <= 5)
      ADD_FAILURE() << what << ": cell " << i % plane << " pol " << i / plane << ": got ("
                    << g[i].re << ", " << g[i].im << "), reference (" << r.grid[i].re << ", "
                    << r.grid[i].im << "), tolerance " << tol;
  }
  EXPECT_EQ(bad, 0) << what;
  (void)np;
}

template <typename T>
void check_grid(ConvGridMethod method, int support, int oversample, int grid_size, int np,
                std::size_t n, std::size_t n_crowd, int tile_size = 0) {
  const ConvKernel1d k = test_kernel(support, oversample);
  const double cell_rad = 1e-3;
  // Disk radius: a little past the grid's edge (grid_size / 2 cells of 1 / (grid_size
  // cell_rad) wavelengths), so that some supports leave the grid.
  const double r_max = 1.05 * (grid_size / 2) / (grid_size * cell_rad);
  VisSet s = random_vis(n, n_crowd, r_max, np, 17u + support);
  const RefGrid ref = reference_grid<T>(k, s, cell_rad, grid_size);
  ASSERT_GT(ref.outside, 0u);
  ASSERT_GT(ref.gridded, n / 2);

  const std::vector<Complex<T>> vis = to_t<T>(s.vis);
  std::vector<float> weight = s.weight;
  ConvVisView<T> view;
  view.num_vis = s.size();
  view.num_pols = np;
  view.uu = s.uu.data();
  view.vv = s.vv.data();
  view.ww = s.ww.data();
  view.vis = vis.data();
  view.weight = weight.data();
  ConvCudaOptions opt;
  opt.method = method;
  opt.tile_size = tile_size;
  ConvGridCuda<T> gpu(k, grid_size, np, opt);
  const GridTotals t = gpu.grid(view, cell_rad);
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  std::vector<Complex<T>> g(np * plane, {T(0), T(0)});
  gpu.add_grid_to_host(g.data());
  EXPECT_EQ(t.gridded, ref.gridded);
  EXPECT_EQ(t.outside, ref.outside);
  EXPECT_NEAR(t.norm, ref.norm, ref.norm * (sizeof(T) == 4 ? 1e-6 : 1e-12));
  const std::string what = std::string(to_string(method)) + " support " + std::to_string(support);
  expect_grid_near(ref, g, np, plane, what.c_str());
  // Outside visibilities have weight 0 now, the others keep theirs.
  std::size_t zeroed = 0;
  for (std::size_t i = 0; i < weight.size(); ++i) {
    if (weight[i] != s.weight[i]) {
      EXPECT_EQ(weight[i], 0.0f);
      ++zeroed;
    }
  }
  EXPECT_EQ(zeroed, ref.outside);

  // A second call adds to the device grid: twice the reference (weights of outside ones are 0
  // now, so the same visibilities are gridded).
  const GridTotals t2 = gpu.grid(view, cell_rad);
  EXPECT_EQ(t2.gridded, ref.gridded);
  EXPECT_EQ(t2.outside, 0u);
  std::vector<Complex<T>> g2(np * plane, {T(0), T(0)});
  gpu.add_grid_to_host(g2.data());
  RefGrid ref2 = ref;
  for (std::size_t i = 0; i < ref2.grid.size(); ++i) {
    ref2.grid[i].re *= 2.0;
    ref2.grid[i].im *= 2.0;
    ref2.abs_sum[i] *= 2.0;
  }
  for (int& m : ref2.terms) m *= 2;
  expect_grid_near(ref2, g2, np, plane, (what + " (twice)").c_str());
}

TEST(ConvGridGpu, SmallKernelEveryMethodFloat) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (ConvGridMethod m : {ConvGridMethod::Scatter, ConvGridMethod::Tiled, ConvGridMethod::Gather,
                           ConvGridMethod::Auto}) {
    check_grid<float>(m, 3, 100, 128, 1, 20000, 5000);
    check_grid<float>(m, 3, 100, 100, 4, 5000, 3000);
  }
}

TEST(ConvGridGpu, SmallKernelEveryMethodDouble) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (ConvGridMethod m :
       {ConvGridMethod::Scatter, ConvGridMethod::Tiled, ConvGridMethod::Gather}) {
    check_grid<double>(m, 3, 100, 128, 1, 20000, 5000);
    check_grid<double>(m, 3, 100, 100, 4, 5000, 3000);
  }
}

TEST(ConvGridGpu, LargeKernelEveryMethod) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (ConvGridMethod m :
       {ConvGridMethod::Scatter, ConvGridMethod::Tiled, ConvGridMethod::Gather}) {
    check_grid<float>(m, 20, 4, 200, 1, 2000, 500);
    check_grid<double>(m, 20, 4, 200, 2, 1000, 300);
  }
  // Tile sides other than the default, including one smaller than the support.
  check_grid<float>(ConvGridMethod::Tiled, 20, 4, 200, 1, 2000, 500, 16);
  // Auto's middle range (tiled; 64^2 tiles for single precision, one polarisation).
  check_grid<float>(ConvGridMethod::Auto, 8, 8, 150, 1, 4000, 1000);
  check_grid<double>(ConvGridMethod::Auto, 8, 8, 150, 2, 2000, 500);
  check_grid<float>(ConvGridMethod::Tiled, 3, 100, 128, 4, 2000, 500, 64);
}

// The GPU against the CPU gridder (grid_simple_cpu), element by element: both are within
// (m + 5) u sum |t_i| of the exact sum, so within twice that of each other.
template <typename T>
void check_against_cpu(ConvGridMethod method, int support, int oversample, int grid_size, int np) {
  const ConvKernel1d k = test_kernel(support, oversample);
  const double cell_rad = 1e-3;
  const double r_max = 1.05 * (grid_size / 2) / (grid_size * cell_rad);
  VisSet s = random_vis(20000, 4000, r_max, np, 23u);
  RefGrid ref = reference_grid<T>(k, s, cell_rad, grid_size);
  const std::vector<Complex<T>> vis = to_t<T>(s.vis);
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  std::vector<float> w_cpu = s.weight, w_gpu = s.weight;
  ConvVisView<T> view{s.size(),    np,         s.uu.data(), s.vv.data(),
                      s.ww.data(), vis.data(), w_cpu.data()};
  std::vector<Complex<T>> g_cpu(np * plane, {T(0), T(0)}), g_gpu(np * plane, {T(0), T(0)});
  const GridTotals t_cpu = grid_simple_cpu(k, view, cell_rad, grid_size, g_cpu.data(), 2);
  view.weight = w_gpu.data();
  ConvCudaOptions opt;
  opt.method = method;
  ConvGridCuda<T> gpu(k, grid_size, np, opt);
  const GridTotals t_gpu = gpu.grid(view, cell_rad);
  gpu.add_grid_to_host(g_gpu.data());
  EXPECT_EQ(t_gpu.gridded, t_cpu.gridded);
  EXPECT_EQ(t_gpu.outside, t_cpu.outside);
  EXPECT_NEAR(t_gpu.norm, t_cpu.norm, t_cpu.norm * (sizeof(T) == 4 ? 1e-6 : 1e-12));
  EXPECT_EQ(w_gpu, w_cpu);
  for (std::size_t i = 0; i < g_cpu.size(); ++i) ref.grid[i] = {g_cpu[i].re, g_cpu[i].im};
  expect_grid_near(ref, g_gpu, np, plane,
                   (std::string("vs grid_simple_cpu, ") + to_string(method)).c_str());
}

TEST(ConvGridGpu, EqualsGridSimpleCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (ConvGridMethod m :
       {ConvGridMethod::Scatter, ConvGridMethod::Tiled, ConvGridMethod::Gather}) {
    check_against_cpu<float>(m, 3, 100, 256, 1);
    check_against_cpu<double>(m, 3, 100, 256, 4);
    check_against_cpu<float>(m, 16, 8, 300, 2);
  }
}

// The reference here and grid_simple_cpu agree (no GPU needed): the GPU tests' two
// references are the same convention.
TEST(ConvGridCpu, MatchesThisFilesReference) {
  for (int np : {1, 4}) {
    const ConvKernel1d k = test_kernel(3, 100);
    const int grid_size = 128;
    const double cell_rad = 1e-3;
    VisSet s = random_vis(20000, 3000, 1.05 * 64 / (grid_size * cell_rad), np, 31u);
    const RefGrid ref = reference_grid<float>(k, s, cell_rad, grid_size);
    const std::vector<Complex<float>> vis = to_t<float>(s.vis);
    std::vector<float> w = s.weight;
    const ConvVisView<float> view{s.size(),    np,         s.uu.data(), s.vv.data(),
                                  s.ww.data(), vis.data(), w.data()};
    std::vector<Complex<float>> g(np * grid_size * grid_size, {0.0f, 0.0f});
    const GridTotals t = grid_simple_cpu(k, view, cell_rad, grid_size, g.data(), 2);
    EXPECT_EQ(t.outside, ref.outside);
    EXPECT_EQ(t.gridded, ref.gridded);
    EXPECT_NEAR(t.norm, ref.norm, 1e-6 * ref.norm);
    expect_grid_near(ref, g, np, static_cast<std::size_t>(grid_size) * grid_size, "cpu");
  }
}

TEST(ConvGridGpu, GridSimpleCudaAddsToHostGrid) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const ConvKernel1d k = test_kernel(3, 100);
  const int grid_size = 64;
  const double cell_rad = 2e-3;
  VisSet s = random_vis(3000, 100, 1.05 * 32 / (grid_size * cell_rad), 1, 5);
  const RefGrid ref = reference_grid<double>(k, s, cell_rad, grid_size);
  std::vector<float> weight = s.weight;
  const ConvVisView<double> view{
      s.size(), 1, s.uu.data(), s.vv.data(), s.ww.data(), s.vis.data(), weight.data()};
  std::vector<Complex<double>> g(grid_size * grid_size, {1.0, -1.0});
  const GridTotals t = grid_simple_cuda(k, view, cell_rad, grid_size, g.data(), 0);
  EXPECT_EQ(t.outside, ref.outside);
  for (auto& x : g) {
    x.re -= 1.0;
    x.im += 1.0;
  }
  // Adding to 1 and subtracting it again rounds at 1's last bit: |1| + |-1| more in the bound.
  RefGrid ref1 = ref;
  for (double& a : ref1.abs_sum) a += 2.0;
  expect_grid_near(ref1, g, 1, g.size(), "grid_simple_cuda");
}

// Reference degridding in double: V = sum over the support of grid x kernel.
template <typename T>
std::vector<Complex<double>> reference_degrid(const ConvKernel1d& k, const VisSet& s,
                                              double cell_rad, int grid_size,
                                              const std::vector<Complex<double>>& grid,
                                              std::vector<double>& abs_sum) {
  const int sup = k.support, os = k.oversample, np = s.num_pols;
  const std::size_t plane = static_cast<std::size_t>(grid_size) * grid_size;
  std::vector<Complex<double>> out(s.size() * np, {0.0, 0.0});
  abs_sum.assign(out.size(), 0.0);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Place pl = place<T>(s.uu[i], s.vv[i], cell_rad, grid_size, os);
    const int gu = pl.gu, gv = pl.gv, ou = pl.ou, ov = pl.ov;
    if (gu + sup >= grid_size || gu - sup < 0 || gv + sup >= grid_size || gv - sup < 0) continue;
    for (int j = -sup; j <= sup; ++j)
      for (int q = -sup; q <= sup; ++q) {
        const double c = k.values[std::abs(ou + q * os)] * k.values[std::abs(ov + j * os)];
        const std::size_t cell = static_cast<std::size_t>(gv + j) * grid_size + (gu + q);
        for (int p = 0; p < np; ++p) {
          out[i * np + p].re += grid[p * plane + cell].re * c;
          out[i * np + p].im += grid[p * plane + cell].im * c;
          abs_sum[i * np + p] +=
              (std::abs(grid[p * plane + cell].re) + std::abs(grid[p * plane + cell].im)) * c;
        }
      }
  }
  return out;
}

template <typename T>
void check_degrid(bool gpu, int support, int oversample, int grid_size, int np) {
  const ConvKernel1d k = test_kernel(support, oversample);
  const double cell_rad = 1e-3;
  const double r_max = 1.05 * (grid_size / 2) / (grid_size * cell_rad);
  VisSet s = random_vis(4000, 500, r_max, np, 99u);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<Complex<double>> grid(static_cast<std::size_t>(np) * grid_size * grid_size);
  for (auto& x : grid) x = {uni(rng), uni(rng)};
  std::vector<double> abs_sum;
  const std::vector<Complex<double>> ref =
      reference_degrid<T>(k, s, cell_rad, grid_size, grid, abs_sum);
  const std::vector<Complex<T>> grid_t = to_t<T>(grid);
  std::vector<Complex<T>> out(s.size() * np, {T(7), T(7)});
  const ConvDegridView<T> view{s.size(), np, s.uu.data(), s.vv.data(), out.data()};
  const std::size_t outside =
      gpu ? degrid_simple_cuda(k, view, cell_rad, grid_size, grid_t.data(), 0)
          : degrid_simple_cpu(k, view, cell_rad, grid_size, grid_t.data(), 2);
  const RefGrid counts = reference_grid<T>(
      k,
      [&] {
        VisSet all = s;
        for (auto& w : all.weight) w = 1.0f;
        return all;
      }(),
      cell_rad, grid_size);
  EXPECT_EQ(outside, counts.outside);
  ASSERT_GT(outside, 0u);
  const double u = std::numeric_limits<T>::epsilon() / 2;
  const int m = (2 * support + 1) * (2 * support + 1);
  int bad = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double tol = 2.0 * (m + 5) * u * abs_sum[i];
    if ((std::abs(out[i].re - ref[i].re) > tol || std::abs(out[i].im - ref[i].im) > tol) &&
        ++bad <= 5)
      ADD_FAILURE() << (gpu ? "gpu" : "cpu") << " vis " << i / np << " pol " << i % np << ": ("
                    << out[i].re << ", " << out[i].im << ") vs (" << ref[i].re << ", " << ref[i].im
                    << ")";
  }
  EXPECT_EQ(bad, 0);
}

TEST(ConvDegridCpu, MatchesReference) {
  check_degrid<double>(false, 3, 100, 128, 1);
  check_degrid<float>(false, 3, 100, 100, 4);
  check_degrid<double>(false, 20, 4, 200, 2);
}

// Degridding is the adjoint of gridding with unit weights: for any grid G and values x,
// sum_cells Re(conj(G) . grid(x)) = sum_vis Re(conj(degrid(G)) . x) (the kernel is real).
TEST(ConvDegridCpu, AdjointOfGridding) {
  const ConvKernel1d k = test_kernel(3, 100);
  const int grid_size = 64;
  const double cell_rad = 1e-3;
  VisSet s = random_vis(3000, 200, 1.05 * 32 / (grid_size * cell_rad), 2, 11);
  for (auto& w : s.weight) w = 1.0f;
  const RefGrid gx = reference_grid<double>(k, s, cell_rad, grid_size);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<Complex<double>> grid(gx.grid.size());
  for (auto& x : grid) x = {uni(rng), uni(rng)};
  std::vector<Complex<double>> out(s.vis.size());
  const ConvDegridView<double> view{s.size(), 2, s.uu.data(), s.vv.data(), out.data()};
  degrid_simple_cpu(k, view, cell_rad, grid_size, grid.data(), 1);
  double lhs = 0.0, rhs = 0.0;
  for (std::size_t i = 0; i < grid.size(); ++i)
    lhs += grid[i].re * gx.grid[i].re + grid[i].im * gx.grid[i].im;
  for (std::size_t i = 0; i < out.size(); ++i)
    rhs += out[i].re * s.vis[i].re + out[i].im * s.vis[i].im;
  EXPECT_NEAR(lhs, rhs, 1e-9 * std::abs(lhs));
  EXPECT_GT(std::abs(lhs), 1.0);
}

TEST(ConvDegridGpu, MatchesReference) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  check_degrid<float>(true, 3, 100, 128, 1);
  check_degrid<double>(true, 3, 100, 100, 4);
  check_degrid<float>(true, 20, 4, 200, 2);
  check_degrid<double>(true, 20, 4, 200, 1);
}

}  // namespace
}  // namespace fringe::imager
