#include "fringe/core/resources.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fringe/core/error.h"
#include "fringe/core/log.h"

namespace fringe {

namespace fs = std::filesystem;

std::int64_t free_disk_bytes(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path.empty() ? "." : path, ec);
  while (!p.empty() && !fs::exists(p, ec)) {
    if (p == p.parent_path()) break;
    p = p.parent_path();
  }
  const fs::space_info s = fs::space(p, ec);
  if (ec) return -1;
  return static_cast<std::int64_t>(s.available);
}

std::int64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string name;
  std::int64_t kb = 0;
  std::string unit;
  while (in >> name >> kb) {
    std::getline(in, unit);
    if (name == "MemAvailable:") return kb * 1024;
  }
  return -1;
}

std::size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 6) {
    bytes /= 1000.0;
    ++u;
  }
  char buf[64];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%.0f %s", bytes, units[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.3g %s", bytes, units[u]);
  }
  return buf;
}

void check_run_size(const RunEstimate& e, bool force, Logger* log) {
  constexpr double kLarge = 1e9;  // bytes: print the estimate above this
  if (e.output_bytes > kLarge || e.memory_bytes > kLarge) {
    log_info(log, "Estimate for the " + e.what + ": output " + format_bytes(e.output_bytes) +
                      ", memory " + format_bytes(e.memory_bytes));
  }
  std::string problem;
  const std::int64_t disk = free_disk_bytes(e.output_dir);
  if (disk >= 0 && e.output_bytes > static_cast<double>(disk)) {
    problem = "the output needs about " + format_bytes(e.output_bytes) + " but only " +
              format_bytes(static_cast<double>(disk)) + " is free on the disk of '" +
              (e.output_dir.empty() ? std::string(".") : e.output_dir) + "'";
  }
  const std::int64_t mem = available_memory_bytes();
  if (problem.empty() && mem >= 0 && e.memory_bytes > static_cast<double>(mem)) {
    problem = "it needs about " + format_bytes(e.memory_bytes) + " of memory but only " +
              format_bytes(static_cast<double>(mem)) + " is available";
  }
  if (problem.empty()) return;
  std::string msg = "the " + e.what + " is too large: " + problem;
  if (!e.setting_hint.empty()) msg += " (see " + e.setting_hint + ")";
  if (force) {
    log_warning(log, msg + "; running anyway because of --force");
    return;
  }
  throw Error(msg + "; use --force to run anyway");
}

}  // namespace fringe
