// Test helper: the CUDA StEFCal kernel run on the CPU (stefcal_cuda_emulation.cpp), with
// `blocks` blocks of kBlockThreads threads (all at once) and teams of warps_per_row warps;
// shared_rows: the kernel variant that keeps each block's rows of A and B in (emulated)
// shared memory. Small problems only (each CUDA thread is a std::thread).
#pragma once

#include "fringe/calibrate/stefcal.h"
#include "fringe/core/jones.h"

namespace fringe::calibrate::test {

template <typename T>
void solve_scalar_batch_emulated(int num_problems, int n, const Complex<T>* a, const T* b,
                                 Complex<T>* gains, SolveStatus* status,
                                 const SolverOptions& options, int warps_per_row, int blocks,
                                 bool shared_rows = false);

// The full-Jones kernel (A, B as build_full_jones_normal_equations writes them).
template <typename T>
void solve_full_jones_batch_emulated(int num_problems, int n, const Complex<T>* a,
                                     const Complex<T>* b, Jones<T>* gains, SolveStatus* status,
                                     const SolverOptions& options, int warps_per_row, int blocks,
                                     bool shared_rows = false);

// Loads of A and B values from global memory (__ldg) made by the last emulated solve.
long long last_emulated_row_loads();

}  // namespace fringe::calibrate::test
