// ThreadPool / parallel_for (every item exactly once, thread indices, exceptions) and
// device discovery (never throws).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/core/memory.h"
#include "fringe/core/thread_pool.h"

namespace fringe {
namespace {

TEST(ParallelFor, EveryItemOnce) {
  for (int threads : {1, 3, 8}) {
    std::vector<std::atomic<int>> hits(1000);
    std::mutex m;
    std::set<int> thread_ids;
    parallel_for(threads, hits.size(), [&](std::size_t i, int t) {
      hits[i]++;
      std::lock_guard lock(m);
      thread_ids.insert(t);
    });
    for (const auto& h : hits) EXPECT_EQ(h.load(), 1);
    for (int t : thread_ids) {
      EXPECT_GE(t, 0);
      EXPECT_LT(t, threads);
    }
  }
}

TEST(ParallelFor, FewerItemsThanThreadsAndNone) {
  std::atomic<int> max_thread{-1};
  std::atomic<int> count{0};
  parallel_for(8, 2, [&](std::size_t, int t) {
    count++;
    int m = max_thread.load();
    while (t > m && !max_thread.compare_exchange_weak(m, t)) {
    }
  });
  EXPECT_EQ(count.load(), 2);
  EXPECT_LE(max_thread.load(), 1);  // only two threads were started
  parallel_for(4, 0, [&](std::size_t, int) { count++; });
  EXPECT_EQ(count.load(), 2);
}

TEST(ParallelFor, RethrowsFirstException) {
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(4, 100,
                            [&](std::size_t i, int) {
                              ran++;
                              if (i == 10) throw std::runtime_error("item 10 failed");
                            }),
               std::runtime_error);
  EXPECT_GE(ran.load(), 1);
}

TEST(ThreadPool, ReusedAcrossRuns) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3);
  for (int run = 0; run < 50; ++run) {
    std::vector<std::atomic<int>> hits(97);
    std::atomic<long> sum{0};
    pool.run(hits.size(), [&](std::size_t i, int t) {
      EXPECT_GE(t, 0);
      EXPECT_LT(t, 3);
      hits[i]++;
      sum += static_cast<long>(i);
    });
    for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
    EXPECT_EQ(sum.load(), 96L * 97L / 2);
  }
  pool.run(0, [](std::size_t, int) { FAIL(); });
}

TEST(ThreadPool, ExceptionThenUsableAgain) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.run(50,
                        [](std::size_t i, int) {
                          if (i == 3) throw std::logic_error("bad item");
                        }),
               std::logic_error);
  std::atomic<int> count{0};
  pool.run(20, [&](std::size_t, int) { count++; });
  EXPECT_EQ(count.load(), 20);
}

TEST(ThreadPool, DefaultSizeIsCpuThreads) {
  ThreadPool pool(0);
  EXPECT_EQ(pool.size(), cpu_thread_count());
}

TEST(Device, CpuAndDiscovery) {
  EXPECT_GE(cpu_thread_count(), 1);
  std::vector<GpuInfo> gpus;
  EXPECT_NO_THROW(gpus = cuda_devices());
  if (!cuda_built()) {
    EXPECT_TRUE(gpus.empty());
  }
  for (const auto& g : gpus) {
    EXPECT_FALSE(g.name.empty());
    EXPECT_GT(g.total_memory, 0u);
    EXPECT_LE(g.free_memory, g.total_memory);
    EXPECT_GE(g.compute_major, 3);
    EXPECT_GT(g.multiprocessor_count, 0);
  }
  const std::string text = describe_devices();
  EXPECT_NE(text.find("CPU threads: " + std::to_string(cpu_thread_count())), std::string::npos)
      << text;
  EXPECT_NE(text.find(gpus.empty() ? "GPUs: none" : "GPU 0: "), std::string::npos) << text;
}

TEST(Device, ComputeCapability) {
  GpuInfo g;
  g.compute_major = 9;
  g.compute_minor = 0;
  EXPECT_EQ(g.compute_capability(), "9.0");
}

// The one device policy (core/device.h): CPU unless asked, every visible GPU by default, the
// listed ones in order, capped by num_devices and by what the step can use; an index that is
// not visible is an error naming the field.
TEST(Device, ChooseGpus) {
  const std::vector<GpuInfo> visible = cuda_devices();
  std::ostringstream sink;
  Logger log(sink);
  DeviceRequest off;
  EXPECT_TRUE(choose_gpus(off, 8, "test", &log).empty());
  DeviceRequest all;
  all.use_gpus = true;
  const std::vector<int> chosen = choose_gpus(all, 64, "test", &log);
  ASSERT_EQ(chosen.size(), visible.size());
  for (std::size_t i = 0; i < chosen.size(); ++i) EXPECT_EQ(chosen[i], visible[i].index);
  EXPECT_LE(choose_gpus(all, 1, "test", &log).size(), 1u);
  DeviceRequest capped = all;
  capped.num_devices = 1;
  EXPECT_EQ(choose_gpus(capped, 64, "test", &log).size(), std::min<std::size_t>(1, visible.size()));
  if (!visible.empty()) {
    DeviceRequest bad = all;
    bad.cuda_device_ids = {static_cast<int>(visible.size()) + 7};
    try {
      (void)choose_gpus(bad, 8, "test", &log);
      FAIL() << "an invisible device index was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.context().field, "DeviceRequest.cuda_device_ids");
    }
    DeviceRequest listed = all;
    listed.cuda_device_ids = {visible.back().index};
    EXPECT_EQ(choose_gpus(listed, 8, "test", &log), std::vector<int>{visible.back().index});
  }
}

}  // namespace
}  // namespace fringe
