// vis_add_noise: adds system noise to visibility data sets (OSKAR 2.13's oskar_vis_add_noise;
// docs/vis_tools.md) with the simulator's noise model (vis/noise.h: per-station RMS at the
// noise frequency nearest each channel, keyed by the seed and each sample's place in the
// observation, so the same seed gives the same noise).
//  - .vis file "x.vis" -> "x_noise.vis" (OSKAR's name): the input's header and run log with
//    noise added to every block; the auto-correlation bias uses the header's channel
//    bandwidth and integration time, as OSKAR does.
//  - Measurement Set "x.ms" -> "x_noise.ms": a copy with noise added to `column` (DATA by
//    default). Time index: the row's TIME among the MS's distinct times; channel bandwidth
//    and integration time of the bias: CHAN_WIDTH and EXPOSURE.
//  - in_place: the input itself is replaced, but only when the noisy copy is complete (it is
//    written under a temporary name beside the input and renamed over it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/vis/noise.h"

namespace fringe::vistools {

struct VisAddNoiseConfig {
  std::vector<std::string> inputs;  // .vis files and/or Measurement Sets
  vis::NoiseTable noise;            // one row per station of every input
  std::uint64_t seed = 1;
  bool in_place = false;
  std::string column = "DATA";            // Measurement Sets: the column that gets the noise
  std::vector<std::string> other_inputs;  // files the run reads (settings, telescope model)
};

struct VisAddNoiseResult {
  std::vector<std::string> outputs;  // one per input, in order
};

// Checks every input and output before writing anything. Throws fringe::Error naming the file
// for a missing or bad input, or one whose station count differs from the noise table's;
// RunFailure (vistools/inputs.h) when writing fails.
VisAddNoiseResult vis_add_noise(const VisAddNoiseConfig& config, Logger* log = nullptr);

}  // namespace fringe::vistools
