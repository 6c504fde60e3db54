// Diagnostics: where the sky library sends warnings (malformed lines, failed Gaussian fits,
// ignored header keywords). Each warning goes to the optional Logger and is also appended to
// the optional `warnings` list, so callers (and tests) can inspect them. Both may be null.
#pragma once

#include <string>
#include <vector>

#include "fringe/core/log.h"

namespace fringe::sky {

struct Diagnostics {
  Logger* logger = nullptr;
  std::vector<std::string>* warnings = nullptr;

  void warn(const std::string& message) const {
    if (warnings) warnings->push_back(message);
    log_warning(logger, message);
  }
  void info(const std::string& message) const { log_info(logger, message); }
};

}  // namespace fringe::sky
