// The one place where settings keys become typed configs (docs/architecture.md: the library
// below sim/ never sees a key string). Each function reads one group of
// settings/sim_interferometer.xml; units are converted to SI and radians here.
// RandomSeed 'time' becomes a seed from the wall clock (logged by the caller if wanted).
#pragma once

#include <string>
#include <vector>

#include "fringe/settings/settings.h"
#include "fringe/sim/observation_config.h"
#include "fringe/sky/sky_assembly.h"
#include "fringe/sky/sky_config.h"

namespace fringe::sim {

ObservationConfig observation_config(const settings::Settings& s);

// simulator/cuda_device_ids: empty for the word "all" or when simulator/use_gpus is false;
// negative indices are refused naming the key.
std::vector<int> cuda_device_ids(const settings::Settings& s);
// An IntRangeExt value with the word "auto" (e.g. simulator/num_devices): 0 for auto; negative
// values are refused naming the key.
int int_or_auto(const settings::Settings& s, const std::string& key);

// The double value of key, which must be finite and in [lo, hi]; otherwise fringe::Error
// naming the key, its value and the range ("expected <what> in [lo, hi]").
double double_in_range(const settings::Settings& s, const std::string& key, double lo, double hi,
                       const std::string& what);
sky::SkyConfig sky_config(const settings::Settings& s);
sky::SkyGeometry sky_geometry(const ObservationConfig& observation);

struct TelescopeConfig {
  std::string input_directory;  // resolved path of telescope/input_directory
  std::string station_type;     // full option text, e.g. "Isotropic beam"
  std::string pol_mode;         // "Full" or "Scalar"
};
TelescopeConfig telescope_config(const settings::Settings& s);

}  // namespace fringe::sim
