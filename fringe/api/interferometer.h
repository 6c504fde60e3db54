// The interferometer simulator in the public API (docs/cpp_api.md, docs/python.md
// "Simulation"): a sky, a telescope and an observation (fringe/api/types.h) plus a simulation
// config in, a Measurement Set and/or an OSKAR .vis file out, or every visibility block handed
// to the caller (a callback, or a pull-style BlockStream) without writing a file. The run is
// sim::simulate_interferometer, the pipeline of the sim_interferometer app: for the same
// inputs the blocks and files equal the app's bit for bit.
//
// Two ways in:
//  - typed objects: set_sky_model(), set_telescope_model(), set_observation() and config()
//    (precision, devices, station beams, block sizes, outputs: sim/simulation_config.h);
//  - settings: from_settings() reads a sim_interferometer settings tree as the app does
//    (app::chain_config, app::load_sky, app::load_telescope). Its calibrate/image steps are
//    not run by the API (the sim_interferometer app runs them).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fringe/api/types.h"
#include "fringe/core/log.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/block_view.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"

namespace fringe::api {

using SimulationConfig = sim::SimulationConfig;  // observation is set by set_observation()
using BlockView = sim::BlockView;
using BlockSink = sim::BlockSink;
using SimulationResult = sim::SimulationResult;

// The default config of the API: as the sim_interferometer app's defaults, but on the CPU
// (devices.use_gpus = false) and with no output file; every field may be changed.
SimulationConfig default_simulation_config();

class BlockStream;

class Interferometer {
 public:
  Interferometer();

  // From a sim_interferometer settings tree: the config (every setting checked, errors name
  // the key), the sky and the telescope model it names, loaded now. settings_file is the INI
  // file the tree came from ("" = none), recorded in the MS HISTORY as the app does.
  static Interferometer from_settings(const settings::Settings& settings,
                                      const std::string& settings_file = "");

  void set_sky_model(Sky sky);
  void set_telescope_model(Telescope telescope);
  void set_observation(const Observation& observation);  // config().observation
  void set_config(const SimulationConfig& config);
  const Sky& sky_model() const { return sky_; }
  const Telescope& telescope_model() const { return telescope_; }
  const Observation& observation() const { return config_.observation; }
  SimulationConfig& config() { return config_; }
  const SimulationConfig& config() const { return config_; }

  // Messages of a run go to `logger` (nullptr, the default: silent).
  void set_logger(Logger* logger) { logger_ = logger; }

  // Runs the simulation, writing config().ms_path and/or config().vis_path (checked before
  // any work: fringe/core/output_guard.h) and giving each block to `sink` when set (then no
  // file is needed). Throws fringe::Error for a missing sky or telescope, a bad config or a
  // refused output; nothing is left behind then.
  SimulationResult run(const BlockSink& sink = {}) const;

  // Starts the simulation on a background thread and returns a stream of its blocks
  // (BlockStream::next). With write_files false (the default) no file is written whatever
  // config() names. At most `queue_blocks` finished blocks wait for the reader; the pipeline
  // waits for the reader beyond that. The inputs are copied: the Interferometer may change
  // or go while the stream runs.
  BlockStream blocks(bool write_files = false, std::size_t queue_blocks = 2) const;

 private:
  void check_ready() const;
  Sky sky_;
  Telescope telescope_;
  bool has_sky_ = false, has_telescope_ = false;
  SimulationConfig config_;
  std::vector<std::string> settings_lines_;  // the settings file, for HISTORY
  Logger* logger_ = nullptr;
};

// The blocks of a simulation running on a background thread, in order. Not copyable; moving
// is fine. Destroying (or close()) a stream before its end stops the run (files it was
// writing are removed) and waits for the thread.
class BlockStream {
 public:
  BlockStream(BlockStream&&) noexcept;
  BlockStream& operator=(BlockStream&&) noexcept;
  ~BlockStream();

  // The next block, waiting for it; std::nullopt after the last. The run's error (e.g.
  // fringe::Error) is rethrown here, once, in place of a block.
  std::optional<BlockView> next();
  // Waits at most `timeout` for a block or the end; true when next() would not wait.
  bool wait_for(std::chrono::milliseconds timeout);
  // Stops the run if it still runs and waits for its thread.
  void close();
  // The run's result once next() has returned std::nullopt (else std::nullopt).
  std::optional<SimulationResult> result() const;

 private:
  friend class Interferometer;
  struct State;
  BlockStream(std::shared_ptr<State> state, std::thread thread);
  std::shared_ptr<State> state_;
  std::thread thread_;
};

}  // namespace fringe::api
