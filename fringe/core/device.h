// What the machine offers to compute on: CPU threads and CUDA GPUs (name, memory, compute
// capability, multiprocessors), and the one policy that picks the GPUs of a run
// (docs/architecture.md, "Compute back ends"). Memory sizes are in bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fringe {

class Logger;

struct GpuInfo {
  int index = 0;                 // CUDA device index
  std::string name;              // e.g. "NVIDIA H100 80GB HBM3"
  std::size_t total_memory = 0;  // bytes
  std::size_t free_memory = 0;   // bytes free when queried
  int compute_major = 0;         // compute capability major.minor
  int compute_minor = 0;
  int multiprocessor_count = 0;

  std::string compute_capability() const;  // "9.0"
};

// CPU threads this process may use (its CPU affinity mask; at least 1).
int cpu_thread_count();

// The CUDA GPUs visible to this process. Empty (never throws) when fringe was built without
// CUDA, when there is no driver, or no device.
std::vector<GpuInfo> cuda_devices();

// A few lines for `--version` and run logs: CPU threads, CUDA build, each GPU.
std::string describe_devices();

// What a run asks for (the keys use_gpus, cuda_device_ids and num_devices of each app).
struct DeviceRequest {
  bool use_gpus = false;
  std::vector<int> cuda_device_ids;  // CUDA indices to use; empty: every visible GPU
  int num_devices = 0;               // use at most this many GPUs; 0: all of them
};

// The one device policy of fringe: the CUDA GPUs a compute step runs on, in order; empty means
// the CPU. `max_gpus` is how many the step can use (1 for the imager, calibration and the beam
// pattern; the simulator spreads over all it is given). A listed index that is not visible is
// an error (field DeviceRequest.cuda_device_ids). GPUs asked for but unavailable (no CUDA build,
// no driver, no device) give one warning and the CPU; the chosen GPUs are logged. `step` names
// the step in those lines ("simulator", "imager", ...).
std::vector<int> choose_gpus(const DeviceRequest& request, int max_gpus, std::string_view step,
                             Logger* logger);

}  // namespace fringe
