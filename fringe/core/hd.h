// FRINGE_HD marks functions that compile for both host and device (CUDA), so the CPU and
// GPU back ends evaluate the same per-element formulas (docs/architecture.md, "Compute back ends").
#pragma once

#if defined(__CUDACC__)
#define FRINGE_HD __host__ __device__
#define FRINGE_HD_INLINE __host__ __device__ __forceinline__
#else
#define FRINGE_HD
#define FRINGE_HD_INLINE inline
#endif
