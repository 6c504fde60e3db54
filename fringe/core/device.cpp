#include "fringe/core/device.h"

#include "fringe/core/error.h"
#include "fringe/core/log.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <thread>

#ifdef FRINGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace fringe {

std::string GpuInfo::compute_capability() const {
  return std::to_string(compute_major) + "." + std::to_string(compute_minor);
}

int cpu_thread_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

std::vector<GpuInfo> cuda_devices() {
  std::vector<GpuInfo> gpus;
#ifdef FRINGE_HAVE_CUDA
  // Discovery must not throw: any failure means "no usable GPU here".
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return gpus;
  }
  // The free memory needs each device's context; creating them is the slow part of start-up
  // (a few tenths of a second per GPU), so the devices are queried on one thread each.
  // cudaSetDevice on a worker thread leaves the caller's current device unchanged.
  std::vector<GpuInfo> found(std::size_t(count > 0 ? count : 0));
  std::vector<char> ok(found.size(), 0);
  std::vector<std::thread> workers;
  for (int i = 0; i < count; ++i) {
    workers.emplace_back([i, &found, &ok] {
      GpuInfo& g = found[std::size_t(i)];
      g.index = i;
      cudaDeviceProp prop{};
      if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
        cudaGetLastError();
        return;
      }
      g.name = prop.name;
      g.total_memory = prop.totalGlobalMem;
      g.compute_major = prop.major;
      g.compute_minor = prop.minor;
      g.multiprocessor_count = prop.multiProcessorCount;
      std::size_t free_bytes = 0;
      std::size_t total_bytes = 0;
      if (cudaSetDevice(i) == cudaSuccess &&
          cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
        g.free_memory = free_bytes;
      } else {
        cudaGetLastError();
      }
      ok[std::size_t(i)] = 1;
    });
  }
  for (auto& w : workers) w.join();
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (ok[i]) gpus.push_back(std::move(found[i]));
  }
#endif
  return gpus;
}

std::string describe_devices() {
  std::ostringstream out;
  out << "CPU threads: " << cpu_thread_count() << "\n";
#ifdef FRINGE_HAVE_CUDA
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  out << "CUDA: built with runtime " << runtime / 1000 << "." << (runtime % 1000) / 10;
  int driver = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
    out << ", driver " << driver / 1000 << "." << (driver % 1000) / 10 << "\n";
  } else {
    cudaGetLastError();
    out << ", no driver\n";
  }
#else
  out << "CUDA: not built\n";
#endif
  const auto gpus = cuda_devices();
  if (gpus.empty()) out << "GPUs: none\n";
  for (const auto& g : gpus) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "GPU %d: %s, compute capability %s, %d multiprocessors, %.1f GiB (%.1f GiB "
                  "free)\n",
                  g.index, g.name.c_str(), g.compute_capability().c_str(), g.multiprocessor_count,
                  g.total_memory / 1073741824.0, g.free_memory / 1073741824.0);
    out << line;
  }
  return out.str();
}

std::vector<int> choose_gpus(const DeviceRequest& request, int max_gpus, std::string_view step,
                             Logger* logger) {
  if (!request.use_gpus || max_gpus <= 0) return {};
  const std::vector<GpuInfo> visible = cuda_devices();
  std::vector<int> chosen;
  if (request.cuda_device_ids.empty()) {
    for (const GpuInfo& g : visible) chosen.push_back(g.index);
  } else {
    for (int id : request.cuda_device_ids) {
      const bool found = std::any_of(visible.begin(), visible.end(),
                                     [&](const GpuInfo& g) { return g.index == id; });
      if (!found && !visible.empty()) {
        throw Error::in_field("DeviceRequest.cuda_device_ids", std::to_string(id),
                              "no such CUDA device: " + std::to_string(visible.size()) +
                                  " GPU(s) are visible (indices from 0)");
      }
      if (found && std::find(chosen.begin(), chosen.end(), id) == chosen.end()) {
        chosen.push_back(id);
      }
    }
  }
  std::string prefix(step);
  prefix += ": ";
  if (chosen.empty()) {
    log_warning(logger, prefix +
                            "use_gpus is true but no usable CUDA GPU was found (or this build has "
                            "no CUDA back end): running on the CPU");
    return chosen;
  }
  std::size_t limit = std::size_t(max_gpus);
  if (request.num_devices > 0) limit = std::min(limit, std::size_t(request.num_devices));
  if (chosen.size() > limit) {
    if (!request.cuda_device_ids.empty()) {
      log_warning(logger, prefix + "uses " + std::to_string(limit) + " GPU(s): the first " +
                              std::to_string(limit) + " of cuda_device_ids");
    }
    chosen.resize(limit);
  }
  std::string names;
  for (int id : chosen) {
    for (const GpuInfo& g : visible) {
      if (g.index == id) {
        names += (names.empty() ? "" : ", ") + std::to_string(id) + " (" + g.name + ")";
      }
    }
  }
  log_info(logger, prefix + "running on " + std::to_string(chosen.size()) + " GPU(s): " + names);
  return chosen;
}

}  // namespace fringe
