// vis_add: the sum of visibility data sets (OSKAR 2.13's oskar_vis_add; docs/vis_tools.md).
//  - .vis files: every file must match the first under OSKAR's rule (vistools/inputs.h,
//    incompatibility()); the output is the first file's header (its settings and telescope
//    path cleared, a new creation date) with, block by block, the sum of every file's
//    cross-correlations; auto-correlations and station (u, v, w) are the first file's, as
//    OSKAR does. Data are added in the CASA convention (files of either convention may be
//    combined) and written in the first file's.
//  - Measurement Sets: every MS must have the first one's rows (TIME, ANTENNA1, ANTENNA2),
//    channels and correlations; the output is a copy of the first MS whose DATA holds the sum
//    of every input's DATA (auto-correlation rows included).
// The output is written under a temporary name and renamed into place when complete.
#pragma once

#include <string>
#include <vector>

#include "fringe/core/log.h"

namespace fringe::vistools {

struct VisAddConfig {
  std::vector<std::string> inputs;  // two or more, all .vis files or all Measurement Sets
  std::string output;               // "" = "out.vis" (.vis inputs) or "out.ms" (MS inputs)
};

struct VisAddResult {
  std::string output;  // the final path
  int num_inputs = 0;
};

// Throws fringe::Error naming the file for a missing, truncated or mismatched input (exit 2);
// RunFailure (vistools/inputs.h) when writing fails.
VisAddResult vis_add(const VisAddConfig& config, Logger* log = nullptr);

}  // namespace fringe::vistools
