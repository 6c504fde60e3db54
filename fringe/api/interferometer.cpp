#include "fringe/api/interferometer.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <utility>

#include "fringe/app/models.h"
#include "fringe/app/run_files.h"
#include "fringe/app/sim_chain.h"
#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/settings/app_cli.h"

namespace fringe::api {
namespace {

// The outputs a run writes (the MS, the .vis file), checked before any work against what is
// there and the run's inputs.
void check_run_outputs(const SimulationConfig& c, const std::vector<std::string>& inputs) {
  std::vector<OutputTarget> targets;
  if (!c.ms_path.empty()) {
    OutputTarget t;
    t.key = "SimulationConfig.ms_path";
    t.path = io::ms_output_path(c.ms_path);
    t.kind = OutputKind::MeasurementSet;
    targets.push_back(t);
  }
  if (!c.vis_path.empty())
    targets.push_back(io::vis_output_target("SimulationConfig.vis_path", c.vis_path));
  check_outputs(targets, inputs);
}

// The lines of a text file (its HISTORY record), or none when it cannot be read.
std::vector<std::string> file_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (path.empty() || !in || !(text << in.rdbuf())) return {};
  return settings::split_lines(text.str());
}

}  // namespace

SimulationConfig default_simulation_config() {
  SimulationConfig c;
  c.devices.use_gpus = false;
  return c;
}

Interferometer::Interferometer() : config_(default_simulation_config()) {}

Interferometer Interferometer::from_settings(const settings::Settings& s,
                                             const std::string& settings_file) {
  Interferometer sim;
  // Every setting is checked before the models load (the app's order).
  sim.config_ = app::chain_config(s, /*force=*/false, /*strict=*/false).simulation;
  std::ostringstream log_text;
  Logger log(log_text);
  log.set_level(LogLevel::Off);
  sim.set_sky_model(app::load_sky(s, log, false));
  sim.set_telescope_model(app::load_telescope(s, log));
  sim.settings_lines_ = file_lines(settings_file);
  return sim;
}

void Interferometer::set_sky_model(Sky sky) {
  sky_ = std::move(sky);
  has_sky_ = true;
}
void Interferometer::set_telescope_model(Telescope telescope) {
  telescope_ = std::move(telescope);
  has_telescope_ = true;
}
void Interferometer::set_observation(const Observation& observation) {
  config_.observation = observation;
}
void Interferometer::set_config(const SimulationConfig& config) { config_ = config; }

void Interferometer::check_ready() const {
  if (!has_sky_) throw Error("Interferometer: no sky model (set_sky_model)");
  if (!has_telescope_) throw Error("Interferometer: no telescope model (set_telescope_model)");
  if (config_.corruption.enable && config_.ms_path.empty()) {
    throw Error::in_field("GainCorruptionConfig.enable", "true",
                          "gain corruption writes its true gains beside a Measurement Set: "
                          "set SimulationConfig.ms_path");
  }
}

SimulationResult Interferometer::run(const BlockSink& sink) const {
  check_ready();
  check_run_outputs(config_, {telescope_.directory});
  sim::RunContext context;
  context.logger = logger_;
  context.settings_lines = settings_lines_;
  context.application = "fringe API";
  context.block_sink = sink;
  return sim::simulate_interferometer(config_, sky_, telescope_, context);
}

// The queue between the pipeline's writer thread (producer) and the reader.
struct BlockStream::State {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<BlockView> queue;
  std::size_t capacity = 2;
  bool done = false;       // the run has ended (result or error)
  bool cancelled = false;  // the reader gave up: the sink throws Cancelled
  bool error_given = false;
  std::exception_ptr error;
  std::optional<SimulationResult> result;
};

namespace {
struct Cancelled {};  // thrown by the sink of a closed stream; never leaves the thread
}  // namespace

BlockStream Interferometer::blocks(bool write_files, std::size_t queue_blocks) const {
  check_ready();
  auto sim = std::make_shared<Interferometer>(*this);
  if (!write_files) {
    sim->config_.ms_path.clear();
    sim->config_.vis_path.clear();
    sim->config_.corruption.enable = false;  // its true gains need the MS
  }
  auto state = std::make_shared<BlockStream::State>();
  state->capacity = std::max<std::size_t>(1, queue_blocks);
  // The output check before the thread starts, so a refused output throws here.
  check_run_outputs(sim->config_, {sim->telescope_.directory});
  std::thread thread([sim, state] {
    try {
      SimulationResult r = sim->run([&state](BlockView& v) {
        std::unique_lock lock(state->mutex);
        state->changed.wait(
            lock, [&] { return state->cancelled || state->queue.size() < state->capacity; });
        if (state->cancelled) throw Cancelled{};
        state->queue.push_back(std::move(v));
        state->changed.notify_all();
      });
      std::lock_guard lock(state->mutex);
      state->result = std::move(r);
    } catch (const Cancelled&) {
    } catch (...) {
      std::lock_guard lock(state->mutex);
      if (!state->cancelled) state->error = std::current_exception();
    }
    std::lock_guard lock(state->mutex);
    state->done = true;
    state->changed.notify_all();
  });
  return BlockStream(state, std::move(thread));
}

BlockStream::BlockStream(std::shared_ptr<State> state, std::thread thread)
    : state_(std::move(state)), thread_(std::move(thread)) {}
BlockStream::BlockStream(BlockStream&&) noexcept = default;
BlockStream& BlockStream::operator=(BlockStream&& other) noexcept {
  if (this != &other) {
    close();
    state_ = std::move(other.state_);
    thread_ = std::move(other.thread_);
  }
  return *this;
}
BlockStream::~BlockStream() { close(); }

std::optional<BlockView> BlockStream::next() {
  if (!state_) return std::nullopt;
  std::unique_lock lock(state_->mutex);
  state_->changed.wait(lock, [&] { return !state_->queue.empty() || state_->done; });
  if (!state_->queue.empty()) {
    BlockView v = std::move(state_->queue.front());
    state_->queue.pop_front();
    state_->changed.notify_all();
    return v;
  }
  if (state_->error && !state_->error_given) {
    state_->error_given = true;
    std::rethrow_exception(state_->error);
  }
  return std::nullopt;
}

bool BlockStream::wait_for(std::chrono::milliseconds timeout) {
  if (!state_) return true;
  std::unique_lock lock(state_->mutex);
  return state_->changed.wait_for(lock, timeout,
                                  [&] { return !state_->queue.empty() || state_->done; });
}

void BlockStream::close() {
  if (!state_) return;
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->done) state_->cancelled = true;
    state_->queue.clear();
    state_->changed.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

std::optional<SimulationResult> BlockStream::result() const {
  if (!state_) return std::nullopt;
  std::lock_guard lock(state_->mutex);
  if (!state_->done || !state_->queue.empty()) return std::nullopt;
  return state_->result;
}

}  // namespace fringe::api
