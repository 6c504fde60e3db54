// Output path rules for Measurement Sets (OSKAR's; docs/conventions.md, "Measurement Set output"):
// ".MS" is appended unless the name already ends in ".ms" or ".MS". A writer first builds the MS
// under a temporary name beside the final one and commits it when complete (output_guard.h).
// casacore-free, C++17.
#pragma once

#include <string>

namespace fringe::io {

// "out" -> "out.MS"; "out.ms" and "out.MS" stay; trailing '/' are dropped first.
// Throws fringe::Error for an empty name.
std::string ms_output_path(const std::string& name);

// A fresh temporary name in the same folder as final_path:
// "<final_path>.tmp-<pid>-<random hex>" (fringe::temporary_path_for, output_guard.h).
std::string ms_temporary_path(const std::string& final_path);

}  // namespace fringe::io
