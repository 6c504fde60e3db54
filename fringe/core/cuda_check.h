// Checking CUDA calls: every runtime call and kernel launch goes through FRINGE_CUDA_CHECK /
// FRINGE_CUDA_CHECK_KERNEL, which turn a failure into a fringe::Error naming the call or the
// kernel, the CUDA error and the source location. Only usable where the CUDA runtime header
// is available (.cu files, or .cpp files inside `#ifdef FRINGE_HAVE_CUDA`).
#pragma once

#include <string>
#include <string_view>

namespace fringe {

// Throws fringe::Error "CUDA error in <what> (<file>:<line>): <name>: <description>".
[[noreturn]] void throw_cuda_error(int code, const char* error_name, const char* description,
                                   std::string_view what, const char* file, int line);

}  // namespace fringe

#if defined(FRINGE_HAVE_CUDA) || defined(__CUDACC__)
#include <cuda_runtime_api.h>

namespace fringe {

inline void cuda_check(cudaError_t code, std::string_view what, const char* file, int line) {
  if (code != cudaSuccess) {
    // The runtime also keeps the error as this thread's "last error" (non-sticky errors such
    // as an invalid device ordinal): clear it, or the next launch check would report it
    // against an innocent kernel after the caller handled this exception.
    (void)cudaGetLastError();
    throw_cuda_error(static_cast<int>(code), cudaGetErrorName(code), cudaGetErrorString(code), what,
                     file, line);
  }
}

// After a launch: reports launch errors (bad configuration, missing kernel image, ...).
inline void cuda_check_kernel(std::string_view kernel, const char* file, int line) {
  const cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) {
    std::string what = "launch of kernel '";
    what.append(kernel);
    what += "'";
    throw_cuda_error(static_cast<int>(code), cudaGetErrorName(code), cudaGetErrorString(code), what,
                     file, line);
  }
}

// After a launch, waiting for the stream: also reports errors raised while the kernel ran.
inline void cuda_check_kernel_sync(std::string_view kernel, cudaStream_t stream, const char* file,
                                   int line) {
  cuda_check_kernel(kernel, file, line);
  const cudaError_t code = cudaStreamSynchronize(stream);
  if (code != cudaSuccess) {
    std::string what = "kernel '";
    what.append(kernel);
    what += "'";
    throw_cuda_error(static_cast<int>(code), cudaGetErrorName(code), cudaGetErrorString(code), what,
                     file, line);
  }
}

}  // namespace fringe

#define FRINGE_CUDA_CHECK(call) ::fringe::cuda_check((call), #call, __FILE__, __LINE__)
#define FRINGE_CUDA_CHECK_KERNEL(name) ::fringe::cuda_check_kernel((name), __FILE__, __LINE__)
#define FRINGE_CUDA_CHECK_KERNEL_SYNC(name, stream) \
  ::fringe::cuda_check_kernel_sync((name), (stream), __FILE__, __LINE__)

#endif
