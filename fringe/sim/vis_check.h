// Output checks of a simulation (docs/reliability/sim.md), run on each block on the host
// before it is written (the CPU block, or the GPU path's host copy), so they cost one pass
// over memory that is about to be written anyway:
//  - non-finite values: a DATA (or MODEL_DATA) value that is NaN or Inf once stored as
//    complex float (|x| > 3.4e38), or a non-finite UVW. The first one is remembered with its
//    time index, baseline (or station of an autocorrelation), channel and polarisation;
//  - all-zero output: whether any DATA value is non-zero.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "fringe/core/log.h"

#include "fringe/vis/baseline.h"
#include "fringe/vis/vis_block.h"

namespace fringe::sim {

struct VisScan {
  bool non_finite = false;  // a non-finite value was found
  std::string first_bad;    // where: "time index 3, baseline 0-2 (...), channel 1, XX"
  std::size_t num_non_finite = 0;
  bool any_nonzero = false;  // some DATA value is not zero

  // Merges the scan of a later block (keeps the earlier first_bad).
  void merge(const VisScan& later);
};

// Scans one block; `column` names what it holds ("DATA", "MODEL_DATA") in first_bad.
template <typename T>
VisScan scan_block(const vis::VisBlock<T>& block, const std::string& column);

// What a run does with the scans (docs/reliability/sim.md).
class OutputChecks {
 public:
  // input_non_finite: the inputs themselves held NaN/Inf (e.g. a sky model flux), so
  // non-finite output is passed on with a warning rather than an error. strict (--strict):
  // all-zero output is an error. zero_reason: why the output may be all zero (called only
  // then).
  OutputChecks(bool input_non_finite, bool strict, Logger* log,
               std::function<std::string()> zero_reason);

  // After each block's scan (before it is written): throws fringe::Error naming the first
  // non-finite value unless the input held NaN.
  void after_block(const VisScan& so_far) const;
  // At the end: the warning for non-finite values passed on; all-zero DATA: a warning with
  // the reason, or fringe::Error under strict.
  void at_end(const VisScan& all) const;

 private:
  bool input_non_finite_;
  bool strict_;
  Logger* log_;
  std::function<std::string()> zero_reason_;
};

}  // namespace fringe::sim
