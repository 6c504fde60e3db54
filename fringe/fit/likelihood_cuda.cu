// Placeholder until the CUDA back end lands: make_likelihood_cuda reports that it is missing.
#include "fringe/core/error.h"
#include "fringe/fit/likelihood.h"

namespace fringe::fit {

std::unique_ptr<LikelihoodBackend> make_likelihood_cuda(ObservedData, StationJones, PhaseCentre,
                                                        Precision, int) {
  throw Error("the GPU likelihood is not built yet");
}

}  // namespace fringe::fit
