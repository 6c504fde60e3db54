#include "fringe/core/interrupt.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "fringe/core/output_guard.h"

namespace fringe::interrupt {

namespace {

struct State {
  std::mutex mutex;
  std::condition_variable changed;  // critical sections closing
  std::map<int, std::string> temporaries;
  int next_id = 0;
  int critical = 0;  // open CriticalSections
  std::chrono::milliseconds grace{800};
};

State& state() {
  static State* s = new State();  // never destroyed: the watcher may outlive main()'s statics
  return *s;
}

std::atomic<int> g_signal{0};
std::atomic<bool> g_installed{false};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

void write_stderr(const std::string& s) {
  const ssize_t n = ::write(STDERR_FILENO, s.data(), s.size());
  (void)n;
}

// Removes the registered temporaries and ends the process: 128 + signal (shell convention).
[[noreturn]] void finish(int sig) {
  State& s = state();
  std::map<int, std::string> temps;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    temps = s.temporaries;
  }
  for (const auto& [id, path] : temps) remove_temporary(path);
  write_stderr(std::string("error: stopped by ") + signal_name(sig) +
               "; temporary outputs removed\n");
  ::_exit(128 + sig);
}

void watcher(sigset_t set) {
  int sig = 0;
  if (::sigwait(&set, &sig) != 0) return;
  g_signal.store(sig);
  State& s = state();
  // Wait for the run to stop by itself (it polls requested()), then end the process. A
  // second signal cuts the grace time short; an open CriticalSection is always waited for.
  const auto deadline = std::chrono::steady_clock::now() + s.grace;
  std::atomic<bool> second{false};
  std::thread([set, &second] {
    int sig2 = 0;
    if (::sigwait(&set, &sig2) == 0) second.store(true);
  }).detach();
  std::unique_lock<std::mutex> lock(s.mutex);
  while (s.critical > 0 || (std::chrono::steady_clock::now() < deadline && !second.load())) {
    s.changed.wait_for(lock, std::chrono::milliseconds(20));
  }
  lock.unlock();
  finish(sig);
}

}  // namespace

Cancelled::Cancelled(int signal_number)
    : Error(std::string("stopped by ") + signal_name(signal_number) +
            "; temporary outputs removed"),
      signal_(signal_number) {}

void install(std::chrono::milliseconds grace) {
  bool expected = false;
  if (!g_installed.compare_exchange_strong(expected, true)) return;
  state().grace = grace;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  // Blocked here and in every thread started later (they inherit the mask), so only the
  // watcher's sigwait() receives them.
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(watcher, set).detach();
}

bool installed() { return g_installed.load(); }
bool requested() { return g_signal.load() != 0; }
int signal() { return g_signal.load(); }
void request(int signal_number) { g_signal.store(signal_number); }
void reset_for_tests() { g_signal.store(0); }

void throw_if_requested() {
  const int sig = g_signal.load();
  if (sig != 0) throw Cancelled(sig);
}

int register_temporary(const std::string& path) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const int id = s.next_id++;
  s.temporaries[id] = path;
  return id;
}

void unregister_temporary(int id) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.temporaries.erase(id);
}

CriticalSection::CriticalSection() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.critical;
}

CriticalSection::~CriticalSection() {
  State& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    --s.critical;
  }
  s.changed.notify_all();
}

}  // namespace fringe::interrupt
