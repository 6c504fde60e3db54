// Host emulation of the CUDA predict kernels (predict_cuda_emulation.h), on the launches of
// tests/support/cuda_emulation.h (blocks one after another, so a kernel's __shared__ array is
// one static object). FRINGE_PREDICT_CUDA_EMULATION gives the kernels a namespace of their own
// (no clash with the library's) and leaves dynamic_shared() to this file. The cp.async copies
// take their plain-copy fallback (no __CUDA_ARCH__).
#include "tests/support/cuda_emulation.h"

#include "predict_cuda_emulation.h"

#include <algorithm>
#include <cstddef>
#include <new>

#define FRINGE_PREDICT_CUDA_EMULATION 1

namespace fringe::predict::cuda_detail {
inline namespace emulated {  // the kernels' namespace in this translation unit
unsigned char* dynamic_shared() { return emu::dynamic_shared(); }
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
