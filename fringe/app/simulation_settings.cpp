#include "fringe/app/simulation_settings.h"

#include <string>
#include <vector>

#include "fringe/app/noise_settings.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/core/error.h"
#include "fringe/io/fits/fits_image_writer.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/sky/sky_writer.h"

namespace fringe::app {
namespace {

using settings::Settings;
using namespace fringe::sim;

// The gain table of a run and its CSV twin (io/ms/gain_table.h).
void add_gains(std::vector<OutputTarget>& out, const std::string& key, const std::string& path) {
  out.push_back(io::gain_table_target(key, path));
  out.push_back(io::gain_csv_target(key, path + ".csv"));
}

}  // namespace

SimulationConfig simulation_config(const Settings& s) {
  SimulationConfig c;
  c.precision = s.get_bool("simulator/double_precision") ? Precision::Double : Precision::Single;
  c.devices.use_gpus = s.get_bool("simulator/use_gpus");
  c.devices.cuda_device_ids = cuda_device_ids(s);
  c.devices.num_devices = int_or_auto(s, "simulator/num_devices");
  c.max_sources_per_chunk = static_cast<std::size_t>(s.get_int("simulator/max_sources_per_chunk"));

  c.observation = observation_config(s);

  const sky::SkyConfig sky = sky_config(s);
  c.common_flux_filter = sky.common_flux_filter;
  c.apply_horizon_clip = sky.advanced.apply_horizon_clip;
  c.zero_failed_gaussians = sky.advanced.zero_failed_gaussians;

  const TelescopeConfig t = telescope_config(s);
  c.telescope_directory = t.input_directory;
  c.pol_mode = t.pol_mode == "Scalar" ? PolarisationMode::Scalar : PolarisationMode::Full;
  c.beam = station_beam_config(s);
  c.element_errors = element_error_config(s);
  c.pointing_file =
      s.get("observation/pointing_file").empty() ? "" : s.get_path("observation/pointing_file");
  c.ionosphere = ionosphere_config(s);

  const std::string i = "interferometer/";
  c.channel_bandwidth_hz = s.get_double(i + "channel_bandwidth_hz");
  c.time_average_sec = s.get_double(i + "time_average_sec");
  // OSKAR 2.13 ignores time_average_sec in a drift scan (its telescope keeps 0): no time
  // smearing, EXPOSURE 0 in the MS and the .vis header, no autocorrelation noise mean.
  if (c.observation.mode == ObservationMode::DriftScan) c.time_average_sec = 0.0;
  {
    const std::string key = i + "max_time_samples_per_block";
    c.max_times_per_block = s.get_int(key);
    if (c.max_times_per_block < 1) {
      throw Error::in_setting(key, s.get(key), "expected at least 1 time sample per block");
    }
  }
  c.max_channels_per_block = int_or_auto(s, i + "max_channels_per_block");
  {
    const std::string v = s.get_option(i + "correlation_type");
    c.write_cross = v != "Auto-correlations";
    c.write_autos = v != "Cross-correlations";
  }
  c.casa_phase_convention = s.get_bool(i + "use_casa_phase_convention");
  if (!s.is_word(i + "uv_filter_min", "min")) c.uv_filter_min = s.get_double(i + "uv_filter_min");
  if (!s.is_word(i + "uv_filter_max", "max")) c.uv_filter_max = s.get_double(i + "uv_filter_max");
  if (c.uv_filter_min > c.uv_filter_max) {
    throw Error::in_setting(
        i + "uv_filter_min", s.get(i + "uv_filter_min"),
        "expected a value <= interferometer/uv_filter_max (" + s.get(i + "uv_filter_max") + ")");
  }
  c.uv_filter_in_wavelengths = s.get_option(i + "uv_filter_units") == "Wavelengths";

  c.noise = noise_config(s);
  c.corruption = gain_corruption_config(s);
  c.telescope_name = s.get(i + "telescope_name");

  c.ms_path = s.get(i + "ms_filename").empty() ? std::string() : s.get_path(i + "ms_filename");
  c.vis_path = s.get(i + "oskar_vis_filename").empty() ? std::string()
                                                       : s.get_path(i + "oskar_vis_filename");
  if (c.ms_path.empty() && c.vis_path.empty()) {
    throw Error::in_setting(i + "ms_filename", "",
                            "expected an output: a Measurement Set (interferometer/ms_filename), "
                            "an OSKAR .vis file (interferometer/oskar_vis_filename) or both");
  }
  if (c.ms_path.empty() && c.corruption.enable) {
    throw Error::in_setting(i + "gain_corruption/enable", "true",
                            "needs a Measurement Set (interferometer/ms_filename): the model "
                            "visibilities and the true gains are written with it");
  }
  c.force_polarised_ms = s.get_bool(i + "force_polarised_ms");
  if (!s.is_word(i + "ms_dish_diameter", "default")) {
    c.ms_dish_diameter_m = s.get_double(i + "ms_dish_diameter");
  }
  return c;
}

std::vector<OutputTarget> interferometer_outputs(const sim::SimulationConfig& config,
                                                 const settings::Settings& s,
                                                 const calibrate::CalibrateMsConfig* calibration,
                                                 const imager::ImagerConfig* imaging) {
  std::vector<OutputTarget> out;
  const std::string ms = config.ms_path.empty() ? "" : io::ms_output_path(config.ms_path);
  if (!ms.empty()) {
    OutputTarget ms_target;
    ms_target.key = "interferometer/ms_filename";
    ms_target.path = ms;
    ms_target.kind = OutputKind::MeasurementSet;
    out.push_back(ms_target);
  }
  if (!config.vis_path.empty()) {
    out.push_back(io::vis_output_target("interferometer/oskar_vis_filename", config.vis_path));
  }
  if (config.corruption.enable) {
    add_gains(out, "interferometer/gain_corruption/enable", ms + ".true_gains");
  }
  const std::string sky_text = "sky/output_text_file";
  if (s.has(sky_text) && s.is_enabled(sky_text) && !s.get(sky_text).empty()) {
    out.push_back(sky::sky_text_target(sky_text, s.get_path(sky_text)));
  }
  if (calibration) {
    add_gains(out, "calibrate/output_gains",
              calibration->gains_path.empty() ? calibration->ms_path + ".gains"
                                              : calibration->gains_path);
  }
  if (imaging && imaging->model_image.empty()) {  // prediction writes into the MS instead
    for (const std::string& name : imager::product_names(imaging->image_type)) {
      out.push_back(io::fits_target("image/root_path", imaging->root_path + "_" + name + ".fits"));
    }
  }
  return out;
}

}  // namespace fringe::app
