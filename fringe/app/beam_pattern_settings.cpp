#include "fringe/app/beam_pattern_settings.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "fringe/app/settings_to_config.h"
#include "fringe/app/simulation_settings.h"
#include "fringe/beam_pattern/beam_pattern_output.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::app {
namespace {

using namespace fringe::beam_pattern;
using settings::Settings;
constexpr double kArcsec = kDegToRad / 3600.0;
const std::string kBp = "beam_pattern/";

// A Bool output switch: false when its schema dependencies disable it.
bool flag(const Settings& s, const std::string& key) {
  return s.is_enabled(key) && s.get_bool(key);
}

std::string list_text(const std::vector<double>& v) {
  std::ostringstream out;
  out.precision(10);
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? "," : "") << v[i];
  return out.str();
}

// beam_pattern/beam_image/...: size, then the pixel size per axis.
BeamImageConfig image_config(const Settings& s, BeamFrame frame) {
  const std::string k = kBp + "beam_image/";
  BeamImageConfig im;
  const std::vector<int> size = s.get_int_list(k + "size");
  if (size.empty() || size.size() > 2 || *std::min_element(size.begin(), size.end()) < 1) {
    throw Error::in_setting(k + "size", s.get(k + "size"),
                            "expected one or two image sizes of at least 1 pixel");
  }
  im.width = size[0];
  im.height = size.size() == 2 ? size[1] : size[0];
  if (frame == BeamFrame::Horizon) {  // the whole hemisphere: l, m in [-1, 1]
    im.cell_rad[0] = fov_to_cellsize(kPi, im.width);
    im.cell_rad[1] = fov_to_cellsize(kPi, im.height);
    im.fov_rad[0] = im.fov_rad[1] = kPi;
  } else if (flag(s, k + "specify_cellsize")) {
    const double cell = s.get_double(k + "cellsize_arcsec");
    if (!(cell > 0.0) || !std::isfinite(cell)) {
      throw Error::in_setting(k + "cellsize_arcsec", s.get(k + "cellsize_arcsec"),
                              "expected a pixel size > 0 arcsec");
    }
    im.cell_rad[0] = im.cell_rad[1] = cell * kArcsec;
    // OSKAR's field of view of the image (oskar_beam_pattern_set_image_cellsize).
    for (int a = 0; a < 2; ++a) {
      im.fov_rad[a] = cellsize_to_fov(im.cell_rad[a], a == 0 ? im.width : im.height);
      if (!std::isfinite(im.fov_rad[a])) {
        throw Error::in_setting(k + "cellsize_arcsec", s.get(k + "cellsize_arcsec"),
                                "the image (" + std::to_string(im.width) + " x " +
                                    std::to_string(im.height) +
                                    " pixels) would span more than the hemisphere: use a "
                                    "smaller pixel size or image");
      }
    }
  } else {
    const std::vector<double> fov = s.get_double_list(k + "fov_deg");
    const bool ok = !fov.empty() && fov.size() <= 2 &&
                    std::all_of(fov.begin(), fov.end(), [](double f) { return f > 0 && f <= 180; });
    if (!ok) {
      throw Error::in_setting(k + "fov_deg", list_text(fov),
                              "expected one or two fields of view in (0, 180] deg");
    }
    im.cell_rad[0] = fov_to_cellsize(fov[0] * kDegToRad, im.width);
    im.cell_rad[1] = fov_to_cellsize(fov.back() * kDegToRad, im.height);
    im.fov_rad[0] = fov[0] * kDegToRad;
    im.fov_rad[1] = fov.back() * kDegToRad;
  }
  return im;
}

std::vector<std::size_t> station_ids(const Settings& s) {
  const std::string key = kBp + "station_ids";
  const std::vector<int> ids = s.get_int_list(key);
  if (ids.empty()) throw Error::in_setting(key, s.get(key), "expected at least one station index");
  std::vector<std::size_t> out;
  for (int id : ids) {
    if (id < 0) throw Error::in_setting(key, s.get(key), "expected station indices >= 0");
    const auto u = static_cast<std::size_t>(id);
    if (std::find(out.begin(), out.end(), u) != out.end()) {
      throw Error::in_setting(key, s.get(key),
                              "station " + std::to_string(id) + " is listed twice");
    }
    out.push_back(u);
  }
  return out;
}

BeamOutputs outputs(const Settings& s) {
  const std::string st = kBp + "station_outputs/", te = kBp + "telescope_outputs/";
  for (const char* k : {"raw_complex", "amp", "phase", "auto_power"}) {
    const std::string key = st + "hdf5_file/" + k;
    if (flag(s, key))
      throw Error::in_setting(key, s.get(key), "HDF5 outputs are not supported yet");
  }
  for (const char* k : {"cross_power_raw_complex", "cross_power_amp", "cross_power_phase"}) {
    const std::string key = te + "hdf5_file/" + k;
    if (flag(s, key))
      throw Error::in_setting(key, s.get(key), "HDF5 outputs are not supported yet");
  }
  BeamOutputs o;
  o.text_raw_complex = flag(s, st + "text_file/raw_complex");
  o.text_amp = flag(s, st + "text_file/amp");
  o.text_phase = flag(s, st + "text_file/phase");
  o.text_auto_power = flag(s, st + "text_file/auto_power");
  o.fits_amp = flag(s, st + "fits_image/amp");
  o.fits_phase = flag(s, st + "fits_image/phase");
  o.fits_auto_power = flag(s, st + "fits_image/auto_power");
  o.fits_auto_power_phase = flag(s, st + "fits_image/auto_power_phase");
  o.fits_auto_power_real = flag(s, st + "fits_image/auto_power_real");
  o.fits_auto_power_imag = flag(s, st + "fits_image/auto_power_imag");
  o.text_cross_raw_complex = flag(s, te + "text_file/cross_power_raw_complex");
  o.text_cross_amp = flag(s, te + "text_file/cross_power_amp");
  o.text_cross_phase = flag(s, te + "text_file/cross_power_phase");
  o.fits_cross_amp = flag(s, te + "fits_image/cross_power_amp");
  o.fits_cross_phase = flag(s, te + "fits_image/cross_power_phase");
  o.fits_cross_real = flag(s, te + "fits_image/cross_power_real");
  o.fits_cross_imag = flag(s, te + "fits_image/cross_power_imag");
  return o;
}

TestSourceConfig test_source(const Settings& s) {
  const std::string k = kBp + "test_source/";
  TestSourceConfig t;
  t.stokes_i = s.get_bool(k + "stokes_i");
  t.custom = s.get_bool(k + "custom");
  t.i = s.get_double(k + "custom_stokes_i");
  t.q = s.get_double(k + "custom_stokes_q");
  t.u = s.get_double(k + "custom_stokes_u");
  t.v = s.get_double(k + "custom_stokes_v");
  return t;
}

void check_products(const Settings& s, const BeamPatternConfig& c) {
  const bool averaged = c.average_all || c.average_axis != AverageAxis::None;
  const bool power = c.outputs.any_auto_power() || c.outputs.any_cross_power();
  const bool any = (c.separate && c.outputs.any_voltage()) || ((c.separate || averaged) && power);
  if (!any) {
    throw Error::in_setting(
        kBp + "output/separate_time_and_channel", s.get(kBp + "output/separate_time_and_channel"),
        "no output file is selected: set at least one beam_pattern/station_outputs/... or "
        "beam_pattern/telescope_outputs/... key to true (amplitude, phase and the complex "
        "response need separate_time_and_channel = true; FITS images need coordinate_type = "
        "Beam image)");
  }
  if (power && c.pol_mode == PolarisationMode::Full && !c.test_source.stokes_i &&
      !c.test_source.custom) {
    throw Error::in_setting(kBp + "test_source/stokes_i", "false",
                            "power outputs need a test source: set beam_pattern/test_source/"
                            "stokes_i or beam_pattern/test_source/custom to true");
  }
  if (c.outputs.any_cross_power() && !c.all_stations && c.station_ids.size() < 2) {
    throw Error::in_setting(kBp + "station_ids", s.get(kBp + "station_ids"),
                            "cross-power outputs need at least two stations");
  }
}

}  // namespace

BeamPatternConfig beam_pattern_config(const Settings& s) {
  BeamPatternConfig c;
  c.precision = s.get_bool("simulator/double_precision") ? Precision::Double : Precision::Single;
  c.devices.use_gpus = s.get_bool("simulator/use_gpus");
  c.devices.cuda_device_ids = cuda_device_ids(s);
  c.devices.num_devices = int_or_auto(s, "simulator/num_devices");
  {
    const std::string key = "simulator/max_sources_per_chunk";
    const int n = s.get_int(key);
    if (n < 1) throw Error::in_setting(key, s.get(key), "expected at least 1 pixel per chunk");
    c.max_pixels_per_chunk = std::size_t(n);
  }
  c.keep_log_file = s.get_bool("simulator/keep_log_file");
  c.write_status_to_log = s.get_bool("simulator/write_status_to_log_file");

  c.observation = observation_config(s);
  c.pointing_file = s.get_path("observation/pointing_file");

  const TelescopeConfig t = telescope_config(s);
  c.telescope_directory = t.input_directory;
  c.pol_mode = t.pol_mode == "Scalar" ? PolarisationMode::Scalar : PolarisationMode::Full;
  c.beam = station_beam_config(s);
  c.ionosphere = ionosphere_config(s);  // docs/ionosphere.md, "Beam patterns"
  c.element_errors = element_error_config(s);

  c.all_stations = s.get_bool(kBp + "all_stations");
  if (!c.all_stations) c.station_ids = station_ids(s);
  c.frame = s.get_option(kBp + "coordinate_frame") == "Horizon" ? BeamFrame::Horizon
                                                                : BeamFrame::Equatorial;
  if (c.observation.mode == ObservationMode::DriftScan) {
    // A drift scan's phase centre is OSKAR 2.13's (azimuth, elevation) = (0, 90 deg); its
    // Equatorial frame reads those two angles as RA/Dec, so the image (and the sky-model
    // directions' reference) is about RA 0, Dec +90 deg while every beam points at its
    // station's zenith (docs/beam_pattern.md, "Drift scan"). phase_centre_ra/dec_deg are unused.
    c.observation.phase_centre_ra = 0.0;
    c.observation.phase_centre_dec = kPi / 2;
  }
  c.coordinates = s.get_option(kBp + "coordinate_type") == "Sky model" ? BeamCoordinates::SkyModel
                                                                       : BeamCoordinates::Image;
  if (c.coordinates == BeamCoordinates::Image) {
    c.image = image_config(s, c.frame);
  } else {
    const std::string key = kBp + "sky_model/file";
    if (s.get(key).empty()) {
      throw Error::in_setting(key, "", "expected a sky model file (coordinate_type is Sky model)");
    }
    c.sky_model_file = s.get_path(key);
  }
  {
    const std::string key = kBp + "root_path";
    if (s.get(key).empty()) {
      throw Error::in_setting(key, "", "expected the start of the output file names");
    }
    c.root_path = s.get_path(key);
    c.root_path_as_given = s.get(key);
  }
  c.separate = s.get_bool(kBp + "output/separate_time_and_channel");
  c.average_all = s.get_bool(kBp + "output/average_time_and_channel");
  {
    const std::string v = s.get_option(kBp + "output/average_single_axis");
    c.average_axis = v == "Time"      ? AverageAxis::Time
                     : v == "Channel" ? AverageAxis::Channel
                                      : AverageAxis::None;
  }
  c.outputs = outputs(s);
  c.test_source = test_source(s);
  check_products(s, c);
  return c;
}

std::vector<OutputTarget> beam_pattern_outputs(
    const std::vector<beam_pattern::BeamProduct>& products, const std::string& root_path,
    bool keep_log_file) {
  std::vector<OutputTarget> out;
  for (const beam_pattern::BeamProduct& p : products) {
    out.push_back(beam_pattern::product_output_target("beam_pattern/root_path", p));
  }
  if (keep_log_file) {
    OutputTarget log;
    log.key = "simulator/keep_log_file";
    log.path = root_path + ".log";
    log.kind = OutputKind::Text;
    log.text_signature = kBeamPatternLogSignature;
    out.push_back(log);
  }
  return out;
}

}  // namespace fringe::app
