// The config fields the library names in errors and warnings of the simulator app, and the
// settings keys they come from (field_keys.h).
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& simulator_field_keys() {
  static const FieldKeys keys = {
      {"DeviceRequest.cuda_device_ids", "simulator/cuda_device_ids"},
      {"DeviceRequest.num_devices", "simulator/num_devices"},
      {"DeviceRequest.use_gpus", "simulator/use_gpus"},
  };
  return keys;
}

}  // namespace fringe::app
