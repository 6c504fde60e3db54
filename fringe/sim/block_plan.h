// How an observation of num_times x num_channels is cut into visibility blocks of at most
// max_times x max_channels (docs/simulation.md): time blocks in order, and inside each the
// channel blocks in order (the order the MS writer needs). Pure arithmetic, no units.
#pragma once

#include <vector>

namespace fringe::sim {

struct BlockExtent {
  int start_time = 0;
  int num_times = 0;
  int start_channel = 0;
  int num_channels = 0;
};

struct BlockPlan {
  std::vector<BlockExtent> blocks;
};

// Throws fringe::Error unless all four counts are >= 1.
BlockPlan plan_blocks(int num_times, int num_channels, int max_times, int max_channels);

}  // namespace fringe::sim
