#include "fringe/telescope/telescope_model.h"

namespace fringe::telescope {

const char* to_string(LayoutFrame frame) {
  switch (frame) {
    case LayoutFrame::Enu:
      return "ENU";
    case LayoutFrame::Ecef:
      return "ECEF";
    case LayoutFrame::Wgs84:
      return "WGS84";
  }
  return "?";
}

bool TelescopeModel::has_position_errors() const {
  for (const auto& s : stations) {
    if (s.measured_offset_ecef.x != s.true_offset_ecef.x ||
        s.measured_offset_ecef.y != s.true_offset_ecef.y ||
        s.measured_offset_ecef.z != s.true_offset_ecef.z)
      return true;
  }
  return false;
}

}  // namespace fringe::telescope
