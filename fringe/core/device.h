// What the machine offers to compute on: CPU threads and CUDA GPUs (name, memory, compute
// capability, multiprocessors), and a small Device value naming one of them for the compute
// back ends (docs/architecture.md, "Compute back ends"). Memory sizes are in bytes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fringe/core/memory.h"

namespace fringe {

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

enum class DeviceKind { Cpu, Cuda };

// One place to run a compute step: the CPU (all its threads) or CUDA GPU `index`.
struct Device {
  DeviceKind kind = DeviceKind::Cpu;
  int index = 0;

  static Device cpu() { return {DeviceKind::Cpu, 0}; }
  static Device cuda(int gpu_index) { return {DeviceKind::Cuda, gpu_index}; }
  bool is_gpu() const { return kind == DeviceKind::Cuda; }
  // Where this device's working arrays live: host, or gpu `index`.
  MemoryLocation memory() const {
    return is_gpu() ? MemoryLocation::gpu(index) : MemoryLocation::host();
  }
  std::string to_string() const;  // "cpu", "gpu 0"

  friend bool operator==(const Device&, const Device&) = default;
};

}  // namespace fringe
