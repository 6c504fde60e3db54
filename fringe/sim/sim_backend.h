// The compute back ends of the interferometer pipeline (sim/interferometer.h), in the pattern
// of the imager's IdgBackend (docs/architecture.md, "Compute back ends"). The pipeline
// (interferometer.cpp) plans the blocks and the work units (time, sky chunk) of each, runs the
// units on worker threads and writes the blocks; a back end computes the units of a block and
// sums them into it:
//   CPU   (sim_backend_cpu.cpp)   one worker per CPU thread: a unit predicts into its worker's
//         buffer, which is added into the block in chunk order (so the sums do not depend on
//         the threads); system noise on the host;
//   CUDA  (sim_backend_cuda.cpp)  one worker per GPU (sim/gpu_unit.h): each GPU adds into its
//         own device copy of the block; finish_block sums the copies on the first GPU, adds
//         the noise there and copies the block to the host.
// make_sim_backend and sim_chunk_sources (sim_backend.cpp) are the only code that knows
// whether this build has the CUDA back end. Internal to fringe/sim.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/core/complex.h"
#include "fringe/core/error.h"
#include "fringe/core/jones.h"
#include "fringe/core/log.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/station_jones.h"
#include "fringe/jones/tec_screen.h"
#include "fringe/jones/tec_screen_geometry.h"
#include "fringe/predict/predict.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/sky/spectrum.h"
#include "fringe/vis/noise.h"
#include "fringe/vis/vis_block.h"

namespace fringe::sim {

// A sky chunk with what every work unit needs, computed once.
struct SimChunk {
  sky::SkyModel sky;
  std::vector<double> l, m, n;  // direction cosines about the phase centre
  std::vector<double> a, b, c;  // Gaussian coefficients (0 for points)
};

// Station geometry and beam models, computed once.
struct SimStations {
  std::size_t count = 0;
  std::vector<double> true_x, true_y, true_z;  // offset ECEF, m (simulation)
  std::vector<double> meas_x, meas_y, meas_z;  // offset ECEF, m (written UVW)
  // East, North, Up about the array centre, m: the station (u, v, w) of a drift scan, whose
  // phase centre is the array centre's zenith (true: simulation; measured: written UVW).
  std::vector<double> true_e, true_n, true_u;
  std::vector<double> meas_e, meas_n, meas_u;
  astro::Geodetic centre;  // the array centre: its zenith is a drift scan's phase centre
  std::vector<astro::Geodetic> sites;    // each station's own lon/lat/height
  std::vector<double> cable_x, cable_y;  // station cable length errors, m
  bool has_cable_errors = false;
  std::optional<jones::ApertureArrayModel> aperture_array;  // Aperture array stations
  std::optional<jones::PointingOverrides> pointing;         // SimulationConfig.pointing_file
  std::optional<jones::TecScreen> tec_screen;               // SimulationConfig.ionosphere
  jones::TecStations tec_stations;  // the stations under the screen (with tec_screen)
};

// Host scratch arrays of one worker, reused across its units.
template <typename T>
struct UnitScratch {
  std::vector<double> u, v, w;  // stations' (u, v, w) of the unit's time, m
  std::vector<std::size_t> index;
  std::vector<double> ra, dec, l, m, n;
  std::vector<T> ga, gb, gc;
  std::vector<T> si, sq, su, sv;
  std::vector<Jones<T>> jones;
  std::vector<Complex<T>> jones_scalar;
  std::vector<Complex<T>> cross, autos;  // [channel][baseline|station][pol] of one time
  // Fluxes of the whole chunk at each channel frequency; they do not depend on time, so the
  // units of one chunk (consecutive on a worker: units are chunk-major) share them.
  const SimChunk* flux_chunk = nullptr;
  std::vector<double> flux_freqs;
  std::vector<sky::StokesColumns> flux_cache;
  // The TEC screen plane in use (SimStations.tec_screen), converted to T once per plane.
  int tec_plane = -1;
  std::vector<T> tec_values;
  jones::TecPlaneView<T> tec_view;
  jones::TecGeometry tec_geometry;  // the unit's pierce points (SimInputs::tec_geometry)
  const jones::TecPlaneView<T>& tec_plane_view(const jones::TecScreen& screen, int plane) {
    if (plane != tec_plane) {
      tec_view = jones::tec_plane_view<T>(screen, plane, tec_values);
      tec_plane = plane;
    }
    return tec_view;
  }
};

// Thrown to the units that wait for a unit that failed.
struct UnitAborted : Error {
  UnitAborted() : Error("simulation aborted") {}
};

// What every unit of a run reads, and the host-side inputs both back ends form from it.
template <typename T>
class SimInputs {
 public:
  SimInputs(const SimulationConfig& config, const std::vector<SimChunk>& chunks,
            const SimStations& stations, const RunContext& context);

  const SimulationConfig& config;
  const std::vector<SimChunk>& chunks;
  const SimStations& stations;
  const RunContext& context;
  predict::Polarisation pol = predict::Polarisation::Full;
  std::size_t npol = 4;  // polarisations per visibility
  std::size_t nbl = 0;   // baselines
  jones::BeamPointing pointing;
  // ObservationMode::DriftScan: the phase centre is the array centre's zenith at every time
  // (docs/simulation.md, "Drift scan").
  bool drift_scan = false;

  // GAST (rad) at the centre of time t of the block.
  double gast_of(const vis::VisBlock<T>& block, std::size_t t) const;
  // The stations' (u, v, w) (m) from their true positions at gast, into ws.u, ws.v, ws.w
  // (drift scan: their true East, North, Up offsets, the same at every time).
  void true_station_uvw(double gast, UnitScratch<T>& ws) const;
  // Drift scan only: ws.l, ws.m, ws.n = the East, North, Up direction cosines of the kept
  // sources (ws.ra, ws.dec) at the array centre at gast: their direction cosines about the
  // zenith phase centre, which change with time.
  void drift_directions(double gast, UnitScratch<T>& ws) const;
  // The TEC screen's pierce points of the stations for sources (ra, dec) at gast, into
  // ws.tec_geometry (jones/tec_screen_geometry.h): OSKAR's phase-centre frame when tracking,
  // its horizon frame in a drift scan; the field along each line of sight in Full mode.
  void tec_geometry(double gast, std::span<const double> ra, std::span<const double> dec,
                    UnitScratch<T>& ws) const;
  // The predict input of one channel (host arrays of the scratch).
  predict::PredictInput<T> predict_input(const UnitScratch<T>& ws, double gast, double freq) const;
  // The station Jones input of the scratch's sources at (gast, freq).
  jones::StationJonesInput jones_input(const UnitScratch<T>& ws, double gast, double freq,
                                       int time_index) const;

  // Keeps the largest number of stations seen with their beam below the horizon (thread safe).
  void record_below(std::size_t below);
  std::size_t beams_below_horizon() const { return below_.load(); }

 private:
  std::atomic<std::size_t> below_{0};
};

// One back end computes the units of a run's blocks. Not thread safe except run_unit, which
// the workers call concurrently, each with its own `worker` index.
template <typename T>
class SimBackend {
 public:
  virtual ~SimBackend() = default;
  // The number of workers that pull units (CPU threads, or one per GPU).
  virtual int num_workers() const = 0;
  // Waits for a set-up that ran while the Measurement Set was created (the GPUs').
  virtual void finish_setup() {}
  // `block`, a block handed back by the writer, computes the next block: the CPU zeroes it
  // (units add into it); the GPUs' finish_block overwrites it whole.
  virtual void reuse_block(vis::VisBlock<T>& block) = 0;
  // Before the units of `block` (its axes set).
  virtual void begin_block(const vis::VisBlock<T>& block) = 0;
  // Unit (time t of the block, chunk k) on worker `worker`.
  virtual void run_unit(vis::VisBlock<T>& block, std::size_t t, std::size_t k, int worker) = 0;
  // A unit failed: the units waiting for their turn throw UnitAborted.
  virtual void abort_block() {}
  // After every unit: the block's visibilities complete, with system noise when `noise` is
  // given (after the sky visibilities: docs/conventions.md, "System noise").
  virtual void finish_block(vis::VisBlock<T>& block, const vis::NoiseTable* noise) = 0;
};

// The back end of a run: CUDA on `gpus` (when not empty), else the CPU with
// resolve_num_threads(config) threads. GPU units are set up asynchronously: call
// finish_setup before the first block.
template <typename T>
std::unique_ptr<SimBackend<T>> make_sim_backend(const std::vector<int>& gpus, SimInputs<T>& inputs);

// Sources per sky chunk: SimulationConfig.max_sources_per_chunk, lowered (with a warning) to
// what the GPUs' free memory holds; throws fringe::Error naming
// SimulationConfig.max_times_per_block when a block does not fit on a GPU.
std::size_t sim_chunk_sources(const SimulationConfig& config, std::size_t num_stations,
                              const std::vector<int>& gpus, Logger* logger);

// The back ends themselves (make_sim_backend chooses). The CUDA ones are defined only in
// builds with the CUDA back end.
template <typename T>
std::unique_ptr<SimBackend<T>> make_cpu_sim_backend(int num_threads, SimInputs<T>& inputs);
template <typename T>
std::unique_ptr<SimBackend<T>> make_cuda_sim_backend(const std::vector<int>& gpus,
                                                     SimInputs<T>& inputs);
std::size_t cuda_chunk_sources(const SimulationConfig& config, std::size_t num_stations,
                               const std::vector<int>& gpus, Logger* logger);

}  // namespace fringe::sim
