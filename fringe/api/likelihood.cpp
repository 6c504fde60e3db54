// api::Likelihood (likelihood.h): the mapping between the free-parameter vector and the
// engine's per-source parameters and gains, the template sky's conversion, station beams from a
// telescope, and the choice of back end.
#include "fringe/api/likelihood.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fringe/api/beam.h"
#include "fringe/core/error.h"
#include "fringe/fit/fit_ms.h"
#include "fringe/fit/likelihood_split.h"

namespace fringe::api {
namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// One entry of the parameter vector: a source parameter, or a part of a station gain.
struct Slot {
  bool gain = false;
  std::size_t index = 0;  // source (of the template) or station
  fit::Param param{};     // source parameter
  int part = 0;           // gain: 0 Re X, 1 Im X, 2 Re Y, 3 Im Y
  std::size_t pos = 0;    // source: its index among the sources the back end evaluates
};

// The Jones of the sources `keep` (indices into jones' sources, in this order).
fit::StationJones select_sources(const fit::StationJones& jones,
                                 const std::vector<std::size_t>& keep, std::size_t per) {
  fit::StationJones out = jones;
  if (jones.empty()) return out;
  out.num_sources = keep.size();
  out.values.clear();
  const std::size_t blocks = jones.num_times * jones.num_channels * jones.num_stations;
  for (std::size_t b = 0; b < blocks; ++b) {
    for (std::size_t s : keep) {
      const auto* v = &jones.values[(b * jones.num_sources + s) * per];
      out.values.insert(out.values.end(), v, v + per);
    }
  }
  return out;
}

const char* kGainNames[4] = {"gain_x_re", "gain_x_im", "gain_y_re", "gain_y_im"};

// Station beams J = E R at every (time, channel) of the data for every template source.
fit::StationJones beams_of(const Telescope& telescope, const fit::MsObservation& obs,
                           const Sky& sky, const LikelihoodOptions& options) {
  const fit::ObservedData& d = obs.data;
  if (telescope.num_stations() != d.num_stations) {
    throw Error("the telescope has " + std::to_string(telescope.num_stations()) +
                " stations but the Measurement Set's ANTENNA table has " +
                std::to_string(d.num_stations));
  }
  fit::StationJones j;
  j.num_times = obs.times_mjd_utc.size();
  j.num_channels = d.num_channels;
  j.num_stations = d.num_stations;
  j.num_sources = sky.size();
  const std::size_t per = d.num_pols == 4 ? 4 : 1;
  j.values.reserve(j.num_times * j.num_channels * j.num_stations * j.num_sources * per);
  for (std::size_t t = 0; t < j.num_times; ++t) {
    for (std::size_t c = 0; c < j.num_channels; ++c) {
      StationBeamRequest req;
      req.beam = options.beam;
      req.full_polarisation = d.num_pols == 4;
      req.parallactic = d.num_pols == 4;
      req.time_mjd_utc = obs.times_mjd_utc[t];
      req.freq_hz = d.frequency_hz[c];
      req.phase_centre_ra_rad = obs.centre.ra;
      req.phase_centre_dec_rad = obs.centre.dec;
      req.time_index = int(t);
      const StationBeams b = station_beams(telescope, req, sky.ra, sky.dec);
      for (std::size_t s = 0; s < b.num_stations * b.num_directions; ++s) {
        if (per == 4) {
          const Jones<double>& m = b.jones[s];
          j.values.insert(j.values.end(), {m.a, m.b, m.c, m.d});
        } else {
          j.values.push_back(b.scalar[s]);
        }
      }
    }
  }
  return j;
}

}  // namespace

fit::SourceParameters fit_parameters_from_sky(const Sky& sky) {
  using fit::Param;
  fit::SourceParameters p;
  p.resize(sky.size());
  auto refuse = [](std::size_t s, const std::string& what) {
    throw Error("source " + std::to_string(s) + " of the template sky has " + what +
                ": the likelihood models a flat spectrum or one spectral index term "
                "S(f) = S(f0) (f/f0)^alpha");
  };
  for (std::size_t s = 0; s < sky.size(); ++s) {
    if (sky.spectral_index.count(s) > 1) refuse(s, "more than one spectral index term");
    if (sky.flags[s] & sky::kLinearSpectralIndex) refuse(s, "a linear spectral index");
    if (sky.flags[s] & sky::kHasCurvature) refuse(s, "a curvature term");
    if (sky.flags[s] & sky::kHasRotationMeasure && sky.rotation_measure[s] != 0.0) {
      refuse(s, "a rotation measure");
    }
    if (sky.chan_i.count(s) || sky.line_width.count(s) || sky.pol_fraction.count(s)) {
      refuse(s, "a multi-valued, line or polarisation-fraction spectrum");
    }
    p[Param::Ra][s] = sky.ra[s];
    p[Param::Dec][s] = sky.dec[s];
    p[Param::I][s] = sky.I[s];
    p[Param::Q][s] = sky.Q[s];
    p[Param::U][s] = sky.U[s];
    p[Param::V][s] = sky.V[s];
    p[Param::SpectralIndex][s] = sky.spectral_index.count(s) ? sky.spectral_index.row(s)[0] : 0.0;
    p.ref_freq_hz[s] = sky.ref_freq[s];
    if (sky.is_gaussian(s)) {
      p[Param::Major][s] = sky.fwhm_major[s];
      p[Param::Minor][s] = sky.fwhm_minor[s];
      p[Param::PositionAngle][s] = sky.position_angle[s];
    }
  }
  return p;
}

struct Likelihood::Impl {
  std::unique_ptr<fit::LikelihoodBackend> backend;
  fit::SourceParameters base;
  fit::StationGains base_gains;  // unit gains when any gain is free, else empty
  std::vector<Slot> slots;
  fit::ObservedData observed;  // kept for residuals: data and weights
  std::size_t num_rows = 0, num_channels = 0, num_stations = 0;
  int num_pols = 4;
  std::size_t num_visibilities = 0;
  std::size_t num_template_sources = 0;
  std::string device;
  // The model of the sources that are not free (no free gains only), [row][channel][pol];
  // the back end sees D - fixed_model and the free sources.
  std::vector<Complex<double>> fixed_model;
  // Measurement Set input only: its path, data column and the rows kept (for write_*).
  std::string ms_path, data_column;
  fit::MsObservation layout;

  void setup(fit::ObservedData data, fit::PhaseCentre centre, const Sky& sky,
             const LikelihoodOptions& options, fit::StationJones jones) {
    if (sky.empty()) throw Error("the template sky has no sources: expected at least one");
    base = fit_parameters_from_sky(sky);
    num_template_sources = sky.size();
    data.channel_bandwidth_hz = options.channel_bandwidth_hz;
    data.validate();
    num_rows = data.num_rows;
    num_channels = data.num_channels;
    num_stations = data.num_stations;
    num_pols = data.num_pols;
    for (double w : data.weight) num_visibilities += w > 0.0 ? 1 : 0;
    if (num_visibilities == 0) {
      throw Error("every visibility is flagged or has weight 0: there is nothing to fit");
    }
    // Parameter slots.
    std::vector<std::size_t> sources = options.free_sources;
    if (sources.empty()) {
      for (std::size_t s = 0; s < sky.size(); ++s) sources.push_back(s);
    }
    std::vector<fit::Param> params;
    for (const std::string& name : options.free_parameters) {
      params.push_back(fit::param_from_name(name.c_str()));
      const fit::Param p = params.back();
      if (num_pols == 1 && (p == fit::Param::Q || p == fit::Param::U || p == fit::Param::V)) {
        throw Error("free parameter '" + name +
                    "': the data have one product (Stokes I only), so Q, U and V cannot be fitted");
      }
    }
    for (std::size_t s : sources) {
      if (s >= sky.size()) {
        throw Error("free source " + std::to_string(s) + ": the template sky has " +
                    std::to_string(sky.size()) + " sources");
      }
      for (fit::Param p : params) slots.push_back({false, s, p, 0});
    }
    for (std::size_t st : options.gain_stations) {
      if (st >= num_stations) {
        throw Error("gain station " + std::to_string(st) + ": the data have " +
                    std::to_string(num_stations) + " stations");
      }
      for (int k = 0; k < (num_pols == 4 ? 4 : 2); ++k) slots.push_back({true, st, {}, k});
    }
    if (!options.gain_stations.empty()) {
      base_gains.values.assign(2 * num_stations, Complex<double>{1.0, 0.0});
    }
    observed = data;
    for (Slot& s : slots) s.pos = s.index;
    // The sources that never change: without free gains their model is computed once and
    // taken from the data (D - S_fixed), and each evaluation sums the free sources only.
    std::vector<std::size_t> free_list;
    for (std::size_t s : sources) {
      if (std::find(free_list.begin(), free_list.end(), s) == free_list.end()) {
        free_list.push_back(s);
      }
    }
    if (options.gain_stations.empty() && free_list.size() < sky.size()) {
      fit::SourceParameters fixed_params = base;
      for (std::size_t s : free_list) {
        for (fit::Param p : {fit::Param::I, fit::Param::Q, fit::Param::U, fit::Param::V}) {
          fixed_params[p][s] = 0.0;
        }
      }
      fixed_model = make_backend(data, jones, centre, options)->model(fixed_params, {});
      for (std::size_t i = 0; i < data.data.size(); ++i) {
        if (data.weight[i] > 0.0) {
          data.data[i].re -= fixed_model[i].re;
          data.data[i].im -= fixed_model[i].im;
        }
      }
      jones = select_sources(jones, free_list, num_pols == 4 ? 4 : 1);
      fit::SourceParameters sub;
      sub.resize(free_list.size());
      for (std::size_t k = 0; k < free_list.size(); ++k) {
        for (int p = 0; p < fit::kNumParams; ++p) sub.values[p][k] = base.values[p][free_list[k]];
        sub.ref_freq_hz[k] = base.ref_freq_hz[free_list[k]];
      }
      base = std::move(sub);
      for (Slot& s : slots) {
        if (!s.gain) {
          s.pos = std::size_t(std::find(free_list.begin(), free_list.end(), s.index) -
                              free_list.begin());
        }
      }
    }
    backend = make_backend(std::move(data), std::move(jones), centre, options);
  }

  std::unique_ptr<fit::LikelihoodBackend> make_backend(fit::ObservedData data,
                                                       fit::StationJones jones,
                                                       fit::PhaseCentre centre,
                                                       const LikelihoodOptions& options) {
    if (options.use_gpu) {
      const std::vector<int> gpus =
          options.gpus.empty() ? std::vector<int>{options.gpu} : options.gpus;
      device = "GPU";
      for (std::size_t i = 0; i < gpus.size(); ++i) {
        device += (i ? "," : " ") + std::to_string(gpus[i]);
      }
      if (gpus.size() == 1) {
        return fit::make_likelihood_cuda(std::move(data), std::move(jones), centre,
                                         options.precision, gpus[0]);
      } else {
        const Precision prec = options.precision;
        return fit::make_likelihood_split(std::move(data), std::move(jones), int(gpus.size()),
                                          [&](fit::ObservedData d, fit::StationJones j, int part) {
                                            return fit::make_likelihood_cuda(
                                                std::move(d), std::move(j), centre, prec,
                                                gpus[std::size_t(part)]);
                                          });
      }
    }
    device = "CPU";
    return fit::make_likelihood_cpu(std::move(data), std::move(jones), centre, options.precision,
                                    options.num_threads);
  }

  std::string slot_name(const Slot& s) const {
    if (s.gain) return std::string(kGainNames[s.part]) + "[" + std::to_string(s.index) + "]";
    return std::string(fit::param_name(s.param)) + "[" + std::to_string(s.index) + "]";
  }

  // Parameter vector k of a batch into the engine's parameters.
  void apply(std::span<const double> x, fit::SourceParameters& p, fit::StationGains& g) const {
    p = base;
    g = base_gains;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const Slot& s = slots[i];
      if (!std::isfinite(x[i])) {
        throw Error("parameter " + std::to_string(i) + " (" + slot_name(s) + ") = " + num(x[i]) +
                    ": expected a finite value");
      }
      if (s.gain) {
        Complex<double>& v = g.values[2 * s.index + s.part / 2];
        (s.part % 2 ? v.im : v.re) = x[i];
      } else {
        p[s.param][s.pos] = x[i];
      }
    }
  }

  // One parameter vector: exactly num_parameters values.
  void check_single(std::span<const double> x) const {
    if (x.size() != slots.size()) size_error(x.size());
  }

  [[noreturn]] void size_error(std::size_t got) const {
    if (slots.empty()) throw Error("the likelihood has no free parameters");
    throw Error("the parameter array has " + std::to_string(got) +
                " values: expected a multiple of the " + std::to_string(slots.size()) +
                " free parameters (" + slot_name(slots.front()) + ", ...)");
  }

  std::size_t batch_size(std::span<const double> x) const {
    const std::size_t n = slots.size();
    if (n == 0 || x.empty() || x.size() % n != 0) size_error(x.size());
    return x.size() / n;
  }

  std::vector<double> run(std::span<const double> x, double* grads) {
    const std::size_t k = batch_size(x), n = slots.size();
    std::vector<fit::SourceParameters> ps(k);
    std::vector<fit::StationGains> gs(k);
    for (std::size_t b = 0; b < k; ++b) apply(x.subspan(b * n, n), ps[b], gs[b]);
    bool any_gain = false, any_source = false;
    for (const Slot& s : slots) (s.gain ? any_gain : any_source) = true;
    fit::GradientRequest req{grads && any_source, grads && any_gain};
    std::vector<double> chi2(k);
    std::vector<fit::Gradient> gr(grads ? k : 0);
    backend->evaluate(ps, base_gains.empty() ? std::span<const fit::StationGains>{} : gs, req,
                      chi2.data(), grads ? gr.data() : nullptr);
    if (grads) {
      for (std::size_t b = 0; b < k; ++b) {
        for (std::size_t i = 0; i < n; ++i) {
          const Slot& s = slots[i];
          grads[b * n + i] = s.gain ? gr[b].gains[4 * s.index + s.part]
                                    : gr[b].source[s.pos * fit::kNumParams + int(s.param)];
        }
      }
    }
    return chi2;
  }
};

Likelihood::Likelihood(const std::string& ms_path, const Sky& sky_template,
                       const LikelihoodOptions& options, const Telescope* telescope)
    : impl_(std::make_unique<Impl>()) {
  fit::MsObservation obs =
      fit::load_ms_observation(ms_path, options.data_column, options.time_average_sec);
  fit::StationJones jones;
  if (options.station_beams) {
    if (!telescope) {
      throw Error("station beams were asked for (station_beams) but no telescope was given");
    }
    jones = beams_of(*telescope, obs, sky_template, options);
  }
  impl_->ms_path = ms_path;
  impl_->data_column = options.data_column;
  impl_->layout.ms_rows = obs.ms_rows;
  impl_->layout.ms_num_rows = obs.ms_num_rows;
  impl_->setup(std::move(obs.data), obs.centre, sky_template, options, std::move(jones));
  const fit::ObservedData& kept = impl_->observed;
  impl_->layout.data.num_rows = kept.num_rows;
  impl_->layout.data.num_channels = kept.num_channels;
  impl_->layout.data.num_pols = kept.num_pols;
}

Likelihood::Likelihood(fit::ObservedData data, double phase_centre_ra, double phase_centre_dec,
                       const Sky& sky_template, const LikelihoodOptions& options,
                       fit::StationJones jones)
    : impl_(std::make_unique<Impl>()) {
  if (options.time_average_sec > 0.0) {
    throw Error(
        "time smearing (time_average_sec) from arrays: fill the rows' coefficients "
        "(ObservedData::time_smearing, fit::time_smearing_for_rows) instead");
  }
  if (options.station_beams) {
    throw Error(
        "station beams (station_beams) need a Measurement Set (its times); with arrays, "
        "pass the station Jones instead");
  }
  impl_->setup(std::move(data), {phase_centre_ra, phase_centre_dec}, sky_template, options,
               std::move(jones));
}

Likelihood::~Likelihood() = default;
Likelihood::Likelihood(Likelihood&&) noexcept = default;
Likelihood& Likelihood::operator=(Likelihood&&) noexcept = default;

std::size_t Likelihood::num_parameters() const { return impl_->slots.size(); }

std::vector<std::string> Likelihood::parameter_names() const {
  std::vector<std::string> out;
  for (const Slot& s : impl_->slots) out.push_back(impl_->slot_name(s));
  return out;
}

std::vector<double> Likelihood::initial_parameters() const {
  std::vector<double> out;
  for (const Slot& s : impl_->slots) {
    if (s.gain) {
      out.push_back(s.part == 0 || s.part == 2 ? 1.0 : 0.0);
    } else {
      out.push_back(impl_->base[s.param][s.pos]);
    }
  }
  return out;
}

double Likelihood::chi2(std::span<const double> params) {
  impl_->check_single(params);
  return impl_->run(params, nullptr)[0];
}

double Likelihood::chi2_and_grad(std::span<const double> params, std::span<double> grad) {
  impl_->check_single(params);
  if (grad.size() != params.size()) {
    throw Error("the gradient array has " + std::to_string(grad.size()) + " values: expected " +
                std::to_string(params.size()));
  }
  return impl_->run(params, grad.data())[0];
}

std::vector<double> Likelihood::chi2_batch(std::span<const double> params) {
  return impl_->run(params, nullptr);
}

std::vector<double> Likelihood::chi2_and_grad_batch(std::span<const double> params,
                                                    std::span<double> grads) {
  if (grads.size() != params.size()) {
    throw Error("the gradient array has " + std::to_string(grads.size()) + " values: expected " +
                std::to_string(params.size()));
  }
  return impl_->run(params, grads.data());
}

std::vector<std::complex<double>> Likelihood::model(std::span<const double> params) {
  impl_->check_single(params);
  fit::SourceParameters p;
  fit::StationGains g;
  impl_->apply(params, p, g);
  const std::vector<Complex<double>> m = impl_->backend->model(p, g);
  const std::vector<Complex<double>>& fixed = impl_->fixed_model;
  std::vector<std::complex<double>> out(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) {
    out[i] = {m[i].re, m[i].im};
    if (!fixed.empty()) out[i] += std::complex<double>(fixed[i].re, fixed[i].im);
  }
  return out;
}

std::vector<std::complex<double>> Likelihood::residual(std::span<const double> params) {
  std::vector<std::complex<double>> out = model(params);
  const fit::ObservedData& d = impl_->observed;
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = d.weight[i] > 0.0 ? std::complex<double>(d.data[i].re, d.data[i].im) - out[i]
                               : std::complex<double>(0.0, 0.0);
  }
  return out;
}

void Likelihood::write_model(std::span<const double> params, const std::string& column,
                             bool replace_existing) {
  if (impl_->ms_path.empty()) throw Error("write_model needs a likelihood made from an MS");
  const auto m = model(params);
  std::vector<Complex<double>> v(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) v[i] = {m[i].real(), m[i].imag()};
  fit::write_ms_column(impl_->ms_path, impl_->layout, impl_->data_column, column, v,
                       replace_existing, false);
}

void Likelihood::write_residual(std::span<const double> params, const std::string& column,
                                bool replace_existing) {
  if (impl_->ms_path.empty()) throw Error("write_residual needs a likelihood made from an MS");
  const auto r = residual(params);
  std::vector<Complex<double>> v(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) v[i] = {r[i].real(), r[i].imag()};
  fit::write_ms_column(impl_->ms_path, impl_->layout, impl_->data_column, column, v,
                       replace_existing, true);
}

std::size_t Likelihood::num_rows() const { return impl_->num_rows; }
std::size_t Likelihood::num_channels() const { return impl_->num_channels; }
int Likelihood::num_pols() const { return impl_->num_pols; }
std::size_t Likelihood::num_sources() const { return impl_->num_template_sources; }
std::size_t Likelihood::num_visibilities() const { return impl_->num_visibilities; }
std::string Likelihood::device() const { return impl_->device; }

}  // namespace fringe::api
