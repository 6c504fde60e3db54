// SerialQueue (core/serial_queue.h): tasks run one at a time in push order, on one thread
// that is not the caller's; results and exceptions reach the futures; the destructor runs
// what was pushed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "fringe/core/serial_queue.h"

namespace {

TEST(SerialQueue, RunsInOrderOnOneOtherThread) {
  std::vector<int> order;  // written only by the worker: no lock needed if tasks are serial
  std::atomic<int> running{0}, overlap{0};
  std::thread::id worker;
  std::vector<std::future<int>> results;
  {
    fringe::SerialQueue q;
    for (int i = 0; i < 50; ++i) {
      results.push_back(q.push([&, i] {
        if (running.fetch_add(1) != 0) ++overlap;
        if (i == 0) worker = std::this_thread::get_id();
        if (i % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        order.push_back(i);
        running.fetch_sub(1);
        return i * i;
      }));
    }
    for (int i = 0; i < 50; ++i) EXPECT_EQ(results[i].get(), i * i);
  }
  EXPECT_EQ(overlap.load(), 0);
  EXPECT_NE(worker, std::this_thread::get_id());
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(order[i], i);
}

TEST(SerialQueue, ExceptionGoesToItsFutureAndLaterTasksRun) {
  fringe::SerialQueue q;
  auto bad = q.push([]() -> int { throw std::runtime_error("read failed"); });
  auto good = q.push([] { return 7; });
  EXPECT_THROW(bad.get(), std::runtime_error);
  EXPECT_EQ(good.get(), 7);
}

TEST(SerialQueue, DestructorRunsPushedTasks) {
  std::atomic<int> done{0};
  {
    fringe::SerialQueue q;
    for (int i = 0; i < 20; ++i) {
      q.push([&] {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        ++done;
      });
    }
  }
  EXPECT_EQ(done.load(), 20);
}

}  // namespace
