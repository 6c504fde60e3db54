// fringe.Telescope: binds api::Telescope (= telescope::TelescopeModel) itself, so other
// bindings take the same object (docs/python.md, "Telescope"). Positions come out as numpy
// (n, 3) arrays (copies: the model keeps them as structs of x, y, z).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fringe/api/settings.h"
#include "fringe/api/telescope.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/python/bindings.h"

namespace py = pybind11;

namespace fringe::python {
namespace {

using api::Telescope;
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

py::array_t<double> rows_of_three(std::vector<double>&& v) {
  auto owner = std::make_unique<std::vector<double>>(std::move(v));
  double* data = owner->data();
  const auto rows = static_cast<py::ssize_t>(owner->size() / 3);
  py::capsule keep(owner.get(), [](void* p) {
    std::unique_ptr<std::vector<double>>(static_cast<std::vector<double>*>(p));  // frees it
  });
  owner.release();  // NOLINT(bugprone-unused-return-value): the capsule owns it now
  return py::array_t<double>({rows, py::ssize_t{3}}, data, keep);
}

std::span<const double> span_of(const std::optional<DoubleArray>& a, const char* name) {
  if (!a) return {};
  if (a->ndim() != 1)
    throw Error(std::string("set_station_coords_enu: '") + name + "' must be a 1-D array");
  return {a->data(), static_cast<std::size_t>(a->size())};
}

api::PositionKind kind_of(bool true_positions) {
  return true_positions ? api::PositionKind::True : api::PositionKind::Measured;
}

Telescope load(const std::string& path) {
  Telescope t;
  {
    py::gil_scoped_release release;
    t = api::load_telescope(path);
  }
  for (const auto& w : t.warnings) PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2);
  return t;
}

}  // namespace

void bind_telescope(py::module_& m) {
  py::class_<Telescope> cls(m, "Telescope", R"doc(A telescope model loaded from an OSKAR .tm folder.

Stations, their element layouts, the array centre and the files fringe loads
(docs/conventions.md, "Telescope model folders"). Positions are metres: ENU (East, North,
Up) about the array centre, or offset ECEF (ECEF minus the centre's ECEF). "Measured"
positions are the layout files' first three columns (used for the written u,v,w); "true"
positions add the error columns (used for the simulated signal).)doc");
  cls.def(py::init([](const std::string& path) { return load(path); }), py::arg("path"),
          "Loads a .tm folder (as Telescope.load).")
      .def_static("load", &load, py::arg("path"),
                  "Loads an OSKAR telescope model folder (.tm). Loader warnings (files fringe\n"
                  "does not use, ...) are UserWarnings; missing or malformed files raise\n"
                  "fringe.Error naming the file and line.")
      .def_static(
          "from_settings",
          [](const api::SettingsTree& tree) {
            py::gil_scoped_release release;
            return api::telescope_from_settings(tree);
          },
          py::arg("settings"), "The telescope model of telescope/input_directory.")
      .def_property_readonly("num_stations", &Telescope::num_stations, "Number of stations.")
      .def_property_readonly(
          "directory", [](const Telescope& t) { return t.directory; }, "The .tm folder as given.")
      .def_property_readonly(
          "station_names",
          [](const Telescope& t) {
            std::vector<std::string> names;
            for (const auto& s : t.stations) names.push_back(s.name);
            return names;
          },
          "Station names: the station folder names, or s0000, s0001, ...")
      .def_property_readonly(
          "lon_deg", [](const Telescope& t) { return t.centre.lon * kRadToDeg; },
          "Array centre longitude [deg], East positive.")
      .def_property_readonly(
          "lat_deg", [](const Telescope& t) { return t.centre.lat * kRadToDeg; },
          "Array centre geodetic latitude [deg].")
      .def_property_readonly(
          "alt_m", [](const Telescope& t) { return t.centre.height; },
          "Array centre height above the WGS84 ellipsoid [m].")
      .def_property_readonly(
          "layout_frame",
          [](const Telescope& t) { return std::string(telescope::to_string(t.layout_frame)); },
          "Which layout file gave the station positions: ENU, ECEF or WGS84.")
      .def(
          "station_positions_enu",
          [](const Telescope& t, bool true_positions) {
            return rows_of_three(api::station_positions_enu(t, kind_of(true_positions)));
          },
          py::arg("true_positions") = false,
          "Station positions (num_stations, 3) [m], East, North, Up about the array centre\n"
          "(measured, or with true_positions the positions with errors added).")
      .def(
          "station_positions_ecef",
          [](const Telescope& t, bool true_positions) {
            return rows_of_three(api::station_positions_offset_ecef(t, kind_of(true_positions)));
          },
          py::arg("true_positions") = false,
          "Station positions (num_stations, 3) [m] as ECEF offsets from the array centre.")
      .def_property_readonly(
          "station_model_index",
          [](const Telescope& t) {
            std::vector<int> v;
            for (const auto& s : t.stations) v.push_back(s.model_index);
            return py::array_t<int>(static_cast<py::ssize_t>(v.size()), v.data());
          },
          "For each station, the index of its station model (stations that share a folder\n"
          "share an index; OSKAR's station type).")
      .def_property_readonly(
          "num_station_models", [](const Telescope& t) { return t.station_models.size(); },
          "Number of distinct station models.")
      .def(
          "num_elements",
          [](const Telescope& t, std::size_t station) {
            if (station >= t.num_stations())
              throw Error("station index " + std::to_string(station) + " is out of range (" +
                          std::to_string(t.num_stations()) + " stations)");
            return t.model_of(station).num_elements();
          },
          py::arg("station"), "Number of elements (top level) of a station.")
      .def(
          "element_positions_enu",
          [](const Telescope& t, std::size_t station, int feed, bool true_positions) {
            return rows_of_three(
                api::element_positions_enu(t, station, feed, kind_of(true_positions)));
          },
          py::arg("station"), py::arg("feed") = 0, py::arg("true_positions") = false,
          "Element positions (num_elements, 3) [m] of a station, East, North, Up about the\n"
          "station centre; feed 0 = X, 1 = Y.")
      .def(
          "set_station_coords_enu",
          [](Telescope& t, double lon_deg, double lat_deg, double alt_m, const DoubleArray& x,
             const DoubleArray& y, const DoubleArray& z, const std::optional<DoubleArray>& x_err,
             const std::optional<DoubleArray>& y_err, const std::optional<DoubleArray>& z_err) {
            const auto sx = span_of(x, "x"), sy = span_of(y, "y"), sz = span_of(z, "z");
            const auto ex = span_of(x_err, "x_err"), ey = span_of(y_err, "y_err"),
                       ez = span_of(z_err, "z_err");
            py::gil_scoped_release release;
            api::set_station_coords_enu(t, lon_deg, lat_deg, alt_m, sx, sy, sz, ex, ey, ez);
          },
          py::arg("longitude_deg"), py::arg("latitude_deg"), py::arg("altitude_m"), py::arg("x"),
          py::arg("y"), py::arg("z"), py::arg("x_err") = py::none(), py::arg("y_err") = py::none(),
          py::arg("z_err") = py::none(),
          "Replaces the array centre (lon, lat [deg], alt [m]) and the station positions:\n"
          "x, y, z = East, North, Up [m] about it, with optional errors [m] added for the\n"
          "true positions. The station count must stay the same.")
      .def(
          "set_position",
          [](Telescope& t, double lon_deg, double lat_deg, double alt_m) {
            const auto enu = api::station_positions_enu(t, api::PositionKind::Measured);
            const auto tru = api::station_positions_enu(t, api::PositionKind::True);
            const std::size_t n = t.num_stations();
            std::vector<double> c[6];
            for (auto& v : c) v.resize(n);
            for (std::size_t i = 0; i < n; ++i)
              for (int k = 0; k < 3; ++k) {
                c[k][i] = enu[3 * i + k];
                c[3 + k][i] = tru[3 * i + k] - enu[3 * i + k];
              }
            api::set_station_coords_enu(t, lon_deg, lat_deg, alt_m, c[0], c[1], c[2], c[3], c[4],
                                        c[5]);
          },
          py::arg("longitude_deg"), py::arg("latitude_deg"), py::arg("altitude_m") = 0.0,
          "Moves the array centre, keeping every station's ENU position about it.")
      .def_property_readonly(
          "warnings", [](const Telescope& t) { return t.warnings; },
          "The loader's warnings, in order.")
      .def(
          "create_copy", [](const Telescope& t) { return Telescope(t); }, "A deep copy.")
      .def("__copy__", [](const Telescope& t) { return Telescope(t); })
      .def(
          "__deepcopy__", [](const Telescope& t, const py::dict&) { return Telescope(t); },
          py::arg("memo"))
      .def("__repr__", [](const Telescope& t) {
        return "<fringe.Telescope: " + api::describe_telescope(t) + ">";
      });
}

}  // namespace fringe::python
