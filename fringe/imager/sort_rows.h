// The row order IDG's plan needs (plan.h: the rows of a baseline consecutive, in time order),
// for a slice of rows read in the files' order (time-major in most Measurement Sets).
#pragma once

#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// Reorders the rows of v by (station1, station2, time), keeping the order of equal keys (the
// whole-input read's order, ms_input.cpp). scratch: a buffer whose memory is reused slice
// after slice (its contents are replaced).
template <typename T>
void sort_rows_by_baseline(VisBuffer<T>& v, VisBuffer<T>& scratch);

}  // namespace fringe::imager
