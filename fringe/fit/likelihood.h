// The likelihood evaluator (docs/model_fitting.md): observed data and station Jones are given
// once; each evaluation takes K parameter sets (sources and gains) and returns chi2 for each,
// and d chi2 / d parameter when asked, with the formulas of likelihood_math.h. Back ends: the
// CPU (likelihood_cpu.cpp, OpenMP over rows) and CUDA (likelihood_cuda.h: data kept on the GPU,
// only the parameters go up and the scalars come back).
//
// Precision: Double evaluates every term in double. Float keeps data, weights and the terms in
// float (phases formed in double and range-reduced, as the simulator does) and sums chi2 and
// the gradients in double.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "fringe/core/precision.h"
#include "fringe/fit/fit_data.h"
#include "fringe/fit/likelihood_math.h"

namespace fringe::fit {

struct PhaseCentre {
  double ra = 0.0, dec = 0.0;  // rad
};

// What an evaluation returns besides chi2 (skipping unneeded gradient parts saves time).
struct GradientRequest {
  bool sources = false;  // d chi2 / d every source parameter
  bool gains = false;    // d chi2 / d every station gain
};

class LikelihoodBackend {
 public:
  virtual ~LikelihoodBackend() = default;
  // chi2 of each of the K = params.size() parameter sets (gains.size() is K or 0: unit gains)
  // into chi2[K]; with a gradient request, grads[K] (resized inside).
  virtual void evaluate(std::span<const SourceParameters> params,
                        std::span<const StationGains> gains, GradientRequest request, double* chi2,
                        Gradient* grads) = 0;
  // The model visibilities M [row][channel][pol] of one parameter set.
  virtual std::vector<Complex<double>> model(const SourceParameters& params,
                                             const StationGains& gains) = 0;
  virtual const char* name() const = 0;  // "cpu" or "cuda"
};

// CPU back end, num_threads 0 = OpenMP's default. Throws fringe::Error for invalid data or
// Jones whose shape does not match the data (validate()).
std::unique_ptr<LikelihoodBackend> make_likelihood_cpu(ObservedData data, StationJones jones,
                                                       PhaseCentre centre, Precision precision,
                                                       int num_threads = 0);

// CUDA back end on GPU `device` (likelihood_cuda.h). Throws fringe::Error without a CUDA build
// or a GPU.
std::unique_ptr<LikelihoodBackend> make_likelihood_cuda(ObservedData data, StationJones jones,
                                                        PhaseCentre centre, Precision precision,
                                                        int device = 0);

// --- host helpers shared by the back ends (source_terms.cpp) ---

// Checks one parameter set against the data: sizes, finite values, non-negative Gaussian
// axes; errors name the parameter and the source ("ra[3] = nan: expected a finite value").
void validate_parameters(const SourceParameters& params, const StationGains& gains,
                         std::size_t num_stations, std::size_t num_jones_sources);

// The per-source terms of one evaluation: (l, m, n - 1) about the centre, Gaussian (a, b, c)
// from the FWHM and position angle (sky/gaussian.h, without re-projection), ln f0.
std::vector<SourceTerm> derive_terms(const SourceParameters& params, PhaseCentre centre);

// d chi2 / d (I, Q, U, V, alpha, l, m, a, b, c) per source ([source][kNumInter]) to
// d chi2 / d (the parameters of Param) per source ([source][kNumParams]).
std::vector<double> chain_to_parameters(std::span<const double> inter,
                                        const SourceParameters& params, PhaseCentre centre);

// Checks that jones (if any) fits data: num_stations, num_channels, num_times covering every
// time_index, values 4 per matrix for 4 products and 1 for one.
void validate_jones(const ObservedData& data, const StationJones& jones);

}  // namespace fringe::fit
