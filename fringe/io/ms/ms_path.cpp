#include "fringe/io/ms/ms_path.h"

#include <unistd.h>

#include <cstdio>
#include <random>

#include "fringe/core/error.h"

namespace fringe::io {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string ms_output_path(const std::string& name) {
  std::string path = name;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.empty() || path == "/") {
    throw Error("Measurement Set name '" + name + "' is empty or a root folder");
  }
  if (ends_with(path, ".ms") || ends_with(path, ".MS")) return path;
  return path + ".MS";
}

std::string ms_temporary_path(const std::string& final_path) {
  std::random_device rd;
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ".tmp-%ld-%08x", static_cast<long>(::getpid()),
                static_cast<unsigned>(rd()));
  return final_path + suffix;
}

}  // namespace fringe::io
