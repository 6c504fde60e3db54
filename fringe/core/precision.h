// Floating-point precision of a run, chosen once at run time and turned into the template
// parameter T (float or double) of the compute code:
//   dispatch_precision(p, [&]<typename T>() { run_pipeline<T>(config); });
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "fringe/core/error.h"

namespace fringe {

enum class Precision { Single, Double };

// "single"/"float" or "double" (case-insensitive, as OSKAR writes "Single"/"Double");
// throws fringe::Error otherwise.
Precision parse_precision(std::string_view text);
std::string_view to_string(Precision precision);  // "single", "double"

template <typename T>
constexpr Precision precision_of();
template <>
constexpr Precision precision_of<float>() {
  return Precision::Single;
}
template <>
constexpr Precision precision_of<double>() {
  return Precision::Double;
}

// Calls f.template operator()<float>() or <double>() and returns what it returns (both
// instantiations must return the same type).
template <typename F>
decltype(auto) dispatch_precision(Precision precision, F&& f) {
  switch (precision) {
    case Precision::Single:
      return std::forward<F>(f).template operator()<float>();
    case Precision::Double:
      return std::forward<F>(f).template operator()<double>();
  }
  throw Error("invalid precision value " + std::to_string(static_cast<int>(precision)));
}

}  // namespace fringe
