// fringe.SettingsTree: an app's OSKAR INI settings with the app's schema validation
// (api::SettingsTree; docs/python.md, "SettingsTree"). The schemas of every app are compiled
// into the extension (fringe/python/CMakeLists.txt: fringe_embed_schemas).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "fringe/api/settings.h"
#include "fringe/python/bindings.h"
#include "fringe/settings/embedded_schemas.h"

namespace py = pybind11;

namespace fringe::python {
namespace {

using api::SettingsTree;

// A Python value as settings text: bools as true/false, sequences joined with commas,
// anything else through str().
std::string to_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::string out;
    for (const auto& item : value) {
      if (!out.empty()) out += ",";
      out += to_text(item);
    }
    return out;
  }
  return py::str(value).cast<std::string>();
}

py::dict to_dict(const SettingsTree& tree, bool include_defaults) {
  py::dict d;
  for (const auto& [key, value] : tree.items(include_defaults)) d[py::str(key)] = value;
  return d;
}

}  // namespace

void bind_settings(py::module_& m) {
  py::class_<SettingsTree> cls(m, "SettingsTree",
                               R"doc(The settings of one fringe app, as an OSKAR INI file.

SettingsTree(app, settings_file=None): app is "sim_interferometer", "sim_beam_pattern",
"imager" or "calibrate" (OSKAR's "oskar_..." names work too). With a file, it is loaded with
the app's validation (a bad value raises fringe.Error naming the file, line, key and value;
unknown keys are UserWarnings). tree[key] and tree[key] = value read and set one setting
with the schema's checks; nothing is written until save().)doc");
  cls.def(py::init([](const std::string& app, const std::string& settings_file) {
            if (settings_file.empty()) return SettingsTree(app, settings::embedded_schemas());
            SettingsTree tree =
                SettingsTree::load(app, settings::embedded_schemas(), settings_file);
            for (const auto& w : tree.warnings()) PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2);
            return tree;
          }),
          py::arg("app"), py::arg("settings_file") = "")
      .def_property_readonly("app", &SettingsTree::app, "The app's fringe name.")
      .def_property_readonly("settings_file", &SettingsTree::file,
                             "The file loaded or last saved ('' when none).")
      .def_property_readonly("warnings", &SettingsTree::warnings,
                             "Warnings given while loading (unknown keys, ...).")
      .def("value", &SettingsTree::value, py::arg("key"),
           "The value of a setting as text ('' when it has neither a value nor a default).")
      .def(
          "set_value",
          [](SettingsTree& t, const std::string& key, const py::object& value) {
            t.set_value(key, to_text(value));
          },
          py::arg("key"), py::arg("value"),
          "Sets a setting with the schema's validation (bools, numbers, lists are converted\n"
          "to settings text); fringe.Error names the key and value when it is invalid.")
      .def("__getitem__", &SettingsTree::value, py::arg("key"))
      .def(
          "__setitem__",
          [](SettingsTree& t, const std::string& key, const py::object& value) {
            t.set_value(key, to_text(value));
          },
          py::arg("key"), py::arg("value"))
      .def("__contains__",
           [](const SettingsTree& t, const std::string& key) { return t.settings().has(key); })
      .def("reset", &SettingsTree::reset, py::arg("key"), "Puts a setting back to its default.")
      .def("is_given", &SettingsTree::is_given, py::arg("key"),
           "Whether the setting was given by the file or set_value().")
      .def("keys", &SettingsTree::keys, "Every setting key of the app's schema, in order.")
      .def("to_dict", &to_dict, py::arg("include_defaults") = false,
           "{key: value text} of the settings with non-default values (or, with\n"
           "include_defaults, of every setting that has a value).")
      .def(
          "from_dict",
          [](SettingsTree& t, const py::dict& d) {
            // All or nothing: check every value on a copy first.
            SettingsTree changed = t;
            for (const auto& [key, value] : d)
              changed.set_value(key.cast<std::string>(), to_text(value));
            t = std::move(changed);
          },
          py::arg("dictionary"), "Sets every key of a dict (all or nothing).")
      .def("validate", &SettingsTree::validate,
           "The checks the app makes before running (required keys, input files exist, ...):\n"
           "one text per problem, warnings prefixed 'warning: '; empty when all is well.")
      .def(
          "save",
          [](SettingsTree& t, const std::string& path) {
            py::gil_scoped_release release;
            t.save(path);
          },
          py::arg("path") = "",
          "Writes the settings as an INI file (default: the loaded file). Only the lines of\n"
          "changed settings differ from the loaded file. An existing file is replaced only\n"
          "when it is this tree's file or an INI file beginning with [General]; anything else\n"
          "raises fringe.Error. Written to a temporary name, then renamed.")
      .def("__repr__", [](const SettingsTree& t) {
        return "<fringe.SettingsTree: " + t.app() +
               (t.file().empty() ? std::string() : " from " + t.file()) + ", " +
               std::to_string(t.items().size()) + " non-default settings>";
      });
}

}  // namespace fringe::python
