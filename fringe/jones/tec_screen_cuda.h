// CUDA back end of the ionospheric phase screen Z (tec_screen.h, docs/ionosphere.md): the same
// per-element formula (tec_screen_math.h) applied to station Jones in device memory.
#pragma once

#include <cstddef>

#include "fringe/core/complex.h"
#include "fringe/jones/tec_screen_math.h"

struct CUstream_st;

namespace fringe::jones {

// jones[p * ns + s] *= Z(p, s) for p < num_stations, s < ns. plane.tec, u, v (station (u, v),
// m), l, m (source direction cosines) are device arrays; inv_freq_hz = T(1 / f).
template <typename T>
void apply_tec_screen_cuda(const TecPlaneView<T>& plane, std::size_t num_stations, const double* u,
                           const double* v, std::size_t ns, const double* l, const double* m,
                           T inv_freq_hz, Complex<T>* jones, CUstream_st* stream);

}  // namespace fringe::jones
