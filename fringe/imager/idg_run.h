// What both IDG paths of `imager` (the whole-input imager.cpp and the streamed idg_stream.cpp)
// build the same way: the back end and the plan options of a run.
#pragma once

#include <memory>

#include "fringe/core/log.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/plan.h"

namespace fringe::imager {

// The IDG back end: the GPU the one device policy chooses (at most one), else the CPU.
template <typename T>
std::unique_ptr<IdgBackend<T>> make_idg_backend(const ImagerConfig& cfg, Logger* log);

// The plan options of image/idg/*: at most 128 channels per subgrid (what the CUDA gridder
// stages in shared memory).
PlanOptions plan_options(const ImagerConfig& cfg);

}  // namespace fringe::imager
