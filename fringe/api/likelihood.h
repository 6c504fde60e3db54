// Model fitting through the public API (docs/model_fitting.md, docs/python.md "Model
// fitting"): a Likelihood holds observed visibilities (a Measurement Set or arrays), optional
// station beams and a template sky on the CPU or a GPU; each call takes a vector of the free
// parameters and returns chi2 = sum w |V_model - V_obs|^2 (flags honoured), optionally with
// d chi2 / d parameter, or chi2 for K parameter vectors at once (fit/likelihood.h).
//
// The parameter vector: for each free source (LikelihoodOptions::free_sources, in order), its
// free parameters (free_parameters, in order; names of fit::Param: "I", "Q", "U", "V",
// "spectral_index", "ra", "dec", "major", "minor", "pa"), then for each station with free gains
// (gain_stations, in order) Re g_X, Im g_X, Re g_Y, Im g_Y (Re g, Im g with one product).
// Units: Jy, radians (positions, FWHM, position angle), dimensionless gains. Everything not
// free keeps its template value (unit gains).
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fringe/api/types.h"
#include "fringe/core/precision.h"
#include "fringe/fit/fit_data.h"
#include "fringe/fit/likelihood.h"
#include "fringe/jones/station_beam_config.h"

namespace fringe::api {

struct LikelihoodOptions {
  std::vector<std::string> free_parameters = {"I"};
  std::vector<std::size_t> free_sources;   // empty: every source of the template
  std::vector<std::size_t> gain_stations;  // stations with free complex gains
  std::string data_column = "DATA";        // Measurement Set column of the observed data
  // Bandwidth smearing of the model, sinc(pi dnu/nu (U l + V m + W (n - 1))) as the simulator's
  // (Hz; 0: off). A Measurement Set's CHAN_WIDTH is the channel spacing, not this bandwidth.
  double channel_bandwidth_hz = 0.0;
  // Time smearing of the model as the simulator's (interferometer/time_average_sec, seconds;
  // 0: off), from the Measurement Set's ANTENNA positions and TIME (MS input only).
  double time_average_sec = 0.0;
  // Station beams J = E R of `telescope` at the template positions (fixed while positions
  // move), evaluated once at every time and channel of the data; needs a telescope.
  bool station_beams = false;
  jones::StationBeamConfig beam;
  Precision precision = Precision::Double;
  bool use_gpu = false;  // the CUDA back end (fringe::Error without a CUDA build or a GPU)
  int gpu = 0;
  // Several GPUs (overrides gpu when not empty): the rows are split among them
  // (fit/likelihood_split.h), each evaluation runs on all of them at once.
  std::vector<int> gpus;
  int num_threads = 0;  // CPU back end; 0 = OpenMP's default
};

class Likelihood {
 public:
  // Observed data from a Measurement Set (fit/fit_ms.h); telescope only for station beams
  // (its station count must match the MS's ANTENNA table).
  Likelihood(const std::string& ms_path, const Sky& sky_template, const LikelihoodOptions& options,
             const Telescope* telescope = nullptr);
  // Observed data as arrays, phase centre in radians (no station beams: pass Jones through
  // fit::StationJones with jones).
  Likelihood(fit::ObservedData data, double phase_centre_ra, double phase_centre_dec,
             const Sky& sky_template, const LikelihoodOptions& options,
             fit::StationJones jones = {});
  ~Likelihood();
  Likelihood(Likelihood&&) noexcept;
  Likelihood& operator=(Likelihood&&) noexcept;

  std::size_t num_parameters() const;
  // "I[0]", "ra[3]", "gain_x_re[5]", ... in parameter order.
  std::vector<std::string> parameter_names() const;
  // The template's values (unit gains) in parameter order.
  std::vector<double> initial_parameters() const;

  double chi2(std::span<const double> params);
  // grad (num_parameters values) = d chi2 / d params.
  double chi2_and_grad(std::span<const double> params, std::span<double> grad);
  // K = params.size() / num_parameters() vectors, row-major [K][num_parameters].
  std::vector<double> chi2_batch(std::span<const double> params);
  // The same with gradients into grads ([K][num_parameters]).
  std::vector<double> chi2_and_grad_batch(std::span<const double> params, std::span<double> grads);
  // Model visibilities [row][channel][pol] of the cross-correlation rows (in file order).
  std::vector<std::complex<double>> model(std::span<const double> params);
  // Observed minus model, [row][channel][pol] (flagged values are 0).
  std::vector<std::complex<double>> residual(std::span<const double> params);

  // The model (or observed minus model) of params written into `column` of the Measurement
  // Set this likelihood was loaded from, as complex float [pol, channel] cells; auto-correlation
  // rows get 0 (model) or their observed values (residual). Refuses the observed data's column
  // and DATA, and an existing column unless replace_existing (fringe::Error naming it), and
  // likelihoods made from arrays.
  void write_model(std::span<const double> params, const std::string& column = "MODEL_DATA",
                   bool replace_existing = false);
  void write_residual(std::span<const double> params, const std::string& column = "RESIDUAL_DATA",
                      bool replace_existing = false);

  std::size_t num_rows() const;  // cross-correlation rows kept
  std::size_t num_channels() const;
  int num_pols() const;
  std::size_t num_sources() const;
  std::size_t num_visibilities() const;  // rows x channels x products with weight > 0
  std::string device() const;            // "CPU", "GPU 0" or "GPU 0,1,..."

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The template's per-source parameters (fit::SourceParameters) from a sky model. Sources must
// have a flat spectrum or one log-polynomial spectral index term; curvature, rotation measure,
// multi-valued, line and polarisation-fraction spectra are refused (fringe::Error naming the
// source and the column).
fit::SourceParameters fit_parameters_from_sky(const Sky& sky);

}  // namespace fringe::api
