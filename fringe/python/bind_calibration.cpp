// fringe.Calibration and fringe.calibrate: StEFCal gains from visibility arrays or on a
// Measurement Set (fringe/api/calibration.h; docs/python.md "Beams, imaging and calibration").
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "fringe/api/calibration.h"
#include "fringe/core/error.h"
#include "fringe/python/bindings.h"
#include "fringe/python/numpy_views.h"

namespace fringe::python {
namespace {

// The settings of a calibration: the solver's and, for run(), the Measurement Set's.
struct Calibration {
  std::string gain_type = "diagonal";
  int times_per_solution = 1;
  int channels_per_solution = 0;
  int reference_station = 0;
  int max_iterations = 300;
  double tolerance = 1e-6;
  int min_baselines = 4;

  api::CalibrationOptions options() const {
    api::CalibrationOptions o;
    if (gain_type == "scalar") {
      o.solver.type = api::GainType::Scalar;
    } else if (gain_type == "diagonal") {
      o.solver.type = api::GainType::Diagonal;
    } else if (gain_type == "full_jones") {
      o.solver.type = api::GainType::FullJones;
    } else {
      throw Error("Calibration.gain_type '" + gain_type +
                  "': expected 'scalar', 'diagonal' or 'full_jones'");
    }
    o.solver.reference_station = reference_station;
    o.solver.min_baselines = min_baselines;
    o.solver.solver.max_iterations = max_iterations;
    o.solver.solver.tolerance = tolerance;
    o.times_per_solution = times_per_solution;
    o.channels_per_solution = channels_per_solution;
    return o;
  }
};

py::dict to_dict(api::GainSolution&& s) {
  const py::ssize_t ni = s.num_intervals, ng = s.num_channel_groups, ns = s.num_stations;
  py::dict d;
  d["gains"] = give_to_numpy<std::complex<double>>(std::move(s.gains), {ni, ng, ns, 2, 2});
  d["flags"] =
      give_to_numpy<std::uint8_t>(std::move(s.flagged), {ni, ng, ns}).attr("astype")("bool");
  d["iterations"] = give_to_numpy<int>(std::move(s.iterations), {ni, ng});
  d["state"] = py::cast(s.state);
  d["rms_before"] = give_to_numpy<double>(std::move(s.rms_before), {ni, ng});
  d["rms_after"] = give_to_numpy<double>(std::move(s.rms_after), {ni, ng});
  d["time"] = give_to_numpy<double>(std::move(s.interval_time), {ni});
  d["chan_start"] = give_to_numpy<int>(std::move(s.chan_start), {ng});
  d["chan_end"] = give_to_numpy<int>(std::move(s.chan_end), {ng});
  d["gain_type"] = calibrate::gain_type_name(s.type);
  return d;
}

py::dict solve(const Calibration& c, const ComplexArray& data, const ComplexArray& model,
               const CArray<int>& antenna1, const CArray<int>& antenna2,
               const std::optional<CArray<double>>& time,
               const std::optional<CArray<double>>& weight, int num_stations) {
  require_ndim(data, "data", 1, 3);
  api::VisibilityArrays v;
  v.num_rows = std::size_t(data.shape(0));
  v.num_channels = data.ndim() >= 2 ? int(data.shape(1)) : 1;
  v.num_pols = data.ndim() == 3 ? int(data.shape(2)) : 1;
  if (model.ndim() != data.ndim() ||
      !std::equal(data.shape(), data.shape() + data.ndim(), model.shape()))
    throw Error("model: shape differs from data's");
  v.data = complex_span(data);
  v.model = complex_span(model);
  v.antenna1 = span_of(antenna1);
  v.antenna2 = span_of(antenna2);
  if (time) v.time = span_of(*time);
  if (weight) v.weight = span_of(*weight);
  v.num_stations = num_stations;
  const api::CalibrationOptions o = c.options();
  api::GainSolution s;
  {
    py::gil_scoped_release release;
    s = api::solve_gains(v, o);
  }
  return to_dict(std::move(s));
}

constexpr const char* kResultDoc =
    "Returns a dict of numpy arrays: 'gains' complex [interval, channel_group, station, 2, 2] "
    "(rows X, Y; scalar gains g*I, diagonal diag(gX, gY); 0 where flagged), 'flags' bool "
    "[interval, channel_group, station] (True: not solved), 'iterations', 'rms_before', "
    "'rms_after' [interval, channel_group] (RMS of data - model before and after, data units), "
    "'state' (list, one per cell: 'converged', 'stalled', 'max_iterations', 'no_data'), 'time' "
    "[interval], 'chan_start', 'chan_end' [channel_group] (inclusive), 'gain_type'.";

constexpr const char* kSolveDoc =
    "Solves StEFCal gains G (data R_pq = G_p M_pq G_q^H) from arrays in memory, on the CPU.\n\n"
    "data, model: complex, [row], [row, channel] (one product) or [row, channel, pol] with pol "
    "1 or 4 (XX, XY, YX, YY), the layout of a Measurement Set's DATA column.\n"
    "antenna1, antenna2: int [row], station indices; autocorrelation rows are ignored.\n"
    "time: [row] (any unit; rows with equal time are one time step; times_per_solution "
    "distinct times make an interval), or None: one time step.\n"
    "weight: like data (real; 0 = flagged) or None: all 1.\n"
    "num_stations: 0 = largest station index + 1.\n"
    "The free phase is fixed by making the reference station's gain real and positive (each "
    "diagonal entry separately).\n";

}  // namespace

void bind_calibration(py::module_& m) {
  py::class_<Calibration>(
      m, "Calibration",
      "StEFCal calibration (Salvini & Wijnholds 2014): per-station complex gains G with "
      "data R_pq = G_p M_pq G_q^H for model visibilities M. Configure the attributes, then "
      "solve() arrays in memory or run() on a Measurement Set.")
      .def(py::init([](const std::string& gain_type, int times_per_solution,
                       int channels_per_solution, int reference_station, int max_iterations,
                       double tolerance, int min_baselines) {
             Calibration c{gain_type,         times_per_solution, channels_per_solution,
                           reference_station, max_iterations,     tolerance,
                           min_baselines};
             c.options();  // checks the gain type now
             return c;
           }),
           py::arg("gain_type") = "diagonal", py::arg("times_per_solution") = 1,
           py::arg("channels_per_solution") = 0, py::arg("reference_station") = 0,
           py::arg("max_iterations") = 300, py::arg("tolerance") = 1e-6,
           py::arg("min_baselines") = 4)
      .def_readwrite("gain_type", &Calibration::gain_type,
                     "'scalar', 'diagonal' (default) or 'full_jones'.")
      .def_readwrite("times_per_solution", &Calibration::times_per_solution,
                     "Time steps per solution interval (0: all times). Default 1.")
      .def_readwrite("channels_per_solution", &Calibration::channels_per_solution,
                     "Channels per solution (0: all channels, the default).")
      .def_readwrite("reference_station", &Calibration::reference_station,
                     "Station whose gain is made real and positive (the phase reference).")
      .def_readwrite("max_iterations", &Calibration::max_iterations,
                     "Most StEFCal updates per cell (>= 2). Default 300.")
      .def_readwrite("tolerance", &Calibration::tolerance,
                     "Relative change of the gains at which a cell has converged. Default 1e-6.")
      .def_readwrite("min_baselines", &Calibration::min_baselines,
                     "Stations with fewer unflagged baselines are flagged. Default 4.")
      .def("solve", &solve, py::arg("data"), py::arg("model"), py::arg("antenna1"),
           py::arg("antenna2"), py::kw_only(), py::arg("time") = py::none(),
           py::arg("weight") = py::none(), py::arg("num_stations") = 0,
           (std::string(kSolveDoc) + kResultDoc).c_str())
      .def(
          "run",
          [](const Calibration& c, const std::string& ms, const std::string& data_column,
             const std::string& model_column, const std::string& sky_model,
             const std::string& gains_path, bool write_corrected, bool use_gpus,
             const std::string& precision) {
            calibrate::CalibrateMsConfig cfg;
            cfg.ms_path = ms;
            cfg.data_column = data_column;
            cfg.model_column = model_column;
            cfg.sky_model_path = sky_model;
            cfg.gains_path = gains_path;
            cfg.write_corrected = write_corrected;
            cfg.devices.use_gpus = use_gpus;
            const api::CalibrationOptions o = c.options();
            cfg.options = o.solver;
            cfg.times_per_solution = o.times_per_solution;
            cfg.channels_per_solution = o.channels_per_solution;
            if (precision == "single") {
              cfg.precision = Precision::Single;
            } else if (precision != "double") {
              throw Error("precision '" + precision + "': expected 'single' or 'double'");
            }
            api::GainSolution s;
            {
              py::gil_scoped_release release;
              s = api::calibrate_ms(cfg);
            }
            return to_dict(std::move(s));
          },
          py::arg("ms"), py::kw_only(), py::arg("data_column") = "DATA",
          py::arg("model_column") = "MODEL_DATA", py::arg("sky_model") = "",
          py::arg("gains_path") = "", py::arg("write_corrected") = true, py::arg("use_gpus") = true,
          py::arg("precision") = "double",
          (std::string("Calibrates the Measurement Set `ms` (path): model from model_column, or "
                       "predicted from the sky model file `sky_model`; writes the gain table "
                       "(gains_path, default <ms>.gains), its CSV and, unless write_corrected "
                       "is False, CORRECTED_DATA. use_gpus: solve on a GPU when there is one. ") +
           kResultDoc)
              .c_str());

  m.def(
      "calibrate",
      [](const ComplexArray& data, const ComplexArray& model, const CArray<int>& antenna1,
         const CArray<int>& antenna2, const std::optional<CArray<double>>& time,
         const std::optional<CArray<double>>& weight, int num_stations,
         const std::string& gain_type, int times_per_solution, int channels_per_solution,
         int reference_station, int max_iterations, double tolerance, int min_baselines) {
        const Calibration c{gain_type,         times_per_solution, channels_per_solution,
                            reference_station, max_iterations,     tolerance,
                            min_baselines};
        return solve(c, data, model, antenna1, antenna2, time, weight, num_stations);
      },
      py::arg("data"), py::arg("model"), py::arg("antenna1"), py::arg("antenna2"), py::kw_only(),
      py::arg("time") = py::none(), py::arg("weight") = py::none(), py::arg("num_stations") = 0,
      py::arg("gain_type") = "diagonal", py::arg("times_per_solution") = 1,
      py::arg("channels_per_solution") = 0, py::arg("reference_station") = 0,
      py::arg("max_iterations") = 300, py::arg("tolerance") = 1e-6, py::arg("min_baselines") = 4,
      (std::string("calibrate(data, model, antenna1, antenna2, ...): "
                   "Calibration(gain_type=..., ...).solve(data, model, antenna1, antenna2, ...)."
                   "\n\n") +
       kSolveDoc + kResultDoc)
          .c_str());
}

}  // namespace fringe::python
