// GPU half of bench_station_beam (built only with CUDA): the sincos-bound micro-benchmarks and
// timed runs of the aperture-array beam kernels (aperture_array_cuda.h) with CUDA events.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "fringe/jones/aperture_array.h"

namespace bench {

struct GpuDescription {
  std::string name;
  int multiprocessors = 0;
  double clock_ghz = 0.0;  // cudaDevAttrClockRate (maximum SM clock)
};
GpuDescription describe_gpu();

// Sines and cosines per second (each a sin/cos pair of one argument), the median of `repeats`
// timed launches filling the GPU:
//   Float:        phase in turns, exact reduction to [-1/2, 1/2], hardware __sincosf;
//   DoublePi:     sincospi (double) of a phase in half-turns;
//   DoubleRadian: sincos (double) of a phase in radians.
enum class SincosKind { Float, DoublePi, DoubleRadian };
double sincos_rate(SincosKind kind, int repeats);

// One precision's beam evaluator with the sources (RA, Dec in rad) resident on the GPU and an
// output buffer for stations x sources: what the GPU pipeline holds between stages.
template <typename T>
class GpuBeam {
 public:
  GpuBeam(std::span<const double> ra, std::span<const double> dec, std::size_t max_stations);
  ~GpuBeam();
  GpuBeam(const GpuBeam&) = delete;
  GpuBeam& operator=(const GpuBeam&) = delete;

  // Uploads the plans (packing, copies and the prepare kernel; synchronous). Seconds.
  double set_plans(std::span<const fringe::jones::AaStationPlan> plans);
  // One evaluation of J = E R (full) or the scalar beam, timed with events around the launch;
  // returns kernel seconds (the call waits for the result).
  double evaluate(bool full, int sources_per_thread);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench
