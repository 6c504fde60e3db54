// Array<T>: a one-dimensional buffer of trivially copyable elements that owns its memory in
// one MemoryLocation (host, pinned host, or GPU n). Move-only; copies between locations are
// explicit (copy_from, to, to_vector). Elements are accessed from the CPU only when the
// memory is host accessible; GPU memory is handed to kernels through data().
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/memory.h"

namespace fringe {

template <typename T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "Array<T> holds trivially copyable types");

 public:
  using value_type = T;

  Array() = default;
  // n elements at location, uninitialised (call zero() or fill() when needed).
  explicit Array(std::size_t n, MemoryLocation location = MemoryLocation::host())
      : location_(location) {
    data_ = static_cast<T*>(allocate_bytes(location_, n * sizeof(T)));
    size_ = n;
  }
  // A copy of host values at location.
  static Array from_host(std::span<const T> values,
                         MemoryLocation location = MemoryLocation::host()) {
    Array a(values.size(), location);
    copy_bytes(a.data_, a.location_, values.data(), MemoryLocation::host(), a.bytes());
    return a;
  }

  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array(Array&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        location_(other.location_) {}
  Array& operator=(Array&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      location_ = other.location_;
    }
    return *this;
  }
  ~Array() { release(); }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }
  const MemoryLocation& location() const { return location_; }
  bool host_accessible() const { return location_.host_accessible(); }

  // Raw pointer in the array's own memory space (a device pointer for GPU memory).
  T* data() { return data_; }
  const T* data() const { return data_; }

  // Host element access. operator[] checks nothing; at() and span() check location (and at()
  // the index) and throw fringe::Error.
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& at(std::size_t i) {
    check_index(i);
    return data_[i];
  }
  const T& at(std::size_t i) const {
    check_index(i);
    return data_[i];
  }
  std::span<T> span() {
    require_host("span()");
    return {data_, size_};
  }
  std::span<const T> span() const {
    require_host("span()");
    return {data_, size_};
  }
  T* begin() { return span().data(); }
  T* end() { return begin() + size_; }
  const T* begin() const { return span().data(); }
  const T* end() const { return begin() + size_; }

  // New size n at the same location; the first min(n, size()) elements are kept, the rest
  // are uninitialised.
  void resize(std::size_t n) {
    if (n == size_) return;
    Array other(n, location_);
    copy_bytes(other.data_, location_, data_, location_, std::min(n, size_) * sizeof(T));
    *this = std::move(other);
  }

  // All bytes zero (0, 0.0, Complex{0, 0}, ...).
  void zero() { zero_bytes(data_, location_, bytes()); }

  // Every element = value (staged through host memory for GPU arrays).
  void fill(const T& value) {
    if (host_accessible()) {
      std::fill(data_, data_ + size_, value);
    } else {
      const std::vector<T> staging(size_, value);
      copy_bytes(data_, location_, staging.data(), MemoryLocation::host(), bytes());
    }
  }

  // Makes this an element-by-element copy of other (any location to this location), resizing
  // when sizes differ.
  void copy_from(const Array& other) {
    if (this == &other) return;
    if (size_ != other.size_) *this = Array(other.size_, location_);
    copy_bytes(data_, location_, other.data_, other.location_, bytes());
  }
  // Copies host values in; the sizes must match.
  void copy_from_host(std::span<const T> values) {
    if (values.size() != size_) {
      throw Error("copy_from_host: " + std::to_string(values.size()) +
                  " values given for an array of " + std::to_string(size_));
    }
    copy_bytes(data_, location_, values.data(), MemoryLocation::host(), bytes());
  }

  // A copy at another (or the same) location.
  Array to(MemoryLocation location) const {
    Array a(size_, location);
    copy_bytes(a.data_, a.location_, data_, location_, bytes());
    return a;
  }
  Array clone() const { return to(location_); }
  // A host std::vector copy, from any location.
  std::vector<T> to_vector() const {
    std::vector<T> v(size_);
    copy_bytes(v.data(), MemoryLocation::host(), data_, location_, bytes());
    return v;
  }

 private:
  void release() noexcept {
    free_bytes(location_, data_);
    data_ = nullptr;
    size_ = 0;
  }
  void require_host(const char* what) const {
    if (!host_accessible()) {
      throw Error(std::string("Array::") + what + " needs host memory but the array is in " +
                  to_string(location_) + " memory; copy it with to(MemoryLocation::host())");
    }
  }
  void check_index(std::size_t i) const {
    require_host("at()");
    if (i >= size_) {
      throw Error("Array::at(" + std::to_string(i) + ") out of range for size " +
                  std::to_string(size_));
    }
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  MemoryLocation location_;
};

}  // namespace fringe
