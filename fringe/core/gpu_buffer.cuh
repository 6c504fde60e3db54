// GpuBuffer<T> and PinnedBuffer<T>: the one owning buffer type of the CUDA back ends (only in
// .cu files). Memory grows to the largest size asked for and never shrinks (`reserve`), so a
// loop over blocks allocates once; GPU memory is allocated on the device current at the first
// `reserve` (set it with CudaDeviceGuard). PinnedBuffer is the page-locked host twin that
// asynchronous copies need. Every CUDA failure becomes a fringe::Error (core/cuda_check.h).
// Sizes are counts of T unless a name says bytes.
#pragma once

#include <algorithm>
#include <cstddef>

#include "fringe/core/cuda_check.h"

namespace fringe {

enum class BufferPlace { Gpu, PinnedHost };

template <typename T, BufferPlace Place>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  explicit CudaBuffer(std::size_t n) { reserve(n); }
  ~CudaBuffer() { release(); }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  CudaBuffer(CudaBuffer&& o) noexcept : data_(o.data_), capacity_(o.capacity_) {
    o.data_ = nullptr;
    o.capacity_ = 0;
  }
  CudaBuffer& operator=(CudaBuffer&& o) noexcept {
    if (this != &o) {
      release();
      std::swap(data_, o.data_);
      std::swap(capacity_, o.capacity_);
    }
    return *this;
  }

  // Room for at least n elements (at least one is allocated, so data() is never null after a
  // reserve). Contents are not kept when the buffer grows.
  T* reserve(std::size_t n) {
    n = std::max<std::size_t>(n, 1);
    if (n > capacity_) {
      release();
      void* p = nullptr;
      if constexpr (Place == BufferPlace::Gpu) {
        FRINGE_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
      } else {
        FRINGE_CUDA_CHECK(cudaMallocHost(&p, n * sizeof(T)));
      }
      data_ = static_cast<T*>(p);
      capacity_ = n;
    }
    return data_;
  }

  // Copies n elements from host memory into the buffer (growing it), asynchronously on stream.
  T* upload(const T* host, std::size_t n, cudaStream_t stream = nullptr) {
    T* d = reserve(n);
    if (n > 0) FRINGE_CUDA_CHECK(cudaMemcpyAsync(d, host, n * sizeof(T), kind_in(), stream));
    return d;
  }
  // Copies the first n elements of the buffer to host memory, asynchronously on stream (the
  // host side must stay alive until the stream is synchronised).
  void download(T* host, std::size_t n, cudaStream_t stream = nullptr) const {
    if (n > 0) FRINGE_CUDA_CHECK(cudaMemcpyAsync(host, data_, n * sizeof(T), kind_out(), stream));
  }
  // Sets the first n elements to zero bytes, asynchronously on stream.
  void zero(std::size_t n, cudaStream_t stream = nullptr) {
    T* d = reserve(n);
    if constexpr (Place == BufferPlace::Gpu) {
      FRINGE_CUDA_CHECK(cudaMemsetAsync(d, 0, n * sizeof(T), stream));
    } else {
      (void)stream;
      std::fill_n(reinterpret_cast<unsigned char*>(d), n * sizeof(T), 0);
    }
  }

  T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t bytes() const { return capacity_ * sizeof(T); }

 private:
  static constexpr cudaMemcpyKind kind_in() {
    return Place == BufferPlace::Gpu ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost;
  }
  static constexpr cudaMemcpyKind kind_out() {
    return Place == BufferPlace::Gpu ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost;
  }
  void release() noexcept {
    if (data_ != nullptr) {
      if constexpr (Place == BufferPlace::Gpu) {
        cudaFree(data_);
      } else {
        cudaFreeHost(data_);
      }
    }
    data_ = nullptr;
    capacity_ = 0;
  }

  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

template <typename T>
using GpuBuffer = CudaBuffer<T, BufferPlace::Gpu>;
template <typename T>
using PinnedBuffer = CudaBuffer<T, BufferPlace::PinnedHost>;

}  // namespace fringe
