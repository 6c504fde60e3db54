#include "fringe/app/imager_settings.h"

#include <cmath>
#include <filesystem>

#include "fringe/app/field_keys.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/app/simulation_settings.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/imager/input_columns.h"
#include "fringe/imager/run_checks.h"
#include "fringe/jones/numerical_patterns.h"
#include "fringe/telescope/element_errors.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::app {

namespace {

using imager::Algorithm;
using imager::ImageType;
using imager::Weighting;

ImageType image_type(const std::string& t) {
  if (t == "Linear (XX,XY,YX,YY)") return ImageType::Linear;
  if (t == "Stokes (I,Q,U,V)") return ImageType::Stokes;
  if (t == "XX") return ImageType::XX;
  if (t == "XY") return ImageType::XY;
  if (t == "YX") return ImageType::YX;
  if (t == "YY") return ImageType::YY;
  if (t == "I") return ImageType::I;
  if (t == "Q") return ImageType::Q;
  if (t == "U") return ImageType::U;
  if (t == "V") return ImageType::V;
  if (t == "PSF") return ImageType::Psf;
  throw Error::in_setting("image/image_type", t, "unknown image type");
}

int positive_or_auto(const settings::Settings& s, const std::string& key) {
  return s.is_word(key, "auto") ? 0 : s.get_int(key);
}

// image/idg/aterms: the station beams of the telescope/ group (the same conversion as the
// simulator's: station_beam_config, element error overrides, pol_mode).
imager::ATermConfig aterm_config(const settings::Settings& s) {
  imager::ATermConfig a;
  const std::string key = "image/idg/aterms";
  const std::string mode = s.get_option(key);
  if (mode == "None") return a;
  if (mode != "Station beams") throw Error::in_setting(key, mode, "unknown A-term type");
  if (!s.has("telescope/input_directory") || s.get("telescope/input_directory").empty())
    throw Error::in_setting(key, mode,
                            "needs a telescope model: set telescope/input_directory (and the "
                            "telescope/ beam settings the data were simulated with)");
  a.mode = imager::ATermMode::StationBeams;
  const TelescopeConfig tc = telescope_config(s);
  a.full_polarisation = tc.pol_mode != "Scalar";
  a.beam = station_beam_config(s);
  telescope::TelescopeModel tel = telescope::load_telescope_model(tc.input_directory);
  const telescope::ElementErrorConfig errors = element_error_config(s);
  if (errors.any()) telescope::apply_element_errors(tel, errors);
  try {
    jones::check_numerical_patterns(a.beam, tel);
  } catch (const Error& e) {
    throw with_keys(e, station_beam_field_keys());  // the library names fields
  }
  a.telescope = std::make_shared<const telescope::TelescopeModel>(std::move(tel));
  return a;
}

// image/fft/ and image/wproj/ (OSKAR's keys) for algorithm FFT or W-projection. As in OSKAR,
// the kernel keys apply to FFT only (W-projection makes its own kernels, oversampled 4x), and
// the GPU switches need image/use_gpus.
void conv_config(const settings::Settings& s, imager::ImagerConfig& c) {
  const bool gpus = c.devices.use_gpus;
  if (c.algorithm == Algorithm::Fft) {
    c.fft.kernel = s.get_option("image/fft/kernel_type") == "Pillbox"
                       ? imager::ConvKernelType::Pillbox
                       : imager::ConvKernelType::Spheroidal;
    c.fft.support = s.get_int("image/fft/support");
    c.fft.oversample = s.get_int("image/fft/oversample");
    // Their ranges are checked by imager::validate (run_checks.cpp), which names these keys
    // through the field map (field_keys_imager.cpp).
    c.fft.grid_on_gpu = gpus && s.get_bool("image/fft/grid_on_gpu");
    c.fft.fft_on_gpu = gpus && s.get_bool("image/fft/use_gpu");
  } else {
    c.wproj.num_w_planes = s.get_int("image/wproj/num_w_planes");  // range: imager::validate
    c.wproj.kernels_on_gpu = gpus && s.get_bool("image/wproj/generate_w_kernels_on_gpu");
    c.wproj.grid_on_gpu = gpus && s.get_bool("image/fft/grid_on_gpu");
    c.wproj.fft_on_gpu = gpus && s.get_bool("image/fft/use_gpu");
  }
}

}  // namespace

imager::ImagerConfig imager_config(const settings::Settings& s, const std::string& default_input) {
  imager::ImagerConfig c;
  c.input_ms = s.get_path_list("image/input_vis_data");
  if (c.input_ms.empty() && !default_input.empty()) c.input_ms = {default_input};
  if (c.input_ms.empty())
    throw Error::in_setting("image/input_vis_data", "",
                            "expected one or more Measurement Sets or OSKAR .vis files");
  c.ms_column = s.get_option("image/ms_column");
  c.root_path = s.get_path("image/root_path");
  if (c.root_path.empty()) {
    std::filesystem::path p(c.input_ms.front());
    while (!p.empty() && p.filename().empty()) p = p.parent_path();
    c.root_path = (p.parent_path() / p.stem()).string();
  }
  c.scale_norm_with_num_input_files = s.get_bool("image/scale_norm_with_num_input_files");
  c.precision = s.get_bool("image/double_precision") ? Precision::Double : Precision::Single;
  c.devices.use_gpus = s.get_bool("image/use_gpus");
  if (c.devices.use_gpus && !s.is_word("image/cuda_device_ids", "all")) {
    for (int id : s.get_int_list("image/cuda_device_ids")) {
      if (id < 0)
        throw Error::in_setting("image/cuda_device_ids", s.get("image/cuda_device_ids"),
                                "expected CUDA device indices >= 0 or 'all'");
      c.devices.cuda_device_ids.push_back(id);
    }
  }
  c.read_rows = static_cast<std::size_t>(positive_or_auto(s, "image/read_rows"));
  c.size = s.get_int("image/size");
  if (c.size <= 0 || c.size % 2)
    throw Error::in_setting("image/size", s.get("image/size"), "expected an even number of pixels");
  if (s.get_bool("image/specify_cellsize")) {
    c.cell_rad = s.get_double("image/cellsize_arcsec") * kDegToRad / 3600.0;
  } else {
    const double fov = s.get_double("image/fov_deg") * kDegToRad;
    const double x = 2.0 * std::sin(0.5 * fov) / c.size;
    if (!(fov > 0) || fov >= kPi)
      throw Error::in_setting("image/fov_deg", s.get("image/fov_deg"),
                              "expected a field of view between 0 and 180 degrees");
    c.cell_rad = std::asin(x);  // OSKAR's cell: asin(2 sin(fov / 2) / size)
  }
  if (!(c.cell_rad > 0) || !std::isfinite(c.cell_rad))
    throw Error::in_setting("image/cellsize_arcsec", s.get("image/cellsize_arcsec"),
                            "expected a positive, finite pixel size");
  c.image_type = image_type(s.get_option("image/image_type"));
  c.channel_snapshots = s.get_bool("image/channel_snapshots");
  c.freq_min_hz = s.get_double("image/freq_min_hz");
  c.freq_max_hz = s.get_double("image/freq_max_hz");
  c.time_min_s = s.get_double("image/time_min_utc") * kSecondsPerDay;
  c.time_max_s = s.get_double("image/time_max_utc") * kSecondsPerDay;
  c.uv_min_lambda = s.get_double("image/uv_filter_min");
  c.uv_max_lambda = s.get_double("image/uv_filter_max");
  for (const char* key : {"image/freq_min_hz", "image/freq_max_hz", "image/time_min_utc",
                          "image/time_max_utc", "image/uv_filter_min", "image/uv_filter_max"})
    if (std::isnan(s.get_double(key)))
      throw Error::in_setting(key, s.get(key), "expected a number, not NaN");

  const std::string alg = s.get_option("image/algorithm");
  if (!imager::algorithm_from_name(alg, c.algorithm))
    throw Error::in_setting("image/algorithm", alg,
                            "expected IDG, FFT, W-projection, DFT 2D or DFT 3D");
  if (c.algorithm == Algorithm::Fft || c.algorithm == Algorithm::WProjection) conv_config(s, c);
  // Station-beam A-terms are an IDG feature: with another algorithm they would be ignored.
  if (c.algorithm != Algorithm::Idg && s.is_given("image/idg/aterms") &&
      s.get_option("image/idg/aterms") != "None")
    throw Error::in_setting("image/idg/aterms", s.get("image/idg/aterms"),
                            "station-beam A-terms need image/algorithm IDG (it is " + alg + ")");
  if (c.algorithm == Algorithm::Idg) {
    c.idg.subgrid_size = s.get_int("image/idg/subgrid_size");
    c.idg.kernel_size = s.get_int("image/idg/kernel_size");
    c.idg.taper = s.get_option("image/idg/taper") == "Spheroidal" ? imager::TaperType::Spheroidal
                                                                  : imager::TaperType::KaiserBessel;
    c.idg.taper_support =
        c.idg.taper == imager::TaperType::Spheroidal ? 6 : s.get_int("image/idg/taper_support");
    c.idg.padding = s.get_double("image/idg/padding");
    c.idg.w_step_lambda = s.is_word("image/idg/w_step_lambda", "auto")
                              ? 0.0
                              : s.get_double("image/idg/w_step_lambda");
    c.idg.max_times_per_subgrid = positive_or_auto(s, "image/idg/max_times_per_subgrid");
    c.idg.aterm_interval_s = s.get_double("image/idg/aterm_interval_sec");
    c.idg.channel_group_size = positive_or_auto(s, "image/idg/channel_group_size");
    c.idg.max_layer_bytes = s.is_word("image/idg/layer_memory_mb", "auto")
                                ? 0.0
                                : s.get_double("image/idg/layer_memory_mb") * 1e6;
    c.idg.aterms = aterm_config(s);
    if (c.idg.subgrid_size <= 0 || c.idg.subgrid_size % 2)
      throw Error::in_setting("image/idg/subgrid_size", s.get("image/idg/subgrid_size"),
                              "expected an even, positive number of pixels");
    if (!(c.idg.padding >= 1.0) || !std::isfinite(c.idg.padding))
      throw Error::in_setting("image/idg/padding", s.get("image/idg/padding"),
                              "expected a finite number >= 1");
    if (c.idg.kernel_size >= c.idg.subgrid_size)
      throw Error::in_setting("image/idg/kernel_size", s.get("image/idg/kernel_size"),
                              "expected less than image/idg/subgrid_size");
    if (c.idg.taper_support > c.idg.kernel_size)
      throw Error::in_setting(
          "image/idg/taper_support", s.get("image/idg/taper_support"),
          "expected at most image/idg/kernel_size (" + std::to_string(c.idg.kernel_size) + ")");
  }
  const std::string wt = s.get_option("image/weighting");
  if (wt == "Natural")
    c.weighting = Weighting::Natural;
  else if (wt == "Uniform")
    c.weighting = Weighting::Uniform;
  else if (wt == "Briggs")
    c.weighting = Weighting::Briggs;
  else if (wt == "Radial")
    c.weighting = Weighting::Radial;
  else
    throw Error::in_setting("image/weighting", wt, "not supported by fringe yet");
  if (c.weighting == Weighting::Briggs) c.robust = s.get_double("image/robust");
  c.taper_u_lambda = s.get_double("image/weight_taper/u_wavelengths");
  c.taper_v_lambda = s.get_double("image/weight_taper/v_wavelengths");
  c.model_image = s.get_path("image/model_image");
  for (const auto& p : c.input_ms) {
    if (!c.model_image.empty() && imager::is_vis_file(p))
      throw Error::in_setting("image/input_vis_data", p,
                              "image/model_image writes model visibilities into the input: "
                              "give a Measurement Set, not an OSKAR .vis file");
  }
  if (s.get_option("image/direction") != "Observation direction") {
    c.rephase = true;
    const double ra = s.get_double("image/direction/ra_deg");
    const double dec = s.get_double("image/direction/dec_deg");
    if (!std::isfinite(ra))
      throw Error::in_setting("image/direction/ra_deg", s.get("image/direction/ra_deg"),
                              "expected a finite right ascension in degrees");
    if (!(std::abs(dec) <= 90.0))
      throw Error::in_setting("image/direction/dec_deg", s.get("image/direction/dec_deg"),
                              "expected a declination in [-90, 90] degrees");
    c.centre_ra_rad = ra * kDegToRad;
    c.centre_dec_rad = dec * kDegToRad;
  }
  // The rest of the ranges (the grid holds a subgrid, padding >= 1, ...), named by key.
  imager::validate(c);
  return c;
}

settings::SchemaFiles imager_schema_files(const settings::SchemaFiles& files) {
  settings::SchemaFiles f = files;
  const auto it = f.find("common/telescope.xml");
  const std::string anchor = "<s k=\"telescope\">";
  const std::size_t at = it == f.end() ? std::string::npos : it->second.find(anchor);
  if (at == std::string::npos)
    throw Error("imager schema: common/telescope.xml with an <s k=\"telescope\"> group is missing");
  it->second.insert(at + anchor.size(), "<depends k=\"image/idg/aterms\" v=\"Station beams\"/>");
  return f;
}

}  // namespace fringe::app
