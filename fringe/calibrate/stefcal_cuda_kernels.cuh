// The StEFCal batch kernel (stefcal_cuda.h) and its helpers, included by stefcal_cuda.cu and
// by the host emulation of the unit tests (tests/unit/calibrate/stefcal_cuda_emulation.cpp),
// which runs it with one std::thread per CUDA thread. The includer provides, before including
// (in namespace fringe::calibrate::cuda_detail):
//   kBlockThreads, kWarpsPerBlock  threads and warps per block,
//   stefcal_grid_sync()            the grid-wide barrier (cooperative groups on the GPU),
//   stefcal_block_shared<T>()      the block's StefcalSums<T>[kWarpsPerBlock] shared array,
// and (the emulation) __ldg, __ldcg, __shfl_down_sync, atomicAdd, atomicSub, __syncthreads.
#pragma once

#include "fringe/calibrate/stefcal.h"
#include "fringe/calibrate/stefcal_math.h"

namespace fringe::calibrate::cuda_detail {

// Per-problem decision of an even iteration (phase 2 -> phase 3).
enum : int { kContinue = 0, kConverged = 1, kStalled = 2, kIdle = 3, kNoData = 4, kLast = 5 };

// Loads of a complex value: through the read-only cache (A: constant for the whole kernel)
// or through L2 only (gains: rewritten every iteration, so L1 could be stale).
__device__ __forceinline__ Complex<float> ldg_c(const Complex<float>* p) {
  const float2 v = __ldg(reinterpret_cast<const float2*>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ Complex<double> ldg_c(const Complex<double>* p) {
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ Complex<float> ldcg_c(const Complex<float>* p) {
  const float2 v = __ldcg(reinterpret_cast<const float2*>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ Complex<double> ldcg_c(const Complex<double>* p) {
  const double2 v = __ldcg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}

template <typename T>
struct BatchArgs {
  int num_problems;
  int n;
  const Complex<T>* a;  // [problem][p][q]
  const T* b;           // [problem][p][q]
  Complex<T>* buf0;     // gains, two buffers [problem][p]
  Complex<T>* buf1;
  Complex<T>* out;  // solution [problem][p]
  double* norms;    // [problem][2]: ||g_new - g||^2, ||g_new||^2 of the current even iteration
  int* decision;    // [problem]
  int* done;        // [problem] 1 once stopped
  int* running;     // problems not stopped
  StefcalMonitor* monitors;  // [problem]
  SolveStatus* status;       // [problem]
  double tolerance;
  int max_iterations;
  int stall_checks;
  int warps_per_row;  // 1, 2, 4 or 8
};

template <typename T>
__global__ void __launch_bounds__(kBlockThreads) stefcal_batch_kernel(BatchArgs<T> args) {
  const int n = args.n;
  const long long total = static_cast<long long>(args.num_problems) * n;
  const int lane = threadIdx.x & 31;
  const int warp_in_block = threadIdx.x >> 5;
  // Teams of warps_per_row warps (1, 2, 4 or 8) share one receptor's row.
  const int team_threads = 32 * args.warps_per_row;
  const int teams_per_block = kWarpsPerBlock / args.warps_per_row;
  const int team = warp_in_block / args.warps_per_row;
  const int team_lane = threadIdx.x % team_threads;
  StefcalSums<T>* partial = stefcal_block_shared<T>();  // [kWarpsPerBlock]
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long num_threads = static_cast<long long>(gridDim.x) * blockDim.x;
  Complex<T>* cur = args.buf0;
  Complex<T>* nxt = args.buf1;

  for (int it = 1; it <= args.max_iterations; ++it) {
    const bool even = (it % 2) == 0;
    // Phase 1: a team of warps_per_row warps per receptor (problem k, receptor p) sums
    // A_pq g_q and B_pq |g_q|^2 over q (lanes stride over q; warp shuffles, then shared
    // memory across the team's warps); g_p = num / den. Every block runs the same number of
    // rounds, so the block barrier is uniform.
    for (long long base = static_cast<long long>(blockIdx.x) * teams_per_block; base < total;
         base += static_cast<long long>(gridDim.x) * teams_per_block) {
      const long long w = base + team;
      const int k = static_cast<int>(w < total ? w / n : 0);
      const bool active = w < total && !__ldcg(args.done + k);
      StefcalSums<T> s{{T(0), T(0)}, T(0)};
      if (active) {
        const std::size_t row = static_cast<std::size_t>(w) * n;
        const Complex<T>* g = cur + static_cast<std::size_t>(k) * n;
#pragma unroll 4
        for (int q = team_lane; q < n; q += team_threads) {
          stefcal_accumulate(s, ldg_c(args.a + row + q), __ldg(args.b + row + q), ldcg_c(g + q));
        }
      }
      for (int off = 16; off > 0; off >>= 1) {
        s.num.re += __shfl_down_sync(0xffffffffu, s.num.re, off);
        s.num.im += __shfl_down_sync(0xffffffffu, s.num.im, off);
        s.den += __shfl_down_sync(0xffffffffu, s.den, off);
      }
      if (args.warps_per_row > 1) {
        if (lane == 0) partial[warp_in_block] = s;
        __syncthreads();
        if (team_lane == 0) {
          for (int j = 1; j < args.warps_per_row; ++j) {
            const StefcalSums<T>& o = partial[warp_in_block + j];
            s.num += o.num;
            s.den += o.den;
          }
        }
        __syncthreads();
      }
      if (active && team_lane == 0) {
        const Complex<T> gn = stefcal_gain(s);
        nxt[w] = gn;
        if (even) {
          const Complex<T> old = ldcg_c(cur + w);
          atomicAdd(args.norms + 2 * k, double(abs2(gn - old)));
          atomicAdd(args.norms + 2 * k + 1, double(abs2(gn)));
        }
      }
    }
    stefcal_grid_sync();
    if (!even) {
      Complex<T>* t = cur;  // g[i] is the next input (no averaging after odd iterations)
      cur = nxt;
      nxt = t;
      continue;
    }
    // Phase 2: one thread per problem decides (the same test as the CPU, stefcal_math.h).
    for (long long k = tid; k < args.num_problems; k += num_threads) {
      if (args.done[k]) {
        args.decision[k] = kIdle;
        continue;
      }
      // Through L2: the sums were made by atomics of other SMs (L1 may hold an old line).
      const double diff2 = __ldcg(args.norms + 2 * k), norm2 = __ldcg(args.norms + 2 * k + 1);
      args.norms[2 * k] = args.norms[2 * k + 1] = 0.0;
      SolveStatus& st = args.status[k];
      st.iterations = it;
      int d = kContinue;
      if (!(norm2 > 0)) {
        d = kNoData;
        st.state = SolveState::NoData;
      } else {
        st.last_change = stefcal_relative_change(diff2, norm2);
        const int verdict =
            stefcal_check(args.monitors[k], st.last_change, args.tolerance, args.stall_checks);
        if (verdict == 1) {
          d = kConverged;
          st.state = SolveState::Converged;
        } else if (verdict == 2) {
          d = kStalled;
          st.state = SolveState::Stalled;
        } else if (it == args.max_iterations) {
          d = kLast;
          st.state = SolveState::MaxIterations;
        }
      }
      args.decision[k] = d;
      if (d != kContinue) {
        args.done[k] = 1;
        atomicSub(args.running, 1);
      }
    }
    stefcal_grid_sync();
    // Phase 3: average (g[i] + g[i-1]) / 2 into the next input, or keep g[i] as the solution.
    for (long long i = tid; i < total; i += num_threads) {
      const int d = __ldcg(args.decision + i / n);
      if (d == kContinue) {
        cur[i] = stefcal_average(ldcg_c(nxt + i), ldcg_c(cur + i));
      } else if (d != kIdle) {
        args.out[i] = ldcg_c(nxt + i);
      }
    }
    stefcal_grid_sync();
    if (*static_cast<volatile int*>(args.running) == 0) break;
  }
  // Problems still running after an odd last iteration: the solution is that update.
  for (long long i = tid; i < total; i += num_threads) {
    const long long k = i / n;
    if (!__ldcg(args.done + k)) {
      args.out[i] = ldcg_c(cur + i);
      if (i % n == 0) {
        args.status[k].iterations = args.max_iterations;
        args.status[k].state = SolveState::MaxIterations;
      }
    }
  }
}

}  // namespace fringe::calibrate::cuda_detail
