#include "fringe/core/cuda_check.h"

#include <string>

#include "fringe/core/error.h"

namespace fringe {

void throw_cuda_error(int code, const char* error_name, const char* description,
                      std::string_view what, const char* file, int line) {
  std::string file_name = file ? file : "?";
  if (const auto slash = file_name.find_last_of('/'); slash != std::string::npos) {
    file_name.erase(0, slash + 1);
  }
  std::string message = "CUDA error in ";
  message.append(what);
  message += " (" + file_name + ":" + std::to_string(line) + "): ";
  message += error_name ? error_name : "error";
  message += " (" + std::to_string(code) + "): ";
  message += description ? description : "no description";
  throw Error(message);
}

}  // namespace fringe
