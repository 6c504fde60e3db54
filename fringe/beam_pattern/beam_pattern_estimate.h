// Size estimate of a beam-pattern run, for fringe::check_run_size (core/resources.h): a
// runaway request (a huge image, many times and channels) is refused before it starts
// (docs/reliability/sim.md). An upper bound of the right order (within a factor of ~2).
#pragma once

#include <cstddef>
#include <vector>

#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/beam_pattern/beam_pattern_products.h"
#include "fringe/core/resources.h"

namespace fringe::beam_pattern {

// Output bytes and memory of a beam-pattern run: per product, its planes (times x
// channels, fewer when averaged) x pixels x values (FITS: 4 or 8 bytes; text: ~25 bytes per
// number plus the row's indices and coordinates); memory: the chunk's station responses and
// every product's values for a chunk, and the whole image per averaged product.
RunEstimate beam_pattern_estimate(const BeamPatternConfig& config, std::size_t num_pixels,
                                  const std::vector<BeamProduct>& products);

}  // namespace fringe::beam_pattern
