// Run-size estimates against the machine: refuse a runaway request (num_time_steps=1e9, a
// 100000^2 grid) before it starts, instead of dying with std::bad_alloc or a full disk
// hours later (docs/reliability.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fringe {

class Logger;

// Free bytes on the file system holding path (its nearest existing parent); -1 if unknown.
std::int64_t free_disk_bytes(const std::string& path);
// MemAvailable from /proc/meminfo, in bytes; -1 if unknown.
std::int64_t available_memory_bytes();
// The machine's physical memory in bytes (sysconf); 0 if unknown.
std::size_t physical_memory_bytes();

// "1.5 GB", "312 MB", "12 kB" (powers of 1000).
std::string format_bytes(double bytes);

struct RunEstimate {
  std::string what;          // e.g. "simulation of 1e9 times x 3 channels"
  double output_bytes = 0;   // written to disk under output_dir
  std::string output_dir;    // where the outputs go (for the free-space check)
  double memory_bytes = 0;   // peak host memory
  std::string setting_hint;  // the keys to change, e.g. "observation/num_time_steps"
};

// Logs the estimate (info) when it is large (> 1 GB either way); throws fringe::Error when
// output_bytes exceeds the free disk or memory_bytes the available memory, unless force
// (then a warning). The message gives the estimate, what is free, the keys and "--force".
void check_run_size(const RunEstimate& estimate, bool force, Logger* log);

}  // namespace fringe
