// CUDA back end of the aperture-array station beam (aperture_array.h): for many stations and
// a chunk of sources at one time and frequency, from the CPU-built plans (make_aa_plan), the
// Full-mode station Jones J = E R (or E alone) and the Scalar-mode beam, with the formulas of
// aperture_array_math.h and jones_math.h. Output layout as station_jones.h:
//   Full:   Jones<T>   [station][source], index p * num_sources + s  (p: position in `plans`)
//   Scalar: Complex<T> [station][source], the same index
// Sources are given by RA (rad) and sin/cos of Dec; the local hour angle is plan.lst - RA.
// A source below the station horizon (Up < 0), or any source of a station whose plan has
// beam_off, gets 0.
//
// Only "uniform" stations (plan.uniform: element x product of per-level array factors) are
// evaluated here, grouped ones included (plan.groups: antennas mixing element types or feed
// angles, the sum over groups of each group's element pattern times its array factor, the
// pattern once per (group, source); aperture_array.h); a non-uniform plan makes set_plans
// throw fringe::Error naming the station (the caller evaluates such stations with the CPU
// path, aa_beam_enu).
//
// Accuracy (docs/gpu_station_beam.md), relative to the station's beam scale
// norm * prod_levels sum_k |w_k| (the largest |AF| it can reach): double agrees with the CPU to
// ~2e-15 (measured). Float forms the element phase in single precision relative to the
// station's beam direction b, in turns, reduces it exactly to [-1/2, 1/2] turn and uses the
// hardware sincos (__sincosf, abs. error <= 2^-21.19): worst case 2e-6 (2 L + t) for L levels
// and a phase budget of t turns (sum over levels of k0 max|r| max|s - b| / 2 pi); measured
// <= 1.1e-6 over the whole sky for SKA-Low AA1 stations at 110-200 MHz.
// Errors: every CUDA call and launch is checked; a failure becomes fringe::Error naming the call
// or the kernel (core/cuda_check.h). Instantiated for float and double.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"

namespace fringe::jones {

struct AaStationPlan;

// A chunk of sources in device memory (each pointer `size` doubles on the evaluator's GPU).
struct AaDeviceSources {
  const double* ra = nullptr;       // rad
  const double* sin_dec = nullptr;  // sin(Dec)
  const double* cos_dec = nullptr;  // cos(Dec)
  std::size_t size = 0;
};

// Device-pointer evaluator for the GPU pipeline: set_plans once per (time, frequency) uploads
// the stations' element positions and weights; evaluate_* then run asynchronously on the
// evaluator's own stream (synchronize() waits). Not thread safe; one object per host thread.
template <typename T>
class AaBeamCuda {
 public:
  explicit AaBeamCuda(int device = 0);
  ~AaBeamCuda();
  AaBeamCuda(AaBeamCuda&&) noexcept;
  AaBeamCuda& operator=(AaBeamCuda&&) noexcept;
  AaBeamCuda(const AaBeamCuda&) = delete;
  AaBeamCuda& operator=(const AaBeamCuda&) = delete;

  // Waits for work in flight, packs the plans into page-locked staging buffers and enqueues
  // their upload and a prepare kernel (returns before they finish; evaluate_* are ordered
  // after them). The plans' AaFeed pointers are read here only. Throws fringe::Error for a
  // non-uniform plan or inconsistent sizes (the evaluator then holds no stations).
  void set_plans(std::span<const AaStationPlan> plans);
  std::size_t num_stations() const;

  // out: device array of num_stations() * sources.size(). parallactic: J = E R, else E.
  void evaluate_full(const AaDeviceSources& sources, bool parallactic, Jones<T>* out);
  void evaluate_scalar(const AaDeviceSources& sources, Complex<T>* out);
  void synchronize();

  // Sources per thread of the kernels (1, 2 or 4; benchmarks tune it). Default: the fastest
  // measured (bench_station_beam, H100 and H200): 2 for double; for float 4, or 2 when the
  // stations include grouped ones (their kernels hold more registers per source).
  void set_sources_per_thread(int n);
  int device() const;
  // The cudaStream_t the evaluator runs on (to order other work or record events around it).
  void* cuda_stream() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Host in, host out (tests, small runs): ra/dec in rad (host), out on the host with
// plans.size() * ra.size() elements. Throws fringe::Error on mismatched sizes.
template <typename T>
void aa_station_jones_cuda(std::span<const AaStationPlan> plans, std::span<const double> ra,
                           std::span<const double> dec, bool parallactic, std::span<Jones<T>> out,
                           int device = 0);

template <typename T>
void aa_station_scalar_cuda(std::span<const AaStationPlan> plans, std::span<const double> ra,
                            std::span<const double> dec, std::span<Complex<T>> out, int device = 0);

}  // namespace fringe::jones
