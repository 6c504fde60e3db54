// fringe.Sky: binds api::Sky (= sky::SkyModel) itself, so every other binding takes and returns
// the same object (docs/python.md, "Sky"). Column properties are zero-copy numpy views of the
// model's arrays that keep the Sky alive; while such a view exists, operations that would move
// the arrays (append, filters, clear) raise fringe.Error instead of leaving the view dangling.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fringe/api/settings.h"
#include "fringe/api/sky.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/python/bindings.h"

namespace py = pybind11;

namespace fringe::python {
namespace {

using api::Sky;
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Live numpy views per Sky (only touched with the GIL held).
std::map<const Sky*, long>& live_views() {
  static std::map<const Sky*, long> views;
  return views;
}

// What a view's capsule owns: a reference to the Python Sky (keeps it alive) and its address.
struct ViewToken {
  PyObject* owner;
  const Sky* sky;
};

// A writable 1-D numpy view of column v of the Sky held by `self`.
py::array column_view(const py::object& self, std::vector<double>& v) {
  const Sky* sky = self.cast<const Sky*>();
  py::object owner = self;
  auto token = std::make_unique<ViewToken>(ViewToken{owner.ptr(), sky});
  py::capsule base(token.get(), [](void* p) {
    std::unique_ptr<ViewToken> t(static_cast<ViewToken*>(p));
    auto& views = live_views();
    if (--views[t->sky] <= 0) views.erase(t->sky);
    Py_DECREF(t->owner);
  });
  token.release();  // NOLINT(bugprone-unused-return-value): the capsule owns it now
  owner.release();  // the token holds this reference until the capsule goes
  ++live_views()[sky];
  return py::array_t<double>({static_cast<py::ssize_t>(v.size())}, {sizeof(double)}, v.data(),
                             base);
}

// Refuses an operation that reallocates the columns while numpy views of them exist.
void require_no_views(const Sky& sky, const char* operation) {
  auto it = live_views().find(&sky);
  if (it != live_views().end() && it->second > 0)
    throw Error(std::string("Sky.") + operation + ": " + std::to_string(it->second) +
                " numpy view(s) of this sky's columns (ra_rad, I, ...) are still alive and "
                "would be left pointing at freed memory; delete them first or take copies "
                "(numpy.array(sky.I))");
}

// Copies `values` into column v (same length: the storage stays, so views stay valid).
void assign_column(Sky& sky, std::vector<double>& v, const DoubleArray& values, const char* name) {
  if (values.ndim() != 1 || static_cast<std::size_t>(values.size()) != sky.size())
    throw Error(std::string("Sky.") + name + ": expected a 1-D array of " +
                std::to_string(sky.size()) + " values (one per source), got shape with " +
                std::to_string(values.size()) + " values");
  std::copy_n(values.data(), sky.size(), v.data());
}

std::span<const double> span_or_empty(const std::optional<DoubleArray>& a, const char* name) {
  if (!a) return {};
  if (a->ndim() != 1)
    throw Error(std::string("Sky column '") + name + "': expected a 1-D array, got " +
                std::to_string(a->ndim()) + " dimensions");
  return {a->data(), static_cast<std::size_t>(a->size())};
}

using OptArray = std::optional<DoubleArray>;

// The 12 OSKAR columns of Sky.from_columns and Sky.append_sources as spans over the arrays
// (the optional ones empty when left out).
api::SkyColumns sky_columns(const DoubleArray& ra_deg, const DoubleArray& dec_deg,
                            const DoubleArray& I, const OptArray& Q, const OptArray& U,
                            const OptArray& V, const OptArray& ref_freq_hz,
                            const OptArray& spectral_index, const OptArray& rotation_measure,
                            const OptArray& major_arcsec, const OptArray& minor_arcsec,
                            const OptArray& pa_deg) {
  return {span_or_empty(ra_deg, "ra_deg"),
          span_or_empty(dec_deg, "dec_deg"),
          span_or_empty(I, "I"),
          span_or_empty(Q, "Q"),
          span_or_empty(U, "U"),
          span_or_empty(V, "V"),
          span_or_empty(ref_freq_hz, "ref_freq_hz"),
          span_or_empty(spectral_index, "spectral_index"),
          span_or_empty(rotation_measure, "rotation_measure"),
          span_or_empty(major_arcsec, "major_arcsec"),
          span_or_empty(minor_arcsec, "minor_arcsec"),
          span_or_empty(pa_deg, "pa_deg")};
}

py::array_t<double> to_numpy(std::vector<double>&& v, const std::vector<py::ssize_t>& shape) {
  auto owner = std::make_unique<std::vector<double>>(std::move(v));
  double* data = owner->data();
  py::capsule keep(owner.get(), [](void* p) {
    std::unique_ptr<std::vector<double>>(static_cast<std::vector<double>*>(p));  // frees it
  });
  owner.release();  // NOLINT(bugprone-unused-return-value): the capsule owns it now
  return py::array_t<double>(shape, data, keep);
}

void warn_all(const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2);
}

// Adds a property viewing column `member` (zero-copy) that may be assigned a same-length array.
template <typename Class>
void column(Class& cls, const char* name, std::vector<double> Sky::*member, const char* doc) {
  cls.def_property(
      name,
      [member](const py::object& self) -> py::array {
        return column_view(self, self.cast<Sky&>().*member);
      },
      [member, name](Sky& sky, const DoubleArray& values) {
        assign_column(sky, sky.*member, values, name);
      },
      doc);
}

}  // namespace

void bind_sky(py::module_& m) {
  py::class_<Sky> cls(m, "Sky", R"doc(A sky model: a list of point and Gaussian sources.

The columns are stored as arrays (structure of arrays) in SI units and radians; the
properties ra_rad, dec_rad, I, Q, U, V, ref_freq_hz, rotation_measure, fwhm_major_rad,
fwhm_minor_rad and position_angle_rad are numpy views of them (no copy: writing to a view
changes the sky). While a view is alive, append(), the filters and clear() raise fringe.Error.
to_array() and from_array() use OSKAR's column layout in degrees, Jy, Hz and arcsec:
ra_deg, dec_deg, I, Q, U, V, ref_freq_hz, spectral_index, rotation_measure (rad/m^2),
major_arcsec, minor_arcsec (FWHM), pa_deg (East of North).)doc");

  cls.def(py::init<>(), "An empty sky.")
      .def_static(
          "from_array",
          [](const DoubleArray& array) {
            if (array.ndim() != 2 && array.ndim() != 1)
              throw Error("Sky.from_array: expected a 2-D array (sources x 3..12 columns)");
            const std::size_t rows = array.ndim() == 2 ? array.shape(0) : 1;
            const std::size_t cols = array.ndim() == 2 ? array.shape(1) : array.shape(0);
            std::span<const double> values(array.data(), static_cast<std::size_t>(array.size()));
            py::gil_scoped_release release;
            return api::sky_from_array(values, rows, cols);
          },
          py::arg("array"),
          "A sky from a (num_sources, 3..12) array in OSKAR's column layout: ra_deg, dec_deg,\n"
          "I [Jy], then optionally Q, U, V [Jy], ref_freq_hz, spectral_index, rotation_measure\n"
          "[rad/m^2], major_arcsec, minor_arcsec (FWHM), pa_deg; missing columns are 0.")
      .def_static(
          "from_columns",
          [](const DoubleArray& ra_deg, const DoubleArray& dec_deg, const DoubleArray& I,
             const std::optional<DoubleArray>& Q, const std::optional<DoubleArray>& U,
             const std::optional<DoubleArray>& V, const std::optional<DoubleArray>& ref_freq_hz,
             const std::optional<DoubleArray>& spectral_index,
             const std::optional<DoubleArray>& rotation_measure,
             const std::optional<DoubleArray>& major_arcsec,
             const std::optional<DoubleArray>& minor_arcsec,
             const std::optional<DoubleArray>& pa_deg) {
            const api::SkyColumns c =
                sky_columns(ra_deg, dec_deg, I, Q, U, V, ref_freq_hz, spectral_index,
                            rotation_measure, major_arcsec, minor_arcsec, pa_deg);
            Sky sky;
            py::gil_scoped_release release;
            api::append_sources(sky, c);
            return sky;
          },
          py::arg("ra_deg"), py::arg("dec_deg"), py::arg("I"), py::kw_only(),
          py::arg("Q") = py::none(), py::arg("U") = py::none(), py::arg("V") = py::none(),
          py::arg("ref_freq_hz") = py::none(), py::arg("spectral_index") = py::none(),
          py::arg("rotation_measure") = py::none(), py::arg("major_arcsec") = py::none(),
          py::arg("minor_arcsec") = py::none(), py::arg("pa_deg") = py::none(),
          "A sky from 1-D arrays in OSKAR's units (deg, Jy, Hz, rad/m^2, arcsec, deg); the\n"
          "keyword columns are optional (0 when left out).")
      .def_static(
          "load",
          [](const std::string& path, bool strict, double spectral_index, double min_peak_fraction,
             double min_abs_val) {
            api::SkyLoadOptions o;
            o.strict = strict;
            o.spectral_index = spectral_index;
            o.min_peak_fraction = min_peak_fraction;
            o.min_abs_val = min_abs_val;
            std::vector<std::string> warnings;
            Sky sky;
            {
              py::gil_scoped_release release;
              sky = api::load_sky(path, o, &warnings);
            }
            warn_all(warnings);
            return sky;
          },
          py::arg("path"), py::kw_only(), py::arg("strict") = false,
          py::arg("spectral_index") = 0.0, py::arg("min_peak_fraction") = 0.0,
          py::arg("min_abs_val") = 0.0,
          "Loads a sky model file: OSKAR text (.osm fixed columns or named columns) or a FITS\n"
          "image / HEALPix map (.fits: every kept pixel becomes a source; spectral_index,\n"
          "min_peak_fraction of the peak and min_abs_val in map units select them). Skipped\n"
          "malformed lines are UserWarnings (errors with strict=True).")
      .def_static(
          "from_fits_file",
          [](const std::string& path, double min_peak_fraction, double min_abs_val,
             double spectral_index) {
            api::SkyLoadOptions o;
            o.spectral_index = spectral_index;
            o.min_peak_fraction = min_peak_fraction;
            o.min_abs_val = min_abs_val;
            std::vector<std::string> warnings;
            Sky sky;
            {
              py::gil_scoped_release release;
              sky = api::load_sky(path, o, &warnings);
            }
            warn_all(warnings);
            return sky;
          },
          py::arg("path"), py::arg("min_peak_fraction") = 0.0, py::arg("min_abs_val") = 0.0,
          py::arg("spectral_index") = 0.0,
          "A sky from a FITS image or HEALPix map (Sky.load for .fits files, OSKAR's name).")
      .def_static(
          "from_settings",
          [](const api::SettingsTree& tree) {
            std::vector<std::string> warnings;
            Sky sky;
            {
              py::gil_scoped_release release;
              sky = api::sky_from_settings(tree, &warnings);
            }
            warn_all(warnings);
            return sky;
          },
          py::arg("settings"),
          "The sky a sim_interferometer SettingsTree describes (sky/ files, generators and\n"
          "filters, in OSKAR's order).")
      .def_static(
          "generate_grid",
          [](double ra0_deg, double dec0_deg, std::uint64_t side_length, double fov_deg,
             double mean_flux_jy, double std_flux_jy, std::uint64_t seed) {
            py::gil_scoped_release release;
            return api::generate_sky_grid(ra0_deg, dec0_deg, side_length, fov_deg, mean_flux_jy,
                                          std_flux_jy, seed);
          },
          py::arg("ra0_deg"), py::arg("dec0_deg"), py::arg("side_length"), py::arg("fov_deg"),
          py::arg("mean_flux_jy") = 1.0, py::arg("std_flux_jy") = 0.0, py::arg("seed") = 1,
          "side_length^2 point sources on a grid over fov_deg [deg] about (ra0_deg, dec0_deg),\n"
          "Stokes I = mean_flux_jy + std_flux_jy * N(0, 1) [Jy].")
      .def_static(
          "generate_random_power_law",
          [](std::uint64_t num_sources, double flux_min_jy, double flux_max_jy, double power,
             std::uint64_t seed) {
            py::gil_scoped_release release;
            return api::generate_sky_random_power_law(num_sources, flux_min_jy, flux_max_jy, power,
                                                      seed);
          },
          py::arg("num_sources"), py::arg("flux_min_jy"), py::arg("flux_max_jy"),
          py::arg("power_law_index"), py::arg("seed") = 1,
          "num_sources point sources uniform on the sphere, dN/dS ~ S^power_law_index with S in\n"
          "[flux_min_jy, flux_max_jy] [Jy].")
      .def_property_readonly("num_sources", &Sky::size, "Number of sources.")
      .def("__len__", &Sky::size)
      .def(
          "to_array",
          [](const Sky& sky) {
            std::vector<double> v;
            {
              py::gil_scoped_release release;
              v = api::sky_to_array(sky);
            }
            return to_numpy(std::move(v), {static_cast<py::ssize_t>(sky.size()),
                                           static_cast<py::ssize_t>(api::kSkyArrayColumns)});
          },
          "A (num_sources, 12) copy in OSKAR's column layout (deg, Jy, Hz, rad/m^2, arcsec,\n"
          "deg; the first spectral-index term only).")
      .def(
          "save",
          [](const Sky& sky, const std::string& path, bool named_columns) {
            std::vector<std::string> warnings;
            {
              py::gil_scoped_release release;
              api::save_sky(sky, path, named_columns, &warnings);
            }
            warn_all(warnings);
          },
          py::arg("path"), py::kw_only(), py::arg("named_columns") = false,
          "Writes the sky as text: OSKAR's 12 fixed columns (.osm) or, with named_columns,\n"
          "every field. An existing file is replaced only when it is a sky model fringe wrote;\n"
          "anything else there raises fringe.Error. Written to a temporary name, then renamed.")
      .def(
          "append",
          [](Sky& sky, const Sky& other) {
            require_no_views(sky, "append");
            py::gil_scoped_release release;
            sky.append(other);
          },
          py::arg("other"), "Appends the sources of another Sky (copies them).")
      .def(
          "append_sources",
          [](Sky& sky, const DoubleArray& ra_deg, const DoubleArray& dec_deg, const DoubleArray& I,
             const std::optional<DoubleArray>& Q, const std::optional<DoubleArray>& U,
             const std::optional<DoubleArray>& V, const std::optional<DoubleArray>& ref_freq_hz,
             const std::optional<DoubleArray>& spectral_index,
             const std::optional<DoubleArray>& rotation_measure,
             const std::optional<DoubleArray>& major_arcsec,
             const std::optional<DoubleArray>& minor_arcsec,
             const std::optional<DoubleArray>& pa_deg) {
            require_no_views(sky, "append_sources");
            const api::SkyColumns c =
                sky_columns(ra_deg, dec_deg, I, Q, U, V, ref_freq_hz, spectral_index,
                            rotation_measure, major_arcsec, minor_arcsec, pa_deg);
            py::gil_scoped_release release;
            api::append_sources(sky, c);
          },
          py::arg("ra_deg"), py::arg("dec_deg"), py::arg("I"), py::arg("Q") = py::none(),
          py::arg("U") = py::none(), py::arg("V") = py::none(), py::arg("ref_freq_hz") = py::none(),
          py::arg("spectral_index") = py::none(), py::arg("rotation_measure") = py::none(),
          py::arg("major_arcsec") = py::none(), py::arg("minor_arcsec") = py::none(),
          py::arg("pa_deg") = py::none(),
          "Appends sources given as 1-D arrays in OSKAR's units (as Sky.from_columns).")
      .def(
          "append_file",
          [](Sky& sky, const std::string& path) {
            require_no_views(sky, "append_file");
            std::vector<std::string> warnings;
            {
              py::gil_scoped_release release;
              sky.append(api::load_sky(path, {}, &warnings));
            }
            warn_all(warnings);
          },
          py::arg("path"), "Appends the sources of a sky model file (as Sky.load).")
      .def(
          "filter_by_flux",
          [](Sky& sky, double min_flux_jy, double max_flux_jy) {
            require_no_views(sky, "filter_by_flux");
            py::gil_scoped_release release;
            sky = api::filter_sky_by_flux(sky, min_flux_jy, max_flux_jy);
          },
          py::arg("min_flux_jy"), py::arg("max_flux_jy"),
          "Keeps the sources with min_flux_jy < I <= max_flux_jy [Jy] (in place).")
      .def(
          "filter_by_radius",
          [](Sky& sky, double inner_radius_deg, double outer_radius_deg, double ra0_deg,
             double dec0_deg) {
            require_no_views(sky, "filter_by_radius");
            py::gil_scoped_release release;
            sky = api::filter_sky_by_radius(sky, inner_radius_deg, outer_radius_deg, ra0_deg,
                                            dec0_deg);
          },
          py::arg("inner_radius_deg"), py::arg("outer_radius_deg"), py::arg("ra0_deg"),
          py::arg("dec0_deg"),
          "Keeps the sources whose great-circle distance r from (ra0_deg, dec0_deg) has\n"
          "inner_radius_deg <= r < outer_radius_deg [deg] (in place).")
      .def(
          "clear",
          [](Sky& sky) {
            require_no_views(sky, "clear");
            sky.clear();
          },
          "Removes every source.")
      .def(
          "create_copy", [](const Sky& sky) { return Sky(sky); }, "A deep copy.")
      .def("__copy__", [](const Sky& sky) { return Sky(sky); })
      .def(
          "__deepcopy__", [](const Sky& sky, const py::dict&) { return Sky(sky); }, py::arg("memo"))
      .def_property_readonly(
          "ra_deg",
          [](const Sky& sky) {
            std::vector<double> v(sky.ra);
            for (double& x : v) x *= kRadToDeg;
            return to_numpy(std::move(v), {static_cast<py::ssize_t>(v.size())});
          },
          "Right ascensions [deg] (a copy).")
      .def_property_readonly(
          "dec_deg",
          [](const Sky& sky) {
            std::vector<double> v(sky.dec);
            for (double& x : v) x *= kRadToDeg;
            return to_numpy(std::move(v), {static_cast<py::ssize_t>(v.size())});
          },
          "Declinations [deg] (a copy).")
      .def_property_readonly(
          "spectral_index",
          [](const Sky& sky) {
            std::vector<double> v(sky.size(), 0.0);
            for (std::size_t i = 0; i < sky.size(); ++i)
              if (sky.spectral_index.count(i)) v[i] = sky.spectral_index.row(i)[0];
            return to_numpy(std::move(v), {static_cast<py::ssize_t>(sky.size())});
          },
          "First spectral-index term of each source (a copy; 0 when none).")
      .def("__repr__", [](const Sky& sky) {
        return "<fringe.Sky: " + std::to_string(sky.size()) + " sources, " +
               std::to_string(sky.num_gaussian()) + " Gaussian>";
      });
  column(cls, "ra_rad", &Sky::ra, "Right ascensions [rad] (a view; assign a same-length array).");
  column(cls, "dec_rad", &Sky::dec, "Declinations [rad] (a view).");
  column(cls, "I", &Sky::I, "Stokes I at the reference frequency [Jy] (a view).");
  column(cls, "Q", &Sky::Q, "Stokes Q [Jy] (a view).");
  column(cls, "U", &Sky::U, "Stokes U [Jy] (a view).");
  column(cls, "V", &Sky::V, "Stokes V [Jy] (a view).");
  column(cls, "ref_freq_hz", &Sky::ref_freq, "Reference frequencies [Hz]; 0 = flat (a view).");
  cls.def_property(
      "rotation_measure",
      [](const Sky& sky) {
        std::vector<double> v(sky.size(), 0.0);
        for (std::size_t i = 0; i < sky.size(); ++i)
          if (sky.flags[i] & sky::kHasRotationMeasure) v[i] = sky.rotation_measure[i];
        return to_numpy(std::move(v), {static_cast<py::ssize_t>(sky.size())});
      },
      [](Sky& sky, const DoubleArray& values) {
        assign_column(sky, sky.rotation_measure, values, "rotation_measure");
        for (std::size_t i = 0; i < sky.size(); ++i) {  // as the .osm reader: RM 0 = none
          if (sky.rotation_measure[i] != 0.0)
            sky.flags[i] |= sky::kHasRotationMeasure;
          else
            sky.flags[i] &= ~static_cast<std::uint32_t>(sky::kHasRotationMeasure);
        }
      },
      "Rotation measures [rad/m^2] (a copy, 0 where a source has none; assigning a\n"
      "same-length array sets them, 0 meaning none).");
  column(cls, "fwhm_major_rad", &Sky::fwhm_major, "Gaussian FWHM major axes [rad] (a view).");
  column(cls, "fwhm_minor_rad", &Sky::fwhm_minor, "Gaussian FWHM minor axes [rad] (a view).");
  column(cls, "position_angle_rad", &Sky::position_angle,
         "Gaussian position angles [rad], East of North (a view).");
}

}  // namespace fringe::python
