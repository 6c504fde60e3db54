#include "fringe/core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "fringe/core/device.h"

namespace fringe {

ThreadPool::ThreadPool(int n_threads) {
  const int n = n_threads > 0 ? n_threads : cpu_thread_count();
  workers_.reserve(n);
  for (int i = 0; i < n; ++i) {
    workers_.emplace_back([this, i](const std::stop_token& stop) { worker_loop(i, stop); });
  }
}

ThreadPool::~ThreadPool() {
  for (auto& w : workers_) w.request_stop();
  wake_.notify_all();
  workers_.clear();  // joins
}

void ThreadPool::worker_loop(int thread_index, const std::stop_token& stop) {
  unsigned long seen = 0;
  std::unique_lock lock(mutex_);
  while (true) {
    if (!wake_.wait(lock, stop, [&] { return generation_ != seen; })) return;  // stopped
    seen = generation_;
    ++busy_;
    while (!error_ && next_item_ < n_items_) {
      const std::size_t item = next_item_++;
      const WorkFunction* job = job_;
      lock.unlock();
      try {
        (*job)(item, thread_index);
      } catch (...) {
        lock.lock();
        if (!error_) error_ = std::current_exception();
        continue;
      }
      lock.lock();
    }
    if (--busy_ == 0) done_.notify_all();
  }
}

void ThreadPool::run(std::size_t n_items, const WorkFunction& fn) {
  if (n_items == 0) return;
  std::lock_guard run_lock(run_mutex_);
  std::unique_lock lock(mutex_);
  job_ = &fn;
  n_items_ = n_items;
  next_item_ = 0;
  error_ = nullptr;
  ++generation_;
  wake_.notify_all();
  // Done when every item was handed out (or an error stopped that) and no worker is busy.
  // A worker that wakes late finds no item left and leaves at once.
  done_.wait(lock, [&] { return (next_item_ >= n_items_ || error_) && busy_ == 0; });
  job_ = nullptr;
  n_items_ = 0;
  if (error_) {
    auto e = std::exchange(error_, nullptr);
    std::rethrow_exception(e);
  }
}

void parallel_for(int n_threads, std::size_t n_items, const WorkFunction& fn) {
  if (n_items == 0) return;
  const std::size_t wanted = n_threads > 0 ? static_cast<std::size_t>(n_threads)
                                           : static_cast<std::size_t>(cpu_thread_count());
  const int n = static_cast<int>(std::min(wanted, n_items));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto body = [&](int thread_index) {
    while (!failed.load(std::memory_order_relaxed)) {
      const std::size_t item = next.fetch_add(1);
      if (item >= n_items) return;
      try {
        fn(item, thread_index);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  {
    std::vector<std::jthread> threads;
    threads.reserve(n - 1);
    for (int t = 1; t < n; ++t) threads.emplace_back(body, t);
    body(0);
  }  // joins
  if (error) std::rethrow_exception(error);
}

}  // namespace fringe
