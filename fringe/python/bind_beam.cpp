// Station beams as numpy arrays (fringe.station_beams) and the beam-pattern pipeline
// (fringe.BeamPattern), over fringe/api/beam.h; docs/python.md "Beams, imaging and
// calibration". Names follow OSKAR's settings and oskar.BeamPattern where the concept is the
// same. Angles in the Python API are degrees; the C++ API takes radians.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fringe/api/beam.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/python/bindings.h"
#include "fringe/python/numpy_views.h"
#include "fringe/settings/embedded_schemas.h"

namespace fringe::python {
namespace {

using jones::StationType;

StationType station_type_of(const std::string& s) {
  for (StationType t : {StationType::ApertureArray, StationType::Isotropic, StationType::Gaussian,
                        StationType::VlaPbcor})
    if (s == jones::to_string(t)) return t;
  if (s == "Isotropic") return StationType::Isotropic;
  if (s == "Gaussian") return StationType::Gaussian;
  throw Error("station_type '" + s +
              "': expected 'Aperture array', 'Isotropic beam', 'Gaussian beam' or 'VLA (PBCOR)'");
}

bool full_of(const std::string& pol_mode) {
  if (pol_mode == "Full") return true;
  if (pol_mode == "Scalar") return false;
  throw Error("pol_mode '" + pol_mode + "': expected 'Full' or 'Scalar'");
}

// The station-beam options of the telescope/ settings group, as keyword arguments.
jones::StationBeamConfig beam_config(const std::string& station_type, bool normalise,
                                     double gaussian_fwhm_deg, double gaussian_ref_freq_hz,
                                     const std::string& element_type, double dipole_length,
                                     const std::string& dipole_length_units, bool array_pattern,
                                     bool normalise_array_pattern, bool enable_numerical) {
  jones::StationBeamConfig b;
  b.station_type = station_type_of(station_type);
  b.normalise_at_phase_centre = normalise;
  b.gaussian.fwhm_rad = gaussian_fwhm_deg * kDegToRad;
  b.gaussian.ref_freq_hz = gaussian_ref_freq_hz;
  auto& e = b.aperture_array.element_pattern;
  if (element_type == "Dipole") {
    e.functional_type = jones::ElementFunctionalType::Dipole;
  } else if (element_type == "Isotropic") {
    e.functional_type = jones::ElementFunctionalType::Isotropic;
  } else {
    throw Error("element_type '" + element_type + "': expected 'Dipole' or 'Isotropic'");
  }
  e.dipole_length = dipole_length;
  if (dipole_length_units == "Wavelengths") {
    e.dipole_length_in_wavelengths = true;
  } else if (dipole_length_units == "Metres") {
    e.dipole_length_in_wavelengths = false;
  } else {
    throw Error("dipole_length_units '" + dipole_length_units +
                "': expected 'Wavelengths' or 'Metres'");
  }
  e.enable_numerical = enable_numerical;
  b.aperture_array.array_pattern.enable = array_pattern;
  b.aperture_array.array_pattern.normalise = normalise_array_pattern;
  return b;
}

using OptArray = std::optional<CArray<double>>;

py::array station_beams_py(const api::Telescope& telescope, const OptArray& ra_deg,
                           const OptArray& dec_deg, const OptArray& l, const OptArray& m,
                           const OptArray& az_deg, const OptArray& el_deg,
                           const api::Observation* observation, int time_index, int channel_index,
                           std::optional<double> time_mjd_utc, std::optional<double> freq_hz,
                           std::optional<double> phase_centre_ra_deg,
                           std::optional<double> phase_centre_dec_deg, const std::string& pol_mode,
                           const std::optional<std::vector<std::size_t>>& stations, bool drift_scan,
                           bool parallactic, const std::string& station_type, bool normalise,
                           double gaussian_fwhm_deg, double gaussian_ref_freq_hz,
                           const std::string& element_type, double dipole_length,
                           const std::string& dipole_length_units, bool array_pattern,
                           bool normalise_array_pattern, bool enable_numerical, bool use_gpus) {
  api::StationBeamRequest r;
  r.devices.use_gpus = use_gpus;
  r.beam = beam_config(station_type, normalise, gaussian_fwhm_deg, gaussian_ref_freq_hz,
                       element_type, dipole_length, dipole_length_units, array_pattern,
                       normalise_array_pattern, enable_numerical);
  r.full_polarisation = full_of(pol_mode);
  r.parallactic = parallactic;
  r.drift_scan = drift_scan;
  if (observation) {
    if (time_index < 0 || time_index >= observation->num_time_steps)
      throw Error("station_beams: time_index " + std::to_string(time_index) + " outside 0.." +
                  std::to_string(observation->num_time_steps - 1));
    if (channel_index < 0 || channel_index >= observation->num_channels)
      throw Error("station_beams: channel_index " + std::to_string(channel_index) + " outside 0.." +
                  std::to_string(observation->num_channels - 1));
    r.time_mjd_utc = observation->time_centre_mjd(time_index);
    r.freq_hz = observation->channel_frequency_hz(channel_index);
    r.phase_centre_ra_rad = observation->phase_centre_ra;
    r.phase_centre_dec_rad = observation->phase_centre_dec;
    r.drift_scan = drift_scan || observation->mode == astro::ObservationMode::DriftScan;
    r.time_index = time_index;
  }
  if (time_mjd_utc) r.time_mjd_utc = *time_mjd_utc;
  if (freq_hz) r.freq_hz = *freq_hz;
  if (phase_centre_ra_deg) r.phase_centre_ra_rad = *phase_centre_ra_deg * kDegToRad;
  if (phase_centre_dec_deg) r.phase_centre_dec_rad = *phase_centre_dec_deg * kDegToRad;
  if (!observation && (!time_mjd_utc || !freq_hz))
    throw Error("station_beams: give time_mjd_utc and freq_hz (or an observation)");
  if (!observation && !drift_scan && (!phase_centre_ra_deg || !phase_centre_dec_deg))
    throw Error(
        "station_beams: give phase_centre_ra_deg and phase_centre_dec_deg (or an "
        "observation): the beam points there");
  if (stations) r.station_ids = *stations;
  const int given = int(ra_deg || dec_deg) + int(l || m) + int(az_deg || el_deg);
  if (given != 1)
    throw Error(
        "station_beams: give the directions as one of (ra_deg, dec_deg), (l, m) or "
        "(az_deg, el_deg)");
  std::vector<double> lon, lat;
  const auto pair = [](const OptArray& a, const OptArray& b, const char* what) {
    if (!a || !b) throw Error(std::string("station_beams: ") + what + " need each other");
    if (a->size() != b->size())
      throw Error(std::string("station_beams: ") + what + " must have the same length");
  };
  if (ra_deg || dec_deg) {
    pair(ra_deg, dec_deg, "ra_deg and dec_deg");
    for (py::ssize_t i = 0; i < ra_deg->size(); ++i) {
      lon.push_back(ra_deg->data()[i] * kDegToRad);
      lat.push_back(dec_deg->data()[i] * kDegToRad);
    }
  } else if (l || m) {
    pair(l, m, "l and m");
    lon.resize(l->size());
    lat.resize(l->size());
    api::lm_to_radec(r.phase_centre_ra_rad, r.phase_centre_dec_rad, span_of(*l), span_of(*m), lon,
                     lat);
  } else {
    pair(az_deg, el_deg, "az_deg and el_deg");
    r.horizon_frame = true;
    for (py::ssize_t i = 0; i < az_deg->size(); ++i) {
      lon.push_back(az_deg->data()[i] * kDegToRad);
      lat.push_back(el_deg->data()[i] * kDegToRad);
    }
  }
  api::StationBeams b;
  {
    py::gil_scoped_release release;
    b = api::station_beams(telescope, r, lon, lat);
  }
  const auto ns = py::ssize_t(b.num_stations), nd = py::ssize_t(b.num_directions);
  if (b.full) return give_to_numpy<std::complex<double>>(std::move(b.jones), {ns, nd, 2, 2});
  return give_to_numpy<std::complex<double>>(std::move(b.scalar), {ns, nd});
}

constexpr const char* kStationBeamsDoc =
    "The station beam E of the telescope's stations for a list of directions at one time and "
    "frequency, on the CPU (as the simulator and sim_beam_pattern evaluate it).\n\n"
    "Directions: ra_deg, dec_deg (degrees), or l, m (direction cosines about the phase "
    "centre, SIN projection), or az_deg, el_deg (each station's own horizon frame).\n"
    "When: time_mjd_utc (MJD, UTC, days) and freq_hz (Hz), or observation=fringe.Observation "
    "with time_index and channel_index (dump centre, channel centre; explicit values win).\n"
    "Pointing: phase_centre_ra_deg, phase_centre_dec_deg (the beam and normalisation "
    "direction; drift_scan=True: each station's zenith).\n"
    "pol_mode: 'Full' -> complex array [station, direction, 2, 2] (rows X, Y feed; columns "
    "theta, phi); 'Scalar' -> [station, direction]. stations: telescope indices (None: all).\n"
    "parallactic=True returns E R (the simulator's Jones) instead of E.\n"
    "Beam options (telescope/ settings): station_type 'Aperture array' (default), 'Isotropic "
    "beam', 'Gaussian beam', 'VLA (PBCOR)'; normalise (at the phase centre); "
    "gaussian_fwhm_deg, gaussian_ref_freq_hz (0: no scaling with frequency); element_type "
    "'Dipole' / 'Isotropic', dipole_length, dipole_length_units 'Wavelengths' / 'Metres', "
    "array_pattern (False: element pattern alone), normalise_array_pattern (divide by the "
    "number of elements), enable_numerical (element pattern files of the model).\n"
    "Below a station's horizon the beam is 0 (isotropic stations: 1 everywhere).\n"
    "use_gpus=True: aperture-array beams for RA/Dec or l/m directions on a GPU when there is "
    "one (double precision, the same values as the CPU to rounding); else the CPU.";

// fringe.BeamPattern: the typed config and, optionally, the telescope.
struct PyBeamPattern {
  api::BeamPatternConfig cfg;
  std::optional<api::Telescope> telescope;
  double fov_deg[2] = {2.0, 2.0};
};

const std::vector<std::pair<std::string, bool beam_pattern::BeamOutputs::*>> kFitsProducts = {
    {"amp", &beam_pattern::BeamOutputs::fits_amp},
    {"phase", &beam_pattern::BeamOutputs::fits_phase},
    {"auto_power", &beam_pattern::BeamOutputs::fits_auto_power},
    {"auto_power_phase", &beam_pattern::BeamOutputs::fits_auto_power_phase},
    {"auto_power_real", &beam_pattern::BeamOutputs::fits_auto_power_real},
    {"auto_power_imag", &beam_pattern::BeamOutputs::fits_auto_power_imag},
    {"cross_power_amp", &beam_pattern::BeamOutputs::fits_cross_amp},
    {"cross_power_phase", &beam_pattern::BeamOutputs::fits_cross_phase},
    {"cross_power_real", &beam_pattern::BeamOutputs::fits_cross_real},
    {"cross_power_imag", &beam_pattern::BeamOutputs::fits_cross_imag}};

py::dict run_beam_pattern_py(PyBeamPattern& p) {
  api::BeamPatternConfig cfg = p.cfg;
  if (cfg.image.cell_rad[0] == 0 && cfg.image.fov_rad[0] == 0) {
    cfg.image.fov_rad[0] = p.fov_deg[0] * kDegToRad;
    cfg.image.fov_rad[1] = p.fov_deg[1] * kDegToRad;
  }
  api::BeamPatternProducts out;
  {
    py::gil_scoped_release release;
    out = api::run_beam_pattern(cfg, p.telescope ? &*p.telescope : nullptr);
  }
  py::dict d;
  for (std::size_t i = 0; i < out.names.size(); ++i) {
    std::vector<py::ssize_t> shape(out.images[i].axes.rbegin(), out.images[i].axes.rend());
    // Trailing FITS axes of length 1 (numpy's leading ones) are dropped down to [y, x].
    while (shape.size() > 2 && shape.front() == 1) shape.erase(shape.begin());
    d[py::str(out.names[i])] = give_to_numpy<double>(std::move(out.images[i].pixels), shape);
  }
  return d;
}

}  // namespace

void bind_beam(py::module_& m) {
  m.def("station_beams", &station_beams_py, py::arg("telescope"), py::kw_only(),
        py::arg("ra_deg") = py::none(), py::arg("dec_deg") = py::none(), py::arg("l") = py::none(),
        py::arg("m") = py::none(), py::arg("az_deg") = py::none(), py::arg("el_deg") = py::none(),
        py::arg("observation") = nullptr, py::arg("time_index") = 0, py::arg("channel_index") = 0,
        py::arg("time_mjd_utc") = py::none(), py::arg("freq_hz") = py::none(),
        py::arg("phase_centre_ra_deg") = py::none(), py::arg("phase_centre_dec_deg") = py::none(),
        py::arg("pol_mode") = "Full", py::arg("stations") = py::none(),
        py::arg("drift_scan") = false, py::arg("parallactic") = false,
        py::arg("station_type") = "Aperture array", py::arg("normalise") = true,
        py::arg("gaussian_fwhm_deg") = 1.0, py::arg("gaussian_ref_freq_hz") = 0.0,
        py::arg("element_type") = "Dipole", py::arg("dipole_length") = 0.5,
        py::arg("dipole_length_units") = "Wavelengths", py::arg("array_pattern") = true,
        py::arg("normalise_array_pattern") = false, py::arg("enable_numerical") = true,
        py::arg("use_gpus") = false, kStationBeamsDoc);

  py::class_<PyBeamPattern>(
      m, "BeamPattern",
      "The beam-pattern pipeline of sim_beam_pattern (like oskar.BeamPattern): station beams on "
      "an image grid (or at sky-model positions) for every time and channel of an observation, "
      "and their voltage, auto-power and cross-power products. run() returns the FITS products "
      "as numpy arrays (and keeps the files when root_path is set).")
      .def(py::init([](const py::object& settings, const api::Telescope* telescope,
                       const api::Observation* observation) {
             PyBeamPattern p;
             if (py::isinstance<py::str>(settings)) {
               const api::SettingsTree tree = api::SettingsTree::load(
                   "sim_beam_pattern", settings::embedded_schemas(), settings.cast<std::string>());
               for (const auto& w : tree.warnings()) PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2);
               p.cfg = api::beam_pattern_config(tree);
             } else if (!settings.is_none()) {
               p.cfg = api::beam_pattern_config(settings.cast<const api::SettingsTree&>());
             } else {
               p.cfg.outputs.fits_auto_power = true;  // OSKAR's default product
             }
             if (p.cfg.image.fov_rad[0] > 0) {
               p.fov_deg[0] = p.cfg.image.fov_rad[0] * kRadToDeg;
               p.fov_deg[1] = p.cfg.image.fov_rad[1] * kRadToDeg;
             }
             if (telescope) p.telescope = *telescope;
             if (observation) p.cfg.observation = *observation;
             return p;
           }),
           py::arg("settings") = py::none(), py::arg("telescope") = nullptr,
           py::arg("observation") = nullptr,
           "settings: a fringe.SettingsTree of sim_beam_pattern, or the path of its INI file "
           "(every option from it, as the app reads it); None: defaults (auto-power FITS, "
           "Aperture array stations). telescope: a fringe.Telescope (else telescope_directory "
           "is loaded); observation: a fringe.Observation (phase centre, times, channels).")
      .def_property(
          "telescope_directory", [](const PyBeamPattern& p) { return p.cfg.telescope_directory; },
          [](PyBeamPattern& p, const std::string& s) { p.cfg.telescope_directory = s; },
          "Telescope model folder, loaded by run() when no telescope was given.")
      .def_property(
          "root_path", [](const PyBeamPattern& p) { return p.cfg.root_path; },
          [](PyBeamPattern& p, const std::string& s) {
            p.cfg.root_path = s;
            p.cfg.root_path_as_given = s;
          },
          "Root of the output file names; '' (default): no files are kept.")
      .def_property(
          "image_size",
          [](const PyBeamPattern& p) { return std::pair(p.cfg.image.width, p.cfg.image.height); },
          [](PyBeamPattern& p, const std::variant<int, std::pair<int, int>>& v) {
            const auto wh = std::holds_alternative<int>(v)
                                ? std::pair(std::get<int>(v), std::get<int>(v))
                                : std::get<std::pair<int, int>>(v);
            p.cfg.image.width = wh.first;
            p.cfg.image.height = wh.second;
          },
          "Image size in pixels: n or (width, height). Default 256.")
      .def_property(
          "fov_deg", [](const PyBeamPattern& p) { return std::pair(p.fov_deg[0], p.fov_deg[1]); },
          [](PyBeamPattern& p, const std::variant<double, std::pair<double, double>>& v) {
            const auto f = std::holds_alternative<double>(v)
                               ? std::pair(std::get<double>(v), std::get<double>(v))
                               : std::get<std::pair<double, double>>(v);
            p.fov_deg[0] = f.first;
            p.fov_deg[1] = f.second;
            p.cfg.image.fov_rad[0] = f.first * kDegToRad;
            p.cfg.image.fov_rad[1] = f.second * kDegToRad;
            p.cfg.image.cell_rad[0] = p.cfg.image.cell_rad[1] = 0;
          },
          "Field of view in degrees: f or (f_x, f_y). Default 2.")
      .def_property(
          "station_ids",
          [](const PyBeamPattern& p) -> py::object {
            if (p.cfg.all_stations) return py::str("all");
            return py::cast(p.cfg.station_ids);
          },
          [](PyBeamPattern& p, const py::object& v) {
            if (py::isinstance<py::str>(v)) {
              if (v.cast<std::string>() != "all")
                throw Error("BeamPattern.station_ids: a list of indices or 'all'");
              p.cfg.all_stations = true;
              return;
            }
            p.cfg.all_stations = false;
            p.cfg.station_ids = v.cast<std::vector<std::size_t>>();
          },
          "Stations evaluated: a list of telescope indices (default [0]) or 'all'.")
      .def_property(
          "coordinate_frame",
          [](const PyBeamPattern& p) {
            return p.cfg.frame == beam_pattern::BeamFrame::Equatorial ? "Equatorial" : "Horizon";
          },
          [](PyBeamPattern& p, const std::string& s) {
            if (s == "Equatorial") {
              p.cfg.frame = beam_pattern::BeamFrame::Equatorial;
            } else if (s == "Horizon") {
              p.cfg.frame = beam_pattern::BeamFrame::Horizon;
            } else {
              throw Error("BeamPattern.coordinate_frame '" + s +
                          "': expected 'Equatorial' or 'Horizon'");
            }
          },
          "'Equatorial' (default; image about the phase centre) or 'Horizon' (all sky).")
      .def_property(
          "pol_mode",
          [](const PyBeamPattern& p) {
            return p.cfg.pol_mode == jones::PolarisationMode::Full ? "Full" : "Scalar";
          },
          [](PyBeamPattern& p, const std::string& s) {
            p.cfg.pol_mode =
                full_of(s) ? jones::PolarisationMode::Full : jones::PolarisationMode::Scalar;
          },
          "'Full' (default) or 'Scalar'.")
      .def_property(
          "station_type",
          [](const PyBeamPattern& p) {
            return std::string(jones::to_string(p.cfg.beam.station_type));
          },
          [](PyBeamPattern& p, const std::string& s) {
            p.cfg.beam.station_type = station_type_of(s);
          },
          "'Aperture array', 'Isotropic beam', 'Gaussian beam' or 'VLA (PBCOR)'.")
      .def_property(
          "gaussian_fwhm_deg",
          [](const PyBeamPattern& p) { return p.cfg.beam.gaussian.fwhm_rad * kRadToDeg; },
          [](PyBeamPattern& p, double d) { p.cfg.beam.gaussian.fwhm_rad = d * kDegToRad; },
          "FWHM of Gaussian beams at gaussian_ref_freq_hz, degrees.")
      .def_property(
          "gaussian_ref_freq_hz",
          [](const PyBeamPattern& p) { return p.cfg.beam.gaussian.ref_freq_hz; },
          [](PyBeamPattern& p, double f) { p.cfg.beam.gaussian.ref_freq_hz = f; },
          "Reference frequency of the Gaussian FWHM, Hz (0: no scaling).")
      .def_property(
          "fits_products",
          [](const PyBeamPattern& p) {
            std::vector<std::string> on;
            for (const auto& [name, flag] : kFitsProducts)
              if (p.cfg.outputs.*flag) on.push_back(name);
            return on;
          },
          [](PyBeamPattern& p, const std::vector<std::string>& names) {
            for (const auto& [name, flag] : kFitsProducts) p.cfg.outputs.*flag = false;
            for (const std::string& n : names) {
              bool found = false;
              for (const auto& [name, flag] : kFitsProducts)
                if (n == name) found = (p.cfg.outputs.*flag = true);
              if (!found)
                throw Error("BeamPattern.fits_products: unknown product '" + n +
                            "' (amp, phase, auto_power, auto_power_phase, auto_power_real, "
                            "auto_power_imag, cross_power_amp, cross_power_phase, "
                            "cross_power_real, cross_power_imag)");
            }
          },
          "FITS products: per station 'amp', 'phase' (voltage), 'auto_power', "
          "'auto_power_phase', 'auto_power_real', 'auto_power_imag'; for the telescope "
          "'cross_power_amp', ..._phase, ..._real, ..._imag. Default ['auto_power'].")
      .def_property(
          "separate_time_and_channel", [](const PyBeamPattern& p) { return p.cfg.separate; },
          [](PyBeamPattern& p, bool b) { p.cfg.separate = b; },
          "A plane per time and channel (default True).")
      .def_property(
          "average_time_and_channel", [](const PyBeamPattern& p) { return p.cfg.average_all; },
          [](PyBeamPattern& p, bool b) { p.cfg.average_all = b; },
          "Also the power averaged over times and channels.")
      .def_property(
          "use_gpus", [](const PyBeamPattern& p) { return p.cfg.devices.use_gpus; },
          [](PyBeamPattern& p, bool b) { p.cfg.devices.use_gpus = b; },
          "Aperture-array beams (Equatorial frame) on a GPU when there is one. Default True.")
      .def("run", &run_beam_pattern_py,
           "Runs the pipeline; returns a dict: product name (the file name without root path "
           "and extension, e.g. 'S0000_TIME_SEP_CHAN_SEP_AUTO_POWER_I') -> float64 array, axes "
           "as in the FITS file reversed ([time, channel, y, x], leading length-1 axes "
           "dropped down to [y, x]). y runs along +Dec (North), x along -RA (East to the left) "
           "in the Equatorial frame.");
}

}  // namespace fringe::python
