// make_likelihood_cuda in a build without CUDA: an error that says so.
#include "fringe/core/error.h"
#include "fringe/fit/likelihood.h"

namespace fringe::fit {

std::unique_ptr<LikelihoodBackend> make_likelihood_cuda(ObservedData, StationJones, PhaseCentre,
                                                        Precision, int) {
  throw Error("the GPU likelihood needs a build with CUDA: this fringe was built without it");
}

}  // namespace fringe::fit
