// A likelihood whose rows are split among several back ends (one per GPU, typically): each
// part holds a contiguous range of rows (and the whole station Jones); an evaluation runs the
// parts concurrently, one host thread each, and sums chi2 and the gradients in part order, so
// the result differs from one back end only by the rounding of that sum.
#pragma once

#include <functional>
#include <memory>

#include "fringe/fit/likelihood.h"

namespace fringe::fit {

// Makes the back end of part `part` from its rows.
using BackendFactory =
    std::function<std::unique_ptr<LikelihoodBackend>(ObservedData, StationJones, int part)>;

// num_parts >= 1 (at most the number of rows). Throws fringe::Error for invalid data.
std::unique_ptr<LikelihoodBackend> make_likelihood_split(ObservedData data, StationJones jones,
                                                         int num_parts, const BackendFactory& make);

// The rows [first, first + count) of data (a part of a split).
ObservedData select_rows(const ObservedData& data, std::size_t first, std::size_t count);

}  // namespace fringe::fit
