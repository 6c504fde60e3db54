// CUDA back end of the likelihood (likelihood.h; design in docs/gpu_likelihood.md): the observed
// data and station Jones are uploaded once at construction; each evaluate() uploads the
// per-source terms (derive_terms) and gains of its K parameter sets, runs one fused kernel over
// all K (model, residual, chi2 and gradients without writing the model to memory), reduces the
// per-block partials in a fixed order and copies back K chi2 values and gradients.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/core/gpu_buffer.cuh"
#include "fringe/fit/likelihood.h"
#include "fringe/fit/likelihood_cuda_kernels.cuh"
#include "fringe/fit/likelihood_cuda_lanes.cuh"

namespace fringe::fit {
namespace {

using namespace cuda_detail;

template <typename T>
Complex<T> to_t(Complex<double> v) {
  return {T(v.re), T(v.im)};
}

// Equally spaced channels (to a few ulp of the largest frequency): the kernel's recurrence
// assumes f_k = f_0 + k df, so a channel off by d Hz would shift a phase by 2 pi d / c0 D.
bool equally_spaced(const std::vector<double>& f) {
  if (f.size() < 2) return false;
  const std::size_t n = f.size();
  const double df = (f[n - 1] - f[0]) / double(n - 1);
  if (!(df > 0.0)) return false;
  double fmax = 0.0;
  for (double x : f) fmax = std::max(fmax, x);
  for (std::size_t k = 0; k < n; ++k) {
    if (std::abs(f[k] - (f[0] + double(k) * df)) > 4e-16 * fmax) return false;
  }
  return true;
}

template <typename T, bool Full, bool HasJones, bool Uniform, Mode M>
std::string kernel_name(const char* base = "likelihood_kernel") {
  std::string s = std::string(base) + "<";
  s += sizeof(T) == sizeof(float) ? "float, " : "double, ";
  s += Full ? "full, " : "scalar, ";
  s += HasJones ? "jones, " : "no jones, ";
  s += Uniform ? "equal channels, " : "unequal channels, ";
  s += M == Mode::Chi2 ? "chi2>" : (M == Mode::Grad ? "gradient>" : "model>");
  return s;
}

// Destroys a stream on its device (the caller's current device restored), also when the
// constructor of its owner throws after creating it.
struct StreamOwner {
  cudaStream_t stream = nullptr;
  int device = 0;
  StreamOwner() = default;
  StreamOwner(const StreamOwner&) = delete;
  StreamOwner& operator=(const StreamOwner&) = delete;
  ~StreamOwner() {
    if (stream == nullptr) return;
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess) previous = device;
    cudaSetDevice(device);
    cudaStreamDestroy(stream);
    cudaSetDevice(previous);
  }
};

// One evaluate() or model() at a time per object (its device buffers are reused); the Python
// binding serialises calls.
template <typename T>
class LikelihoodCuda final : public LikelihoodBackend {
 public:
  LikelihoodCuda(ObservedData data, StationJones jones, PhaseCentre centre, int device)
      : centre_(centre), device_(device) {
    data.validate();
    validate_jones(data, jones);
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      throw Error("the GPU likelihood needs a CUDA GPU: none is visible");
    }
    if (device < 0 || device >= count) {
      throw Error("CUDA device " + std::to_string(device) + " does not exist (" +
                  std::to_string(count) + " visible)");
    }
    CudaDeviceGuard guard(device_);
    FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    owner_.stream = stream_;
    owner_.device = device_;
    cudaDeviceProp prop{};
    FRINGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
    num_sms_ = prop.multiProcessorCount;

    rows_ = data.num_rows;
    channels_ = data.num_channels;
    stations_ = data.num_stations;
    pols_ = data.num_pols;
    if (rows_ >= (std::size_t(1) << 30)) throw Error("the GPU likelihood takes < 2^30 rows");
    jones_sources_ = jones.num_sources;
    has_jones_ = !jones.empty();

    // Rows: structure of arrays.
    std::vector<double> u(rows_), v(rows_), w(rows_);
    for (std::size_t r = 0; r < rows_; ++r) {
      u[r] = data.uvw[3 * r];
      v[r] = data.uvw[3 * r + 1];
      w[r] = data.uvw[3 * r + 2];
    }
    d_u_.upload(u.data(), rows_, stream_);
    d_v_.upload(v.data(), rows_, stream_);
    d_w_.upload(w.data(), rows_, stream_);
    d_a1_.upload(data.antenna1.data(), rows_, stream_);
    d_a2_.upload(data.antenna2.data(), rows_, stream_);
    d_tidx_.upload(data.time_index.data(), rows_, stream_);
    std::vector<double> il(channels_), lnf(channels_);
    for (std::size_t c = 0; c < channels_; ++c) {
      il[c] = data.frequency_hz[c] / kSpeedOfLight;
      lnf[c] = std::log(data.frequency_hz[c]);
    }
    d_il_.upload(il.data(), channels_, stream_);
    d_lnf_.upload(lnf.data(), channels_, stream_);
    d_freq_.upload(data.frequency_hz.data(), channels_, stream_);
    bandwidth_ = data.channel_bandwidth_hz;
    if (!data.time_smearing.empty()) {
      d_time_smearing_.upload(data.time_smearing.data(), data.time_smearing.size(), stream_);
      FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream_));
      has_time_smearing_ = true;
    }
    uniform_ = equally_spaced(data.frequency_hz);
    if (uniform_) {
      d_inv_lambda_ = (data.frequency_hz[channels_ - 1] - data.frequency_hz[0]) /
                      double(channels_ - 1) / kSpeedOfLight;
    }

    // Visibilities and weights, [channel][row][pol] (flagged values 0: never summed).
    {
      const std::size_t n = data.num_values();
      std::vector<Complex<T>> vis(n);
      std::vector<T> wgt(n);
      const std::size_t np = std::size_t(pols_);
      for (std::size_t r = 0; r < rows_; ++r) {
        for (std::size_t c = 0; c < channels_; ++c) {
          for (std::size_t p = 0; p < np; ++p) {
            const std::size_t src = (r * channels_ + c) * np + p;
            const std::size_t dst = (c * rows_ + r) * np + p;
            vis[dst] = data.weight[src] > 0.0 ? to_t<T>(data.data[src]) : Complex<T>{0, 0};
            wgt[dst] = T(data.weight[src]);
          }
        }
      }
      d_vis_.upload(vis.data(), n, stream_);
      d_wgt_.upload(wgt.data(), n, stream_);
      FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
    if (has_jones_) {
      if (pols_ == 4) {
        std::vector<Jones<T>> j4(jones.values.size() / 4);
        for (std::size_t i = 0; i < j4.size(); ++i) {
          const Complex<double>* x = &jones.values[4 * i];
          j4[i] = {to_t<T>(x[0]), to_t<T>(x[1]), to_t<T>(x[2]), to_t<T>(x[3])};
        }
        d_jones4_.upload(j4.data(), j4.size(), stream_);
      } else {
        std::vector<Complex<T>> j1(jones.values.size());
        for (std::size_t i = 0; i < j1.size(); ++i) j1[i] = to_t<T>(jones.values[i]);
        d_jones1_.upload(j1.data(), j1.size(), stream_);
      }
      FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    // Rows of each station (CSR, entries 2 row + side) for the gain gradient.
    std::vector<int> offsets(stations_ + 1, 0), entries(2 * rows_);
    for (std::size_t r = 0; r < rows_; ++r) {
      ++offsets[data.antenna1[r] + 1];
      ++offsets[data.antenna2[r] + 1];
    }
    for (std::size_t s = 0; s < stations_; ++s) offsets[s + 1] += offsets[s];
    std::vector<int> fill(offsets.begin(), offsets.end() - 1);
    for (std::size_t r = 0; r < rows_; ++r) {
      entries[fill[data.antenna1[r]]++] = int(2 * r);
      entries[fill[data.antenna2[r]]++] = int(2 * r + 1);
    }
    d_offsets_.upload(offsets.data(), offsets.size(), stream_);
    d_entries_.upload(entries.data(), entries.size(), stream_);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream_));

    // The lanes kernel (likelihood_cuda_lanes.cuh) where its seeds carry across enough groups:
    // equally spaced channels, no smearing, at least kMinLaneGroups groups of channels.
    const int lane_group = pols_ == 4 ? lane_group_size<T, true>() : lane_group_size<T, false>();
    lanes_ = uniform_ && bandwidth_ == 0.0 && !has_time_smearing_ &&
             (channels_ + lane_group - 1) / lane_group >= std::size_t(kMinLaneGroups);
    // Blocks per set: enough to fill the GPU, independent of K (so a set's sums, and hence
    // its numbers, do not depend on the batch it is evaluated in).
    const std::size_t rows_per_block = lanes_ ? kLaneRows : kThreads;
    const std::size_t row_tiles = (rows_ + rows_per_block - 1) / rows_per_block;
    blocks_ = int(std::min<std::size_t>(row_tiles, std::size_t(16) * num_sms_));
  }

  LikelihoodCuda(const LikelihoodCuda&) = delete;
  LikelihoodCuda& operator=(const LikelihoodCuda&) = delete;

  const char* name() const override { return "cuda"; }

  void evaluate(std::span<const SourceParameters> params, std::span<const StationGains> gains,
                GradientRequest request, double* chi2, Gradient* grads) override {
    if (!gains.empty() && gains.size() != params.size()) {
      throw Error("gains for " + std::to_string(gains.size()) + " parameter sets, sources for " +
                  std::to_string(params.size()) + ": expected the same number (or no gains)");
    }
    const std::size_t K = params.size();
    if (K == 0) return;
    for (std::size_t k = 0; k < K; ++k) {
      validate_parameters(params[k], gains.empty() ? kUnit : gains[k], stations_, jones_sources_);
    }
    // Sets with the same number of sources run together; others one batch each.
    std::size_t k = 0;
    while (k < K) {
      std::size_t e = k + 1;
      while (e < K && params[e].size() == params[k].size()) ++e;
      run_batch(params.subspan(k, e - k), gains.empty() ? gains : gains.subspan(k, e - k), request,
                chi2 + k, grads ? grads + k : nullptr);
      k = e;
    }
  }

  std::vector<Complex<double>> model(const SourceParameters& params,
                                     const StationGains& gains) override {
    validate_parameters(params, gains, stations_, jones_sources_);
    CudaDeviceGuard guard(device_);
    const std::size_t ns = params.size();
    upload_params(
        std::span<const SourceParameters>(&params, 1),
        gains.empty() ? std::span<const StationGains>() : std::span<const StationGains>(&gains, 1));
    const std::size_t n = rows_ * channels_ * std::size_t(pols_);
    d_model_.reserve(n);
    KernelArgs<T> a = args(ns, 1, !gains.empty());
    a.model = d_model_.data();
    launch<Mode::Model>(a, 1);
    std::vector<Complex<T>> m(n);
    d_model_.download(m.data(), n, stream_);
    FRINGE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<Complex<double>> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = {double(m[i].re), double(m[i].im)};
    return out;
  }

 private:
  inline static const StationGains kUnit{};

  // Derived terms [k][source] and gains [k][station][2] into the device buffers.
  void upload_params(std::span<const SourceParameters> params,
                     std::span<const StationGains> gains) {
    const std::size_t K = params.size(), ns = params[0].size();
    h_terms_.reserve(K * ns);
    for (std::size_t k = 0; k < K; ++k) {
      const std::vector<SourceTerm> t = derive_terms(params[k], centre_);
      std::copy(t.begin(), t.end(), h_terms_.data() + k * ns);
    }
    // The previous evaluation's copies have completed (each call ends with a synchronize).
    d_terms_.upload(h_terms_.data(), K * ns, stream_);
    if (!gains.empty()) {
      const std::size_t ng = 2 * stations_;
      h_gains_.reserve(K * ng);
      for (std::size_t k = 0; k < K; ++k) {
        for (std::size_t i = 0; i < ng; ++i) {
          h_gains_.data()[k * ng + i] =
              gains[k].empty() ? Complex<T>{1, 0} : to_t<T>(gains[k].values[i]);
        }
      }
      d_gains_.upload(h_gains_.data(), K * ng, stream_);
    }
  }

  KernelArgs<T> args(std::size_t ns, std::size_t K, bool with_gains) {
    (void)K;
    KernelArgs<T> a{};
    a.u = d_u_.data();
    a.v = d_v_.data();
    a.w = d_w_.data();
    a.a1 = d_a1_.data();
    a.a2 = d_a2_.data();
    a.tidx = d_tidx_.data();
    a.inv_lambda = d_il_.data();
    a.ln_f = d_lnf_.data();
    a.freq = d_freq_.data();
    a.bandwidth = bandwidth_;
    a.time_smearing = has_time_smearing_ ? d_time_smearing_.data() : nullptr;
    a.vis = d_vis_.data();
    a.wgt = d_wgt_.data();
    a.jones4 = has_jones_ && pols_ == 4 ? d_jones4_.data() : nullptr;
    a.jones1 = has_jones_ && pols_ == 1 ? d_jones1_.data() : nullptr;
    a.rows = int(rows_);
    a.channels = int(channels_);
    a.stations = int(stations_);
    a.sources = int(ns);
    a.d_inv_lambda = d_inv_lambda_;
    a.terms = d_terms_.data();
    a.gains = with_gains ? d_gains_.data() : nullptr;
    return a;
  }

  template <Mode M, bool Full, bool HasJones>
  void launch_mode(const KernelArgs<T>& a, std::size_t K) {
    const dim3 grid(unsigned(blocks_), 1, unsigned(K));
    if (lanes_) {
      // Chi2-only calls run the gradient instantiation with no gradient asked for
      // (likelihood_cuda_lanes.cuh): the same chi2 bits as a gradient call.
      constexpr Mode LM = M == Mode::Model ? Mode::Model : Mode::Grad;
      likelihood_lanes_kernel<T, Full, HasJones, LM><<<grid, kThreads, 0, stream_>>>(a);
      FRINGE_CUDA_CHECK_KERNEL(
          (kernel_name<T, Full, HasJones, true, LM>("likelihood_lanes_kernel")));
    } else if (uniform_) {
      likelihood_kernel<T, Full, HasJones, true, M><<<grid, kThreads, 0, stream_>>>(a);
      FRINGE_CUDA_CHECK_KERNEL((kernel_name<T, Full, HasJones, true, M>()));
    } else {
      likelihood_kernel<T, Full, HasJones, false, M><<<grid, kThreads, 0, stream_>>>(a);
      FRINGE_CUDA_CHECK_KERNEL((kernel_name<T, Full, HasJones, false, M>()));
    }
  }

  template <Mode M>
  void launch(const KernelArgs<T>& a, std::size_t K) {
    const bool full = pols_ == 4;
    if (full && has_jones_) {
      launch_mode<M, true, true>(a, K);
    } else if (full) {
      launch_mode<M, true, false>(a, K);
    } else if (has_jones_) {
      launch_mode<M, false, true>(a, K);
    } else {
      launch_mode<M, false, false>(a, K);
    }
  }

  // One batch of sets with the same number of sources, in chunks of sets whose gradient
  // partials fit the scratch limit.
  void run_batch(std::span<const SourceParameters> params, std::span<const StationGains> gains,
                 GradientRequest req, double* chi2, Gradient* grads) {
    CudaDeviceGuard guard(device_);
    const std::size_t ns = params[0].size();
    const bool want_grad = grads != nullptr && (req.sources || req.gains);
    const bool want_src = want_grad && req.sources, want_gain = want_grad && req.gains;
    std::size_t per_set = std::size_t(blocks_) * sizeof(double);
    if (want_src) per_set += std::size_t(blocks_) * ns * kNumInter * sizeof(double);
    if (want_gain) per_set += rows_ * 8 * sizeof(double);
    constexpr std::size_t kMaxScratch = std::size_t(1) << 30;
    const std::size_t chunk = std::max<std::size_t>(1, kMaxScratch / per_set);
    for (std::size_t k0 = 0; k0 < params.size(); k0 += chunk) {
      const std::size_t K = std::min(chunk, params.size() - k0);
      upload_params(params.subspan(k0, K), gains.empty() ? gains : gains.subspan(k0, K));
      KernelArgs<T> a = args(ns, K, !gains.empty());
      d_chi_part_.reserve(K * blocks_);
      a.chi_part = d_chi_part_.data();
      a.want_src = want_src ? 1 : 0;
      a.want_gain = want_gain ? 1 : 0;
      if (want_src) {
        d_src_part_.reserve(K * blocks_ * ns * kNumInter);
        d_src_grad_.reserve(K * ns * kNumInter);
        a.src_part = d_src_part_.data();
      }
      if (want_gain) {
        d_row_gain_.reserve(K * rows_ * 8);
        d_gain_grad_.reserve(K * stations_ * 4);
        a.row_gain = d_row_gain_.data();
      }
      if (want_grad) {
        launch<Mode::Grad>(a, K);
      } else {
        launch<Mode::Chi2>(a, K);
      }
      h_chi_part_.reserve(K * blocks_);
      d_chi_part_.download(h_chi_part_.data(), K * blocks_, stream_);
      if (want_src) {
        const int n = int(ns * kNumInter);
        const dim3 grid{unsigned((n + 255) / 256), unsigned(K)};
        reduce_blocks_kernel<<<grid, 256, 0, stream_>>>(d_src_part_.data(), blocks_, n,
                                                        d_src_grad_.data());
        FRINGE_CUDA_CHECK_KERNEL("reduce_blocks_kernel (source gradients)");
        h_src_grad_.reserve(K * ns * kNumInter);
        d_src_grad_.download(h_src_grad_.data(), K * ns * kNumInter, stream_);
      }
      if (want_gain) {
        const dim3 grid{unsigned(stations_), unsigned(K)};
        reduce_gains_kernel<<<grid, 128, 0, stream_>>>(d_row_gain_.data(), int(rows_),
                                                       d_offsets_.data(), d_entries_.data(),
                                                       d_gain_grad_.data());
        FRINGE_CUDA_CHECK_KERNEL("reduce_gains_kernel");
        h_gain_grad_.reserve(K * stations_ * 4);
        d_gain_grad_.download(h_gain_grad_.data(), K * stations_ * 4, stream_);
      }
      FRINGE_CUDA_CHECK_KERNEL_SYNC("likelihood evaluation (kernels and copies)", stream_);
      for (std::size_t k = 0; k < K; ++k) {
        double s = 0.0;
        for (int b = 0; b < blocks_; ++b) s += h_chi_part_.data()[k * blocks_ + b];
        chi2[k0 + k] = s;
        if (!want_grad) continue;
        Gradient& g = grads[k0 + k];
        g.source.clear();
        g.gains.clear();
        if (want_src) {
          const double* p = h_src_grad_.data() + k * ns * kNumInter;
          g.source = chain_to_parameters(std::span<const double>(p, ns * kNumInter), params[k0 + k],
                                         centre_);
        }
        if (want_gain) {
          const double* p = h_gain_grad_.data() + k * stations_ * 4;
          g.gains.assign(p, p + stations_ * 4);
          if (pols_ == 1) {
            for (std::size_t s2 = 0; s2 < stations_; ++s2)
              g.gains[4 * s2 + 2] = g.gains[4 * s2 + 3] = 0;
          }
        }
      }
    }
  }

  StreamOwner owner_;  // first member: destroyed last, after the buffers
  PhaseCentre centre_;
  int device_;
  cudaStream_t stream_ = nullptr;
  int num_sms_ = 1, blocks_ = 1;
  std::size_t rows_ = 0, channels_ = 0, stations_ = 0, jones_sources_ = 0;
  int pols_ = 4;
  bool has_jones_ = false, uniform_ = false, lanes_ = false;
  double d_inv_lambda_ = 0.0;
  double bandwidth_ = 0.0;  // Hz, bandwidth smearing (0: off)
  bool has_time_smearing_ = false;

  GpuBuffer<double> d_u_, d_v_, d_w_, d_il_, d_lnf_, d_freq_, d_time_smearing_;
  GpuBuffer<int> d_a1_, d_a2_, d_tidx_, d_offsets_, d_entries_;
  GpuBuffer<Complex<T>> d_vis_, d_jones1_, d_gains_, d_model_;
  GpuBuffer<T> d_wgt_;
  GpuBuffer<Jones<T>> d_jones4_;
  GpuBuffer<SourceTerm> d_terms_;
  GpuBuffer<double> d_chi_part_, d_src_part_, d_src_grad_, d_row_gain_, d_gain_grad_;
  PinnedBuffer<SourceTerm> h_terms_;
  PinnedBuffer<Complex<T>> h_gains_;
  PinnedBuffer<double> h_chi_part_, h_src_grad_, h_gain_grad_;
};

}  // namespace

std::unique_ptr<LikelihoodBackend> make_likelihood_cuda(ObservedData data, StationJones jones,
                                                        PhaseCentre centre, Precision precision,
                                                        int device) {
  if (precision == Precision::Single) {
    return std::make_unique<LikelihoodCuda<float>>(std::move(data), std::move(jones), centre,
                                                   device);
  }
  return std::make_unique<LikelihoodCuda<double>>(std::move(data), std::move(jones), centre,
                                                  device);
}

}  // namespace fringe::fit
