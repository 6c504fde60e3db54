// Thin FFTW wrappers for the imager (float: fftwf_*, double: fftw_*): an in-place 2-D
// complex transform of a size x size plane, planned once (FFTW_ESTIMATE | FFTW_UNALIGNED) and
// executed on any array from any thread (fftw_execute_dft is thread safe; planning is not,
// so plans are made under a lock).
#pragma once

#include <memory>

#include "fringe/core/complex.h"

namespace fringe::imager {

template <typename T>
class Fft2d {
 public:
  // sign: -1 forward, +1 backward. num_threads > 1: FFTW's threads for each transform.
  Fft2d(int size, int sign, int num_threads = 1);
  ~Fft2d();
  Fft2d(const Fft2d&) = delete;
  Fft2d& operator=(const Fft2d&) = delete;
  void execute(Complex<T>* data) const;  // in place

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `howmany` in-place 1-D transforms of length n, element stride `stride`, transform k
// starting at k * dist (fftw_plan_many_dft), executable on any array from any thread.
template <typename T>
class FftMany {
 public:
  FftMany(int n, int howmany, int stride, int dist, int sign);
  ~FftMany();
  FftMany(const FftMany&) = delete;
  FftMany& operator=(const FftMany&) = delete;
  void execute(Complex<T>* data) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::imager
