// CudaDeviceGuard: makes a CUDA device current for a scope and restores the previous one at
// its end (only where the CUDA runtime header is available: .cu files). Errors become
// fringe::Error (cuda_check.h).
#pragma once

#include "fringe/core/cuda_check.h"

namespace fringe {

class CudaDeviceGuard {
 public:
  explicit CudaDeviceGuard(int device) {
    FRINGE_CUDA_CHECK(cudaGetDevice(&previous_));
    changed_ = device != previous_;
    if (changed_) FRINGE_CUDA_CHECK(cudaSetDevice(device));
  }
  ~CudaDeviceGuard() {
    if (changed_) cudaSetDevice(previous_);
  }
  CudaDeviceGuard(const CudaDeviceGuard&) = delete;
  CudaDeviceGuard& operator=(const CudaDeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

}  // namespace fringe
