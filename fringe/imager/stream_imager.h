// The streamed imaging path of `imager` (issue: the imager end to end): for the convolutional
// algorithms (FFT, W-projection) with all channels in one image, the inputs are read a slice of
// rows at a time (vis_chunks.h) on a reader thread while the previous slice is weighted and
// gridded (conv_imager.h ConvGridder, on the GPU or the CPU), so that memory is bounded by
// ImagerConfig.read_rows (not by the data size) and reading overlaps gridding. Uniform and
// Briggs weighting and W-projection's automatic w planes need the whole uv coverage first: a
// first pass reads coordinates, flags and weights only (no data column). The result equals the
// whole-input path's (imager.cpp) to rounding: the same products, weights, counts, checks and
// FITS output; on the CPU the grid is the same bit for bit.
#pragma once

#include "fringe/core/log.h"
#include "fringe/core/progress.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/imager_steps.h"

namespace fringe::imager {

// True when run() images cfg through the streamed path.
bool streams(const ImagerConfig& cfg);

template <typename T>
ImagerResult run_streamed(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log,
                          Stage& stage);

}  // namespace fringe::imager
