// fringe.predict() and fringe.station_uvw(): the direct predict on numpy arrays, on the CPU or
// a GPU (api::predict; docs/python.md, "Simulation"). The GIL is released while it computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "fringe/api/predict.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/precision.h"
#include "fringe/python/bindings.h"
#include "fringe/python/numpy_views.h"

namespace py = pybind11;

namespace fringe::python {
namespace {

// A numpy array of `shape` over v's storage; the array's capsule owns the vector.
template <typename T>
py::array_t<T> to_numpy(std::vector<T>&& v, std::vector<py::ssize_t> shape) {
  auto owned = std::make_unique<std::vector<T>>(std::move(v));
  py::capsule keep(owned.get(), [](void* p) {
    std::unique_ptr<std::vector<T>>(static_cast<std::vector<T>*>(p));
  });
  T* data = owned->data();
  owned.release();  // NOLINT(bugprone-unused-return-value): the capsule owns it now
  return py::array_t<T>(std::move(shape), data, keep);
}

}  // namespace

void bind_predict(py::module_& m) {
  m.def(
      "predict",
      [](const api::Sky& sky, const std::optional<ComplexArray>& station_jones,
         const CArray<double>& uvw, const CArray<double>& frequencies, double phase_centre_ra_deg,
         double phase_centre_dec_deg, bool polarised, bool autocorrelations,
         double channel_bandwidth_hz, const std::string& precision, const std::string& device,
         int gpu) -> py::object {
        if (uvw.ndim() != 2 || uvw.shape(1) != 3)
          throw Error("predict: uvw must be a (num_stations, 3) array of station (u, v, w) [m]");
        require_ndim(frequencies, "predict: frequencies", 0, 1);
        if (device != "cpu" && device != "gpu")
          throw Error("predict: device '" + device + "', expected 'cpu' or 'gpu'");
        api::PredictOptions o;
        o.phase_centre_ra = phase_centre_ra_deg * kDegToRad;
        o.phase_centre_dec = phase_centre_dec_deg * kDegToRad;
        o.polarised = polarised;
        o.autocorrelations = autocorrelations;
        o.channel_bandwidth_hz = channel_bandwidth_hz;
        o.precision = parse_precision(precision);
        o.use_gpu = device == "gpu";
        o.gpu = gpu;
        std::span<const std::complex<double>> jones;
        if (station_jones) jones = {station_jones->data(), std::size_t(station_jones->size())};
        api::PredictResult r;
        {
          py::gil_scoped_release release;
          r = api::predict(sky, jones, span_of(uvw), span_of(frequencies), o);
        }
        const auto nc = py::ssize_t(r.num_channels), np = py::ssize_t(r.num_pols);
        py::array cross = to_numpy(std::move(r.cross), {nc, py::ssize_t(r.num_baselines), np});
        if (!autocorrelations) return cross;
        py::array autos = to_numpy(std::move(r.autos), {nc, py::ssize_t(r.num_stations), np});
        return py::make_tuple(cross, autos);
      },
      py::arg("sky"), py::arg("station_jones"), py::arg("uvw"), py::arg("frequencies"),
      py::kw_only(), py::arg("phase_centre_ra_deg") = 0.0, py::arg("phase_centre_dec_deg") = 0.0,
      py::arg("polarised") = true, py::arg("autocorrelations") = false,
      py::arg("channel_bandwidth_hz") = 0.0, py::arg("precision") = "double",
      py::arg("device") = "cpu", py::arg("gpu") = 0,
      R"doc(Model visibilities of a sky by the direct (DFT) predict, as the simulator forms them.

sky: a fringe.Sky (fluxes at each frequency from its spectra; Gaussians included).
station_jones: None (identity) or complex station Jones matrices without the phase term K,
  shape [station, source, 2, 2] (the same at every frequency) or [channel, station, source,
  2, 2]; with polarised=False [station, source] or [channel, station, source].
uvw: the STATIONS' (u, v, w), shape [station, 3], metres (fringe.station_uvw gives them).
frequencies: Hz, shape [channel].
Returns complex128 [channel, baseline, pol] for baselines (0,1), (0,2), ..., (1,2), ...
(pol XX, XY, YX, YY, or one with polarised=False), and with autocorrelations=True the tuple
(cross, autos[channel, station, pol]). Convention (docs/conventions.md): a 1 Jy point source
at (l, m) gives V_pq = exp(+2 pi i (U l + V m + W (n - 1)) / lambda), (U, V, W) = uvw_p -
uvw_q. precision 'single'/'double'; device 'cpu' or 'gpu' (CUDA device `gpu`). fringe.Error
for bad shapes or values.)doc");

  m.def(
      "station_uvw",
      [](const api::Telescope& telescope, const api::Observation& observation, int time_index,
         bool true_positions) {
        std::vector<double> uvw;
        {
          py::gil_scoped_release release;
          uvw = api::station_uvw(telescope, observation, time_index, true_positions);
        }
        const auto n = py::ssize_t(uvw.size() / 3);
        return to_numpy(std::move(uvw), {n, 3});
      },
      py::arg("telescope"), py::arg("observation"), py::arg("time_index") = 0,
      py::arg("true_positions") = false,
      "The stations' (u, v, w) [m], shape [station, 3], at the centre of time step time_index,\n"
      "from the measured positions (the written UVW: baseline (p, q) = uvw[p] - uvw[q]) or\n"
      "the true ones (the simulated signal), as the simulator forms them.");
}

}  // namespace fringe::python
