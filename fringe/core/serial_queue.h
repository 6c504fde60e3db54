// One worker thread that runs tasks in the order they are pushed: for I/O that must stay on one
// thread at a time (casacore tables are not thread safe) but should overlap the caller's
// computation, e.g. reading the next chunk of a Measurement Set and writing the previous one
// while the current one is processed. push() returns a std::future of the task's result; an
// exception thrown by a task is stored in its future (get() rethrows it) and later tasks still
// run. The destructor runs the tasks already pushed, then joins.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

namespace fringe {

class SerialQueue {
 public:
  SerialQueue() : worker_([this] { loop(); }) {}
  ~SerialQueue() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = true;
    }
    wake_.notify_one();
    // jthread's destructor joins; the loop drains the queue first.
  }
  SerialQueue(const SerialQueue&) = delete;
  SerialQueue& operator=(const SerialQueue&) = delete;

  template <class F>
  auto push(F f) -> std::future<std::invoke_result_t<F&>> {
    using R = std::invoke_result_t<F&>;
    auto task = std::make_shared<std::packaged_task<R()>>(std::move(f));
    std::future<R> result = task->get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tasks_.emplace_back([task] { (*task)(); });
    }
    wake_.notify_one();
    return result;
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return closing_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // closing, nothing left
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();  // packaged_task: exceptions go to the future
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool closing_ = false;
  std::jthread worker_;  // last: started after the other members exist
};

}  // namespace fringe
