// CPU parallelism for the pipeline: a fixed pool of worker threads that share a counter of
// work items (dynamic scheduling: each thread takes the next item when it is free), and a
// one-shot parallel_for helper. fn(item, thread_index) is called once per item in
// [0, n_items); thread_index in [0, n_threads) identifies the worker (e.g. its GPU or its
// private accumulation buffer). The first exception thrown by fn stops further items from
// starting and is rethrown by the caller after all workers are idle.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fringe {

using WorkFunction = std::function<void(std::size_t item, int thread_index)>;

class ThreadPool {
 public:
  // n_threads >= 1 workers (0 or less means cpu_thread_count()).
  explicit ThreadPool(int n_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()); }

  // Runs fn on every item using all workers; blocks until done. Not reentrant: one run at
  // a time (calls from several threads are serialised).
  void run(std::size_t n_items, const WorkFunction& fn);

 private:
  void worker_loop(int thread_index, const std::stop_token& stop);

  std::mutex run_mutex_;  // one run at a time
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::condition_variable done_;
  const WorkFunction* job_ = nullptr;
  std::size_t n_items_ = 0;
  std::size_t next_item_ = 0;
  unsigned long generation_ = 0;
  int busy_ = 0;
  std::exception_ptr error_;
  std::vector<std::jthread> workers_;
};

// Runs fn over [0, n_items) on n_threads fresh threads (n_threads <= 0: cpu_thread_count();
// never more threads than items; one thread runs on the caller).
void parallel_for(int n_threads, std::size_t n_items, const WorkFunction& fn);

}  // namespace fringe
