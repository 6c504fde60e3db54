// Shared helpers of the libFuzzer targets (tests/fuzz, docs/reliability/fuzzing.md).
//
// A target's LLVMFuzzerTestOneInput feeds one input to a reader inside expect_clean_failure():
// a fringe::Error (bad input, named in its message) is the expected outcome of garbage; any
// other exception escaping a reader (std::out_of_range from .at(), std::invalid_argument from
// std::stod, std::bad_alloc, ...) is a finding: it gives the user a message without the file or
// line, so the harness prints it and aborts, which libFuzzer records as a crash. Crashes, leaks,
// undefined behaviour and hangs are found by the sanitizers and libFuzzer themselves.
//
// Readers that take a path get the input written to a scratch folder of this process
// (ScratchDir), created under $TMPDIR (default /tmp) and removed at exit; only paths it created
// are ever removed.
#pragma once

#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <string_view>
#include <system_error>

#include "fringe/core/error.h"

namespace fringe::fuzz {

template <typename Fn>
void expect_clean_failure(const char* what, Fn&& fn) {
  try {
    fn();
  } catch (const fringe::Error&) {
    // Bad input refused with a message naming the file or key: the expected outcome.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz %s: a non-fringe exception escaped the reader: %s\n", what,
                 e.what());
    std::abort();
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A folder of this process under $TMPDIR, emptied by clear() and removed at exit.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/fringe-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) {
      std::perror("fuzz: mkdtemp");
      std::abort();
    }
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);  // our own mkdtemp folder, never a user path
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Removes everything inside the folder (created by this process for the previous input).
  void clear() const {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(path_, ec)) {
      std::error_code ec2;
      std::filesystem::remove_all(entry.path(), ec2);
    }
  }

  // Writes bytes to <folder>/<name>, creating parent folders; returns the path.
  std::filesystem::path write(const std::string& name, std::string_view bytes) const {
    const std::filesystem::path p = path_ / name;
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }

 private:
  std::filesystem::path path_;
};

// One scratch folder per process, made on first use.
inline const ScratchDir& scratch() {
  static const ScratchDir dir;
  return dir;
}

}  // namespace fringe::fuzz
