// Host emulation of the CUDA predict kernels (predict_cuda_emulation.h). The CUDA keywords are
// left empty by cuda_runtime.h for a host compiler (crt/host_defines.h) except __shared__,
// which is defined `static` here first, so a kernel's __shared__ array is one object shared
// by the threads of the (single running) block; dynamic shared memory comes from
// dynamic_shared() below. The cp.async copies take their plain-copy fallback (no __CUDA_ARCH__).
#define FRINGE_PREDICT_CUDA_EMULATION 1
#define __shared__ static
#define __launch_bounds__(...)

#include "predict_cuda_emulation.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <memory>
#include <new>
#include <thread>
#include <vector>

// The kernels' unqualified min(int, int).
using std::min;

// Built-in variables of the emulated thread.
thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;

namespace emu {

// Exchange slots of one warp, double-buffered so that one barrier per shuffle suffices: a lane
// can only reuse a buffer after every lane has passed the next shuffle's barrier.
struct Warp {
  double value[2][32] = {};
  std::barrier<> barrier{32};
};

struct Block {
  explicit Block(unsigned threads, std::size_t shared_bytes)
      : barrier(static_cast<std::ptrdiff_t>(threads)),
        shared(static_cast<unsigned char*>(
            ::operator new(std::max<std::size_t>(shared_bytes, 16), std::align_val_t(256)))) {
    for (unsigned w = 0; w < (threads + 31) / 32; ++w) warps.push_back(std::make_unique<Warp>());
  }
  ~Block() { ::operator delete(shared, std::align_val_t(256)); }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  std::barrier<> barrier;
  std::vector<std::unique_ptr<Warp>> warps;
  unsigned char* shared;
};

thread_local Block* block = nullptr;
thread_local unsigned shuffle_phase = 0;

// Runs body() as grid x threads CUDA threads: `threads` host threads walk the blocks one after
// another (a barrier between blocks), so a block's shared memory is the one buffer.
template <class F>
void launch(dim3 grid, unsigned threads, std::size_t shared_bytes, const F& body) {
  Block b(threads, shared_bytes);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      threadIdx = {t, 0, 0};
      blockDim = dim3(threads);
      block = &b;
      shuffle_phase = 0;
      for (unsigned by = 0; by < grid.y; ++by) {
        for (unsigned bx = 0; bx < grid.x; ++bx) {
          blockIdx = {bx, by, 0};
          body();
          b.barrier.arrive_and_wait();
        }
      }
    });
  }
  for (auto& th : pool) th.join();
}

}  // namespace emu

void __syncthreads() { emu::block->barrier.arrive_and_wait(); }

// Every lane of the warp writes its value, then reads lane ^ mask (all 32 lanes take part, as
// the kernels' full-mask shuffles require).
template <typename T>
T __shfl_xor_sync(unsigned /*mask*/, T v, int lane_mask) {
  emu::Warp& w = *emu::block->warps[threadIdx.x / 32];
  const unsigned lane = threadIdx.x % 32, ph = emu::shuffle_phase;
  emu::shuffle_phase ^= 1u;
  w.value[ph][lane] = static_cast<double>(v);
  w.barrier.arrive_and_wait();
  return static_cast<T>(w.value[ph][lane ^ static_cast<unsigned>(lane_mask)]);
}

namespace fringe::predict::cuda_detail {
inline namespace emulated {  // the kernels' namespace in this translation unit
unsigned char* dynamic_shared() { return emu::block->shared; }
}  // namespace emulated
}  // namespace fringe::predict::cuda_detail

#include "fringe/predict/predict_cuda.h"
#include "fringe/predict/predict_cuda_kernels.cuh"

namespace fringe::predict::test {
namespace {

using namespace cuda_detail;

template <typename T, bool... B, class F>
void dispatch(F& f) {
  f.template operator()<Mode<T, B...>>();
}
template <typename T, bool... B, class F, class... Rest>
void dispatch(F& f, bool first, Rest... rest) {
  if (first)
    dispatch<T, B..., true>(f, rest...);
  else
    dispatch<T, B..., false>(f, rest...);
}

// The launch sequence of PredictCuda<T>::Impl::cross (predict_cuda.cu).
template <class M>
void cross(const PredictInput<typename M::Real>& in, Complex<typename M::Real>* out,
           std::size_t budget) {
  const std::size_t ns = in.stations.count, S = in.sources.count;
  const std::size_t cap = chunk_capacity<M>(ns, S, budget);
  const std::size_t bytes = scratch_layout<M>(ns, cap).bytes;
  auto* scratch = static_cast<unsigned char*>(::operator new(bytes, std::align_val_t(256)));
  RunPlan<M> plan = make_run_plan<M>(in, out, scratch, cap);
  if constexpr (M::time) {
    emu::launch(dim3((plan.num_stations + 127) / 128), 128, 0,
                [&] { time_coefficients_kernel(plan.time); });
  }
  for (std::size_t begin = 0; begin < S; begin += cap) {
    plan.set_chunk(begin, std::min(cap, S - begin));
    const unsigned gx =
        static_cast<unsigned>((plan.terms.fill + kTermsThreads - 1) / kTermsThreads);
    emu::launch(dim3(gx, plan.num_stations), kTermsThreads, 0,
                [&] { station_terms_kernel<M>(plan.terms); });
    emu::launch(dim3(static_cast<unsigned>(plan.block_tiles)), M::threads, cross_shared_bytes<M>(),
                [&] { cross_kernel<M>(plan.cross); });
  }
  ::operator delete(scratch, std::align_val_t(256));
}

}  // namespace

template <typename T>
void predict_direct_emulated(const PredictInput<T>& in, const PredictOutput<T>& out,
                             std::size_t max_scratch_bytes) {
  validate(in, out);
  const std::size_t ns = in.stations.count;
  if (in.sources.count == 0 || ns == 0) return;
  const std::size_t budget =
      max_scratch_bytes > 0 ? max_scratch_bytes : PredictCuda<T>::kDefaultMaxScratchBytes;
  const bool full = in.polarisation == Polarisation::Full;
  if (out.cross && ns >= 2) {
    auto f = [&]<class M>() { cross<M>(in, out.cross, budget); };
    dispatch<T>(f, full, in.sources.gauss_a != nullptr,
                bandwidth_smearing_scale(in.channel_bandwidth_hz, in.frequency_hz) > 0,
                in.time_smearing.tau_s > 0);
  }
  if (out.autos) {
    const AutoArgs<T> aa = make_auto_args<T>(in, out.autos);
    if (full)
      emu::launch(dim3(static_cast<unsigned>(ns)), kAutoThreads, 0,
                  [&] { autos_kernel<T, true>(aa); });
    else
      emu::launch(dim3(static_cast<unsigned>(ns)), kAutoThreads, 0,
                  [&] { autos_kernel<T, false>(aa); });
  }
}

template void predict_direct_emulated(const PredictInput<float>&, const PredictOutput<float>&,
                                      std::size_t);
template void predict_direct_emulated(const PredictInput<double>&, const PredictOutput<double>&,
                                      std::size_t);

}  // namespace fringe::predict::test
