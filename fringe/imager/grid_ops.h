// Host-side grid operations shared by the back ends (OpenMP): the adder (subgrids times
// (-1)^(x+y) added onto the grid; threads own horizontal stripes of the grid, so no two touch
// one cell), the splitter (its adjoint) and a plain parallel sum of two arrays.
// Subgrids are [subgrid][pol][y][x]; the grid [pol][y][x].
#pragma once

#include <cstddef>
#include <span>

#include "fringe/core/complex.h"
#include "fringe/imager/geometry.h"
#include "fringe/imager/plan.h"

namespace fringe::imager {

template <typename T>
void add_subgrids(const GridGeometry& g, std::span<const Subgrid> subgrids, int npol,
                  const Complex<T>* sub, Complex<T>* grid, int num_threads = 0);

template <typename T>
void split_subgrids(const GridGeometry& g, std::span<const Subgrid> subgrids, int npol,
                    const Complex<T>* grid, Complex<T>* sub, int num_threads = 0);

// dst[i] += src[i], i < n.
template <typename T>
void add_arrays(Complex<T>* dst, const Complex<T>* src, std::size_t n, int num_threads = 0);

}  // namespace fringe::imager
