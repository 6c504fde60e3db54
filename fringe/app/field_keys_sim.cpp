// The config fields the library names in errors and warnings of the simulator app, and the
// settings keys they come from (field_keys.h).
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& observation_field_keys() {
  static const FieldKeys keys = {
      {"ObservationConfig.mode", "observation/mode"},
      {"ObservationConfig.phase_centre_ra", "observation/phase_centre_ra_deg"},
      {"ObservationConfig.phase_centre_dec", "observation/phase_centre_dec_deg"},
      {"ObservationConfig.start_frequency_hz", "observation/start_frequency_hz"},
      {"ObservationConfig.num_channels", "observation/num_channels"},
      {"ObservationConfig.frequency_inc_hz", "observation/frequency_inc_hz"},
      {"ObservationConfig.start_mjd_utc", "observation/start_time_utc"},
      {"ObservationConfig.length_sec", "observation/length"},
      {"ObservationConfig.num_time_steps", "observation/num_time_steps"},
  };
  return keys;
}

const FieldKeys& simulator_field_keys() {
  static const FieldKeys keys = merge(
      merge(
          {
              {"DeviceRequest.cuda_device_ids", "simulator/cuda_device_ids"},
              {"DeviceRequest.num_devices", "simulator/num_devices"},
              {"DeviceRequest.use_gpus", "simulator/use_gpus"},
              {"NoiseConfig.freq", "interferometer/noise/freq"},
              {"NoiseConfig.rms", "interferometer/noise/rms"},
              {"NoiseConfig.rms_file", "interferometer/noise/rms/file"},
              {"CommonFluxFilterConfig.flux_min", "sky/common_flux_filter/flux_min"},
              {"CommonFluxFilterConfig.flux_max", "sky/common_flux_filter/flux_max"},
              {"SimulationConfig.devices.num_devices", "simulator/num_devices"},
              {"SimulationConfig.max_sources_per_chunk", "simulator/max_sources_per_chunk"},
              {"SimulationConfig.max_times_per_block", "interferometer/max_time_samples_per_block"},
              {"SimulationConfig.max_channels_per_block", "interferometer/max_channels_per_block"},
              {"SimulationConfig.uv_filter_min", "interferometer/uv_filter_min"},
              {"SimulationConfig.uv_filter_max", "interferometer/uv_filter_max"},
              {"SimulationConfig.pointing_file", "observation/pointing_file"},
              {"IonosphereConfig.enable", "telescope/ionosphere_screen_type"},
              {"IonosphereConfig.fits_file", "telescope/external_tec_screen/input_fits_file"},
              {"IonosphereConfig.height_m", "telescope/external_tec_screen/screen_height_km"},
              {"IonosphereConfig.pixel_size_m",
               "telescope/external_tec_screen/screen_pixel_size_m"},
              {"IonosphereConfig.time_interval_sec",
               "telescope/external_tec_screen/screen_time_interval_sec"},
              {"SimulationConfig.ms_path", "interferometer/ms_filename"},
              {"SimulationConfig.vis_path", "interferometer/oskar_vis_filename"},
              {"StationBeamConfig.normalise_at_phase_centre",
               "telescope/normalise_beams_at_phase_centre"},
          },
          observation_field_keys()),
      station_beam_field_keys());
  // The optional calibration and imaging steps read the calibrate/ and image/ keys (the
  // simulator's own DeviceRequest keys win: merge keeps the first).
  static const FieldKeys with_steps =
      merge(merge(keys, calibrate_field_keys()), imager_field_keys());
  return with_steps;
}

}  // namespace fringe::app
