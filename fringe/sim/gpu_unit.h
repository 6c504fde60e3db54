// GPU back end of one simulation work unit (sim/interferometer.cpp): for one time and one sky
// chunk, the station Jones (aperture arrays: jones/aperture_array_cuda.h; Isotropic, Gaussian,
// VLA: jones/station_jones_cuda.h; station cable phases) and the direct predict
// (predict/predict_cuda.h) run on one GPU, adding into the unit's own device buffers, which
// end() copies to the host for the pipeline's ordered commit. The host still forms the
// per-unit inputs (kept sources after the horizon clip, fluxes per channel, station UVW,
// aperture-array plans), as the CPU path does, so both paths see the same numbers.
// One GpuUnit per pipeline thread (not thread safe). Built only with the CUDA back end
// (FRINGE_HAVE_CUDA); usable_gpus() is empty otherwise.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/jones/station_jones.h"
#include "fringe/predict/predict.h"

namespace fringe::sim {

// The CUDA devices to use: `requested` (empty = every visible GPU) filtered to the visible
// ones; throws fringe::Error naming simulator/cuda_device_ids for an index that is not visible.
// Empty when the machine has no GPU. Defined only in CUDA builds (FRINGE_HAVE_CUDA).
std::vector<int> usable_gpus(const std::vector<int>& requested);

// Free memory of a CUDA device in bytes (cudaMemGetInfo). CUDA builds only.
std::size_t gpu_free_bytes(int device);

// The largest sky chunk (sources) whose per-unit device buffers fit in `budget_bytes`: the
// station Jones (stations x sources of Jones<T> or Complex<T>), the source arrays (about 12
// values each) and the predict's station-term scratch (up to 512 MiB, predict_cuda.h) are
// counted; at least 1. Pure arithmetic, testable without a GPU.
std::size_t gpu_max_chunk_sources(std::size_t budget_bytes, std::size_t num_stations,
                                  bool double_precision, bool full_pol);

template <typename T>
class GpuUnit {
 public:
  // cable_x/cable_y: station cable length errors (m), empty when there are none.
  GpuUnit(int device, const jones::StationBeamConfig& beam, std::size_t num_stations,
          predict::Polarisation pol, std::vector<double> cable_x, std::vector<double> cable_y);
  ~GpuUnit();
  GpuUnit(GpuUnit&&) noexcept;
  GpuUnit& operator=(GpuUnit&&) noexcept;
  GpuUnit(const GpuUnit&) = delete;
  GpuUnit& operator=(const GpuUnit&) = delete;

  // Starts a unit: uploads the kept sources (RA/Dec and direction cosines in rad; Gaussian
  // coefficients, zero for points) and zeroes the unit's outputs (cross_values and
  // auto_values complex numbers: [channel][baseline|station][pol]).
  void begin(std::span<const double> ra, std::span<const double> dec, std::span<const double> l,
             std::span<const double> m, std::span<const double> n, std::span<const T> ga,
             std::span<const T> gb, std::span<const T> gc, std::size_t cross_values,
             std::size_t auto_values);
  // Station Jones of the unit's sources at in.gast_rad / in.freq_hz on the GPU (in.ra/dec are
  // ignored: the sources of begin() are used). Returns the number of stations whose beam
  // direction is below their horizon.
  std::size_t jones(const jones::StationJonesInput& in);
  // One channel: fluxes, station (u, v, w), smearing and uv filter from `in` (host arrays),
  // the source geometry and Jones on the GPU; adds into the unit's outputs at the offsets.
  void predict(const predict::PredictInput<T>& in, std::size_t cross_offset,
               std::size_t auto_offset);
  // Waits for the unit and copies its outputs to the host (either pointer may be nullptr).
  void end(Complex<T>* cross, Complex<T>* autos);

  int device() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::sim
