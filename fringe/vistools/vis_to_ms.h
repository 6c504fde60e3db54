// vis_to_ms: OSKAR .vis files -> one Measurement Set (OSKAR 2.13's oskar_vis_to_ms;
// docs/vis_tools.md). The MS is laid out by fringe's MsWriter exactly as fringe's simulator
// writes it (docs/ms_output.md): metadata from the first file's header (stations, element
// positions, feed angles, phase centre, axes, casa_phase_convention), its settings and every
// file's run log in HISTORY.
// Several files: each later file must continue the first in time (same stations, products,
// polarisation, channels and phase centre; its first dump starts where the previous file's
// last one ends) and is appended after it, so that files written in pieces of one observation
// are stitched into one MS. (OSKAR writes every file's dumps at the same row indices, so a
// later file overwrites an earlier one's rows; fringe refuses files that do not follow each
// other instead of overwriting.)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fringe/core/log.h"

namespace fringe::vistools {

struct VisToMsConfig {
  std::vector<std::string> inputs;  // .vis files, at least one
  std::string output = "out.ms";    // ".MS" appended unless it ends in .ms/.MS (as OSKAR)
  bool force_polarised = false;     // -p: a 4-product MS for scalar data (XX = YY, XY = YX = 0)
};

struct VisToMsResult {
  std::string ms_path;  // the final path
  std::size_t num_rows = 0;
  int num_times = 0;
};

// Throws fringe::Error naming the file (and chunk) for a missing, truncated or inconsistent
// input or an output path that holds something else; RunFailure when writing fails.
VisToMsResult vis_to_ms(const VisToMsConfig& config, Logger* log = nullptr);

}  // namespace fringe::vistools
