// SIGINT/SIGTERM handling: a signal sets requested() and, when the run does not stop by itself
// within the grace time, removes registered temporaries and ends the process with 128+signal.
#include "fringe/core/interrupt.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
namespace intr = fringe::interrupt;

namespace {

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("fringe_intr_" + std::to_string(::getpid()) + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(Interrupt, RequestAndThrow) {
  intr::reset_for_tests();
  EXPECT_NO_THROW(intr::throw_if_requested());
  intr::request(SIGTERM);
  try {
    intr::throw_if_requested();
    FAIL();
  } catch (const intr::Cancelled& e) {
    EXPECT_EQ(e.signal_number(), SIGTERM);
  }
  intr::reset_for_tests();
}

// In a child process: install, register a temporary, ignore the request; the watcher ends
// the process with 143 and removes the temporary.
TEST(Interrupt, UncooperativeRunIsEndedAndTemporariesRemoved) {
  const fs::path d = scratch("a");
  const fs::path temp = d / "out.ms.tmp-1";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    intr::install(std::chrono::milliseconds(200));
    fs::create_directories(temp);
    std::ofstream(temp / "table.f0") << "data";
    intr::register_temporary(temp.string());
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  while (!fs::exists(temp / "table.f0")) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_LT(s, 1.0);
  EXPECT_FALSE(fs::exists(temp));
  fs::remove_all(d);
}

// A critical section is waited for: the process ends only after it closes.
TEST(Interrupt, CriticalSectionIsWaitedFor) {
  const fs::path d = scratch("b");
  const fs::path done = d / "done";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    intr::install(std::chrono::milliseconds(50));
    {
      intr::CriticalSection cs;
      std::ofstream(d / "started") << "";
      while (!intr::requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // longer than the grace
      std::ofstream(done) << "";
    }
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  while (!fs::exists(d / "started")) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGINT);
  EXPECT_TRUE(fs::exists(done));
  fs::remove_all(d);
}

}  // namespace

namespace {

// A signal the process inherits as ignored (nohup's SIGHUP) stays ignored; SIGTERM still stops.
TEST(Interrupt, InheritedIgnoredSignalStaysIgnored) {
  const fs::path d = scratch("c");
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGHUP, SIG_IGN);
    intr::install(std::chrono::milliseconds(50));
    std::ofstream(d / "started") << "";
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  while (!fs::exists(d / "started")) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(pid, SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "SIGHUP ended a process that ignored it";
  ::kill(pid, SIGTERM);
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  fs::remove_all(d);
}

}  // namespace
