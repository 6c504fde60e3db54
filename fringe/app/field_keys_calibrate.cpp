// The config fields the library names in errors and warnings of the calibrate app, and the
// settings keys they come from (field_keys.h).
#include "fringe/app/field_keys.h"

namespace fringe::app {

const FieldKeys& calibrate_field_keys() {
  static const FieldKeys keys = {
      {"DeviceRequest.use_gpus", "calibrate/use_gpus"},
  };
  return keys;
}

}  // namespace fringe::app
