#include "fringe/core/memory.h"

#include <cstring>
#include <new>

#include "fringe/core/error.h"

#ifdef FRINGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "fringe/core/cuda_check.h"
#endif

namespace fringe {

namespace {

constexpr std::align_val_t kHostAlignment{64};

std::string size_text(std::size_t bytes) { return std::to_string(bytes) + " bytes"; }

#ifdef FRINGE_HAVE_CUDA
// Makes `device` current for its lifetime and restores the previous device afterwards.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    FRINGE_CUDA_CHECK(cudaGetDevice(&previous_));
    if (device != previous_) FRINGE_CUDA_CHECK(cudaSetDevice(device));
    changed_ = device != previous_;
  }
  ~DeviceGuard() {
    if (changed_) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

void check_device_index(const MemoryLocation& location) {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    cudaGetLastError();  // clear the error state
    throw Error(to_string(location) +
                " memory requested but no CUDA GPU is usable: " + cudaGetErrorString(code));
  }
  if (location.device < 0 || location.device >= count) {
    throw Error(to_string(location) + " memory requested but there are " + std::to_string(count) +
                " CUDA GPU(s) (indices 0.." + std::to_string(count - 1) + ")");
  }
}
#else
[[noreturn]] void no_cuda(const MemoryLocation& location) {
  throw Error(to_string(location) +
              " memory requested, but fringe was built without CUDA; use host memory or "
              "rebuild with -DFRINGE_CUDA=ON");
}
#endif

}  // namespace

std::string to_string(const MemoryLocation& location) {
  switch (location.kind) {
    case MemoryKind::Host:
      return "host";
    case MemoryKind::PinnedHost:
      return "pinned host";
    case MemoryKind::Gpu:
      return "gpu " + std::to_string(location.device);
  }
  return "unknown";
}

bool cuda_built() {
#ifdef FRINGE_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

void* allocate_bytes(const MemoryLocation& location, std::size_t bytes) {
  if (location.kind == MemoryKind::Host) {
    if (bytes == 0) return nullptr;
    try {
      return ::operator new(bytes, kHostAlignment);
    } catch (const std::bad_alloc&) {
      throw Error("out of host memory allocating " + size_text(bytes));
    }
  }
  // Pinned and GPU requests are checked even for 0 bytes, so a wrong location fails early.
#ifdef FRINGE_HAVE_CUDA
  void* p = nullptr;
  if (location.kind == MemoryKind::PinnedHost) {
    if (bytes > 0) FRINGE_CUDA_CHECK(cudaMallocHost(&p, bytes));
    return p;
  }
  check_device_index(location);
  if (bytes == 0) return p;
  DeviceGuard guard(location.device);
  const cudaError_t code = cudaMalloc(&p, bytes);
  if (code == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw Error("out of GPU memory allocating " + size_text(bytes) + " on " + to_string(location));
  }
  FRINGE_CUDA_CHECK(code);
  return p;
#else
  no_cuda(location);
#endif
}

void free_bytes(const MemoryLocation& location, void* pointer) noexcept {
  if (!pointer) return;
  if (location.kind == MemoryKind::Host) {
    ::operator delete(pointer, kHostAlignment);
    return;
  }
#ifdef FRINGE_HAVE_CUDA
  if (location.kind == MemoryKind::PinnedHost) {
    cudaFreeHost(pointer);
    return;
  }
  try {
    DeviceGuard guard(location.device);
    cudaFree(pointer);
  } catch (...) {
    // Nothing sensible to do while freeing (the context may already be gone).
  }
#endif
}

void copy_bytes(void* dst, const MemoryLocation& dst_location, const void* src,
                const MemoryLocation& src_location, std::size_t bytes) {
  if (bytes == 0) return;
  if (!dst || !src) throw Error("copy of " + size_text(bytes) + " with a null pointer");
  if (dst_location.host_accessible() && src_location.host_accessible()) {
    std::memmove(dst, src, bytes);
    return;
  }
#ifdef FRINGE_HAVE_CUDA
  // Unified addressing: the runtime works out the direction (and peer copies) itself.
  FRINGE_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
#else
  no_cuda(dst_location.is_gpu() ? dst_location : src_location);
#endif
}

void zero_bytes(void* pointer, const MemoryLocation& location, std::size_t bytes) {
  if (bytes == 0) return;
  if (!pointer) throw Error("zeroing " + size_text(bytes) + " at a null pointer");
  if (location.host_accessible()) {
    std::memset(pointer, 0, bytes);
    return;
  }
#ifdef FRINGE_HAVE_CUDA
  DeviceGuard guard(location.device);
  FRINGE_CUDA_CHECK(cudaMemset(pointer, 0, bytes));
#else
  no_cuda(location);
#endif
}

}  // namespace fringe
