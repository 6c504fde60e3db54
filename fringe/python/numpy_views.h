// numpy <-> C++ arrays for the beam, imager and calibration bindings: results handed to numpy
// without a copy (the std::vector moves into a capsule that owns it), and inputs read as
// C-contiguous arrays of the wanted dtype (no copy when the caller's array already is one).
// fringe's Complex<double> and Jones<double> are plain structs of doubles (re, im) laid out as
// numpy's complex128 ([..., 2, 2] for a Jones matrix, row-major: a b / c d).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/error.h"
#include "fringe/core/jones.h"

namespace fringe::python {

namespace py = pybind11;

static_assert(sizeof(Complex<double>) == sizeof(std::complex<double>));
static_assert(sizeof(Jones<double>) == 4 * sizeof(std::complex<double>));

template <typename T>
using CArray = py::array_t<T, py::array::c_style | py::array::forcecast>;
using ComplexArray = CArray<std::complex<double>>;

// A numpy array of `shape` viewing v's storage; the array owns the vector.
template <typename Out, typename In>
py::array_t<Out> give_to_numpy(std::vector<In>&& v, std::vector<py::ssize_t> shape) {
  static_assert(sizeof(In) % sizeof(Out) == 0);
  auto* owner = new std::vector<In>(std::move(v));
  py::capsule keep(owner, [](void* p) { delete static_cast<std::vector<In>*>(p); });
  return py::array_t<Out>(shape, reinterpret_cast<Out*>(owner->data()), keep);
}

inline std::span<const Complex<double>> complex_span(const ComplexArray& a) {
  return {reinterpret_cast<const Complex<double>*>(a.data()), std::size_t(a.size())};
}
template <typename T>
std::span<const T> span_of(const CArray<T>& a) {
  return {a.data(), std::size_t(a.size())};
}

// Throws fringe::Error (fringe.Error in Python) unless a.ndim() is one of the allowed ones.
inline void require_ndim(const py::array& a, const char* name, int lo, int hi) {
  if (a.ndim() < lo || a.ndim() > hi)
    throw Error(std::string(name) + ": " + std::to_string(a.ndim()) +
                "-dimensional array, expected " + std::to_string(lo) +
                (hi > lo ? " to " + std::to_string(hi) : std::string()) + " dimensions");
}

}  // namespace fringe::python
