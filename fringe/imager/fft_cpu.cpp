#include "fringe/imager/fft_cpu.h"

#include <fftw3.h>

#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "fringe/core/error.h"

namespace fringe::imager {

namespace {
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

// The array a plan is made on: FFTW_ESTIMATE never reads or writes it, so it is allocated and
// not initialised (its pages are never touched: zero-filling a 4096^2 grid just to plan cost
// more than the transform).
struct PlanningArray {
  explicit PlanningArray(std::size_t bytes) : data(fftw_malloc(bytes)) {
    if (!data) throw std::bad_alloc();
  }
  ~PlanningArray() { fftw_free(data); }
  PlanningArray(const PlanningArray&) = delete;
  PlanningArray& operator=(const PlanningArray&) = delete;
  void* data;
};
}  // namespace

template <>
struct Fft2d<float>::Impl {
  fftwf_plan plan = nullptr;
};
template <>
struct Fft2d<double>::Impl {
  fftw_plan plan = nullptr;
};

template <>
Fft2d<float>::Fft2d(int size, int sign, int num_threads) : impl_(std::make_unique<Impl>()) {
  std::lock_guard lock(planner_mutex());
  (void)num_threads;
  const PlanningArray tmp(static_cast<std::size_t>(size) * size * sizeof(Complex<float>));
  auto* p = reinterpret_cast<fftwf_complex*>(tmp.data);
  impl_->plan = fftwf_plan_dft_2d(size, size, p, p, sign, FFTW_ESTIMATE | FFTW_UNALIGNED);
  if (!impl_->plan) throw Error("imager: FFTW could not plan a " + std::to_string(size) + "^2 FFT");
}
template <>
Fft2d<double>::Fft2d(int size, int sign, int num_threads) : impl_(std::make_unique<Impl>()) {
  std::lock_guard lock(planner_mutex());
  (void)num_threads;
  const PlanningArray tmp(static_cast<std::size_t>(size) * size * sizeof(Complex<double>));
  auto* p = reinterpret_cast<fftw_complex*>(tmp.data);
  impl_->plan = fftw_plan_dft_2d(size, size, p, p, sign, FFTW_ESTIMATE | FFTW_UNALIGNED);
  if (!impl_->plan) throw Error("imager: FFTW could not plan a " + std::to_string(size) + "^2 FFT");
}
template <>
Fft2d<float>::~Fft2d() {
  std::lock_guard lock(planner_mutex());
  if (impl_ && impl_->plan) fftwf_destroy_plan(impl_->plan);
}
template <>
Fft2d<double>::~Fft2d() {
  std::lock_guard lock(planner_mutex());
  if (impl_ && impl_->plan) fftw_destroy_plan(impl_->plan);
}
template <>
void Fft2d<float>::execute(Complex<float>* data) const {
  auto* p = reinterpret_cast<fftwf_complex*>(data);
  fftwf_execute_dft(impl_->plan, p, p);
}
template <>
void Fft2d<double>::execute(Complex<double>* data) const {
  auto* p = reinterpret_cast<fftw_complex*>(data);
  fftw_execute_dft(impl_->plan, p, p);
}

template <>
struct FftMany<float>::Impl {
  fftwf_plan plan = nullptr;
};
template <>
struct FftMany<double>::Impl {
  fftw_plan plan = nullptr;
};

template <>
FftMany<float>::FftMany(int n, int howmany, int stride, int dist, int sign)
    : impl_(std::make_unique<Impl>()) {
  std::lock_guard lock(planner_mutex());
  std::vector<Complex<float>> tmp(static_cast<std::size_t>(n - 1) * stride +
                                  static_cast<std::size_t>(howmany - 1) * dist + 1);
  auto* p = reinterpret_cast<fftwf_complex*>(tmp.data());
  impl_->plan = fftwf_plan_many_dft(1, &n, howmany, p, nullptr, stride, dist, p, nullptr, stride,
                                    dist, sign, FFTW_ESTIMATE | FFTW_UNALIGNED);
  if (!impl_->plan) throw Error("imager: FFTW could not plan " + std::to_string(n) + "-point FFTs");
}
template <>
FftMany<double>::FftMany(int n, int howmany, int stride, int dist, int sign)
    : impl_(std::make_unique<Impl>()) {
  std::lock_guard lock(planner_mutex());
  std::vector<Complex<double>> tmp(static_cast<std::size_t>(n - 1) * stride +
                                   static_cast<std::size_t>(howmany - 1) * dist + 1);
  auto* p = reinterpret_cast<fftw_complex*>(tmp.data());
  impl_->plan = fftw_plan_many_dft(1, &n, howmany, p, nullptr, stride, dist, p, nullptr, stride,
                                   dist, sign, FFTW_ESTIMATE | FFTW_UNALIGNED);
  if (!impl_->plan) throw Error("imager: FFTW could not plan " + std::to_string(n) + "-point FFTs");
}
template <>
FftMany<float>::~FftMany() {
  std::lock_guard lock(planner_mutex());
  if (impl_ && impl_->plan) fftwf_destroy_plan(impl_->plan);
}
template <>
FftMany<double>::~FftMany() {
  std::lock_guard lock(planner_mutex());
  if (impl_ && impl_->plan) fftw_destroy_plan(impl_->plan);
}
template <>
void FftMany<float>::execute(Complex<float>* data) const {
  auto* p = reinterpret_cast<fftwf_complex*>(data);
  fftwf_execute_dft(impl_->plan, p, p);
}
template <>
void FftMany<double>::execute(Complex<double>* data) const {
  auto* p = reinterpret_cast<fftw_complex*>(data);
  fftw_execute_dft(impl_->plan, p, p);
}

}  // namespace fringe::imager
