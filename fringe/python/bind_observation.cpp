// fringe.Observation: binds api::Observation (= astro::ObservationConfig) itself (docs/python.md,
// "Observation"). Constructed from keywords in user units with the apps' range checks; every
// property setter checks the changed observation before it takes effect.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "fringe/api/observation.h"
#include "fringe/api/settings.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/python/bindings.h"

namespace py = pybind11;

namespace fringe::python {
namespace {

using api::Observation;
using TimeValue = std::variant<double, std::string>;

double to_mjd(const TimeValue& t) {
  if (const auto* mjd = std::get_if<double>(&t)) return *mjd;
  return api::utc_to_mjd(std::get<std::string>(t));
}

// A property whose setter applies `set` to a copy, checks it, then stores it.
template <typename T, typename Get, typename Set>
void checked_property(py::class_<Observation>& cls, const char* name, Get get, Set set,
                      const char* doc) {
  cls.def_property(
      name, get,
      [set](Observation& o, T value) {
        Observation changed = o;
        set(changed, value);
        api::check_observation(changed);
        o = changed;
      },
      doc);
}

}  // namespace

void bind_observation(py::module_& m) {
  py::class_<Observation> cls(m, "Observation",
                              R"doc(An observation: phase centre, channels and time steps.

Channel c is centred at start_frequency_hz + c * frequency_inc_hz; time step i is centred at
start_mjd_utc + (i + 1/2) * length_sec / num_time_steps / 86400 (docs/conventions.md, "Time").
Values are range-checked as the apps check the observation/ settings: fringe.Error names the
field and value.)doc");
  cls.def(py::init([](double phase_centre_ra_deg, double phase_centre_dec_deg,
                      double start_frequency_hz, int num_channels, double frequency_inc_hz,
                      const TimeValue& start_time_utc, double length_sec, int num_time_steps,
                      const std::string& mode) {
            if (mode != "Tracking" && mode != "Drift scan")
              throw Error("Observation: mode '" + mode + "' is not 'Tracking' or 'Drift scan'");
            api::ObservationValues v;
            v.phase_centre_ra_deg = phase_centre_ra_deg;
            v.phase_centre_dec_deg = phase_centre_dec_deg;
            v.start_frequency_hz = start_frequency_hz;
            v.num_channels = num_channels;
            v.frequency_inc_hz = frequency_inc_hz;
            v.start_mjd_utc = to_mjd(start_time_utc);
            v.length_sec = length_sec;
            v.num_time_steps = num_time_steps;
            v.drift_scan = mode == "Drift scan";
            Observation o = api::make_observation(v);
            if (const auto* text = std::get_if<std::string>(&start_time_utc))
              o.start_time_text = *text;
            return o;
          }),
          py::kw_only(), py::arg("phase_centre_ra_deg") = 0.0,
          py::arg("phase_centre_dec_deg") = 0.0, py::arg("start_frequency_hz"),
          py::arg("num_channels") = 1, py::arg("frequency_inc_hz") = 0.0, py::arg("start_time_utc"),
          py::arg("length_sec"), py::arg("num_time_steps") = 1, py::arg("mode") = "Tracking",
          "Keywords: phase centre RA, Dec [deg]; start_frequency_hz (centre of channel 0) [Hz];\n"
          "num_channels; frequency_inc_hz [Hz]; start_time_utc: MJD(UTC) days as a number or a\n"
          "date-time string ('2025-01-01 13:27:30', '2025-01-01T13:27:30.5', '01-01-2025\n"
          "13:27:30'); length_sec [s]; num_time_steps; mode 'Tracking' or 'Drift scan'.")
      .def_static(
          "from_settings",
          [](const api::SettingsTree& tree) { return api::observation_from_settings(tree); },
          py::arg("settings"),
          "The observation of a SettingsTree's observation/ group (as the apps read it).")
      .def_property_readonly("interval_sec", &Observation::interval_sec,
                             "Time step length [s] (length_sec / num_time_steps).")
      .def_property_readonly(
          "frequencies_hz",
          [](const Observation& o) {
            py::array_t<double> f(o.num_channels);
            auto w = f.mutable_unchecked<1>();
            for (int c = 0; c < o.num_channels; ++c) w(c) = o.channel_frequency_hz(c);
            return f;
          },
          "Channel centre frequencies [Hz].")
      .def_property_readonly(
          "time_centres_mjd_utc",
          [](const Observation& o) {
            py::array_t<double> t(o.num_time_steps);
            auto w = t.mutable_unchecked<1>();
            for (int i = 0; i < o.num_time_steps; ++i) w(i) = o.time_centre_mjd(i);
            return t;
          },
          "Time step centres, MJD(UTC) [days].")
      .def_property_readonly(
          "start_time_text", [](const Observation& o) { return o.start_time_text; },
          "The start time as given (for logs).")
      .def(
          "create_copy", [](const Observation& o) { return Observation(o); }, "A copy.")
      .def("__copy__", [](const Observation& o) { return Observation(o); })
      .def(
          "__deepcopy__", [](const Observation& o, const py::dict&) { return Observation(o); },
          py::arg("memo"))
      .def("__repr__", [](const Observation& o) {
        return "<fringe.Observation: " + api::describe_observation(o) + ">";
      });
  checked_property<double>(
      cls, "phase_centre_ra_deg",
      [](const Observation& o) { return o.phase_centre_ra * kRadToDeg; },
      [](Observation& o, double v) { o.phase_centre_ra = v * kDegToRad; },
      "Phase centre right ascension [deg].");
  checked_property<double>(
      cls, "phase_centre_dec_deg",
      [](const Observation& o) { return o.phase_centre_dec * kRadToDeg; },
      [](Observation& o, double v) { o.phase_centre_dec = v * kDegToRad; },
      "Phase centre declination [deg].");
  checked_property<double>(
      cls, "phase_centre_ra_rad", [](const Observation& o) { return o.phase_centre_ra; },
      [](Observation& o, double v) { o.phase_centre_ra = v; }, "Phase centre RA [rad].");
  checked_property<double>(
      cls, "phase_centre_dec_rad", [](const Observation& o) { return o.phase_centre_dec; },
      [](Observation& o, double v) { o.phase_centre_dec = v; }, "Phase centre Dec [rad].");
  checked_property<double>(
      cls, "start_frequency_hz", [](const Observation& o) { return o.start_frequency_hz; },
      [](Observation& o, double v) { o.start_frequency_hz = v; },
      "Centre frequency of channel 0 [Hz].");
  checked_property<int>(
      cls, "num_channels", [](const Observation& o) { return o.num_channels; },
      [](Observation& o, int v) { o.num_channels = v; }, "Number of channels.");
  checked_property<double>(
      cls, "frequency_inc_hz", [](const Observation& o) { return o.frequency_inc_hz; },
      [](Observation& o, double v) { o.frequency_inc_hz = v; }, "Channel spacing [Hz].");
  checked_property<TimeValue>(
      cls, "start_mjd_utc", [](const Observation& o) { return o.start_mjd_utc; },
      [](Observation& o, const TimeValue& v) {
        o.start_mjd_utc = to_mjd(v);
        o.start_time_text = std::holds_alternative<std::string>(v)
                                ? std::get<std::string>(v)
                                : std::to_string(o.start_mjd_utc);
      },
      "Start of the first time step, MJD(UTC) [days]; may be set from a UTC date-time string.");
  checked_property<double>(
      cls, "length_sec", [](const Observation& o) { return o.length_sec; },
      [](Observation& o, double v) { o.length_sec = v; }, "Observation length [s].");
  checked_property<int>(
      cls, "num_time_steps", [](const Observation& o) { return o.num_time_steps; },
      [](Observation& o, int v) { o.num_time_steps = v; }, "Number of time steps.");
  checked_property<std::string>(
      cls, "mode",
      [](const Observation& o) {
        return std::string(o.mode == astro::ObservationMode::DriftScan ? "Drift scan" : "Tracking");
      },
      [](Observation& o, const std::string& v) {
        if (v != "Tracking" && v != "Drift scan")
          throw Error("Observation.mode: '" + v + "' is not 'Tracking' or 'Drift scan'");
        o.mode =
            v == "Tracking" ? astro::ObservationMode::Tracking : astro::ObservationMode::DriftScan;
      },
      "'Tracking' (the phase centre is tracked) or 'Drift scan'.");
}

}  // namespace fringe::python
