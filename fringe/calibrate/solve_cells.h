// The StEFCal solutions of one solution interval's cells (one cell per channel group), on the
// CPU or on one CUDA GPU (calibrate_ms.h): Scalar and Diagonal normal equations built on the
// CPU and solved as one batch per interval (StefcalCuda, or solve_scalar_batch_cpu with
// OpenMP); Full-Jones cells on the CPU one by one (solve_cell_cpu), or on a GPU in batches of at
// most 1 GiB of A and B. The time of each part goes to a stage of the run's timers
// (run_stages.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fringe/calibrate/cal_data.h"
#include "fringe/core/array.h"
#include "fringe/core/timer.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/calibrate/stefcal_cuda.h"
#endif

namespace fringe::calibrate {

// Buffers and the GPU solver kept from one solution interval to the next (every interval has
// the same cells and receptors): A and B are built in place (in page-locked memory when they
// go to a GPU: copies at full PCIe speed), and the solver's GPU memory is allocated once, not
// per interval.
template <typename T>
struct SolveWorkspace {
  Array<Complex<T>> a;
  Array<T> b;
#ifdef FRINGE_HAVE_CUDA
  std::unique_ptr<StefcalCuda<T>> gpu;
#endif
};

// The solutions of the cells, in their order. gpu: the CUDA device index to solve on (from
// choose_gpus), or -1 for the CPU (always -1 in a build without CUDA). backend is set to "cpu"
// or "gpu <index>" (Full-Jones on the CPU: only when still empty).
template <typename T>
std::vector<CellSolution<T>> solve_cells(const std::vector<CalCell<T>>& cells,
                                         const CalOptions& options, int gpu, SolveWorkspace<T>& ws,
                                         StageTimers& timers, std::string& backend);

}  // namespace fringe::calibrate
