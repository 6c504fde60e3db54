#include "fringe/core/interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "fringe/core/output_guard.h"

namespace fringe::interrupt {

namespace {

struct State {
  std::mutex mutex;
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

// The self-pipe: the signal handler writes the signal number into it (write() is
// async-signal-safe), the watcher thread reads it and does the work no handler may do.
int g_pipe[2] = {-1, -1};

extern "C" void on_signal(int sig) {
  const int saved = errno;
  const unsigned char b = static_cast<unsigned char>(sig);
  const ssize_t n = ::write(g_pipe[1], &b, 1);
  (void)n;
  errno = saved;
}

// Waits up to timeout_ms for a byte from the pipe; returns the signal number or 0.
int next_signal(int timeout_ms) {
  pollfd p{g_pipe[0], POLLIN, 0};
  const int r = ::poll(&p, 1, timeout_ms);
  if (r <= 0) return 0;
  unsigned char b = 0;
  return ::read(g_pipe[0], &b, 1) == 1 ? b : 0;
}

void watcher() {
  int sig = 0;
  while (sig == 0) sig = next_signal(-1);
  g_signal.store(sig);
  State& s = state();
  // Wait for the run to stop by itself (it polls requested()), then end the process. A
  // second signal cuts the grace time short; an open CriticalSection is always waited for.
  const auto deadline = std::chrono::steady_clock::now() + s.grace;
  bool second = false;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(s.mutex);
      if (s.critical == 0 && (second || std::chrono::steady_clock::now() >= deadline)) break;
    }
    if (next_signal(20) != 0) second = true;
  }
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
  if (::pipe2(g_pipe, O_CLOEXEC) != 0) return;
  // A handler, not a blocked mask and sigwait(): threads that libraries start with their own
  // masks (the CUDA driver's, for one) would otherwise take the signal's default action and
  // kill the process without cleaning up. A signal inherited as ignored (nohup's SIGHUP,
  // SIGINT of a background job in a script) stays ignored, as the parent intended.
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(sig, &sa, nullptr);
  }
  std::thread(watcher).detach();
}

bool requested() { return g_signal.load() != 0; }
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
}

}  // namespace fringe::interrupt
