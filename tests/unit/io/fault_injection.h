// Fault injection for writer tests (issue 16, "Faults"): runs a piece of code in a child
// process whose files may not grow beyond a limit (RLIMIT_FSIZE, with SIGXFSZ ignored, so a
// write past it fails with EFBIG as a write to a full disk fails with ENOSPC), so the limit
// and any abort stay out of the test runner. Also: a snapshot of a folder tree to show that
// a failed run changed nothing, and a child that ends itself with SIGKILL.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

namespace fringe::test {

struct ChildResult {
  bool exited = false;  // ended through _exit (not by a signal)
  int exit_code = -1;
  int signal = 0;       // the signal that ended it (SIGABRT for an abort)
  std::string message;  // what body() reported
};

// Runs body(message) in a forked child with RLIMIT_FSIZE = limit_bytes (0: no limit) and
// returns how it ended; body's return value is the exit code. An exception escaping body is
// exit code 99 with its what().
inline ChildResult run_in_child(long limit_bytes, const std::function<int(std::string&)>& body) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::signal(SIGXFSZ, SIG_IGN);
    if (limit_bytes > 0) {
      struct rlimit r;
      r.rlim_cur = r.rlim_max = static_cast<rlim_t>(limit_bytes);
      ::setrlimit(RLIMIT_FSIZE, &r);
    }
    std::string message;
    int rc = 0;
    try {
      rc = body(message);
    } catch (const std::exception& e) {
      message = e.what();
      rc = 99;
    }
    const ssize_t n = ::write(fds[1], message.data(), message.size());
    (void)n;
    ::close(fds[1]);
    ::_exit(rc);
  }
  ::close(fds[1]);
  ChildResult result;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) result.message.append(buf, std::size_t(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exited = WIFEXITED(status);
  result.exit_code = result.exited ? WEXITSTATUS(status) : -1;
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return result;
}

// Every file and folder under dir (relative path -> size and contents, "<dir>" for folders).
inline std::map<std::string, std::string> snapshot(const std::string& dir) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).string();
    if (e.is_directory()) {
      out[rel] = "<dir>";
    } else {
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      out[rel] = s.str();
    }
  }
  return out;
}

// Names in dir that start with prefix (e.g. "out.MS.tmp-": temporaries left behind).
inline int count_entries_starting_with(const std::string& dir, const std::string& prefix) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) ++n;
  }
  return n;
}

// A fresh folder for the running GoogleTest test in the build tree:
// <build>/tests/<group>/<suite>_<test> (removed first if an earlier run left it).
inline std::string fresh_test_dir(const std::string& group) {
  namespace fs = std::filesystem;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / group /
                       (std::string(info->test_suite_name()) + "_" + info->name());
  fs::remove_all(dir);  // (the test's own folder in the build tree)
  fs::create_directories(dir);
  return dir.string();
}

}  // namespace fringe::test
