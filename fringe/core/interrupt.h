// SIGINT / SIGTERM / SIGHUP handling for the apps (docs/reliability.md).
//
// install() sets a handler for the three signals (one that only writes the signal number
// into a pipe: async-signal-safe, whichever thread the kernel picks) and starts one watcher
// thread that reads the pipe. On a signal the watcher:
//  1. sets requested(): the run polls it at block/interval boundaries (throw_if_requested())
//     and unwinds with interrupt::Cancelled, whose destructors remove temporaries;
//  2. waits up to the grace time for the run to finish by itself, and for as long as a
//     CriticalSection is open (an in-place update of an input that must end cleanly);
//  3. removes every registered temporary path and ends the process with _exit(128 + signal).
// A second signal skips the grace time (not an open CriticalSection).
// A signal inherited as ignored stays ignored. Without install() (library use, unit tests)
// requested() stays false unless request() is called.
#pragma once

#include <chrono>
#include <string>

#include "fringe/core/error.h"

namespace fringe::interrupt {

// Thrown by throw_if_requested(); apps map it to exit code 128 + signal().
class Cancelled : public Error {
 public:
  explicit Cancelled(int signal_number);
  int signal_number() const { return signal_; }

 private:
  int signal_;
};

void install(std::chrono::milliseconds grace = std::chrono::milliseconds(800));

bool requested();
void request(int signal_number);  // as if the signal had arrived (tests, GUI embedding)
void throw_if_requested();        // throws Cancelled when requested()
void reset_for_tests();           // clears requested() (not the installation)

// Paths removed when the process is ended by a signal (temporaries this run created).
int register_temporary(const std::string& path);
void unregister_temporary(int id);

// While one exists, a signal does not end the process: the run must reach the end of the
// section (e.g. finish and flush a column of an input Measurement Set) and then stop.
class CriticalSection {
 public:
  CriticalSection();
  ~CriticalSection();
  CriticalSection(const CriticalSection&) = delete;
  CriticalSection& operator=(const CriticalSection&) = delete;
};

}  // namespace fringe::interrupt
