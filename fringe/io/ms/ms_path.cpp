#include "fringe/io/ms/ms_path.h"

#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"

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
  return temporary_path_for(final_path);
}

}  // namespace fringe::io
