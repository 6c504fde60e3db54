// CUDA back end of the ionospheric screen Z (tec_screen.h, docs/ionosphere.md): the same
// per-element formulas (tec_screen_math.h) applied to station Jones in device memory.
#pragma once

#include <cstddef>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/jones/tec_screen_math.h"

struct CUstream_st;

namespace fringe::jones {

// jones[p * n + i] = jones[p * n + i] Z(p, i) for the stations and points of `points`
// (n = points.num_points); plane.tec and every array of `points` are device pointers;
// inv_freq_hz = T(1 / f). Scalar: the phase; Full: phase and Faraday rotation (points.b_los
// set), E Z.
template <typename T>
void apply_tec_screen_cuda(const TecPlaneView<T>& plane, const TecPoints& points, T inv_freq_hz,
                           Complex<T>* jones, CUstream_st* stream);
template <typename T>
void apply_tec_screen_cuda(const TecPlaneView<T>& plane, const TecPoints& points, T inv_freq_hz,
                           Jones<T>* jones, CUstream_st* stream);

}  // namespace fringe::jones
