// Where memory lives (host, page-locked host, or GPU n) and the untyped operations on it:
// allocate, free, copy between any two locations, zero. Array<T> (array.h) builds on these.
// Pinned host and GPU memory need a CUDA build (FRINGE_HAVE_CUDA); without one, asking for
// them throws fringe::Error. Sizes are in bytes.
#pragma once

#include <cstddef>
#include <string>

namespace fringe {

enum class MemoryKind {
  Host,        // ordinary pageable host memory
  PinnedHost,  // page-locked host memory (fast, asynchronous transfers to and from GPUs)
  Gpu,         // device memory of one CUDA GPU
};

struct MemoryLocation {
  MemoryKind kind = MemoryKind::Host;
  int device = 0;  // CUDA device index, used only when kind == Gpu

  MemoryLocation() = default;
  // Implicit from a kind, so `Array<float> a(n, MemoryKind::Gpu)` means GPU 0.
  MemoryLocation(MemoryKind k, int device_index = 0)  // NOLINT(google-explicit-constructor)
      : kind(k), device(k == MemoryKind::Gpu ? device_index : 0) {}

  static MemoryLocation host() { return {MemoryKind::Host}; }
  static MemoryLocation pinned_host() { return {MemoryKind::PinnedHost}; }
  static MemoryLocation gpu(int device_index = 0) { return {MemoryKind::Gpu, device_index}; }

  // Host and pinned host memory may be read and written by the CPU.
  bool host_accessible() const { return kind != MemoryKind::Gpu; }
  bool is_gpu() const { return kind == MemoryKind::Gpu; }

  friend bool operator==(const MemoryLocation&, const MemoryLocation&) = default;
};

// "host", "pinned host", "gpu 0", ...
std::string to_string(const MemoryLocation& location);

// True when this build has the CUDA back end (it may still find no GPU at run time).
bool cuda_built();

// Allocates `bytes` (64-byte aligned on the host); returns nullptr for 0 bytes.
// Throws fringe::Error when the location cannot be served (no CUDA build, no such device,
// out of memory), naming the location and the size.
void* allocate_bytes(const MemoryLocation& location, std::size_t bytes);

// Frees memory from allocate_bytes (nullptr is ignored). Never throws.
void free_bytes(const MemoryLocation& location, void* pointer) noexcept;

// Copies `bytes` from src (at src_location) to dst (at dst_location); synchronous.
void copy_bytes(void* dst, const MemoryLocation& dst_location, const void* src,
                const MemoryLocation& src_location, std::size_t bytes);

// Sets `bytes` bytes at pointer to zero.
void zero_bytes(void* pointer, const MemoryLocation& location, std::size_t bytes);

}  // namespace fringe
