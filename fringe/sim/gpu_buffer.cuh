// DeviceBuffer<T>: device memory of the current CUDA device that grows (never shrinks) to the
// size asked for; errors become fringe::Error (core/cuda_check.h). For sim/ .cu files.
#pragma once

#include <algorithm>
#include <cstddef>

#include "fringe/core/cuda_check.h"

namespace fringe::sim {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* ensure(std::size_t n) {
    n = std::max<std::size_t>(n, 1);
    if (n > capacity_) {
      if (data_) FRINGE_CUDA_CHECK(cudaFree(data_));
      data_ = nullptr;
      FRINGE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T)));
      capacity_ = n;
    }
    return data_;
  }
  T* upload(const T* host, std::size_t n, cudaStream_t stream) {
    T* d = ensure(n);
    if (n > 0) {
      FRINGE_CUDA_CHECK(cudaMemcpyAsync(d, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
    }
    return d;
  }
  T* data() const { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace fringe::sim
