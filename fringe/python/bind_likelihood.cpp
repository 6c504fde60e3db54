// fringe.Likelihood: chi-squared, its gradient and batches of it against observed visibilities
// (a Measurement Set or arrays), over fringe/api/likelihood.h; docs/model_fitting.md and
// docs/python.md "Model fitting". Parameter vectors are float64 numpy arrays in the order of
// Likelihood.parameter_names (Jy, radians, dimensionless gains); the GIL is released while the
// engine computes, and one object serialises the calls made to it from several threads.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fringe/api/likelihood.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/precision.h"
#include "fringe/python/bindings.h"
#include "fringe/python/numpy_views.h"

namespace fringe::python {
namespace {

// The engine and a lock: api::Likelihood's evaluations reuse buffers, so calls on one object
// from several Python threads (the GIL released) take turns.
// "(3, 4)" for messages.
std::string shape_text(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

struct PyLikelihood {
  std::unique_ptr<api::Likelihood> lik;
  std::mutex mutex;
};

jones::StationType station_type_of(const std::string& s) {
  using jones::StationType;
  for (StationType t : {StationType::ApertureArray, StationType::Isotropic, StationType::Gaussian,
                        StationType::VlaPbcor})
    if (s == jones::to_string(t)) return t;
  throw Error("station_type '" + s +
              "': expected 'Aperture array', 'Isotropic beam', 'Gaussian beam' or 'VLA (PBCOR)'");
}

// The keyword arguments shared by both constructors.
struct CommonArgs {
  std::vector<std::string> free;
  std::optional<std::vector<std::size_t>> sources;
  std::optional<std::vector<std::size_t>> gain_stations;
  std::string precision, device;
  int gpu = 0;
  std::optional<std::vector<int>> gpus;
  int threads = 0;
};

api::LikelihoodOptions options_of(const CommonArgs& a) {
  api::LikelihoodOptions o;
  o.free_parameters = a.free;
  if (a.sources) o.free_sources = *a.sources;
  if (a.gain_stations) o.gain_stations = *a.gain_stations;
  o.precision = parse_precision(a.precision);
  if (a.device != "cpu" && a.device != "gpu")
    throw Error("Likelihood: device '" + a.device + "', expected 'cpu' or 'gpu'");
  o.use_gpu = a.device == "gpu";
  o.gpu = a.gpu;
  if (a.gpus) {
    if (a.gpus->empty()) throw Error("Likelihood: gpus is empty; give None or device indices");
    o.gpus = *a.gpus;
  }
  if (a.threads < 0) throw Error("Likelihood: threads = " + std::to_string(a.threads) + " < 0");
  o.num_threads = a.threads;
  return o;
}

// One parameter vector: 1-D, num_parameters long.
std::span<const double> one_vector(const PyLikelihood& l, const CArray<double>& p,
                                   const char* what) {
  const std::size_t n = l.lik->num_parameters();
  if (p.ndim() != 1 || std::size_t(p.size()) != n)
    throw Error(std::string(what) + ": " + std::to_string(p.ndim()) + "-D array of " +
                std::to_string(p.size()) + " values, expected a 1-D array of num_parameters = " +
                std::to_string(n) + " values (Likelihood.parameter_names)");
  return span_of(p);
}

// K parameter vectors: [K, num_parameters], K >= 1.
std::span<const double> batch_of(const PyLikelihood& l, const CArray<double>& p, const char* what) {
  const std::size_t n = l.lik->num_parameters();
  if (p.ndim() != 2 || std::size_t(p.shape(1)) != n || p.shape(0) < 1)
    throw Error(std::string(what) + ": array of shape " + shape_text(p) +
                ", expected [K, num_parameters = " + std::to_string(n) + "] with K >= 1");
  return span_of(p);
}

py::array visibilities(const PyLikelihood& l, std::vector<std::complex<double>>&& v) {
  return give_to_numpy<std::complex<double>>(
      std::move(v), {py::ssize_t(l.lik->num_rows()), py::ssize_t(l.lik->num_channels()),
                     py::ssize_t(l.lik->num_pols())});
}

std::unique_ptr<PyLikelihood> from_ms(
    const std::filesystem::path& ms, const api::Sky& sky, const std::vector<std::string>& free,
    const std::optional<std::vector<std::size_t>>& sources,
    const std::optional<std::vector<std::size_t>>& gain_stations, const api::Telescope* telescope,
    bool station_beams, const std::string& station_type, double gaussian_beam_fwhm_deg,
    double gaussian_beam_ref_freq_hz, bool normalise_beams, double channel_bandwidth_hz,
    double time_average_sec, const std::string& precision, const std::string& device, int gpu,
    const std::optional<std::vector<int>>& gpus, const std::string& data_column, int threads) {
  api::LikelihoodOptions o =
      options_of({free, sources, gain_stations, precision, device, gpu, gpus, threads});
  o.data_column = data_column;
  o.channel_bandwidth_hz = channel_bandwidth_hz;
  o.time_average_sec = time_average_sec;
  o.station_beams = station_beams;
  o.beam.station_type = station_type_of(station_type);
  o.beam.gaussian.fwhm_rad = gaussian_beam_fwhm_deg * kDegToRad;
  o.beam.gaussian.ref_freq_hz = gaussian_beam_ref_freq_hz;
  o.beam.normalise_at_phase_centre = normalise_beams;
  if (station_beams && !telescope)
    throw Error("Likelihood: station_beams=True needs a telescope (a fringe.Telescope)");
  auto l = std::make_unique<PyLikelihood>();
  py::gil_scoped_release release;
  l->lik = std::make_unique<api::Likelihood>(ms.string(), sky, o, telescope);
  return l;
}

std::unique_ptr<PyLikelihood> from_arrays(
    const CArray<double>& uvw, const CArray<int>& antenna1, const CArray<int>& antenna2,
    const CArray<double>& frequencies, const ComplexArray& data, const CArray<double>& weight,
    const std::optional<CArray<bool>>& flag, const std::pair<double, double>& phase_centre,
    const api::Sky& sky, const std::vector<std::string>& free,
    const std::optional<std::vector<std::size_t>>& sources,
    const std::optional<std::vector<std::size_t>>& gain_stations, int num_stations,
    double channel_bandwidth_hz, const std::string& precision, const std::string& device, int gpu,
    const std::optional<std::vector<int>>& gpus, int threads) {
  api::LikelihoodOptions o =
      options_of({free, sources, gain_stations, precision, device, gpu, gpus, threads});
  o.channel_bandwidth_hz = channel_bandwidth_hz;
  if (data.ndim() != 3)
    throw Error("from_arrays: data has shape " + shape_text(data) +
                ", expected [row, channel, pol] with pol 1 or 4");
  fit::ObservedData d;
  d.num_rows = std::size_t(data.shape(0));
  d.num_channels = std::size_t(data.shape(1));
  d.num_pols = int(data.shape(2));
  const std::size_t nr = d.num_rows, nc = d.num_channels, np = std::size_t(d.num_pols);
  if (uvw.ndim() != 2 || std::size_t(uvw.shape(0)) != nr || uvw.shape(1) != 3)
    throw Error("from_arrays: uvw has shape " + shape_text(uvw) + ", expected [" +
                std::to_string(nr) + ", 3] (baseline u, v, w in metres, uvw_p - uvw_q)");
  if (antenna1.ndim() != 1 || std::size_t(antenna1.size()) != nr)
    throw Error("from_arrays: antenna1 has shape " + shape_text(antenna1) + ", expected [" +
                std::to_string(nr) + "]");
  if (antenna2.ndim() != 1 || std::size_t(antenna2.size()) != nr)
    throw Error("from_arrays: antenna2 has shape " + shape_text(antenna2) + ", expected [" +
                std::to_string(nr) + "]");
  if (frequencies.ndim() != 1 || std::size_t(frequencies.size()) != nc)
    throw Error("from_arrays: frequencies has shape " + shape_text(frequencies) + ", expected [" +
                std::to_string(nc) + "] (Hz)");
  const bool per_channel = weight.ndim() == 3;
  if (!(per_channel && std::size_t(weight.shape(0)) == nr && std::size_t(weight.shape(1)) == nc &&
        std::size_t(weight.shape(2)) == np) &&
      !(weight.ndim() == 2 && std::size_t(weight.shape(0)) == nr &&
        std::size_t(weight.shape(1)) == np))
    throw Error("from_arrays: weight has shape " + shape_text(weight) +
                ", expected [row, channel, pol] = " + shape_text(data) + " or [row, pol]");
  if (flag && !(flag->ndim() == 3 && std::equal(data.shape(), data.shape() + 3, flag->shape())))
    throw Error("from_arrays: flag has shape " + shape_text(*flag) + ", expected " +
                shape_text(data) + " like data");
  d.antenna1.assign(antenna1.data(), antenna1.data() + nr);
  d.antenna2.assign(antenna2.data(), antenna2.data() + nr);
  int max_station = -1;
  for (std::size_t r = 0; r < nr; ++r)
    max_station = std::max({max_station, d.antenna1[r], d.antenna2[r]});
  d.num_stations = num_stations > 0 ? std::size_t(num_stations) : std::size_t(max_station + 1);
  d.time_index.assign(nr, 0);
  d.uvw.assign(uvw.data(), uvw.data() + 3 * nr);
  d.frequency_hz.assign(frequencies.data(), frequencies.data() + nc);
  const auto values = complex_span(data);
  d.data.assign(values.begin(), values.end());
  d.weight.resize(d.num_values());
  for (std::size_t r = 0; r < nr; ++r)
    for (std::size_t c = 0; c < nc; ++c)
      for (std::size_t p = 0; p < np; ++p) {
        const std::size_t i = (r * nc + c) * np + p;
        const double w = per_channel ? weight.data()[i] : weight.data()[r * np + p];
        d.weight[i] = flag && flag->data()[i] ? 0.0 : w;
      }
  auto l = std::make_unique<PyLikelihood>();
  py::gil_scoped_release release;
  l->lik = std::make_unique<api::Likelihood>(std::move(d), phase_centre.first, phase_centre.second,
                                             sky, o);
  return l;
}

constexpr const char* kClassDoc =
    R"doc(Chi-squared of a parameterised sky against observed visibilities.

    chi2 = sum over rows, channels, products of weight |V_model - V_obs|^2

(flagged values have weight 0), with the model of the simulator (docs/conventions.md):
V_pq = G_p (sum_s J_p B_s J_q^H K_s) G_q^H, B = [[I+Q, U+iV], [U-iV, I-Q]], G = diag(g_X, g_Y),
K = exp(+2 pi i (U l + V m + W (n-1)) / lambda), (U, V, W) = uvw_p - uvw_q, Gaussian sources
tapered in the (l, m) plane, spectra S(f) = S(f0) (f / f0)^spectral_index.

The observed data, station beams and template sky are loaded once (on the CPU or a GPU); each
call takes a float64 parameter vector laid out as parameter_names: for each free source (in
`sources` order) its free parameters (in `free` order) - "I", "Q", "U", "V" [Jy at the
source's reference frequency], "spectral_index", "ra", "dec" [rad], "major", "minor" [Gaussian
FWHM, rad], "pa" [rad, East of North] - then for each station of gain_stations its gain's
Re g_X, Im g_X, Re g_Y, Im g_Y (dimensionless; with one product Re g, Im g). Everything not
free keeps the template's value (unit gains). Beams stay at the template positions while
positions move. Bandwidth and time smearing as the simulator's when channel_bandwidth_hz [Hz]
or time_average_sec [s] > 0 (fringe.Error where the device cannot model it yet).
docs/model_fitting.md has the details.

Likelihood(ms, sky, free=["I"], sources=None, gain_stations=None, telescope=None,
    station_beams=False, station_type="Aperture array", gaussian_beam_fwhm_deg=0,
    gaussian_beam_ref_freq_hz=0, normalise_beams=True, channel_bandwidth_hz=0,
    time_average_sec=0, precision="double", device="cpu", gpu=0, gpus=None,
    data_column="DATA", threads=0)
ms: the path of a Measurement Set (str or os.PathLike): its cross-correlation rows of
data_column, WEIGHT spread over the channels, FLAG, UVW, the channels of spectral window 0,
the phase centre of FIELD 0.
sky: the template (a fringe.Sky; flat or one spectral-index term; its order numbers the
sources). sources: indices of the free sources (None: all). telescope and station_beams=True:
station beams J = E R of the telescope at each time and channel (station_type and the
Gaussian-beam options as fringe.Interferometer's). channel_bandwidth_hz, time_average_sec:
the smearing of the model, as fringe.Interferometer's attributes of those names (a Measurement
Set's CHAN_WIDTH is the channel spacing, not read as the bandwidth). precision: "double" or "single"; device:
"cpu" (threads: OpenMP threads, 0 = default) or "gpu" (CUDA device `gpu`, or the rows split
among the devices of the list `gpus`, each evaluation running on all of them at once).
Likelihood.from_arrays(...) takes the data as numpy arrays instead.)doc";

}  // namespace

void bind_likelihood(py::module_& m) {
  py::class_<PyLikelihood> cls(m, "Likelihood", kClassDoc);
  cls.def(py::init(&from_ms), py::arg("ms"), py::arg("sky"),
          py::arg("free") = std::vector<std::string>{"I"}, py::kw_only(),
          py::arg("sources") = py::none(), py::arg("gain_stations") = py::none(),
          py::arg("telescope") = nullptr, py::arg("station_beams") = false,
          py::arg("station_type") = "Aperture array", py::arg("gaussian_beam_fwhm_deg") = 0.0,
          py::arg("gaussian_beam_ref_freq_hz") = 0.0, py::arg("normalise_beams") = true,
          py::arg("channel_bandwidth_hz") = 0.0, py::arg("time_average_sec") = 0.0,
          py::arg("precision") = "double", py::arg("device") = "cpu", py::arg("gpu") = 0,
          py::arg("gpus") = py::none(), py::arg("data_column") = "DATA", py::arg("threads") = 0,
          "A likelihood of the Measurement Set `ms` (path) for the template `sky` (see the "
          "class).");
  cls.def_static("from_arrays", &from_arrays, py::arg("uvw"), py::arg("antenna1"),
                 py::arg("antenna2"), py::arg("frequencies"), py::arg("data"), py::arg("weight"),
                 py::arg("flag") = py::none(), py::kw_only(), py::arg("phase_centre"),
                 py::arg("sky"), py::arg("free") = std::vector<std::string>{"I"},
                 py::arg("sources") = py::none(), py::arg("gain_stations") = py::none(),
                 py::arg("num_stations") = 0, py::arg("channel_bandwidth_hz") = 0.0,
                 py::arg("precision") = "double", py::arg("device") = "cpu", py::arg("gpu") = 0,
                 py::arg("gpus") = py::none(), py::arg("threads") = 0,
                 R"doc(A likelihood of observed visibilities given as arrays (no station beams).

uvw: [row, 3] baseline (u, v, w) = uvw_p - uvw_q [m]; antenna1, antenna2: [row] station
indices p, q (p != q: no auto-correlations); frequencies: [channel] Hz; data: complex
[row, channel, pol] with pol 4 (XX, XY, YX, YY) or 1 (one product, Stokes I model) [Jy];
weight: [row, channel, pol] or [row, pol] (spread over the channels), >= 0; flag: None or
bool like data (True: weight 0). phase_centre: (ra, dec) in RADIANS. num_stations: 0 = the
largest antenna index + 1. channel_bandwidth_hz: bandwidth smearing [Hz] (no time smearing
from arrays). The other arguments as for Likelihood(ms, sky, ...).)doc");

  cls.def(
      "chi2",
      [](PyLikelihood& l, const CArray<double>& params) {
        const auto p = one_vector(l, params, "chi2: params");
        py::gil_scoped_release release;
        std::lock_guard lock(l.mutex);
        return l.lik->chi2(p);
      },
      py::arg("params"),
      "chi2 = sum weight |V_model - V_obs|^2 [Jy^2 x weight units] for one float64 parameter\n"
      "vector [num_parameters]. fringe.Error for a wrong length or a non-finite value (named).");
  cls.def(
      "log_likelihood",
      [](PyLikelihood& l, const CArray<double>& params) {
        const auto p = one_vector(l, params, "log_likelihood: params");
        py::gil_scoped_release release;
        std::lock_guard lock(l.mutex);
        return -0.5 * l.lik->chi2(p);
      },
      py::arg("params"),
      "-chi2 / 2: the Gaussian log-likelihood up to a constant when weight = 1 / sigma^2.");
  cls.def(
      "chi2_and_grad",
      [](PyLikelihood& l, const CArray<double>& params) {
        const auto p = one_vector(l, params, "chi2_and_grad: params");
        py::array_t<double> grad(py::ssize_t(p.size()));
        std::span<double> g(grad.mutable_data(), p.size());
        double chi2 = 0.0;
        {
          py::gil_scoped_release release;
          std::lock_guard lock(l.mutex);
          chi2 = l.lik->chi2_and_grad(p, g);
        }
        return std::tuple<double, py::array_t<double>>(chi2, std::move(grad));
      },
      py::arg("params"),
      "(chi2, grad): chi2 and d chi2 / d params (float64 [num_parameters]; per Jy, per\n"
      "radian, per unit gain), analytic, in the same pass.");
  cls.def(
      "chi2_batch",
      [](PyLikelihood& l, const CArray<double>& params) {
        const auto p = batch_of(l, params, "chi2_batch: params");
        std::vector<double> chi2;
        {
          py::gil_scoped_release release;
          std::lock_guard lock(l.mutex);
          chi2 = l.lik->chi2_batch(p);
        }
        const auto k = py::ssize_t(chi2.size());
        return give_to_numpy<double>(std::move(chi2), {k});
      },
      py::arg("params"),
      "chi2 of K parameter vectors at once: params float64 [K, num_parameters] -> [K]\n"
      "(an emcee ensemble in one call: emcee.EnsembleSampler(..., vectorize=True)).");
  cls.def(
      "chi2_and_grad_batch",
      [](PyLikelihood& l, const CArray<double>& params) {
        const auto p = batch_of(l, params, "chi2_and_grad_batch: params");
        const auto k = params.shape(0), n = params.shape(1);
        py::array_t<double> grads({k, n});
        std::span<double> g(grads.mutable_data(), std::size_t(k * n));
        std::vector<double> chi2;
        {
          py::gil_scoped_release release;
          std::lock_guard lock(l.mutex);
          chi2 = l.lik->chi2_and_grad_batch(p, g);
        }
        return std::tuple<py::array_t<double>, py::array_t<double>>(
            give_to_numpy<double>(std::move(chi2), {k}), std::move(grads));
      },
      py::arg("params"),
      "(chi2 [K], grads [K, num_parameters]) for params float64 [K, num_parameters].");
  cls.def(
      "model",
      [](PyLikelihood& l, const CArray<double>& params) {
        const auto p = one_vector(l, params, "model: params");
        std::vector<std::complex<double>> v;
        {
          py::gil_scoped_release release;
          std::lock_guard lock(l.mutex);
          v = l.lik->model(p);
        }
        return visibilities(l, std::move(v));
      },
      py::arg("params"),
      "Model visibilities [Jy], complex128 [row, channel, pol] (the kept cross-correlation\n"
      "rows in file order; pol XX, XY, YX, YY or one product).");
  cls.def(
      "residual",
      [](PyLikelihood& l, const CArray<double>& params) {
        const auto p = one_vector(l, params, "residual: params");
        std::vector<std::complex<double>> v;
        {
          py::gil_scoped_release release;
          std::lock_guard lock(l.mutex);
          v = l.lik->residual(p);
        }
        return visibilities(l, std::move(v));
      },
      py::arg("params"),
      "Observed minus model [Jy], complex128 [row, channel, pol]; 0 where flagged.");

  for (const bool residual : {false, true}) {
    cls.def(
        residual ? "write_residual" : "write_model",
        [residual](PyLikelihood& l, const CArray<double>& params, const std::string& column,
                   bool replace_existing) {
          const auto p =
              one_vector(l, params, residual ? "write_residual: params" : "write_model: params");
          py::gil_scoped_release release;
          std::lock_guard lock(l.mutex);
          if (residual) {
            l.lik->write_residual(p, column, replace_existing);
          } else {
            l.lik->write_model(p, column, replace_existing);
          }
        },
        py::arg("params"), py::kw_only(),
        py::arg("column") = residual ? "RESIDUAL_DATA" : "MODEL_DATA",
        py::arg("replace_existing") = false,
        residual
            ? "Writes observed minus model of params into `column` of the Measurement Set this\n"
              "likelihood was loaded from (complex float [Jy]; auto-correlation rows keep their\n"
              "observed values). Refuses DATA, the observed data's column, an existing column\n"
              "unless replace_existing, and likelihoods made from arrays (fringe.Error)."
            : "Writes the model visibilities of params into `column` of the Measurement Set\n"
              "this likelihood was loaded from (complex float [Jy]; auto-correlation rows get\n"
              "0). Refuses DATA, the observed data's column, an existing column unless\n"
              "replace_existing, and likelihoods made from arrays (fringe.Error).");
  }

  cls.def_property_readonly(
      "num_parameters", [](const PyLikelihood& l) { return l.lik->num_parameters(); },
      "Length of a parameter vector.");
  cls.def_property_readonly(
      "parameter_names", [](const PyLikelihood& l) { return l.lik->parameter_names(); },
      "Names in parameter order: 'I[0]', 'ra[3]', 'gain_x_re[5]', ... (the template's source\n"
      "and station indices in brackets).");
  cls.def_property_readonly(
      "initial_parameters",
      [](const PyLikelihood& l) {
        std::vector<double> v = l.lik->initial_parameters();
        const auto n = py::ssize_t(v.size());
        return give_to_numpy<double>(std::move(v), {n});
      },
      "The template's values in parameter order (a new float64 array; unit gains).");
  cls.def_property_readonly(
      "num_rows", [](const PyLikelihood& l) { return l.lik->num_rows(); },
      "Cross-correlation rows kept.");
  cls.def_property_readonly("num_channels",
                            [](const PyLikelihood& l) { return l.lik->num_channels(); });
  cls.def_property_readonly(
      "num_pols", [](const PyLikelihood& l) { return l.lik->num_pols(); },
      "4 (XX, XY, YX, YY) or 1.");
  cls.def_property_readonly(
      "num_sources", [](const PyLikelihood& l) { return l.lik->num_sources(); },
      "Sources of the template sky.");
  cls.def_property_readonly(
      "num_visibilities", [](const PyLikelihood& l) { return l.lik->num_visibilities(); },
      "Values with weight > 0 (rows x channels x products, flagged ones left out): the\n"
      "number of terms in chi2.");
  cls.def_property_readonly(
      "device", [](const PyLikelihood& l) { return l.lik->device(); },
      "'CPU', 'GPU <index>' or 'GPU <index>,<index>,...'.");
  cls.def("__repr__", [](const PyLikelihood& l) {
    return "<fringe.Likelihood: " + std::to_string(l.lik->num_parameters()) + " parameters, " +
           std::to_string(l.lik->num_rows()) + " rows x " + std::to_string(l.lik->num_channels()) +
           " channels x " + std::to_string(l.lik->num_pols()) + " products, " + l.lik->device() +
           ">";
  });
}

}  // namespace fringe::python
