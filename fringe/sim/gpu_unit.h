// GPU units of the simulation pipeline's CUDA back end (sim_backend_cuda.cpp). One GpuUnit per
// GPU (one pipeline worker each; not thread safe). The data of a block stays on the GPU between
// stages:
//   begin_block    zeroes this GPU's copy of the block (times x channels x baselines x pols);
//   begin_unit     one work unit (time, sky chunk): the chunk is uploaded at first use (a few
//                  chunks are kept) with its direction cosines computed on the GPU; the horizon
//                  clip and the compaction of the kept sources run on the GPU;
//   jones          station Jones of the kept sources (aperture arrays: jones/aperture_array_cuda.h;
//                  Isotropic, Gaussian, VLA: jones/station_jones_cuda.h; station cable phases);
//   predict        one channel: fluxes of the kept sources at its frequency (every spectrum kind,
//                  rotation measure, the common flux filter) on the GPU, then the direct predict
//                  (predict/predict_cuda.h) adding into the block's (time, channel) slice;
//   finish_block   adds the other GPUs' copies into this one (device to device), adds system
//                  noise (vis/noise.h's counters, so the numbers equal the CPU's), and copies the
//                  block to the host once.
// The host keeps orchestration, I/O and per-station work (station UVW, beam plans, cable
// phases). GpuUnit and gpu_free_bytes are built only with the CUDA back end; the memory
// arithmetic (gpu_memory.cpp) always.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/core/complex.h"
#include "fringe/core/precision.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/jones/station_jones.h"
#include "fringe/jones/tec_screen_geometry.h"
#include "fringe/jones/tec_screen_math.h"
#include "fringe/predict/predict.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sim {

// Free memory of a CUDA device in bytes (cudaMemGetInfo). CUDA builds only.
std::size_t gpu_free_bytes(int device);

// The largest sky chunk (sources) whose per-unit device buffers fit in `budget_bytes`: the
// station Jones (stations x sources of Jones<T> or Complex<T>), the source arrays (kept and
// cached chunks, about 40 values each) and the predict's station-term scratch (up to 512 MiB,
// predict_cuda.h) are counted; at least 1. Pure arithmetic, testable without a GPU.
std::size_t gpu_max_chunk_sources(std::size_t budget_bytes, std::size_t num_stations,
                                  Precision precision, bool full_pol);

// Device bytes of one GPU's copy of a block and the reduction's scratch (two copies).
std::size_t gpu_block_bytes(std::size_t values, Precision precision);

// What every unit of a run shares.
struct GpuSimSetup {
  jones::StationBeamConfig beam;
  std::size_t num_stations = 0;
  predict::Polarisation pol = predict::Polarisation::Full;
  std::vector<double> cable_x, cable_y;      // station cable length errors, m (empty: none)
  std::vector<double> station_x, station_y;  // true offset ECEF x, y, m (time smearing)
  std::vector<astro::Geodetic> sites;        // horizon clip: sources above any of these
  bool horizon_clip = true;
  double phase_centre_ra = 0.0, phase_centre_dec = 0.0;  // rad
  // Drift scan: the sources' direction cosines are recomputed for each unit about the zenith
  // of the array centre (centre_lon, centre_lat, rad) instead of about the phase centre.
  bool drift_scan = false;
  double centre_lon = 0.0, centre_lat = 0.0;
  double flux_min = 0.0, flux_max = 0.0;  // common flux filter on I, Jy
  bool write_cross = true, write_autos = false;
};

// A sky chunk as the host holds it; `id` (the chunk index) keys the device cache.
struct GpuChunk {
  std::size_t id = 0;
  const sky::SkyModel* sky = nullptr;
  std::span<const double> ga, gb, gc;  // Gaussian coefficients (sky/gaussian.h), 0 for points
};

// System noise of one block (vis/noise.h).
struct GpuBlockNoise {
  std::uint64_t seed = 1;
  int start_time = 0, start_channel = 0;  // global indices of the block's first time, channel
  std::vector<double> sigma;              // [channel][station], Jy
  double channel_bandwidth_hz = 0.0, time_average_sec = 0.0;
};

template <typename T>
class GpuUnit {
 public:
  GpuUnit(int device, GpuSimSetup setup);
  ~GpuUnit();
  GpuUnit(GpuUnit&&) noexcept;
  GpuUnit& operator=(GpuUnit&&) noexcept;
  GpuUnit(const GpuUnit&) = delete;
  GpuUnit& operator=(const GpuUnit&) = delete;

  void begin_block(int num_times, int num_channels);
  // The chunk's sources above the horizon at gast_rad (all of them without the clip), and the
  // stations' (u, v, w) in m for this time. Returns the number of kept sources.
  std::size_t begin_unit(const GpuChunk& chunk, double gast_rad, std::span<const double> u,
                         std::span<const double> v, std::span<const double> w);
  // Host copies of the kept sources' RA and Dec (rad), for host-side Jones inputs.
  std::span<const double> kept_ra() const;
  std::span<const double> kept_dec() const;
  // Station Jones of the kept sources at in.gast_rad / in.freq_hz (in.ra/dec: kept_ra/dec).
  // Returns the number of stations whose beam direction is below their horizon.
  std::size_t jones(const jones::StationJonesInput& in);
  // After jones(): the station Jones times the ionospheric screen Z (jones/tec_screen_cuda.h)
  // of `plane` (host values; uploaded when plane_id changes) at the pierce points of
  // `geometry` (host arrays for the kept sources, jones/tec_screen_geometry.h), at freq_hz.
  void tec_screen(const jones::TecPlaneView<T>& plane, int plane_id,
                  const jones::TecGeometry& geometry, double freq_hz);
  // One channel of time t of the block: `in` gives frequency, bandwidth, time smearing and uv
  // filter (its source and station arrays are not used: the device's are).
  void predict(const predict::PredictInput<T>& in, int t, int c);
  // Waits for the work enqueued so far (kernels run asynchronously: the pipeline waits at the
  // end of each unit, so its stage timers measure the GPU's time where it was spent).
  void synchronize();
  // The block reduction (this unit holds the result): others' copies are added into this one,
  // then the noise (nullptr: none); the result goes to the host arrays of the block (either
  // may be nullptr when the block has no such product).
  void finish_block(std::span<GpuUnit<T>* const> others, const GpuBlockNoise* noise,
                    Complex<T>* cross, Complex<T>* autos);

  int device() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::sim
