// The config fields the library names in errors and warnings of the beam_pattern app, and the
// settings keys they come from (field_keys.h).
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& beam_pattern_field_keys() {
  static const FieldKeys keys =
      merge(merge(
                {
                    {"DeviceRequest.cuda_device_ids", "simulator/cuda_device_ids"},
                    {"DeviceRequest.num_devices", "simulator/num_devices"},
                    {"DeviceRequest.use_gpus", "simulator/use_gpus"},
                    {"BeamPatternConfig.all_stations", "beam_pattern/all_stations"},
                    {"BeamPatternConfig.station_ids", "beam_pattern/station_ids"},
                    {"BeamImageConfig.width", "beam_pattern/beam_image/size"},
                    {"BeamPatternConfig.pointing_file", "observation/pointing_file"},
                    {"StationBeamConfig.normalise_at_phase_centre",
                     "telescope/normalise_beams_at_phase_centre"},
                    {"IonosphereConfig.enable", "telescope/ionosphere_screen_type"},
                    {"IonosphereConfig.fits_file", "telescope/external_tec_screen/input_fits_file"},
                    {"IonosphereConfig.height_m", "telescope/external_tec_screen/screen_height_km"},
                    {"IonosphereConfig.pixel_size_m",
                     "telescope/external_tec_screen/screen_pixel_size_m"},
                    {"IonosphereConfig.time_interval_sec",
                     "telescope/external_tec_screen/screen_time_interval_sec"},
                },
                observation_field_keys()),
            station_beam_field_keys());
  return keys;
}

}  // namespace fringe::app
