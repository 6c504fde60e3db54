// Test helper: the CUDA predict kernels (fringe/predict/predict_cuda_kernels.cuh) compiled by the
// host compiler and run on the CPU with one std::thread per CUDA thread (barriers for
// __syncthreads, an exchange buffer for warp shuffles, blocks one after another). It launches
// the kernels with the same argument blocks (make_run_plan) and chunking as predict_cuda.cu, so
// the kernels' indexing, tiling, pipeline order and reductions are checked on machines without
// a GPU. It says nothing about timing, register limits or real asynchronous copies. Small
// problems only (hundreds of threads per block).
#pragma once

#include <cstddef>

#include "fringe/predict/predict.h"

namespace fringe::predict::test {

// As predict_direct_cuda, on host arrays; max_scratch_bytes 0 = PredictCuda's default.
template <typename T>
void predict_direct_emulated(const PredictInput<T>& in, const PredictOutput<T>& out,
                             std::size_t max_scratch_bytes = 0);

}  // namespace fringe::predict::test
