// The config fields the library names in errors and warnings of the imager app, and the
// settings keys they come from (field_keys.h).
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& imager_field_keys() {
  static const FieldKeys keys = {
      {"DeviceRequest.cuda_device_ids", "image/cuda_device_ids"},
      {"DeviceRequest.num_devices", "image/num_devices"},
      {"DeviceRequest.use_gpus", "image/use_gpus"},
  };
  return keys;
}

}  // namespace fringe::app
