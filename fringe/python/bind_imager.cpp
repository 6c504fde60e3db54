// fringe.Imager: dirty images and PSFs as numpy arrays, from visibility arrays or Measurement
// Sets, optionally written as FITS (fringe/api/imager.h; docs/python.md "Beams, imaging and
// calibration"). Names follow OSKAR's oskar.Imager where the concept is the same.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "fringe/api/imager.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/python/bindings.h"
#include "fringe/python/numpy_views.h"

namespace fringe::python {
namespace {

using imager::Algorithm;
using imager::ImageType;
using imager::Weighting;

const std::vector<std::pair<std::string, ImageType>> kImageTypes = {
    {"I", ImageType::I},           {"Q", ImageType::Q},    {"U", ImageType::U},
    {"V", ImageType::V},           {"XX", ImageType::XX},  {"XY", ImageType::XY},
    {"YX", ImageType::YX},         {"YY", ImageType::YY},  {"Linear", ImageType::Linear},
    {"Stokes", ImageType::Stokes}, {"PSF", ImageType::Psf}};

// The imager's settings; the pixel size is given either as a field of view or directly.
struct PyImager {
  api::ImagerConfig cfg;
  double fov_deg = 2.0;        // used when cellsize_arcsec == 0
  double cellsize_arcsec = 0;  // > 0: the pixel size (then fov_deg follows from it)

  PyImager() {
    cfg.size = 256;
    cfg.devices.use_gpus = true;
  }
  api::ImagerConfig config() const {
    api::ImagerConfig c = cfg;
    c.cell_rad = cellsize_arcsec > 0 ? cellsize_arcsec / 3600.0 * kDegToRad
                                     : api::fov_to_cell_rad(fov_deg * kDegToRad, c.size);
    return c;
  }
};

// OSKAR's names (oskar.Imager.algorithm, .weighting).
Algorithm algorithm_of(const std::string& s) {
  Algorithm a;
  if (!fringe::imager::algorithm_from_name(s, a))
    throw Error("Imager.algorithm '" + s +
                "': expected 'FFT', 'W-projection', 'IDG', 'DFT 2D' or 'DFT 3D'");
  return a;
}
std::string weighting_name(Weighting w) {
  return w == Weighting::Natural   ? "Natural"
         : w == Weighting::Radial  ? "Radial"
         : w == Weighting::Uniform ? "Uniform"
                                   : "Robust";
}
Weighting weighting_of(const std::string& s) {
  if (s == "Natural") return Weighting::Natural;
  if (s == "Radial") return Weighting::Radial;
  if (s == "Uniform") return Weighting::Uniform;
  if (s == "Robust" || s == "Briggs") return Weighting::Briggs;
  throw Error("Imager.weighting '" + s + "': expected 'Natural', 'Radial', 'Uniform' or 'Robust'");
}
std::string image_type_name(ImageType t) {
  for (const auto& [n, v] : kImageTypes)
    if (v == t) return n;
  return "?";
}
ImageType image_type_of(const std::string& s) {
  for (const auto& [n, v] : kImageTypes)
    if (n == s) return v;
  throw Error("Imager.image_type '" + s +
              "': expected one of I, Q, U, V, XX, XY, YX, YY, Linear, Stokes, PSF");
}

py::dict image_dict(api::Image&& im) {
  py::dict d;
  d["images"] = give_to_numpy<double>(std::move(im.pixels),
                                      {im.num_products, im.num_planes, im.size, im.size});
  d["products"] = py::cast(im.products);
  d["files"] = py::cast(im.result.files);
  d["num_visibilities"] = im.result.num_visibilities;
  d["num_gridded"] = im.result.num_gridded;
  d["sum_weights"] = im.result.sum_weights;
  d["device"] = im.result.device;
  return d;
}

py::dict run_arrays(const api::ImagerConfig& cfg, const CArray<double>& uvw,
                    const ComplexArray& vis, const CArray<double>& freq_hz,
                    const std::optional<CArray<double>>& weight,
                    const std::optional<CArray<int>>& antenna1,
                    const std::optional<CArray<int>>& antenna2,
                    const std::optional<CArray<double>>& time, double ra_deg, double dec_deg) {
  require_ndim(uvw, "uvw", 2, 2);
  if (uvw.shape(1) != 3) throw Error("uvw: expected shape [row, 3] (u, v, w in metres)");
  require_ndim(vis, "vis", 1, 3);
  api::VisibilityInput in;
  in.num_rows = std::size_t(vis.shape(0));
  in.num_channels = vis.ndim() >= 2 ? int(vis.shape(1)) : 1;
  in.num_pols = vis.ndim() == 3 ? int(vis.shape(2)) : 1;
  in.uvw_m = span_of(uvw);
  in.vis = complex_span(vis);
  in.freq_hz = span_of(freq_hz);
  if (weight) in.weight = span_of(*weight);
  if (antenna1) in.antenna1 = span_of(*antenna1);
  if (antenna2) in.antenna2 = span_of(*antenna2);
  if (time) in.time_s = span_of(*time);
  in.phase_centre_rad = {ra_deg * kDegToRad, dec_deg * kDegToRad};
  api::Image im;
  {
    py::gil_scoped_release release;
    im = api::make_image(cfg, in);
  }
  return image_dict(std::move(im));
}

constexpr const char* kRunDoc =
    "Makes the images and returns a dict: 'images' float64 [product, plane, y, x] (Jy/beam; "
    "pixel (x, y) at l = -(x - size/2) cell, m = (y - size/2) cell, the phase centre at "
    "(size/2, size/2), x along decreasing RA as in the FITS file), 'products' (names, e.g. "
    "['I']), 'files' (FITS written), 'num_visibilities', 'num_gridded', 'sum_weights', "
    "'device'.\n\n"
    "With arrays (vis given): uvw float [row, 3] in metres; vis complex [row], [row, channel] "
    "or [row, channel, pol] (pol 1: the product imaged; 4: XX, XY, YX, YY, from which "
    "image_type is formed); freq_hz [channel] Hz; weight [row, channel] or None (all 1); "
    "antenna1, antenna2 [row] or None; time [row] s or None; phase_centre_ra_deg/dec_deg for "
    "station-beam A-terms and the FITS header. FITS images are written when output_root is "
    "set.\n"
    "Without arrays: images input_file (Measurement Set path or list) with the imager app's "
    "pipeline; FITS images <output_root>_<product>.fits are written when output_root is set.";

}  // namespace

void bind_imager(py::module_& m) {
  py::class_<PyImager>(m, "Imager",
                       "The imager (like oskar.Imager): dirty images or the PSF of visibilities, "
                       "by Image-Domain Gridding (CPU, or a GPU) or a direct Fourier transform. "
                       "Set the attributes, then run().")
      .def(py::init([](const std::string& precision) {
             PyImager p;
             if (precision == "single") {
               p.cfg.precision = Precision::Single;
             } else if (precision != "double") {
               throw Error("Imager precision '" + precision + "': expected 'single' or 'double'");
             }
             return p;
           }),
           py::arg("precision") = "double",
           "precision: 'double' (default) or 'single' (of the gridding).")
      .def_property(
          "image_size", [](const PyImager& p) { return p.cfg.size; },
          [](PyImager& p, int n) { p.cfg.size = n; }, "Image side in pixels (even). Default 256.")
      .def_property(
          "fov_deg",
          [](const PyImager& p) {
            if (p.cellsize_arcsec <= 0) return p.fov_deg;
            return 2.0 *
                   std::asin(p.cfg.size * std::sin(p.cellsize_arcsec / 3600.0 * kDegToRad) / 2.0) *
                   kRadToDeg;
          },
          [](PyImager& p, double f) {
            p.fov_deg = f;
            p.cellsize_arcsec = 0;
          },
          "Field of view in degrees (default 2); the pixel size is asin(2 sin(fov/2) / "
          "image_size), as OSKAR's. Setting it clears cellsize_arcsec.")
      .def_property(
          "cellsize_arcsec",
          [](const PyImager& p) { return p.config().cell_rad * kRadToDeg * 3600.0; },
          [](PyImager& p, double c) { p.cellsize_arcsec = c; },
          "Pixel size in arcsec (direction cosines); setting it overrides fov_deg.")
      .def_property(
          "algorithm",
          [](const PyImager& p) { return std::string(fringe::imager::to_string(p.cfg.algorithm)); },
          [](PyImager& p, const std::string& s) { p.cfg.algorithm = algorithm_of(s); },
          "'IDG' (default; Image-Domain Gridding, w-stacked), 'DFT 2D' or 'DFT 3D' (direct "
          "Fourier transform without / with the w term).")
      .def_property(
          "weighting", [](const PyImager& p) { return weighting_name(p.cfg.weighting); },
          [](PyImager& p, const std::string& s) { p.cfg.weighting = weighting_of(s); },
          "'Natural' (default), 'Uniform' or 'Robust' (Briggs, parameter robust).")
      .def_property(
          "robust", [](const PyImager& p) { return p.cfg.robust; },
          [](PyImager& p, double r) { p.cfg.robust = r; }, "Briggs robustness (-2 .. 2).")
      .def_property(
          "image_type", [](const PyImager& p) { return image_type_name(p.cfg.image_type); },
          [](PyImager& p, const std::string& s) { p.cfg.image_type = image_type_of(s); },
          "'I' (default), 'Q', 'U', 'V', 'XX', 'XY', 'YX', 'YY', 'Linear' (four), 'Stokes' "
          "(four) or 'PSF'.")
      .def_property(
          "channel_snapshots", [](const PyImager& p) { return p.cfg.channel_snapshots; },
          [](PyImager& p, bool b) { p.cfg.channel_snapshots = b; },
          "True: one image plane per channel; False (default): one plane of all channels.")
      .def_property(
          "uv_filter_min", [](const PyImager& p) { return p.cfg.uv_min_lambda; },
          [](PyImager& p, double v) { p.cfg.uv_min_lambda = v; },
          "Shortest baseline imaged, wavelengths.")
      .def_property(
          "uv_filter_max", [](const PyImager& p) { return p.cfg.uv_max_lambda; },
          [](PyImager& p, double v) { p.cfg.uv_max_lambda = v < 0 ? 1e300 : v; },
          "Longest baseline imaged, wavelengths (negative: no limit).")
      .def_property(
          "freq_min_hz", [](const PyImager& p) { return p.cfg.freq_min_hz; },
          [](PyImager& p, double v) { p.cfg.freq_min_hz = v; },
          "Lowest channel frequency imaged from a Measurement Set, Hz.")
      .def_property(
          "freq_max_hz", [](const PyImager& p) { return p.cfg.freq_max_hz; },
          [](PyImager& p, double v) { p.cfg.freq_max_hz = v <= 0 ? 1e300 : v; },
          "Highest channel frequency imaged from a Measurement Set, Hz (<= 0: no limit).")
      .def_property(
          "input_file", [](const PyImager& p) { return p.cfg.input_ms; },
          [](PyImager& p, const std::variant<std::string, std::vector<std::string>>& v) {
            if (std::holds_alternative<std::string>(v)) {
              p.cfg.input_ms = {std::get<std::string>(v)};
            } else {
              p.cfg.input_ms = std::get<std::vector<std::string>>(v);
            }
          },
          "Measurement Set(s) to image (path or list of paths) when run() gets no arrays.")
      .def_property(
          "ms_column", [](const PyImager& p) { return p.cfg.ms_column; },
          [](PyImager& p, const std::string& s) { p.cfg.ms_column = s; },
          "'DATA' (default), 'MODEL_DATA' or 'CORRECTED_DATA'.")
      .def_property(
          "output_root", [](const PyImager& p) { return p.cfg.root_path; },
          [](PyImager& p, const std::string& s) { p.cfg.root_path = s; },
          "FITS images <output_root>_<product>.fits are written ('' (default): none).")
      .def_property(
          "direction",
          [](const PyImager& p) -> py::object {
            if (!p.cfg.rephase) return py::none();
            return py::make_tuple(p.cfg.centre_ra_rad * kRadToDeg,
                                  p.cfg.centre_dec_rad * kRadToDeg);
          },
          [](PyImager& p, const std::optional<std::pair<double, double>>& d) {
            p.cfg.rephase = d.has_value();
            if (d) {
              p.cfg.centre_ra_rad = d->first * kDegToRad;
              p.cfg.centre_dec_rad = d->second * kDegToRad;
            }
          },
          "Image centre (ra_deg, dec_deg): the Measurement Set's visibilities are re-phased "
          "there (OSKAR's image/direction); None (default): the observation's phase centre.")
      .def_property(
          "use_gpus", [](const PyImager& p) { return p.cfg.devices.use_gpus; },
          [](PyImager& p, bool b) { p.cfg.devices.use_gpus = b; },
          "Grid on a GPU when there is one (IDG only). Default True.")
      .def_property(
          "num_threads", [](const PyImager& p) { return p.cfg.num_threads; },
          [](PyImager& p, int n) { p.cfg.num_threads = n; },
          "CPU threads of the CPU gridder (0: all cores).")
      .def(
          "run",
          [](const PyImager& p, const std::optional<CArray<double>>& uvw,
             const std::optional<ComplexArray>& vis, const std::optional<CArray<double>>& freq_hz,
             const std::optional<CArray<double>>& weight,
             const std::optional<CArray<int>>& antenna1, const std::optional<CArray<int>>& antenna2,
             const std::optional<CArray<double>>& time, double ra_deg, double dec_deg) -> py::dict {
            const api::ImagerConfig cfg = p.config();
            if (vis) {
              if (!uvw || !freq_hz) throw Error("Imager.run: arrays need uvw and freq_hz too");
              return run_arrays(cfg, *uvw, *vis, *freq_hz, weight, antenna1, antenna2, time, ra_deg,
                                dec_deg);
            }
            if (uvw || freq_hz) throw Error("Imager.run: uvw and freq_hz need vis too");
            if (cfg.input_ms.empty())
              throw Error("Imager.run: give visibility arrays or set input_file");
            api::Image im;
            {
              py::gil_scoped_release release;
              im = api::image_ms(cfg);
            }
            return image_dict(std::move(im));
          },
          py::arg("uvw") = py::none(), py::arg("vis") = py::none(), py::arg("freq_hz") = py::none(),
          py::kw_only(), py::arg("weight") = py::none(), py::arg("antenna1") = py::none(),
          py::arg("antenna2") = py::none(), py::arg("time") = py::none(),
          py::arg("phase_centre_ra_deg") = 0.0, py::arg("phase_centre_dec_deg") = 0.0, kRunDoc)
      .def_static(
          "make_image",
          [](const CArray<double>& uu, const CArray<double>& vv, const CArray<double>& ww,
             const ComplexArray& amps, double fov_deg, int size, const std::string& weighting,
             const std::string& algorithm, const std::optional<CArray<double>>& weight) {
            if (uu.size() != vv.size() || uu.size() != ww.size() || uu.size() != amps.size())
              throw Error("make_image: uu, vv, ww and amps must have the same length");
            PyImager p;
            p.cfg.size = size;
            p.fov_deg = fov_deg;
            p.cfg.weighting = weighting_of(weighting);
            p.cfg.algorithm = algorithm_of(algorithm);
            const api::ImagerConfig cfg = p.config();
            // uvw in wavelengths: one channel at c Hz makes metres equal wavelengths.
            std::vector<double> uvw(3 * std::size_t(uu.size()));
            for (py::ssize_t k = 0; k < uu.size(); ++k) {
              uvw[3 * k] = uu.data()[k];
              uvw[3 * k + 1] = vv.data()[k];
              uvw[3 * k + 2] = ww.data()[k];
            }
            const double freq = kSpeedOfLight;
            api::VisibilityInput in;
            in.num_rows = std::size_t(amps.size());
            in.uvw_m = uvw;
            in.vis = complex_span(amps);
            in.freq_hz = std::span<const double>(&freq, 1);
            if (weight) in.weight = span_of(*weight);
            api::Image im;
            {
              py::gil_scoped_release release;
              im = api::make_image(cfg, in);
            }
            return give_to_numpy<double>(std::move(im.pixels), {im.size, im.size});
          },
          py::arg("uu"), py::arg("vv"), py::arg("ww"), py::arg("amps"), py::arg("fov_deg"),
          py::arg("size"), py::arg("weighting") = "Natural", py::arg("algorithm") = "IDG",
          py::arg("weight") = py::none(),
          "As oskar.Imager.make_image: a Stokes-I-like dirty image [size, size] (y, x) of "
          "visibilities amps with baseline coordinates uu, vv, ww in wavelengths, fov_deg "
          "degrees across.");
}

}  // namespace fringe::python
