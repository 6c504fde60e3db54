// The config fields the library names in errors and warnings of the calibrate app, and the
// settings keys they come from (field_keys.h).
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& calibrate_field_keys() {
  static const FieldKeys keys = {
      {"CalOptions.min_baselines", "calibrate/min_baselines"},
      {"CalOptions.reference_station", "calibrate/reference_station"},
      {"CalOptions.type", "calibrate/gain_type"},
      {"CalibrateMsConfig.channels_per_solution", "calibrate/channels_per_solution"},
      {"CalibrateMsConfig.data_column", "calibrate/data_column"},
      {"CalibrateMsConfig.gains_path", "calibrate/output_gains"},
      {"CalibrateMsConfig.model_column", "calibrate/model_column"},
      {"CalibrateMsConfig.ms_path", "calibrate/input_ms"},
      {"CalibrateMsConfig.precision", "calibrate/double_precision"},
      {"CalibrateMsConfig.sky_model_path", "calibrate/sky_model_file"},
      {"CalibrateMsConfig.times_per_solution", "calibrate/solution_interval_times"},
      {"CalibrateMsConfig.write_corrected", "calibrate/write_corrected"},
      {"DeviceRequest.cuda_device_ids", "calibrate/cuda_device_ids"},
      {"DeviceRequest.use_gpus", "calibrate/use_gpus"},
      // Named in a hint: the simulator's option that writes a model column.
      {"GainCorruptionConfig.enable", "interferometer/gain_corruption/enable"},
  };
  return keys;
}

}  // namespace fringe::app
