// The StEFCal batch kernel (stefcal_cuda.h) for scalar and full-Jones gains and its helpers,
// included by stefcal_cuda.cu and by the host emulation of the unit tests
// (tests/unit/calibrate/stefcal_cuda_emulation.cpp), which runs it with one std::thread per CUDA
// thread. The includer provides, before including (in namespace fringe::calibrate::cuda_detail):
//   kBlockThreads, kWarpsPerBlock  threads and warps per block,
//   stefcal_grid_sync()            the grid-wide barrier (cooperative groups on the GPU),
//   stefcal_block_shared<S>()      the block's S[kWarpsPerBlock] shared array (S: the sums of
//                                  the gain type, StefcalSums<T> or FullJonesSums<T>),
//   stefcal_dynamic_shared()       the block's dynamic shared memory (unsigned char*, 16-byte
//                                  aligned; the rows of A and B of the shared-rows kernels),
// and (the emulation) __ldg, __ldcg, __shfl_down_sync, atomicAdd, atomicSub, __syncthreads.
#pragma once

#include "fringe/calibrate/stefcal.h"
#include "fringe/calibrate/stefcal_math.h"

namespace fringe::calibrate::cuda_detail {

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

// A row element: from global memory through the read-only cache, or (Shared) from the copy of
// the row in the block's shared memory (vector loads: the copy is aligned to the element size).
template <bool Shared>
__device__ __forceinline__ Complex<float> ld_row(const Complex<float>* p) {
  if constexpr (Shared) {
    const float2 v = *reinterpret_cast<const float2*>(p);
    return {v.x, v.y};
  } else {
    return ldg_c(p);
  }
}
template <bool Shared>
__device__ __forceinline__ Complex<double> ld_row(const Complex<double>* p) {
  if constexpr (Shared) {
    const double2 v = *reinterpret_cast<const double2*>(p);
    return {v.x, v.y};
  } else {
    return ldg_c(p);
  }
}
template <bool Shared, typename T>
__device__ __forceinline__ T ld_row(const T* p) {
  if constexpr (Shared) {
    return *p;
  } else {
    return __ldg(p);
  }
}

// A gain staged in shared memory (vector loads per complex element).
template <typename T>
__device__ __forceinline__ Complex<T> ld_staged(const Complex<T>* p) {
  return ld_row<true>(p);
}
template <typename T>
__device__ __forceinline__ Jones<T> ld_staged(const Jones<T>* p) {
  const Complex<T>* c = reinterpret_cast<const Complex<T>*>(p);
  return {ld_row<true>(c), ld_row<true>(c + 1), ld_row<true>(c + 2), ld_row<true>(c + 3)};
}

// Gains through L2 (ldcg_c per complex element).
template <typename T>
__device__ __forceinline__ Complex<T> ldcg_gain(const Complex<T>* p) {
  return ldcg_c(p);
}
template <typename T>
__device__ __forceinline__ Jones<T> ldcg_gain(const Jones<T>* p) {
  const Complex<T>* c = reinterpret_cast<const Complex<T>*>(p);
  return {ldcg_c(c), ldcg_c(c + 1), ldcg_c(c + 2), ldcg_c(c + 3)};
}

__device__ __forceinline__ void shfl_add(float& v, int off) {
  v += __shfl_down_sync(0xffffffffu, v, off);
}
__device__ __forceinline__ void shfl_add(double& v, int off) {
  v += __shfl_down_sync(0xffffffffu, v, off);
}
template <typename T>
__device__ __forceinline__ void shfl_add(Complex<T>& v, int off) {
  shfl_add(v.re, off);
  shfl_add(v.im, off);
}
template <typename T>
__device__ __forceinline__ void shfl_add(Jones<T>& v, int off) {
  shfl_add(v.a, off);
  shfl_add(v.b, off);
  shfl_add(v.c, off);
  shfl_add(v.d, off);
}

// The reductions of the sums both gain types accumulate: a numerator and a denominator.
struct NumDenReductions {
  template <class Sums>
  __device__ __forceinline__ static void warp_reduce(Sums& s, int off) {
    shfl_add(s.num, off);
    shfl_add(s.den, off);
  }
  template <class Sums>
  __device__ __forceinline__ static void add(Sums& s, const Sums& o) {
    s.num += o.num;
    s.den += o.den;
  }
};

// The two gain types of the kernel. A and B of problem k, receptor p are stored from
// (k n + p) kTerms n on: element e of (p, q) at [e n + q] (kTerms = 1: the n x n row-major A, B
// of stefcal.h; full-Jones: 16, so the lanes of a warp read consecutive q of one element).
template <typename T>
struct ScalarGains : NumDenReductions {
  using Real = T;
  using Gain = Complex<T>;
  using AValue = Complex<T>;
  using BValue = T;
  using Sums = StefcalSums<T>;
  static constexpr int kTerms = 1;
  static constexpr int kUnroll = 4;
  __device__ __forceinline__ static Sums zero() { return {{T(0), T(0)}, T(0)}; }
  template <bool Shared>
  __device__ __forceinline__ static void accumulate(Sums& s, const AValue* a_row,
                                                    const BValue* b_row, int /*n*/, int q,
                                                    Gain g_q) {
    stefcal_accumulate(s, ld_row<Shared>(a_row + q), ld_row<Shared>(b_row + q), g_q);
  }
  __device__ __forceinline__ static Gain gain(const Sums& s) { return stefcal_gain(s); }
};

template <typename T>
struct FullJonesGains : NumDenReductions {
  using Real = T;
  using Gain = Jones<T>;
  using AValue = Complex<T>;
  using BValue = Complex<T>;
  using Sums = FullJonesSums<T>;
  static constexpr int kTerms = kFullJonesTerms;
  static constexpr int kUnroll = 1;  // 32 independent loads per q already
  __device__ __forceinline__ static Sums zero() { return {jones_zero<T>(), jones_zero<T>()}; }
  template <bool Shared>
  __device__ __forceinline__ static void accumulate(Sums& s, const AValue* a_row,
                                                    const BValue* b_row, int n, int q,
                                                    const Gain& g_q) {
    const std::size_t stride = static_cast<std::size_t>(n);
    full_jones_accumulate(
        s, [&](int e) { return ld_row<Shared>(a_row + e * stride + q); },
        [&](int e) { return ld_row<Shared>(b_row + e * stride + q); }, g_q);
  }
  __device__ __forceinline__ static Gain gain(const Sums& s) { return full_jones_gain(s); }
};

template <typename P>
struct BatchArgs {
  using Gain = typename P::Gain;
  int num_problems;
  int n;
  const typename P::AValue* a;  // [problem][p][term][q]
  const typename P::BValue* b;  // [problem][p][term][q]
  Gain* buf[3];   // gains [problem][p]: buf[0] holds the starting point; three in rotation
  Gain* out;      // solution [problem][p]
  double* norms;  // [2][problem][2]: ||g[i] - g[i-1]||^2, ||g[i]||^2 of even iterations
  StefcalMonitor* monitors;  // [2][problem]: stall state before / after a check
  int* stop_iteration;       // [problem]: iteration in which the problem stopped (0: running)
  int* running;              // problems not stopped
  SolveStatus* status;       // [problem]
  double tolerance;
  int max_iterations;
  int stall_checks;
  int warps_per_row;  // 1, 2, 4 or 8
  int shared_rows;    // shared-rows kernels: row slots per block (stefcal_shared_rows), else 0
};

// Where the kernel reads the rows of A and B from: global memory every iteration, or its
// block's copy in shared memory (stefcal_batch); SharedStaged (one problem only) also stages
// the gains in shared memory.
enum class RowSource { Global, Shared, SharedStaged };

// The rows of A and B a block owns for the whole (persistent) kernel: in round r its team t has
// row (r gridDim + blockIdx) teams_per_block + t of the total, so a block has at most
// ceil(total / (blocks teams_per_block)) rounds of teams_per_block rows. The shared-rows
// kernels keep them in dynamic shared memory: with one problem first the n gains of the
// iteration (staged), then every slot's A row (kTerms n values), then every slot's B row,
// slot r teams_per_block + t (each part a multiple of the next one's alignment). Used by the
// host for the launch (bytes) and by the kernel (layout).
__host__ __device__ constexpr long long stefcal_shared_rows(long long total, long long blocks,
                                                            long long teams_per_block) {
  return (total + blocks * teams_per_block - 1) / (blocks * teams_per_block) * teams_per_block;
}
template <typename P>
__host__ __device__ constexpr long long stefcal_shared_bytes(RowSource source,
                                                             long long shared_rows, int n) {
  if (source == RowSource::Global) return 0;
  const long long staged =
      source == RowSource::SharedStaged ? n * static_cast<long long>(sizeof(typename P::Gain)) : 0;
  return staged +
         shared_rows * P::kTerms * n *
             static_cast<long long>(sizeof(typename P::AValue) + sizeof(typename P::BValue));
}

// buf[i] by selects (a dynamic index into the kernel parameter would go through local memory).
template <typename P>
__device__ __forceinline__ typename P::Gain* stefcal_buffer(const BatchArgs<P>& args, int i) {
  return i == 0 ? args.buf[0] : (i == 1 ? args.buf[1] : args.buf[2]);
}

// The test of even iteration 2c (stefcal_math.h, as the CPU), made by whoever needs it: from
// the norms of slot c & 1 and the stall state before the check (slot (c + 1) & 1). Every
// reader computes the same result; m is the state after the check.
struct Verdict {
  int stop;  // 0 go on (average), else the SolveState + 1
  double change;
  StefcalMonitor m;
};

template <typename P>
__device__ __forceinline__ Verdict stefcal_verdict(const BatchArgs<P>& args, int k, int c) {
  const std::size_t slot = static_cast<std::size_t>(c & 1) * args.num_problems + k;
  const std::size_t before = static_cast<std::size_t>((c + 1) & 1) * args.num_problems + k;
  // Through L2: written by atomics and by other SMs.
  const double diff2 = __ldcg(args.norms + 2 * slot), norm2 = __ldcg(args.norms + 2 * slot + 1);
  Verdict v;
  v.m.best = __ldcg(&args.monitors[before].best);
  v.m.since_best = __ldcg(&args.monitors[before].since_best);
  v.change = 0;
  v.stop = 0;
  if (!(norm2 > 0)) {
    v.stop = int(SolveState::NoData) + 1;
    return v;
  }
  v.change = stefcal_relative_change(diff2, norm2);
  const int r = stefcal_check(v.m, v.change, args.tolerance, args.stall_checks);
  if (r == 1) v.stop = int(SolveState::Converged) + 1;
  if (r == 2) v.stop = int(SolveState::Stalled) + 1;
  return v;
}

// Stores the verdict of problem k's test in iteration it (by the thread of its receptor 0):
// the stall state; the status and stop iteration when it stops.
template <typename P>
__device__ __forceinline__ void stefcal_record(const BatchArgs<P>& args, int k, int it,
                                               const Verdict& v) {
  const int c = (it - 1) / 2;
  args.monitors[static_cast<std::size_t>(c & 1) * args.num_problems + k] = v.m;
  if (v.stop != int(SolveState::NoData) + 1) args.status[k].last_change = v.change;
  if (v.stop) {
    args.status[k].iterations = it - 1;
    args.status[k].state = static_cast<SolveState>(v.stop - 1);
    args.stop_iteration[k] = it;
    atomicSub(args.running, 1);
  }
}

// One grid barrier per iteration. The averaging of Algorithm 1 is applied lazily: the
// iteration after an even one reads (g[i] + g[i-1]) / 2 from the two buffers, and every team
// of a problem makes the even iteration's test itself (the same numbers, so the same result);
// the team of receptor 0 stores the stall state and the status. Buffers rotate: iteration it
// reads buf[in] (and buf[in2] when averaging) and writes buf[out].
// One problem (latency bound: the chain of dependent memory accesses per iteration, not the
// bandwidth, sets its speed): no thread loads stop_iteration (a single problem stops only in
// an odd iteration, which is then the last, so its rows are never stopped from an earlier
// one) or the running count after the barrier: every thread makes the test itself and leaves
// the loop on its own verdict (the same numbers, so the same verdict everywhere).
// Every thread makes that test at the start of the iteration, before the rows.
// Shared: the block first copies the rows of A and B it owns (every round's) into its dynamic
// shared memory (args.shared_rows slots, stefcal_shared_rows) and then reads them from there in
// every iteration. With one problem the block also stages the iteration's input gains (averaged
// after an even iteration) in shared memory once per iteration, with one batch of L2 loads
// spread over all its threads, so its rows then need no L2 access of their own (the input gain
// of an even iteration's norms, too, comes from the stage). The arithmetic is the same as
// without shared memory, so are the results, bit for bit.
template <RowSource Source, typename P>
__device__ __forceinline__ void stefcal_batch(const BatchArgs<P>& args) {
  using Gain = typename P::Gain;
  constexpr bool Shared = Source != RowSource::Global;
  constexpr bool from_stage = Source == RowSource::SharedStaged;  // rows read `staged` gains
  const int n = args.n;
  const long long total = static_cast<long long>(args.num_problems) * n;
  const int lane = threadIdx.x & 31;
  const int warp_in_block = threadIdx.x >> 5;
  // Teams of warps_per_row warps (1, 2, 4 or 8) share one receptor's row.
  const int team_threads = 32 * args.warps_per_row;
  const int teams_per_block = kWarpsPerBlock / args.warps_per_row;
  const int team = warp_in_block / args.warps_per_row;
  const int team_lane = threadIdx.x % team_threads;
  typename P::Sums* partial = stefcal_block_shared<typename P::Sums>();  // [kWarpsPerBlock]
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long num_threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const bool single = args.num_problems == 1;
  const long long row_stride = static_cast<long long>(gridDim.x) * teams_per_block;
  const std::size_t row_values = static_cast<std::size_t>(n) * P::kTerms;
  typename P::AValue* shared_a = nullptr;
  typename P::BValue* shared_b = nullptr;
  Gain* staged = nullptr;  // SharedStaged (one problem): the iteration's input gains [n]
  if constexpr (Shared) {
    unsigned char* dynamic = stefcal_dynamic_shared();
    if constexpr (from_stage) {
      staged = reinterpret_cast<Gain*>(dynamic);
      dynamic += static_cast<std::size_t>(n) * sizeof(Gain);
    }
    shared_a = reinterpret_cast<typename P::AValue*>(dynamic);
    shared_b = reinterpret_cast<typename P::BValue*>(
        shared_a + static_cast<std::size_t>(args.shared_rows) * row_values);
    // Each team copies its own rows (coalesced: consecutive lanes, consecutive values).
    int slot = team;
    for (long long w = static_cast<long long>(blockIdx.x) * teams_per_block + team; w < total;
         w += row_stride, slot += teams_per_block) {
      const std::size_t src = static_cast<std::size_t>(w) * row_values;
      const std::size_t dst = static_cast<std::size_t>(slot) * row_values;
      for (std::size_t i = team_lane; i < row_values; i += team_threads) {
        shared_a[dst + i] = ld_row<false>(args.a + src + i);
        shared_b[dst + i] = ld_row<false>(args.b + src + i);
      }
    }
    __syncthreads();
  }
  int in = 0, in2 = -1, out = 1, last_out = 0, last_it = 0;

  for (int it = 1; it <= args.max_iterations; ++it) {
    const bool even = (it % 2) == 0;
    const bool decide = !even && it >= 3;  // the test of even iteration it - 1
    // One problem: the verdict of every thread (-1: none this iteration).
    int single_stop = -1;
    if (single && decide) {
      const Verdict v = stefcal_verdict(args, 0, (it - 1) / 2);
      single_stop = v.stop;
      // Thread 0 of block 0 has receptor 0 (round 0, team 0), never stopped before.
      if (blockIdx.x == 0 && threadIdx.x == 0) stefcal_record(args, 0, it, v);
    }
    if constexpr (from_stage) {
      const Gain* g = stefcal_buffer(args, in);
      if (in2 >= 0) {  // (g[i] + g[i-1]) / 2 after an even iteration i
        const Gain* g2 = stefcal_buffer(args, in2);
        for (int q = threadIdx.x; q < n; q += blockDim.x) {
          staged[q] = stefcal_average(ldcg_gain(g + q), ldcg_gain(g2 + q));
        }
      } else {
        for (int q = threadIdx.x; q < n; q += blockDim.x) staged[q] = ldcg_gain(g + q);
      }
      __syncthreads();
    }
    // A team of warps_per_row warps per receptor (problem k, receptor p) sums A_pq g_q and
    // B_pq |g_q|^2 over q (lanes stride over q; warp shuffles, then shared memory across the
    // team's warps); g_p = num / den. Every block runs the same number of rounds, so the
    // block barrier is uniform.
    int slot = team;  // the row's slot in shared memory (Shared)
    for (long long base = static_cast<long long>(blockIdx.x) * teams_per_block; base < total;
         base += row_stride, slot += teams_per_block) {
      const long long w = base + team;
      const int k = static_cast<int>(w < total ? w / n : 0);
      const int p = static_cast<int>(w < total ? w % n : 0);
      const int stopped = w < total ? (single ? 0 : __ldcg(args.stop_iteration + k)) : 1;
      bool active = w < total && (stopped == 0 || stopped >= it);
      if (decide && active) {
        int stop = single_stop;
        if (!single) {
          const Verdict v = stefcal_verdict(args, k, (it - 1) / 2);
          stop = v.stop;
          if (p == 0 && team_lane == 0) stefcal_record(args, k, it, v);
        }
        if (stop) {  // the solution is g[it - 1]
          if (team_lane == 0) args.out[w] = ldcg_gain(stefcal_buffer(args, in) + w);
          active = false;
        }
      }
      typename P::Sums s = P::zero();
      if (active) {
        const typename P::AValue* a_row;
        const typename P::BValue* b_row;
        if constexpr (Shared) {
          a_row = shared_a + static_cast<std::size_t>(slot) * row_values;
          b_row = shared_b + static_cast<std::size_t>(slot) * row_values;
        } else {
          a_row = args.a + static_cast<std::size_t>(w) * row_values;
          b_row = args.b + static_cast<std::size_t>(w) * row_values;
        }
        if constexpr (from_stage) {
#pragma unroll P::kUnroll
          for (int q = team_lane; q < n; q += team_threads) {
            P::template accumulate<Shared>(s, a_row, b_row, n, q, ld_staged(staged + q));
          }
        } else {
          const Gain* g = stefcal_buffer(args, in) + static_cast<std::size_t>(k) * n;
          if (in2 >= 0) {  // (g[i] + g[i-1]) / 2 after an even iteration i
            const Gain* g2 = stefcal_buffer(args, in2) + static_cast<std::size_t>(k) * n;
#pragma unroll P::kUnroll
            for (int q = team_lane; q < n; q += team_threads) {
              P::template accumulate<Shared>(s, a_row, b_row, n, q,
                                             stefcal_average(ldcg_gain(g + q), ldcg_gain(g2 + q)));
            }
          } else {
#pragma unroll P::kUnroll
            for (int q = team_lane; q < n; q += team_threads) {
              P::template accumulate<Shared>(s, a_row, b_row, n, q, ldcg_gain(g + q));
            }
          }
        }
      }
      for (int off = 16; off > 0; off >>= 1) P::warp_reduce(s, off);
      if (args.warps_per_row > 1) {
        if (lane == 0) partial[warp_in_block] = s;
        __syncthreads();
        if (team_lane == 0) {
          for (int j = 1; j < args.warps_per_row; ++j) {
            P::add(s, partial[warp_in_block + j]);
          }
        }
        __syncthreads();
      }
      if (active && team_lane == 0) {
        const Gain gn = P::gain(s);
        stefcal_buffer(args, out)[w] = gn;
        if (even) {  // the input of an even iteration is stored as is (no averaging before)
          const std::size_t ns = static_cast<std::size_t>((it / 2) & 1) * args.num_problems + k;
          Gain old;
          if constexpr (from_stage) {
            old = ld_staged(staged + p);
          } else {
            old = ldcg_gain(stefcal_buffer(args, in) + w);
          }
          atomicAdd(args.norms + 2 * ns, double(stefcal_norm2(gn - old)));
          atomicAdd(args.norms + 2 * ns + 1, double(stefcal_norm2(gn)));
          if (p == 0) {  // the other slot's readers are done: clear it for iteration it + 2
            const std::size_t other =
                static_cast<std::size_t>(((it / 2) + 1) & 1) * args.num_problems + k;
            args.norms[2 * other] = args.norms[2 * other + 1] = 0.0;
          }
        }
      }
    }
    stefcal_grid_sync();
    last_out = out;
    last_it = it;
    if (even) {  // next: odd, averaging g[it] (buf[out]) and its input g[it-1] (buf[in])
      const int next_in = out, next_in2 = in;
      out = 3 - out - in;
      in = next_in;
      in2 = next_in2;
    } else {  // next: even, from g[it] as it is
      in = out;
      in2 = -1;
      out = (out + 1) % 3;
    }
    // Problems stop only in odd iterations, and the next iteration (even) changes nothing, so
    // every thread reads the same count here (after an even one, a thread already in the
    // next, odd, iteration could be counting down). One problem: the thread's own verdict.
    if (!even && (single ? single_stop > 0 : *static_cast<volatile int*>(args.running) == 0)) {
      break;
    }
  }
  // Problems still running after the last iteration: its output is the solution; after an
  // even last iteration its test still decides converged / stalled / no data / max.
  for (long long i = tid; i < total; i += num_threads) {
    const int k = static_cast<int>(i / n);
    if (__ldcg(args.stop_iteration + k) != 0) continue;
    args.out[i] = ldcg_gain(stefcal_buffer(args, last_out) + i);
    if (i % n == 0) {
      SolveState state = SolveState::MaxIterations;
      if (last_it % 2 == 0) {
        const Verdict v = stefcal_verdict(args, k, last_it / 2);
        if (v.stop) state = static_cast<SolveState>(v.stop - 1);
        if (v.stop != int(SolveState::NoData) + 1) args.status[k].last_change = v.change;
      }
      args.status[k].iterations = last_it;
      args.status[k].state = state;
    }
  }
}

// The kernels (one per gain type and row source, so that each has its own launch bounds).
// Scalar: at least 4 resident blocks per SM (at most 64 registers), what ptxas chose for this
// kernel when it was measured on the H200 (sm_90, CUDA 13); without the bound it took 73
// registers in float after the single-problem changes (3 blocks per SM). Full-Jones: ptxas's
// choice (about 108 registers in double, no spills; a bound of 2 blocks per SM made it spill).
template <typename T, RowSource Source>
__global__ void __launch_bounds__(kBlockThreads, 4)
    stefcal_scalar_kernel(BatchArgs<ScalarGains<T>> args) {
  stefcal_batch<Source>(args);
}
template <typename T, RowSource Source>
__global__ void __launch_bounds__(kBlockThreads)
    stefcal_full_jones_kernel(BatchArgs<FullJonesGains<T>> args) {
  stefcal_batch<Source>(args);
}

// The kernel of gain type P: stefcal_batch_kernel(static_cast<P*>(nullptr), source).
template <typename T>
auto stefcal_batch_kernel(ScalarGains<T>*, RowSource source) {
  return source == RowSource::Global   ? &stefcal_scalar_kernel<T, RowSource::Global>
         : source == RowSource::Shared ? &stefcal_scalar_kernel<T, RowSource::Shared>
                                       : &stefcal_scalar_kernel<T, RowSource::SharedStaged>;
}
template <typename T>
auto stefcal_batch_kernel(FullJonesGains<T>*, RowSource source) {
  return source == RowSource::Global   ? &stefcal_full_jones_kernel<T, RowSource::Global>
         : source == RowSource::Shared ? &stefcal_full_jones_kernel<T, RowSource::Shared>
                                       : &stefcal_full_jones_kernel<T, RowSource::SharedStaged>;
}

}  // namespace fringe::calibrate::cuda_detail
