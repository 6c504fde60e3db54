// Numerical element patterns (spherical-wave text files, HARP or FEKO data in a telescope
// model) are not evaluated yet. A run that asks for them must not silently use the
// functional pattern instead, so the simulator, the beam pattern and the imager's A-terms
// refuse it before any work.
#pragma once

#include <string>

#include "fringe/core/error.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::jones {

// Aperture-array stations with ElementPatternConfig.enable_numerical whose telescope model
// holds numerical element pattern files: fringe::Error naming that field and the first file.
inline void check_numerical_patterns(const StationBeamConfig& beam,
                                     const telescope::TelescopeModel& tel) {
  if (beam.station_type != StationType::ApertureArray ||
      !beam.aperture_array.element_pattern.enable_numerical) {
    return;
  }
  for (const auto& f : tel.unsupported_files) {
    const bool pattern = f.reason.find("element pattern") != std::string::npos ||
                         f.reason.find("HARP") != std::string::npos ||
                         f.reason.find("FEKO") != std::string::npos;
    if (!pattern) continue;
    throw Error::in_field(
        "ElementPatternConfig.enable_numerical", "true",
        "the telescope model holds numerical element pattern data ('" + f.path +
            "'), which fringe cannot evaluate yet (not supported yet); set this key to false "
            "to use the functional element pattern instead");
  }
}

}  // namespace fringe::jones
