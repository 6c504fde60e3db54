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
#include "fringe/core/gpu_buffer.cuh"
#include "fringe/imager/grid_ops.h"
#include "fringe/imager/idg_cuda.h"
#include "fringe/imager/idg_cuda_gridder_3m.cuh"
#include "fringe/imager/idg_cuda_kernels.cuh"
#include "fringe/imager/idg_cuda_layers.cuh"
#include "fringe/imager/idg_math.h"

namespace fringe::imager {

namespace {

void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS)
    throw Error(std::string("cuFFT error ") + std::to_string(static_cast<int>(r)) + " in " + what);
}

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

// A cuFFT plan of `count` size x size planes on stream st, destroyed with the object.
class GridFftPlan {
 public:
  GridFftPlan(int size, int count, cufftType type, cudaStream_t st) {
    int dims[2] = {size, size};
    check_cufft(cufftPlanMany(&plan_, 2, dims, nullptr, 1, size * size, nullptr, 1, size * size,
                              type, count),
                "cufftPlanMany (grid)");
    const cufftResult r = cufftSetStream(plan_, st);
    if (r != CUFFT_SUCCESS) cufftDestroy(plan_);
    check_cufft(r, "cufftSetStream");
    made_ = true;
  }
  ~GridFftPlan() {
    if (made_) cufftDestroy(plan_);
  }
  GridFftPlan(const GridFftPlan&) = delete;
  GridFftPlan& operator=(const GridFftPlan&) = delete;
  cufftHandle get() const { return plan_; }

 private:
  cufftHandle plan_{};
  bool made_ = false;
};

// The centred FFT of `count` size x size planes at d (GPU memory) on stream st: the
// (-1)^(x+y) checkerboard before and after the transform (the host's centred_fft).
template <typename T>
void centred_fft_gpu(Complex<T>* d, int size, int count, const GridFftPlan& plan, bool forward,
                     cudaStream_t st) {
  const std::size_t total = std::size_t(size) * size * count;
  const int blocks = int(std::min<std::size_t>((total + kThreads - 1) / kThreads, 65535));
  checkerboard_kernel<T><<<blocks, kThreads, 0, st>>>(d, size, total);
  FRINGE_CUDA_CHECK_KERNEL("imager checkerboard");
  check_cufft(CufftTraits<T>::exec(plan.get(), d, forward ? CUFFT_FORWARD : CUFFT_INVERSE),
              "grid FFT");
  checkerboard_kernel<T><<<blocks, kThreads, 0, st>>>(d, size, total);
  FRINGE_CUDA_CHECK_KERNEL("imager checkerboard");
}

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

void record(const Event& e, cudaStream_t stream) {
  FRINGE_CUDA_CHECK(cudaEventRecord(e.get(), stream));
}

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
    cudaStream_t st = streams_[0];
    d_grid_.upload(grid, total, st);
    const GridFftPlan plan(size, count, CufftTraits<T>::type, st);
    centred_fft_gpu<T>(d_grid_.data(), size, count, plan, forward, st);
    d_grid_.download(grid, total, st);
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

  // The w-layer stack on the GPU when it fits there with room to spare for a slice (else the
  // host defaults): the adder adds each subgrid onto its layer, and finish_layers transforms
  // the layers with cuFFT and adds them to an image kept on the GPU, copied back once.
  void begin_layers(const GridGeometry& g, int npol, int first_layer, int num_layers) override {
    CudaDeviceGuard guard(opt_.device);
    layers_on_gpu_ = false;
    d_layers_ = GpuBuffer<Complex<T>>{};
    std::size_t free_b = 0, total_b = 0;
    FRINGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    // Besides the stack: cuFFT's work area (about one layer), the image in double, and the
    // slices' visibilities and subgrid batches (the 40 % left).
    const double need = layer_stack_bytes<T>(g, npol, num_layers + 1) +
                        double(npol) * g.image_size * g.image_size * sizeof(Complex<double>);
    if (opt_.force_host_grid || num_layers < 1 || need > 0.6 * double(free_b)) {
      IdgBackend<T>::begin_layers(g, npol, first_layer, num_layers);
      return;
    }
    this->first_layer_ = first_layer;
    this->num_layers_ = num_layers;
    this->layer_pols_ = npol;
    this->layer_used_.assign(num_layers, 0);
    d_layers_.zero(std::size_t(num_layers) * npol * g.grid_size * g.grid_size, streams_[0]);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(streams_[0]));
    layers_on_gpu_ = true;
  }

  void grid_layers(const GridGeometry& g, const Taper& taper, const Plan& plan,
                   const VisBuffer<T>& vis) override {
    if (!layers_on_gpu_) {
      IdgBackend<T>::grid_layers(g, taper, plan, vis);
      return;
    }
    run(g, taper, this->held_subgrids(plan), const_cast<VisBuffer<T>&>(vis), nullptr, nullptr, true,
        true);
  }

  void finish_layers(const GridGeometry& g, const Taper& taper, Complex<double>* image) override {
    if (!layers_on_gpu_) {
      IdgBackend<T>::finish_layers(g, taper, image);
      return;
    }
    CudaDeviceGuard guard(opt_.device);
    const int gs = g.grid_size, n = g.image_size, npol = this->layer_pols_;
    const std::size_t stride = std::size_t(npol) * gs * gs, iplane = std::size_t(n) * n;
    cudaStream_t st = streams_[0];
    const std::vector<double> corr = taper_correction(g, taper);
    d_corr_.upload(corr.data(), corr.size(), st);
    d_image_.zero(npol * iplane, st);
    const GridFftPlan plan(gs, npol, CufftTraits<T>::type, st);
    const int iblocks = int(std::min<std::size_t>((iplane + 255) / 256, 65535));
    for (int k = 0; k < this->num_layers_; ++k) {
      if (!this->layer_used_[k]) continue;  // no subgrid reached it: zero, nothing to add
      Complex<T>* d = d_layers_.data() + k * stride;
      centred_fft_gpu<T>(d, gs, npol, plan, true, st);
      add_layer_kernel<T><<<iblocks, 256, 0, st>>>(d, npol, gs, n, g.image_width_lm(),
                                                   (this->first_layer_ + k) * g.w_step,
                                                   d_corr_.data(), d_image_.data());
      FRINGE_CUDA_CHECK_KERNEL("imager w-layer add");
    }
    std::vector<Complex<double>> h(npol * iplane);
    d_image_.download(h.data(), h.size(), st);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(st));
    for (std::size_t i = 0; i < h.size(); ++i) image[i] += h[i];
    d_layers_ = GpuBuffer<Complex<T>>{};
    d_image_ = GpuBuffer<Complex<double>>{};
    layers_on_gpu_ = false;
    this->num_layers_ = 0;
  }

  std::string layers_location() const override { return layers_on_gpu_ ? "GPU" : "host"; }

 private:
  // One grid() or degrid() call: its sizes, its subgrids (sorted within each batch) and where
  // its grid lives.
  struct Call {
    const GridGeometry& g;
    std::span<const Subgrid> subgrids;
    VisBuffer<T>& vis;
    Complex<T>* grid_out;       // gridding: the host grid the call adds onto
    const Complex<T>* grid_in;  // degridding: the host grid it reads
    bool gridding;
    int ns, npol, gs;
    std::size_t np;          // pixels per subgrid
    std::size_t nsub;        // subgrids
    std::size_t batch;       // subgrids per batch
    std::size_t grid_elems;  // values of the grid, all polarisations
    bool host_grid = false;  // the hybrid scheme: the grid stays on the host
    bool layered = false;    // gridding onto the w-layer stack d_layers_ (begin_layers)
  };

  void run(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
           VisBuffer<T>& vis, Complex<T>* grid_out, const Complex<T>* grid_in, bool gridding,
           bool layered = false) {
    const auto t0 = std::chrono::steady_clock::now();
    CudaIdgTimings tm;
    if (subgrids.empty()) return;
    CudaDeviceGuard guard(opt_.device);
    const int npol = vis.num_pols;
    if (npol != 1 && npol != 4) throw Error("imager (CUDA): 1 or 4 polarisations expected");
    for (const Subgrid& s : subgrids)
      if (s.num_channels * npol > std::uint32_t(kVisCap))
        throw Error("imager (CUDA): at most " + std::to_string(kVisCap / npol) +
                    " channels per subgrid (IdgConfig.channel_group_size)");
    const std::size_t nsub = subgrids.size();
    const std::size_t batch = std::min<std::size_t>(nsub, std::max(1, opt_.max_subgrids_per_batch));
    const std::vector<Subgrid> sorted = sort_batches(subgrids, batch);
    Call c{g,
           sorted,
           vis,
           grid_out,
           grid_in,
           gridding,
           g.subgrid_size,
           npol,
           g.grid_size,
           std::size_t(g.subgrid_size) * g.subgrid_size,
           nsub,
           batch,
           std::size_t(npol) * g.grid_size * g.grid_size};
    c.layered = layered;
    tm.transfer += upload_inputs(c, taper);
    tm.host_grid = c.host_grid;
    run_batches(c, tm);
    tm.transfer += download_outputs(c);
    tm.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (opt_.timings) *opt_.timings = tm;
  }

  // Within each batch the subgrids with most visibilities first (their blocks take longest),
  // so that a batch does not end with a few long blocks on an otherwise idle GPU.
  // (H200, bench_imager --times 512: gridder kernel 1.04e9 -> 1.18e9 visibilities/s.) The
  // rest of the call, the host-grid adding included, uses this order.
  static std::vector<Subgrid> sort_batches(std::span<const Subgrid> subgrids, std::size_t batch) {
    const std::size_t nsub = subgrids.size();
    std::vector<Subgrid> sorted(subgrids.begin(), subgrids.end());
    for (std::size_t b0 = 0; b0 < nsub; b0 += batch)
      std::stable_sort(sorted.begin() + b0, sorted.begin() + std::min(nsub, b0 + batch),
                       [](const Subgrid& a, const Subgrid& b) {
                         return std::size_t(a.num_rows) * a.num_channels >
                                std::size_t(b.num_rows) * b.num_channels;
                       });
    return sorted;
  }

  // The subgrid descriptors of the kernels (pad: the subgrid's place in the layer stack).
  std::vector<DevSubgrid> subgrid_meta(const Call& c) const {
    std::vector<DevSubgrid> meta(c.nsub);
    for (std::size_t i = 0; i < c.nsub; ++i) {
      const Subgrid& s = c.subgrids[i];
      DevSubgrid& d = meta[i];
      d = {s.row_begin,
           s.num_rows,
           s.chan_begin,
           s.num_channels,
           s.x0,
           s.y0,
           s.station1,
           s.station2,
           s.aterm_index,
           c.layered ? s.layer - this->first_layer_ : 0,
           0.0,
           0.0,
           s.layer * c.g.w_step};
      subgrid_centre(c.g, s.x0, s.y0, &d.us, &d.vs);
    }
    return meta;
  }

  // Taper x (-1)^(x + y) on the subgrid pixels.
  static std::vector<T> taper_sign(const Call& c, const Taper& taper) {
    const int ns = c.ns;
    std::vector<T> ts(c.np);
    for (int y = 0; y < ns; ++y)
      for (int x = 0; x < ns; ++x)
        ts[y * ns + x] =
            T(((x + y) & 1 ? -1.0 : 1.0) * taper((x - 0.5 * ns) / ns) * taper((y - 0.5 * ns) / ns));
    return ts;
  }

  // The visibilities of a call live on the GPU whole: a clear error when they cannot.
  void check_visibilities_fit(const VisBuffer<T>& vis) const {
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
                  " MiB are free; use the CPU (DeviceRequest.use_gpus = false) or select fewer "
                  "times or channels");
  }

  // Inputs to the GPU: subgrid descriptors, uvw, frequencies, taper x sign, visibilities,
  // weights, A-terms, and the grid when it fits there (c.host_grid otherwise). Returns the
  // seconds the copies took.
  double upload_inputs(Call& c, const Taper& taper) {
    const std::vector<DevSubgrid> meta = subgrid_meta(c);
    const std::vector<T> ts = taper_sign(c, taper);
    const VisBuffer<T>& vis = c.vis;
    check_visibilities_fit(vis);
    cudaStream_t st = streams_[0];
    Event e_in0, e_in1;
    record(e_in0, st);
    d_meta_.reserve(c.nsub);
    d_uvw_.reserve(3 * vis.num_rows);
    d_freq_.reserve(vis.num_channels);
    d_ts_.reserve(c.np);
    d_vis_.reserve(vis.vis.size());
    d_weight_.reserve(vis.weight.size());
    d_meta_.upload(meta.data(), c.nsub, st);
    d_uvw_.upload(&vis.uvw_m[0][0], 3 * vis.num_rows, st);
    d_freq_.upload(vis.freq_hz.data(), vis.freq_hz.size(), st);
    d_ts_.upload(ts.data(), c.np, st);
    d_vis_.upload(vis.vis.data(), vis.vis.size(), st);
    if (c.gridding) d_weight_.upload(vis.weight.data(), vis.weight.size(), st);
    const ATerms<T>* aterms = this->aterms();
    if (aterms) {
      check_aterms(*aterms, c.ns, c.subgrids);
      d_aterms_.upload(aterms->values.data(), aterms->values.size(), st);
    }
    d_aterms_ptr_ = aterms ? d_aterms_.data() : nullptr;
    aterm_stations_ = aterms ? aterms->num_stations : 0;

    // The grid on the GPU when it fits (with the batch buffers and 10 % to spare).
    std::size_t free_b = 0, total_b = 0;
    FRINGE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::size_t sub_bytes = 2 * c.batch * c.npol * c.np * sizeof(Complex<T>);
    c.host_grid = !c.layered && (opt_.force_host_grid ||
                                 c.grid_elems * sizeof(Complex<T>) + sub_bytes > 0.9 * free_b);
    if (!c.host_grid && !c.layered) {
      if (c.gridding)
        d_grid_.zero(c.grid_elems, st);
      else
        d_grid_.upload(c.grid_in, c.grid_elems, st);
    }
    record(e_in1, st);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(st));
    return elapsed(e_in0, e_in1);
  }

  // One cuFFT plan and one subgrid buffer (and, for the hybrid scheme, its pinned host twin)
  // per stream.
  void make_subgrid_ffts(const Call& c, cufftHandle plans[2]) {
    int dims[2] = {c.ns, c.ns};
    const std::size_t values = c.batch * c.npol * c.np;
    for (int k = 0; k < 2; ++k) {
      d_sub_[k].reserve(values);
      if (c.host_grid) h_sub_[k].reserve(values);
      check_cufft(cufftPlanMany(&plans[k], 2, dims, nullptr, 1, int(c.np), nullptr, 1, int(c.np),
                                CufftTraits<T>::type, int(c.batch * c.npol)),
                  "cufftPlanMany");
      check_cufft(cufftSetStream(plans[k], streams_[k]), "cufftSetStream");
    }
  }

  // The batches of the call, alternating between the streams; their GPU time and each step's
  // time go into tm.
  void run_batches(const Call& c, CudaIdgTimings& tm) {
    cufftHandle plans[2];
    make_subgrid_ffts(c, plans);
    const T width = T(c.g.image_width_lm());
    // The degridder's channels per thread: the blocked kernel when subgrids have enough
    // channels to fill it, else one channel per thread.
    std::uint32_t max_chan = 0;
    for (const Subgrid& s : c.subgrids) max_chan = std::max(max_chan, s.num_channels);
    const bool blocked = max_chan >= std::uint32_t(KernelConfig<T>::kChannelsPerThread);
    const int nstreams = std::clamp(opt_.num_streams, 1, 2);
    // Single precision with evenly spaced channels: the kernels step the phasor from channel
    // to channel (double precision always evaluates each sincos).
    const double step_hz = even_channel_spacing(c.vis.freq_hz.data(), c.vis.freq_hz.size());
    rec_ = sizeof(T) == 4 && step_hz != 0.0;
    dk_step_ = T(rec_ ? channel_dk(step_hz, 0.0) : 0.0);
    std::vector<std::array<Event, 4>> ev((c.nsub + c.batch - 1) / c.batch);
    // The routine on the GPU (all batches, both streams): from e_run0 to e_run1.
    Event e_run0, e_run1, e_last[2];
    record(e_run0, streams_[0]);
    // Hybrid gridding: the batch (first subgrid, count) whose subgrids stream k copied to
    // h_sub_[k] and that still has to be added onto the host grid.
    std::pair<std::size_t, std::size_t> pending[2] = {{0, 0}, {0, 0}};
    auto add_pending = [&](int k) {
      if (pending[k].second == 0) return;
      add_subgrids(c.g, c.subgrids.subspan(pending[k].first, pending[k].second), c.npol,
                   h_sub_[k].data(), c.grid_out);
      pending[k] = {0, 0};
    };
    for (std::size_t b0 = 0, bi = 0; b0 < c.nsub; b0 += c.batch, ++bi) {
      const int k = bi % nstreams;
      const int nb = int(std::min(c.batch, c.nsub - b0));
      if (bi >= std::size_t(nstreams)) {
        FRINGE_CUDA_CHECK(cudaStreamSynchronize(streams_[k]));  // h_sub_[k], d_sub_[k] reusable
        add_pending(k);  // hybrid gridding: the subgrids stream k copied two batches ago
      }
      if (!c.gridding)
        degrid_batch(c, k, plans[k], b0, nb, blocked, width, ev[bi]);
      else if (grid_batch(c, k, plans[k], b0, nb, width, ev[bi]))
        pending[k] = {b0, std::size_t(nb)};  // added on the host while the other stream computes
    }
    for (int k = 1; k < nstreams; ++k) {
      record(e_last[k], streams_[k]);
      FRINGE_CUDA_CHECK(cudaStreamWaitEvent(streams_[0], e_last[k].get(), 0));
    }
    record(e_run1, streams_[0]);
    for (int k = 0; k < nstreams; ++k) {
      FRINGE_CUDA_CHECK(cudaStreamSynchronize(streams_[k]));
      add_pending(k);
    }
    tm.compute = elapsed(e_run0, e_run1);
    for (auto& p : plans) cufftDestroy(p);
    add_step_times(c, ev, tm);
  }

  // One gridding batch on stream k: gridder, subgrid FFT, then the adder onto the GPU grid,
  // or (hybrid scheme) the copy of the subgrids to h_sub_[k]: then true, they are still to be
  // added onto the host grid.
  bool grid_batch(const Call& c, int k, cufftHandle plan, std::size_t b0, int nb, T width,
                  const std::array<Event, 4>& e) {
    cudaStream_t st = streams_[k];
    const DevSubgrid* dm = d_meta_.data() + b0;
    Complex<T>* dsub = d_sub_[k].data();
    record(e[0], st);
    launch_gridder(c.npol, nb, st, dm, c.vis.num_channels, c.ns, width, dsub);
    record(e[1], st);
    check_cufft(CufftTraits<T>::exec(plan, dsub, CUFFT_INVERSE), "subgrid FFT");
    record(e[2], st);
    if (c.host_grid) {
      d_sub_[k].download(h_sub_[k].data(), std::size_t(nb) * c.npol * c.np, st);
      record(e[3], st);
      return true;
    }
    adder_kernel<T><<<nb, kThreads, 0, st>>>(dm, dsub, c.npol, c.ns, c.gs,
                                             c.layered ? d_layers_.data() : d_grid_.data());
    FRINGE_CUDA_CHECK_KERNEL("imager adder");
    record(e[3], st);
    return false;
  }

  // One degridding batch on stream k: the splitter (on the GPU grid, or on the host and copied
  // over), subgrid FFT, degridder.
  void degrid_batch(const Call& c, int k, cufftHandle plan, std::size_t b0, int nb, bool blocked,
                    T width, const std::array<Event, 4>& e) {
    cudaStream_t st = streams_[k];
    const DevSubgrid* dm = d_meta_.data() + b0;
    Complex<T>* dsub = d_sub_[k].data();
    record(e[0], st);
    if (c.host_grid) {
      split_subgrids(c.g, c.subgrids.subspan(b0, nb), c.npol, c.grid_in, h_sub_[k].data());
      d_sub_[k].upload(h_sub_[k].data(), std::size_t(nb) * c.npol * c.np, st);
    } else {
      splitter_kernel<T><<<nb, kThreads, 0, st>>>(dm, d_grid_.data(), c.npol, c.ns, c.gs, dsub);
      FRINGE_CUDA_CHECK_KERNEL("imager splitter");
    }
    record(e[1], st);
    check_cufft(CufftTraits<T>::exec(plan, dsub, CUFFT_FORWARD), "subgrid FFT");
    record(e[2], st);
    launch_degridder(c.npol, blocked, nb, st, dm, c.vis.num_channels, c.ns, width, dsub);
    record(e[3], st);
  }

  // Each batch's steps (events e[0..3] of grid_batch / degrid_batch) into tm.
  static void add_step_times(const Call& c, const std::vector<std::array<Event, 4>>& ev,
                             CudaIdgTimings& tm) {
    for (const auto& e : ev) {
      if (c.gridding) {
        tm.kernel += elapsed(e[0], e[1]);
        tm.fft += elapsed(e[1], e[2]);
        (c.host_grid ? tm.transfer : tm.adder) += elapsed(e[2], e[3]);
      } else {
        (c.host_grid ? tm.transfer : tm.adder) += elapsed(e[0], e[1]);
        tm.fft += elapsed(e[1], e[2]);
        tm.kernel += elapsed(e[2], e[3]);
      }
    }
  }

  // Outputs to the host: the GPU grid added onto the host grid (gridding), or the predicted
  // visibilities (degridding). Returns the seconds the copies took.
  double download_outputs(const Call& c) {
    Event e_out0, e_out1;
    record(e_out0, streams_[0]);
    if (c.gridding && !c.host_grid && !c.layered) {
      // In pieces through a pinned buffer, each added onto the host grid.
      const std::size_t piece = std::min<std::size_t>(c.grid_elems, std::size_t(1) << 23);
      h_piece_.reserve(piece);
      for (std::size_t i = 0; i < c.grid_elems; i += piece) {
        const std::size_t n = std::min(piece, c.grid_elems - i);
        FRINGE_CUDA_CHECK(cudaMemcpy(h_piece_.data(), d_grid_.data() + i, n * sizeof(Complex<T>),
                                     cudaMemcpyDeviceToHost));
        add_arrays(c.grid_out + i, h_piece_.data(), n);
      }
    }
    if (!c.gridding)
      FRINGE_CUDA_CHECK(cudaMemcpy(c.vis.vis.data(), d_vis_.data(),
                                   c.vis.vis.size() * sizeof(Complex<T>), cudaMemcpyDeviceToHost));
    record(e_out1, streams_[0]);
    FRINGE_CUDA_CHECK(cudaEventSynchronize(e_out1.get()));
    return elapsed(e_out0, e_out1);
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
              dm, d_uvw_.data(), d_vis_.data(), d_weight_.data(), d_freq_.data(), nchan, ns, width,
              dk_step_, d_ts_.data(), d_aterms_ptr_, aterm_stations_, dsub);
    else
      gridder_kernel<T, NPOL, ppt, REC, minb>
          <<<blocks, kGridThreads, gridder_smem_bytes<T, ppt>(), st>>>(
              dm, d_uvw_.data(), d_vis_.data(), d_weight_.data(), d_freq_.data(), nchan, ns, width,
              dk_step_, d_ts_.data(), d_aterms_ptr_, aterm_stations_, dsub);
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
    kernel<<<nb, kDegridThreads, smem, st>>>(dm, d_uvw_.data(), d_freq_.data(), nchan, ns, width,
                                             dk_step_, d_ts_.data(), dsub, d_aterms_ptr_,
                                             aterm_stations_, d_vis_.data());
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
  GpuBuffer<DevSubgrid> d_meta_;
  GpuBuffer<double> d_uvw_, d_freq_;
  GpuBuffer<T> d_ts_;
  GpuBuffer<Complex<T>> d_vis_, d_grid_, d_aterms_;
  GpuBuffer<Complex<T>> d_layers_;  // the w-layer stack [layer][pol][g][g] (begin_layers)
  GpuBuffer<Complex<double>> d_image_;
  GpuBuffer<double> d_corr_;
  bool layers_on_gpu_ = false;
  const Complex<T>* d_aterms_ptr_ = nullptr;  // d_aterms_ when the call has A-terms
  bool rec_ = false;  // single precision, evenly spaced channels: phasor recurrence kernels
  T dk_step_ = T(0);  // 2 pi (channel spacing) / c when rec_
  int aterm_stations_ = 0;
  GpuBuffer<float> d_weight_;
  GpuBuffer<Complex<T>> d_sub_[2];
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
