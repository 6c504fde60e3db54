// The version of the fringe library a program runs with (the project's CMake version).
#pragma once

#include <string>

namespace fringe::api {

// "MAJOR.MINOR.PATCH", e.g. "0.1.0".
std::string version();

// Whether this build has the CUDA back end (a GPU may still be absent at run time).
bool built_with_cuda();

}  // namespace fringe::api
