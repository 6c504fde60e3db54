#include "fringe/io/ms/column_tasks.h"

#include <casacore/casa/OS/HostInfo.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <future>
#include <mutex>

namespace fringe::io::detail {

bool column_tasks_parallel() {
  static const bool parallel = [] {
    const char* v = std::getenv("FRINGE_MS_IO_THREADS");
    return !(v && std::strcmp(v, "1") == 0);
  }();
  return parallel;
}

void run_column_tasks(const std::vector<std::function<void()>>& tasks) {
  if (!column_tasks_parallel() || tasks.size() < 2) {
    for (const auto& task : tasks) task();
    return;
  }
  // HostInfo (asked by the tiled storage managers when they size their caches) is created
  // lazily without a lock: create it here, on one thread, before the first parallel access.
  static std::once_flag host_info;
  std::call_once(host_info, [] { (void)casacore::HostInfo::memoryTotal(true); });
  std::vector<std::future<void>> running;
  running.reserve(tasks.size() - 1);
  for (std::size_t i = 1; i < tasks.size(); ++i) {
    running.push_back(std::async(std::launch::async, tasks[i]));
  }
  std::exception_ptr first;
  try {
    tasks[0]();
  } catch (...) {
    first = std::current_exception();
  }
  for (auto& f : running) {
    try {
      f.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace fringe::io::detail
