// Host emulation of the CUDA IDG kernels (fringe/imager/idg_cuda_kernels.cuh), so their
// indexing, shared-memory staging and formulas are tested on machines without a GPU: each
// kernel launch runs its blocks one after another with one host thread per CUDA thread
// (tests/support/cuda_emulation.h). The launch sequence of CudaBackend (gridder, subgrid FFT,
// adder; splitter, subgrid FFT, degridder) is replayed with FFTW for the FFTs and compared with
// the CPU back end.
// cuFFT, streams and the host-grid path are covered by test_imager_gpu only.
#include "tests/support/cuda_emulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>
#include <utility>
#include <vector>

#define FRINGE_IMAGER_DYNAMIC_SHARED(name) unsigned char* name = emu::dynamic_shared()
#include "fringe/imager/fft_cpu.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/idg_cuda.h"
#include "fringe/imager/idg_cuda_gridder_3m.cuh"
#include "fringe/imager/idg_cuda_kernels.cuh"
#include "fringe/imager/plan.h"
#include "imager_test_data.h"

namespace fringe::imager {
namespace {

using namespace cuda_kernels;

// CudaBackend's launch sequence (idg_cuda.cu) with emulated kernels and FFTW.
template <typename T>
class EmulatedBackend final : public IdgBackend<T> {
 public:
  std::string name() const override { return "emulated CUDA"; }
  // The degridder variant: kChannelsPerThread channels per thread (CudaBackend's choice when
  // subgrids have that many channels) or one.
  bool blocked = true;
  // The phasor recurrence over evenly spaced channels (CudaBackend's choice in single
  // precision); false: a sincos per channel.
  bool recurrence = true;
  // The recurrence in double precision too (CudaBackend: single only), to check the
  // recurrence kernels' algebra at double-precision tolerances.
  bool double_recurrence = false;
  // CudaIdgOptions::gridder_variant and degridder_variant (idg_cuda.h); unlike CudaBackend,
  // double precision runs them too.
  int gridder_variant = 0, degridder_variant = 0;
  void grid(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
            const VisBuffer<T>& vis, Complex<T>* grid) override {
    prepare(g, taper, subgrids, vis);
    const int npol = vis.num_pols, nb = int(subgrids.size());
    std::vector<Complex<T>> sub(std::size_t(nb) * npol * np_);
    // CudaBackend::gridder's choice of kernel for variant V (idg_cuda.cu).
    auto body = [&]<int NPOL, bool REC, int V>() {
      constexpr GridderVariant gv = kGridderVariants[V];
      constexpr int ppt = V == 0 ? KernelConfig<T>::kPixelsPerThread : gv.ppt;
      const dim3 blocks(nb, unsigned((np_ + kGridThreads * ppt - 1) / (kGridThreads * ppt)));
      const auto args = std::make_tuple(meta_.data(), &vis.uvw_m[0][0], vis.vis.data(),
                                        vis.weight.data(), vis.freq_hz.data(), vis.num_channels,
                                        g.subgrid_size, T(g.image_width_lm()), dk_step_, ts_.data(),
                                        aterm_values(), aterm_stations(), sub.data());
      if constexpr (gv.g3)
        emu::launch(blocks, kGridThreads, gridder_3m_smem_bytes<T, NPOL, ppt>(), [&] {
          std::apply(gridder_3m_kernel<T, NPOL, ppt, REC, gv.min_blocks, gv.step3, gv.unroll>,
                     args);
        });
      else
        emu::launch(blocks, kGridThreads, gridder_smem_bytes<T, ppt>(),
                    [&] { std::apply(gridder_kernel<T, NPOL, ppt, REC>, args); });
    };
    auto by_variant = [&]<int NPOL, bool REC>() {
      [&]<int... V>(std::integer_sequence<int, V...>) {
        ((gridder_variant == V ? body.template operator()<NPOL, REC, V>() : void()), ...);
      }
      (std::make_integer_sequence<int, kNumGridderVariants>{});
    };
    if (npol == 4 && rec_)
      by_variant.template operator()<4, true>();
    else if (npol == 4)
      by_variant.template operator()<4, false>();
    else if (rec_)
      by_variant.template operator()<1, true>();
    else
      by_variant.template operator()<1, false>();
    const Fft2d<T> fft(g.subgrid_size, +1);
    for (std::size_t i = 0; i < sub.size(); i += np_) fft.execute(&sub[i]);
    emu::launch(nb, kThreads, 0, [&] {
      adder_kernel<T>(meta_.data(), sub.data(), npol, g.subgrid_size, g.grid_size, grid);
    });
  }
  void degrid(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
              const Complex<T>* grid, VisBuffer<T>& vis) override {
    prepare(g, taper, subgrids, vis);
    const int npol = vis.num_pols, nb = int(subgrids.size());
    std::vector<Complex<T>> sub(std::size_t(nb) * npol * np_);
    emu::launch(nb, kThreads, 0, [&] {
      splitter_kernel<T>(meta_.data(), grid, npol, g.subgrid_size, g.grid_size, sub.data());
    });
    const Fft2d<T> fft(g.subgrid_size, -1);
    for (std::size_t i = 0; i < sub.size(); i += np_) fft.execute(&sub[i]);
    // CudaBackend::launch_degridder's choice (idg_cuda.cu): variants 1 and 2 (G3, STEP3)
    // with blocked channels only, 2 with the recurrence only (else 1).
    auto body = [&]<int NPOL, int CPT, bool REC>() {
      const int v = CPT == 1 ? 0 : (degridder_variant == 2 && !REC ? 1 : degridder_variant);
      auto run = [&]<bool G3, bool STEP3>() {
        emu::launch(nb, kDegridThreads, degridder_smem_bytes<T, NPOL, G3>(int(np_)), [&] {
          degridder_kernel<T, NPOL, CPT, REC, 1, G3, STEP3>(
              meta_.data(), &vis.uvw_m[0][0], vis.freq_hz.data(), vis.num_channels, g.subgrid_size,
              T(g.image_width_lm()), dk_step_, ts_.data(), sub.data(), aterm_values(),
              aterm_stations(), vis.vis.data());
        });
      };
      if (v == 2)
        run.template operator()<true, REC>();
      else if (v == 1)
        run.template operator()<true, false>();
      else
        run.template operator()<false, false>();
    };
    constexpr int cpt = KernelConfig<T>::kChannelsPerThread;
    if (npol == 4 && blocked && rec_)
      body.template operator()<4, cpt, true>();
    else if (npol == 4 && blocked)
      body.template operator()<4, cpt, false>();
    else if (npol == 4)
      body.template operator()<4, 1, false>();
    else if (blocked && rec_)
      body.template operator()<1, cpt, true>();
    else if (blocked)
      body.template operator()<1, cpt, false>();
    else
      body.template operator()<1, 1, false>();
  }

 private:
  const Complex<T>* aterm_values() const {
    return this->aterms() ? this->aterms()->values.data() : nullptr;
  }
  int aterm_stations() const { return this->aterms() ? this->aterms()->num_stations : 0; }
  void prepare(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
               const VisBuffer<T>& vis) {
    const int ns = g.subgrid_size;
    const double step_hz = even_channel_spacing(vis.freq_hz.data(), vis.freq_hz.size());
    rec_ = recurrence && (sizeof(T) == 4 || double_recurrence) && step_hz != 0.0;
    dk_step_ = T(rec_ ? channel_dk(step_hz, 0.0) : 0.0);
    np_ = std::size_t(ns) * ns;
    meta_.clear();
    for (const Subgrid& s : subgrids) {
      DevSubgrid d{s.row_begin, s.num_rows, s.chan_begin,      s.num_channels, s.x0,
                   s.y0,        s.station1, s.station2,        s.aterm_index,  0,
                   0.0,         0.0,        s.layer * g.w_step};
      subgrid_centre(g, s.x0, s.y0, &d.us, &d.vs);
      meta_.push_back(d);
    }
    ts_.resize(np_);
    for (int y = 0; y < ns; ++y)
      for (int x = 0; x < ns; ++x)
        ts_[y * ns + x] =
            T(((x + y) & 1 ? -1.0 : 1.0) * taper((x - 0.5 * ns) / ns) * taper((y - 0.5 * ns) / ns));
  }
  std::size_t np_ = 0;
  bool rec_ = false;
  T dk_step_ = T(0);
  std::vector<DevSubgrid> meta_;
  std::vector<T> ts_;
};

// The largest |out - ref| and the largest |ref| over two arrays of complex values.
template <class A, class B>
std::pair<double, double> max_difference(const A& out, const B& ref) {
  double d = 0, s = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    d = std::max(d, std::hypot(out[i].re - ref[i].re, out[i].im - ref[i].im));
    s = std::max(s, std::hypot(ref[i].re, ref[i].im));
  }
  return {d, s};
}

// A 64 x 64 model image per polarisation with one pixel set.
std::vector<Complex<double>> one_pixel_model(int npol) {
  std::vector<Complex<double>> model(npol * 64 * 64, Complex<double>{0, 0});
  for (int q = 0; q < npol; ++q) model[q * 64 * 64 + 30 * 64 + 41] = {1.0, 0.2};
  return model;
}

template <typename T>
void compare(int npol, double tol, bool blocked, bool recurrence = true, int gridder_variant = 0,
             int degridder_variant = 0, bool double_recurrence = false) {
  // Few stations and times: each emulated block runs 256 host threads.
  auto v = test::make_tracks<T>(5, 12, 6, 1500.0, 100e6, 1e6, npol, 0.8, 5);
  auto vd = test::make_tracks<double>(5, 12, 6, 1500.0, 100e6, 1e6, npol, 0.8, 5);
  test::set_point_sources(v, {{0.0, 0.0, 1.0}, {0.004, -0.006, 0.5}});
  test::set_point_sources(vd, {{0.0, 0.0, 1.0}, {0.004, -0.006, 0.5}});
  GridGeometry g;
  g.image_size = 64;
  g.grid_size = 80;
  g.cell_rad = std::sin(2.0 * std::numbers::pi / 180 / 64);
  g.w_step = auto_w_step(g, 30.0);
  PlanOptions opt;
  opt.max_times_per_subgrid = 5;  // several row chunks and subgrids per baseline
  const Plan plan = make_plan(
      g, {v.num_rows, v.num_channels, v.uvw_m, v.time_s, v.baseline, v.freq_hz}, v.weight, opt);
  vd.weight = v.weight;
  const Taper taper(TaperType::KaiserBessel, 7);
  auto cpu = make_cpu_backend<double>();
  EmulatedBackend<T> emu_backend;
  emu_backend.blocked = blocked;
  emu_backend.recurrence = recurrence;
  emu_backend.double_recurrence = double_recurrence;
  emu_backend.gridder_variant = gridder_variant;
  emu_backend.degridder_variant = degridder_variant;
  const auto ref = idg_image(g, taper, plan, vd, *cpu);
  const auto out = idg_image(g, taper, plan, v, emu_backend);
  const auto [d, s] = max_difference(out, ref);
  EXPECT_LT(d, tol * s) << "gridding";
  const auto model = one_pixel_model(npol);
  idg_predict(g, taper, plan, model, vd, *cpu);
  idg_predict(g, taper, plan, model, v, emu_backend);
  const auto [dv, sv] = max_difference(v.vis, vd.vis);
  EXPECT_LT(dv, tol * sv) << "degridding";
  std::printf(
      "emulated kernels, npol %d, %s, %s degridder%s, variants %d/%d: grid %.3g of %.3g, "
      "degrid %.3g of %.3g (%zu subgrids)\n",
      npol, sizeof(T) == 4 ? "single" : "double", blocked ? "blocked" : "one-channel",
      (sizeof(T) == 4 || double_recurrence) && recurrence ? ", channel recurrence" : "",
      gridder_variant, degridder_variant, d, s, dv, sv, plan.subgrids.size());
}

// 6 channels: the blocked degridder's last channel group is partial (4 per thread in double,
// 8 in single). Double: 2 gridder pixel groups per subgrid and 2 degridder pixel chunks;
// single: 1 of each.
TEST(ImagerCudaEmulation, DoubleKernelsMatchCpu) {
  compare<double>(4, 1e-10, true);
  compare<double>(1, 1e-10, true);
  compare<double>(4, 1e-10, false);
}

// Single: the channel-recurrence kernels (evenly spaced channels) and the sincos-per-channel
// ones.
TEST(ImagerCudaEmulation, SingleKernelsMatchCpu) {
  compare<float>(4, 1e-4, true);
  compare<float>(1, 1e-4, true);
  compare<float>(4, 1e-4, true, false);
  compare<float>(1, 1e-4, false);
}

// The kernel variants (CudaIdgOptions::gridder_variant, degridder_variant): double with the
// channel recurrence (the 3M forms' algebra, 1e-10) and single with and without it; 6 channels:
// the unrolled gridder loops' remainders run too.
TEST(ImagerCudaEmulation, KernelVariantsMatchCpu) {
  for (int k = 1; k < std::max(kNumGridderVariants, kNumDegridderVariants); ++k) {
    const int g = k % kNumGridderVariants, d = k % kNumDegridderVariants;
    compare<double>(4, 1e-10, true, true, g, d, true);
    compare<float>(4, 1e-4, true, true, g, d);
  }
  compare<double>(1, 1e-10, true, true, 5, 2, true);
  compare<double>(4, 1e-10, true, false, 5, 2);
  compare<float>(1, 1e-4, true, false, 4, 2);
}

// With direction-dependent A-terms (2 intervals), 4 and 1 polarisations.
TEST(ImagerCudaEmulation, ATermsMatchCpu) {
  for (int npol : {4, 1}) {
    auto v = test::make_tracks<double>(5, 12, 4, 1500.0, 100e6, 1e6, npol, 0.8, 9);
    test::set_point_sources(v, {{0.0, 0.0, 1.0}, {0.004, -0.006, 0.5}});
    GridGeometry g;
    g.image_size = 64;
    g.grid_size = 80;
    g.cell_rad = std::sin(2.0 * std::numbers::pi / 180 / 64);
    PlanOptions opt;
    opt.aterm_interval_s = 60.0;
    PlanInput in{v.num_rows, v.num_channels, v.uvw_m, v.time_s, v.baseline, v.freq_hz};
    in.station1 = v.station1;
    in.station2 = v.station2;
    const Plan plan = make_plan(g, in, v.weight, opt);
    ATerms<double> a;
    a.num_stations = 5;
    a.num_intervals = 2;
    a.subgrid_size = 32;
    a.values.resize(std::size_t(5) * 2 * 32 * 32 * 4);
    for (std::size_t i = 0; i < a.values.size(); ++i)
      a.values[i] = {(i % 4 == 0 || i % 4 == 3 ? 1.0 : 0.1) + 0.2 * std::cos(0.37 * i),
                     0.15 * std::sin(0.23 * i)};
    auto cpu = make_cpu_backend<double>();
    cpu->set_aterms(&a);
    EmulatedBackend<double> emu_backend;
    emu_backend.set_aterms(&a);
    const Taper taper(TaperType::KaiserBessel, 7);
    const auto ref = idg_image(g, taper, plan, v, *cpu);
    const auto out = idg_image(g, taper, plan, v, emu_backend);
    const auto [d, s] = max_difference(out, ref);
    EXPECT_LT(d, 1e-10 * s) << "gridding, npol " << npol;
    const auto model = one_pixel_model(npol);
    auto vc = v;
    idg_predict(g, taper, plan, model, vc, *cpu);
    idg_predict(g, taper, plan, model, v, emu_backend);
    const auto [dv, sv] = max_difference(v.vis, vc.vis);
    EXPECT_LT(dv, 1e-10 * sv) << "degridding, npol " << npol;
  }
}

// The host check that selects the single-precision channel-recurrence kernels.
TEST(ImagerCudaEmulation, EvenChannelSpacing) {
  const double up[4] = {150e6, 150e6 + 12.2e3, 150e6 + 24.4e3, 150e6 + 36.6e3};
  const double down[3] = {150e6, 149e6, 148e6};
  const double uneven[3] = {100e6, 101e6, 102.001e6};
  EXPECT_NEAR(even_channel_spacing(up, 4), 12.2e3, 1e-6);
  EXPECT_EQ(even_channel_spacing(down, 3), -1e6);
  EXPECT_EQ(even_channel_spacing(uneven, 3), 0.0);
  EXPECT_EQ(even_channel_spacing(up, 1), 0.0);
}

TEST(ImagerCudaEmulation, CheckerboardKernel) {
  const int size = 6, count = 2;
  std::vector<Complex<double>> d(size * size * count, Complex<double>{1.0, 2.0});
  emu::launch(2, kThreads, 0, [&] { checkerboard_kernel<double>(d.data(), size, d.size()); });
  for (int q = 0; q < count; ++q)
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const double sign = ((x + y) & 1) ? -1.0 : 1.0;
        EXPECT_EQ(d[(q * size + y) * size + x].re, sign);
        EXPECT_EQ(d[(q * size + y) * size + x].im, 2 * sign);
      }
}

}  // namespace
}  // namespace fringe::imager
