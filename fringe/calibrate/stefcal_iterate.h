// The iteration of StEFCal's Algorithm 1 (Salvini & Wijnholds 2014, A&A 571, A97) on the CPU,
// for any gain type G with stefcal_norm2 and stefcal_average (stefcal_math.h: Complex<T> for
// scalar and diagonal gains, Jones<T> for full-Jones): the scalar solver (stefcal_cpu.cpp) and
// the full-Jones solver from the samples (cal_data.cpp) differ only in their update step.
#pragma once

#include <vector>

#include "fringe/calibrate/stefcal.h"
#include "fringe/calibrate/stefcal_math.h"

namespace fringe::calibrate {

// update(g, g_new) makes one update of every receptor from g (Jacobi order, as the GPU).
// Every second iteration tests the relative change (stefcal_check: tolerance, stall) and
// averages the last two iterates. g: in, the starting point; out, the solution: the last
// update, un-averaged, on every exit path (converged, stalled, no data, max_iterations).
template <typename G, class Update>
SolveStatus stefcal_iterate(std::vector<G>& g, const SolverOptions& options, Update&& update) {
  const std::size_t n = g.size();
  std::vector<G> g_new(n);
  SolveStatus status;
  StefcalMonitor monitor;
  for (int it = 1; it <= options.max_iterations; ++it) {
    update(g, g_new);
    status.iterations = it;
    if (it % 2 != 0) {
      g.swap(g_new);
      continue;
    }
    double diff2 = 0, norm2 = 0;
    for (std::size_t p = 0; p < n; ++p) {
      diff2 += double(stefcal_norm2(g_new[p] - g[p]));
      norm2 += double(stefcal_norm2(g_new[p]));
    }
    if (!(norm2 > 0)) {
      status.state = SolveState::NoData;
      g = g_new;
      break;
    }
    status.last_change = stefcal_relative_change(diff2, norm2);
    const int verdict =
        stefcal_check(monitor, status.last_change, options.tolerance, options.stall_checks);
    if (verdict != 0 || it == options.max_iterations) {
      if (verdict != 0) status.state = verdict == 1 ? SolveState::Converged : SolveState::Stalled;
      g = g_new;
      break;
    }
    for (std::size_t p = 0; p < n; ++p) g[p] = stefcal_average(g_new[p], g[p]);
  }
  return status;
}

}  // namespace fringe::calibrate
