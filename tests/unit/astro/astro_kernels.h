// Test helper: evaluates the astro *_math.h formulas on the GPU, one thread per element.
#pragma once

#include <cstddef>
#include <string>

namespace fringe::astro::test {

inline constexpr int kNumInputs = 8;    // x, y, z, ha, dec, lat, ra0 - ra offset, dec0
inline constexpr int kNumOutputs = 15;  // see astro_kernels.cu

// Number of CUDA devices (0 when none or no driver).
int gpu_count();

// in: n x kNumInputs (row-major), out: n x kNumOutputs. Returns "" or a CUDA error message.
template <typename T>
std::string gpu_eval_astro(const T* in, T* out, std::size_t n);

// The same formulas on the host, for comparison.
template <typename T>
void host_eval_astro(const T* in, T* out, std::size_t n);

}  // namespace fringe::astro::test
