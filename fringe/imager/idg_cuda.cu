// CUDA back end of Image-Domain Gridding (idg_cuda.h). Formulas: idg_math.h, geometry.h.
#include <cufft.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/imager/grid_ops.h"
#include "fringe/imager/idg_cuda.h"
#include "fringe/imager/idg_cuda_gridder_3m.cuh"
#include "fringe/imager/idg_cuda_kernels.cuh"
#include "fringe/imager/idg_math.h"

namespace fringe::imager {

namespace {

void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS)
    throw Error(std::string("cuFFT error ") + std::to_string(static_cast<int>(r)) + " in " + what);
}

template <typename X>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) { resize(n); }
  ~DeviceBuffer() {
    if (p_) cudaFree(p_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void resize(std::size_t n) {
    if (n <= n_) return;
    if (p_) cudaFree(p_);
    p_ = nullptr;
    FRINGE_CUDA_CHECK(cudaMalloc(&p_, std::max<std::size_t>(n, 1) * sizeof(X)));
    n_ = n;
  }
  X* get() const { return p_; }
  std::size_t capacity() const { return n_; }

 private:
  X* p_ = nullptr;
  std::size_t n_ = 0;
};

template <typename X>
class PinnedBuffer {
 public:
  ~PinnedBuffer() {
    if (p_) cudaFreeHost(p_);
  }
  void resize(std::size_t n) {
    if (n <= n_) return;
    if (p_) cudaFreeHost(p_);
    p_ = nullptr;
    FRINGE_CUDA_CHECK(cudaMallocHost(&p_, std::max<std::size_t>(n, 1) * sizeof(X)));
    n_ = n;
  }
  X* get() const { return p_; }

 private:
  X* p_ = nullptr;
  std::size_t n_ = 0;
};

using namespace cuda_kernels;

template <typename T>
struct CufftTraits;
template <>
struct CufftTraits<float> {
  static constexpr cufftType type = CUFFT_C2C;
  static cufftResult exec(cufftHandle h, Complex<float>* d, int dir) {
    auto* p = reinterpret_cast<cufftComplex*>(d);
    return cufftExecC2C(h, p, p, dir);
  }
};
template <>
struct CufftTraits<double> {
  static constexpr cufftType type = CUFFT_Z2Z;
  static cufftResult exec(cufftHandle h, Complex<double>* d, int dir) {
    auto* p = reinterpret_cast<cufftDoubleComplex*>(d);
    return cufftExecZ2Z(h, p, p, dir);
  }
};

class Event {
 public:
  Event() { FRINGE_CUDA_CHECK(cudaEventCreate(&e_)); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_{};
};

double elapsed(const Event& a, const Event& b) {
  float ms = 0;
  FRINGE_CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
  return ms * 1e-3;
}

template <typename T>
class CudaBackend final : public IdgBackend<T> {
 public:
  explicit CudaBackend(const CudaIdgOptions& o) : opt_(o) {
    if (opt_.gridder_variant < 0 || opt_.gridder_variant >= kNumGridderVariants)
      throw Error("imager (CUDA): gridder variant " + std::to_string(opt_.gridder_variant) +
                  ": expected 0 to " + std::to_string(kNumGridderVariants - 1));
    if (opt_.degridder_variant < 0 || opt_.degridder_variant >= kNumDegridderVariants)
      throw Error("imager (CUDA): degridder variant " + std::to_string(opt_.degridder_variant) +
                  ": expected 0 to " + std::to_string(kNumDegridderVariants - 1));
    CudaDeviceGuard guard(opt_.device);
    cudaDeviceProp prop{};
    FRINGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, opt_.device));
    name_ = "GPU " + std::to_string(opt_.device) + " (" + prop.name + ")";
    for (auto& s : streams_) FRINGE_CUDA_CHECK(cudaStreamCreate(&s));
  }
  ~CudaBackend() override {
    for (auto& s : streams_) cudaStreamDestroy(s);
  }
  std::string name() const override { return name_; }

  // Grid FFT with cuFFT (the grid is copied to the GPU and back); FFTW on the host when the
  // grid does not fit in the GPU's free memory.
  void fft_grid(Complex<T>* grid, int size, int count, bool forward) override {
    CudaDeviceGuard guard(opt_.device);
    const std::size_t total = std::size_t(size) * size * count;
    std::size_t free_b = 0, total_b = 0;
    FRINGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    // The grid (unless already allocated) and about as much again for cuFFT's work area.
    const std::size_t bytes = total * sizeof(Complex<T>);
    const std::size_t need = (d_grid_.capacity() >= total ? 0 : bytes) + bytes;
    if (opt_.force_host_grid || need > 0.9 * free_b) {
      IdgBackend<T>::fft_grid(grid, size, count, forward);
      return;
    }
    d_grid_.resize(total);
    cudaStream_t st = streams_[0];
    FRINGE_CUDA_CHECK(cudaMemcpyAsync(d_grid_.get(), grid, total * sizeof(Complex<T>),
                                      cudaMemcpyHostToDevice, st));
    const int blocks = int(std::min<std::size_t>((total + kThreads - 1) / kThreads, 65535));
    checkerboard_kernel<T><<<blocks, kThreads, 0, st>>>(d_grid_.get(), size, total);
    FRINGE_CUDA_CHECK_KERNEL("imager checkerboard");
    cufftHandle plan;
    int dims[2] = {size, size};
    check_cufft(cufftPlanMany(&plan, 2, dims, nullptr, 1, size * size, nullptr, 1, size * size,
                              CufftTraits<T>::type, count),
                "cufftPlanMany (grid)");
    check_cufft(cufftSetStream(plan, st), "cufftSetStream");
    const cufftResult r =
        CufftTraits<T>::exec(plan, d_grid_.get(), forward ? CUFFT_FORWARD : CUFFT_INVERSE);
    cufftDestroy(plan);
    check_cufft(r, "grid FFT");
    checkerboard_kernel<T><<<blocks, kThreads, 0, st>>>(d_grid_.get(), size, total);
    FRINGE_CUDA_CHECK_KERNEL("imager checkerboard");
    FRINGE_CUDA_CHECK(cudaMemcpyAsync(grid, d_grid_.get(), total * sizeof(Complex<T>),
                                      cudaMemcpyDeviceToHost, st));
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(st));
  }

  void grid(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
            const VisBuffer<T>& vis, Complex<T>* grid) override {
    run(g, taper, subgrids, const_cast<VisBuffer<T>&>(vis), grid, nullptr, true);
  }
  void degrid(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
              const Complex<T>* grid, VisBuffer<T>& vis) override {
    run(g, taper, subgrids, vis, nullptr, grid, false);
  }

 private:
  void run(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
           VisBuffer<T>& vis, Complex<T>* grid_out, const Complex<T>* grid_in, bool gridding) {
    const auto t0 = std::chrono::steady_clock::now();
    CudaIdgTimings tm;
    if (subgrids.empty()) return;
    CudaDeviceGuard guard(opt_.device);
    const int ns = g.subgrid_size, npol = vis.num_pols, gs = g.grid_size;
    const std::size_t np = std::size_t(ns) * ns;
    if (npol != 1 && npol != 4) throw Error("imager (CUDA): 1 or 4 polarisations expected");
    const std::size_t nsub = subgrids.size();
    for (const Subgrid& s : subgrids)
      if (s.num_channels * npol > std::uint32_t(kVisCap))
        throw Error("imager (CUDA): at most " + std::to_string(kVisCap / npol) +
                    " channels per subgrid (image/idg/channel_group_size)");
    const std::size_t batch = std::min<std::size_t>(nsub, std::max(1, opt_.max_subgrids_per_batch));
    // Within each batch the subgrids with most visibilities first (their blocks take longest),
    // so that a batch does not end with a few long blocks on an otherwise idle GPU.
    // (H200, bench_imager --times 512: gridder kernel 1.04e9 -> 1.18e9 visibilities/s.) The
    // rest of the call, the host-grid adding included, uses this order.
    std::vector<Subgrid> sorted(subgrids.begin(), subgrids.end());
    for (std::size_t b0 = 0; b0 < nsub; b0 += batch)
      std::stable_sort(sorted.begin() + b0, sorted.begin() + std::min(nsub, b0 + batch),
                       [](const Subgrid& a, const Subgrid& b) {
                         return std::size_t(a.num_rows) * a.num_channels >
                                std::size_t(b.num_rows) * b.num_channels;
                       });
    subgrids = sorted;
    const std::size_t grid_elems = std::size_t(npol) * gs * gs;

    // Inputs: subgrid descriptors, uvw, frequencies, taper x sign, visibilities, weights.
    std::vector<DevSubgrid> meta(nsub);
    for (std::size_t i = 0; i < nsub; ++i) {
      const Subgrid& s = subgrids[i];
      DevSubgrid& d = meta[i];
      d = {s.row_begin, s.num_rows, s.chan_begin,      s.num_channels, s.x0,
           s.y0,        s.station1, s.station2,        s.aterm_index,  0,
           0.0,         0.0,        s.layer * g.w_step};
      subgrid_centre(g, s.x0, s.y0, &d.us, &d.vs);
    }
    std::vector<T> ts(np);
    for (int y = 0; y < ns; ++y)
      for (int x = 0; x < ns; ++x)
        ts[y * ns + x] =
            T(((x + y) & 1 ? -1.0 : 1.0) * taper((x - 0.5 * ns) / ns) * taper((y - 0.5 * ns) / ns));
    {
      // The visibilities of a call live on the GPU whole: a clear error when they cannot.
      std::size_t free_b = 0, total_b = 0;
      FRINGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
      const std::size_t vis_bytes = vis.vis.size() * sizeof(Complex<T>) +
                                    vis.weight.size() * sizeof(float) +
                                    vis.num_rows * 3 * sizeof(double);
      const std::size_t held = d_vis_.capacity() * sizeof(Complex<T>) +
                               d_weight_.capacity() * sizeof(float) +
                               d_uvw_.capacity() * sizeof(double);
      if (vis_bytes > free_b + held)
        throw Error("imager (CUDA): the visibilities of this run need " +
                    std::to_string(vis_bytes >> 20) + " MiB of GPU memory, " +
                    std::to_string((free_b + held) >> 20) +
                    " MiB are free; use the CPU (image/use_gpus = false) or select fewer "
                    "times or channels");
    }
    Event e_in0, e_in1;
    FRINGE_CUDA_CHECK(cudaEventRecord(e_in0.get(), streams_[0]));
    d_meta_.resize(nsub);
    d_uvw_.resize(3 * vis.num_rows);
    d_freq_.resize(vis.num_channels);
    d_ts_.resize(np);
    d_vis_.resize(vis.vis.size());
    d_weight_.resize(vis.weight.size());
    auto up = [&](auto* dst, const auto* src, std::size_t n) {
      FRINGE_CUDA_CHECK(
          cudaMemcpyAsync(dst, src, n * sizeof(*src), cudaMemcpyHostToDevice, streams_[0]));
    };
    up(d_meta_.get(), meta.data(), nsub);
    up(d_uvw_.get(), &vis.uvw_m[0][0], 3 * vis.num_rows);
    up(d_freq_.get(), vis.freq_hz.data(), vis.freq_hz.size());
    up(d_ts_.get(), ts.data(), np);
    up(d_vis_.get(), vis.vis.data(), vis.vis.size());
    if (gridding) up(d_weight_.get(), vis.weight.data(), vis.weight.size());
    const ATerms<T>* aterms = this->aterms();
    if (aterms) {
      check_aterms(*aterms, ns, subgrids);
      d_aterms_.resize(aterms->values.size());
      up(d_aterms_.get(), aterms->values.data(), aterms->values.size());
    }
    const Complex<T>* da = aterms ? d_aterms_.get() : nullptr;
    aterm_stations_ = aterms ? aterms->num_stations : 0;
    d_aterms_ptr_ = da;

    // The grid on the GPU when it fits (with the batch buffers and 10 % to spare).
    std::size_t free_b = 0, total_b = 0;
    FRINGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::size_t sub_bytes = 2 * batch * npol * np * sizeof(Complex<T>);
    const bool host_grid =
        opt_.force_host_grid || grid_elems * sizeof(Complex<T>) + sub_bytes > 0.9 * free_b;
    tm.host_grid = host_grid;
    if (!host_grid) {
      d_grid_.resize(grid_elems);
      if (gridding)
        FRINGE_CUDA_CHECK(
            cudaMemsetAsync(d_grid_.get(), 0, grid_elems * sizeof(Complex<T>), streams_[0]));
      else
        up(d_grid_.get(), grid_in, grid_elems);
    }
    FRINGE_CUDA_CHECK(cudaEventRecord(e_in1.get(), streams_[0]));
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(streams_[0]));
    tm.transfer += elapsed(e_in0, e_in1);

    // One cuFFT plan and one subgrid buffer per stream.
    cufftHandle plans[2];
    int dims[2] = {ns, ns};
    for (int k = 0; k < 2; ++k) {
      d_sub_[k].resize(batch * npol * np);
      if (host_grid) h_sub_[k].resize(batch * npol * np);
      check_cufft(cufftPlanMany(&plans[k], 2, dims, nullptr, 1, int(np), nullptr, 1, int(np),
                                CufftTraits<T>::type, int(batch * npol)),
                  "cufftPlanMany");
      check_cufft(cufftSetStream(plans[k], streams_[k]), "cufftSetStream");
    }
    const T width = T(g.image_width_lm());
    // The degridder's channels per thread: the blocked kernel when subgrids have enough
    // channels to fill it, else one channel per thread.
    std::uint32_t max_chan = 0;
    for (const Subgrid& s : subgrids) max_chan = std::max(max_chan, s.num_channels);
    const bool blocked = max_chan >= std::uint32_t(KernelConfig<T>::kChannelsPerThread);
    const int nstreams = std::clamp(opt_.num_streams, 1, 2);
    // Single precision with evenly spaced channels: the kernels step the phasor from channel
    // to channel (double precision always evaluates each sincos).
    const double step_hz = even_channel_spacing(vis.freq_hz.data(), vis.freq_hz.size());
    rec_ = sizeof(T) == 4 && step_hz != 0.0;
    dk_step_ = T(rec_ ? channel_dk(step_hz, 0.0) : 0.0);
    std::vector<std::array<Event, 4>> ev((nsub + batch - 1) / batch);
    // The routine on the GPU (all batches, both streams): from e_run0 to e_run1.
    Event e_run0, e_run1, e_last[2];
    FRINGE_CUDA_CHECK(cudaEventRecord(e_run0.get(), streams_[0]));
    // Hybrid gridding: the batch (first subgrid, count) whose subgrids stream k copied to
    // h_sub_[k] and that still has to be added onto the host grid.
    std::pair<std::size_t, std::size_t> pending[2] = {{0, 0}, {0, 0}};
    auto add_pending = [&](int k) {
      if (pending[k].second == 0) return;
      add_subgrids(g, subgrids.subspan(pending[k].first, pending[k].second), npol, h_sub_[k].get(),
                   grid_out);
      pending[k] = {0, 0};
    };
    for (std::size_t b0 = 0, bi = 0; b0 < nsub; b0 += batch, ++bi) {
      const int k = bi % nstreams;
      cudaStream_t st = streams_[k];
      const int nb = int(std::min(batch, nsub - b0));
      const DevSubgrid* dm = d_meta_.get() + b0;
      Complex<T>* dsub = d_sub_[k].get();
      if (bi >= std::size_t(nstreams)) {
        FRINGE_CUDA_CHECK(cudaStreamSynchronize(st));  // h_sub_[k] and d_sub_[k] reusable
        add_pending(k);  // hybrid gridding: the subgrids stream k copied two batches ago
      }
      auto& e = ev[bi];
      if (gridding) {
        FRINGE_CUDA_CHECK(cudaEventRecord(e[0].get(), st));
        launch_gridder(npol, nb, st, dm, vis.num_channels, ns, width, dsub);
        FRINGE_CUDA_CHECK(cudaEventRecord(e[1].get(), st));
        check_cufft(CufftTraits<T>::exec(plans[k], dsub, CUFFT_INVERSE), "subgrid FFT");
        FRINGE_CUDA_CHECK(cudaEventRecord(e[2].get(), st));
        if (host_grid) {
          FRINGE_CUDA_CHECK(cudaMemcpyAsync(h_sub_[k].get(), dsub,
                                            std::size_t(nb) * npol * np * sizeof(Complex<T>),
                                            cudaMemcpyDeviceToHost, st));
          FRINGE_CUDA_CHECK(cudaEventRecord(e[3].get(), st));
          // Added on the host once the copy is done, while the other stream computes.
          pending[k] = {b0, std::size_t(nb)};
        } else {
          adder_kernel<T><<<nb, kThreads, 0, st>>>(dm, dsub, npol, ns, gs, d_grid_.get());
          FRINGE_CUDA_CHECK_KERNEL("imager adder");
          FRINGE_CUDA_CHECK(cudaEventRecord(e[3].get(), st));
        }
      } else {
        FRINGE_CUDA_CHECK(cudaEventRecord(e[0].get(), st));
        if (host_grid) {
          split_subgrids(g, subgrids.subspan(b0, nb), npol, grid_in, h_sub_[k].get());
          FRINGE_CUDA_CHECK(cudaMemcpyAsync(dsub, h_sub_[k].get(),
                                            std::size_t(nb) * npol * np * sizeof(Complex<T>),
                                            cudaMemcpyHostToDevice, st));
        } else {
          splitter_kernel<T><<<nb, kThreads, 0, st>>>(dm, d_grid_.get(), npol, ns, gs, dsub);
          FRINGE_CUDA_CHECK_KERNEL("imager splitter");
        }
        FRINGE_CUDA_CHECK(cudaEventRecord(e[1].get(), st));
        check_cufft(CufftTraits<T>::exec(plans[k], dsub, CUFFT_FORWARD), "subgrid FFT");
        FRINGE_CUDA_CHECK(cudaEventRecord(e[2].get(), st));
        launch_degridder(npol, blocked, nb, st, dm, vis.num_channels, ns, width, dsub);
        FRINGE_CUDA_CHECK(cudaEventRecord(e[3].get(), st));
      }
    }
    for (int k = 1; k < nstreams; ++k) {
      FRINGE_CUDA_CHECK(cudaEventRecord(e_last[k].get(), streams_[k]));
      FRINGE_CUDA_CHECK(cudaStreamWaitEvent(streams_[0], e_last[k].get(), 0));
    }
    FRINGE_CUDA_CHECK(cudaEventRecord(e_run1.get(), streams_[0]));
    for (int k = 0; k < nstreams; ++k) {
      FRINGE_CUDA_CHECK(cudaStreamSynchronize(streams_[k]));
      add_pending(k);
    }
    tm.compute = elapsed(e_run0, e_run1);
    for (auto& p : plans) cufftDestroy(p);
    for (auto& e : ev) {
      if (gridding) {
        tm.kernel += elapsed(e[0], e[1]);
        tm.fft += elapsed(e[1], e[2]);
        (host_grid ? tm.transfer : tm.adder) += elapsed(e[2], e[3]);
      } else {
        (host_grid ? tm.transfer : tm.adder) += elapsed(e[0], e[1]);
        tm.fft += elapsed(e[1], e[2]);
        tm.kernel += elapsed(e[2], e[3]);
      }
    }
    // Outputs.
    Event e_out0, e_out1;
    FRINGE_CUDA_CHECK(cudaEventRecord(e_out0.get(), streams_[0]));
    if (gridding && !host_grid) {
      // In pieces through a pinned buffer, each added onto the host grid.
      const std::size_t piece = std::min<std::size_t>(grid_elems, std::size_t(1) << 23);
      h_piece_.resize(piece);
      for (std::size_t i = 0; i < grid_elems; i += piece) {
        const std::size_t n = std::min(piece, grid_elems - i);
        FRINGE_CUDA_CHECK(cudaMemcpy(h_piece_.get(), d_grid_.get() + i, n * sizeof(Complex<T>),
                                     cudaMemcpyDeviceToHost));
        add_arrays(grid_out + i, h_piece_.get(), n);
      }
    }
    if (!gridding)
      FRINGE_CUDA_CHECK(cudaMemcpy(vis.vis.data(), d_vis_.get(),
                                   vis.vis.size() * sizeof(Complex<T>), cudaMemcpyDeviceToHost));
    FRINGE_CUDA_CHECK(cudaEventRecord(e_out1.get(), streams_[0]));
    FRINGE_CUDA_CHECK(cudaEventSynchronize(e_out1.get()));
    tm.transfer += elapsed(e_out0, e_out1);
    tm.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (opt_.timings) *opt_.timings = tm;
  }

  // VARIANT: CudaIdgOptions::gridder_variant (idg_cuda.h).
  static_assert(std::size(kGridderVariants) == kNumGridderVariants);
  template <int NPOL, bool REC, int VARIANT>
  void gridder(int nb, cudaStream_t st, const DevSubgrid* dm, int nchan, int ns, T width,
               Complex<T>* dsub) {
    constexpr GridderVariant v = kGridderVariants[VARIANT];
    constexpr int ppt = VARIANT == 0 ? KernelConfig<T>::kPixelsPerThread : v.ppt;
    constexpr int minb = VARIANT == 0 ? KernelConfig<T>::kMinBlocks : v.min_blocks;
    const int np = ns * ns;
    const dim3 blocks(nb, (np + kGridThreads * ppt - 1) / (kGridThreads * ppt));
    if constexpr (v.g3)
      gridder_3m_kernel<T, NPOL, ppt, REC, minb, v.step3, v.unroll>
          <<<blocks, kGridThreads, gridder_3m_smem_bytes<T, NPOL, ppt>(), st>>>(
              dm, d_uvw_.get(), d_vis_.get(), d_weight_.get(), d_freq_.get(), nchan, ns, width,
              dk_step_, d_ts_.get(), d_aterms_ptr_, aterm_stations_, dsub);
    else
      gridder_kernel<T, NPOL, ppt, REC, minb>
          <<<blocks, kGridThreads, gridder_smem_bytes<T, ppt>(), st>>>(
              dm, d_uvw_.get(), d_vis_.get(), d_weight_.get(), d_freq_.get(), nchan, ns, width,
              dk_step_, d_ts_.get(), d_aterms_ptr_, aterm_stations_, dsub);
    FRINGE_CUDA_CHECK_KERNEL("imager gridder");
  }
  template <int NPOL, bool REC>
  void gridder_variant(int nb, cudaStream_t st, const DevSubgrid* dm, int nchan, int ns, T width,
                       Complex<T>* dsub) {
    if constexpr (sizeof(T) == 4) {
      switch (opt_.gridder_variant) {
        case 1:
          return gridder<NPOL, REC, 1>(nb, st, dm, nchan, ns, width, dsub);
        case 2:
          return gridder<NPOL, REC, 2>(nb, st, dm, nchan, ns, width, dsub);
        case 3:
          return gridder<NPOL, REC, 3>(nb, st, dm, nchan, ns, width, dsub);
        case 4:
          return gridder<NPOL, REC, 4>(nb, st, dm, nchan, ns, width, dsub);
        case 5:
          return gridder<NPOL, REC, 5>(nb, st, dm, nchan, ns, width, dsub);
        default:
          break;
      }
    }
    gridder<NPOL, REC, 0>(nb, st, dm, nchan, ns, width, dsub);
  }
  void launch_gridder(int npol, int nb, cudaStream_t st, const DevSubgrid* dm, int nchan, int ns,
                      T width, Complex<T>* dsub) {
    if constexpr (sizeof(T) == 4) {
      if (rec_) {
        if (npol == 4)
          gridder_variant<4, true>(nb, st, dm, nchan, ns, width, dsub);
        else
          gridder_variant<1, true>(nb, st, dm, nchan, ns, width, dsub);
        return;
      }
    }
    if (npol == 4)
      gridder_variant<4, false>(nb, st, dm, nchan, ns, width, dsub);
    else
      gridder_variant<1, false>(nb, st, dm, nchan, ns, width, dsub);
  }

  // G3: the 3M degridder (CudaIdgOptions::degridder_variant 1); STEP3: with the 3M phasor
  // step (variant 2).
  template <int NPOL, int CPT, bool REC, int MINB = KernelConfig<T>::kMinBlocks, bool G3 = false,
            bool STEP3 = false>
  void degridder(int nb, cudaStream_t st, const DevSubgrid* dm, int nchan, int ns, T width,
                 const Complex<T>* dsub) {
    const std::size_t smem = degridder_smem_bytes<T, NPOL, G3>(ns * ns);
    auto* kernel = degridder_kernel<T, NPOL, CPT, REC, MINB, G3, STEP3>;
    if (smem > 48 * 1024)
      FRINGE_CUDA_CHECK(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    kernel<<<nb, kDegridThreads, smem, st>>>(dm, d_uvw_.get(), d_freq_.get(), nchan, ns, width,
                                             dk_step_, d_ts_.get(), dsub, d_aterms_ptr_,
                                             aterm_stations_, d_vis_.get());
    FRINGE_CUDA_CHECK_KERNEL("imager degridder");
  }
  void launch_degridder(int npol, bool blocked, int nb, cudaStream_t st, const DevSubgrid* dm,
                        int nchan, int ns, T width, const Complex<T>* dsub) {
    constexpr int cpt = KernelConfig<T>::kChannelsPerThread;
    if constexpr (sizeof(T) == 4) {
      if (opt_.degridder_variant == 2 && blocked && rec_) {
        if (npol == 4)
          degridder<4, cpt, true, 3, true, true>(nb, st, dm, nchan, ns, width, dsub);
        else
          degridder<1, cpt, true, 3, true, true>(nb, st, dm, nchan, ns, width, dsub);
        return;
      }
      if (opt_.degridder_variant >= 1 && blocked) {  // 2 without the recurrence: 1
        if (npol == 4 && rec_)
          degridder<4, cpt, true, 3, true>(nb, st, dm, nchan, ns, width, dsub);
        else if (npol == 4)
          degridder<4, cpt, false, 3, true>(nb, st, dm, nchan, ns, width, dsub);
        else if (rec_)
          degridder<1, cpt, true, 3, true>(nb, st, dm, nchan, ns, width, dsub);
        else
          degridder<1, cpt, false, 3, true>(nb, st, dm, nchan, ns, width, dsub);
        return;
      }
      if (rec_ && blocked) {
        if (npol == 4)
          degridder<4, cpt, true>(nb, st, dm, nchan, ns, width, dsub);
        else
          degridder<1, cpt, true>(nb, st, dm, nchan, ns, width, dsub);
        return;
      }
    }
    if (npol == 4 && blocked)
      degridder<4, cpt, false>(nb, st, dm, nchan, ns, width, dsub);
    else if (npol == 4)
      degridder<4, 1, false>(nb, st, dm, nchan, ns, width, dsub);
    else if (blocked)
      degridder<1, cpt, false>(nb, st, dm, nchan, ns, width, dsub);
    else
      degridder<1, 1, false>(nb, st, dm, nchan, ns, width, dsub);
  }

  CudaIdgOptions opt_;
  std::string name_;
  cudaStream_t streams_[2]{};
  DeviceBuffer<DevSubgrid> d_meta_;
  DeviceBuffer<double> d_uvw_, d_freq_;
  DeviceBuffer<T> d_ts_;
  DeviceBuffer<Complex<T>> d_vis_, d_grid_, d_aterms_;
  const Complex<T>* d_aterms_ptr_ = nullptr;  // d_aterms_ when the call has A-terms
  bool rec_ = false;  // single precision, evenly spaced channels: phasor recurrence kernels
  T dk_step_ = T(0);  // 2 pi (channel spacing) / c when rec_
  int aterm_stations_ = 0;
  DeviceBuffer<float> d_weight_;
  DeviceBuffer<Complex<T>> d_sub_[2];
  PinnedBuffer<Complex<T>> h_sub_[2];
  PinnedBuffer<Complex<T>> h_piece_;
};

}  // namespace

template <typename T>
std::unique_ptr<IdgBackend<T>> make_cuda_backend(const CudaIdgOptions& options) {
  return std::make_unique<CudaBackend<T>>(options);
}
template <typename T>
std::unique_ptr<IdgBackend<T>> make_cuda_backend(int device) {
  CudaIdgOptions o;
  o.device = device;
  return make_cuda_backend<T>(o);
}
template std::unique_ptr<IdgBackend<float>> make_cuda_backend<float>(int);
template std::unique_ptr<IdgBackend<double>> make_cuda_backend<double>(int);
template std::unique_ptr<IdgBackend<float>> make_cuda_backend<float>(const CudaIdgOptions&);
template std::unique_ptr<IdgBackend<double>> make_cuda_backend<double>(const CudaIdgOptions&);

}  // namespace fringe::imager
