#include "fringe/api/version.h"

namespace fringe::api {

std::string version() { return FRINGE_VERSION_STRING; }

bool built_with_cuda() {
#ifdef FRINGE_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

}  // namespace fringe::api
