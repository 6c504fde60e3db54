#include "fringe/sim/block_plan.h"

#include <algorithm>
#include <string>

#include "fringe/core/error.h"

namespace fringe::sim {

BlockPlan plan_blocks(int num_times, int num_channels, int max_times, int max_channels) {
  if (num_times < 1 || num_channels < 1 || max_times < 1 || max_channels < 1) {
    throw Error("plan_blocks: expected counts >= 1 (times " + std::to_string(num_times) +
                ", channels " + std::to_string(num_channels) + ", block " +
                std::to_string(max_times) + " x " + std::to_string(max_channels) + ")");
  }
  BlockPlan plan;
  for (int t = 0; t < num_times; t += max_times) {
    for (int c = 0; c < num_channels; c += max_channels) {
      plan.blocks.push_back(
          {t, std::min(max_times, num_times - t), c, std::min(max_channels, num_channels - c)});
    }
  }
  return plan;
}

}  // namespace fringe::sim
