// The one place where settings keys become typed configs (DESIGN.md section 1: the library
// below sim/ never sees a key string). Each function reads one group of
// settings/sim_interferometer.xml; units are converted to SI and radians here.
// RandomSeed 'time' becomes a seed from the wall clock (logged by the caller if wanted).
#pragma once

#include <string>

#include "fringe/settings/settings.h"
#include "fringe/sim/observation_config.h"
#include "fringe/sky/sky_assembly.h"
#include "fringe/sky/sky_config.h"

namespace fringe::sim {

ObservationConfig observation_config(const settings::Settings& s);
sky::SkyConfig sky_config(const settings::Settings& s);
sky::SkyGeometry sky_geometry(const ObservationConfig& observation);

struct TelescopeConfig {
  std::string input_directory;  // resolved path of telescope/input_directory
  std::string station_type;     // full option text, e.g. "Isotropic beam"
  std::string pol_mode;         // "Full" or "Scalar"
};
TelescopeConfig telescope_config(const settings::Settings& s);

}  // namespace fringe::sim
