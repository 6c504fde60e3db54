// Host launchers of the test kernels in jones_kernel.cu (so the test itself is plain C++).
#pragma once

#include <cstddef>

#include "fringe/core/jones.h"

namespace fringe::test {

// out[i] = jones_sandwich(p[i], b[i], q[i]) and prod[i] = p[i] * b[i], computed on the
// current GPU; all pointers are device pointers of n elements. Throws fringe::Error on any
// CUDA failure.
template <typename T>
void gpu_jones_products(const Jones<T>* p, const Jones<T>* b, const Jones<T>* q, Jones<T>* sandwich,
                        Jones<T>* prod, std::size_t n);

// Launches a kernel with an invalid configuration, to check that the launch error becomes a
// fringe::Error naming the kernel.
void gpu_bad_launch();

}  // namespace fringe::test
