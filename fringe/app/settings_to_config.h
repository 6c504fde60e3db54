// Settings -> typed configs shared by the simulator apps (docs/architecture.md: the library
// below the app layer never sees a key string). Each function reads one group of
// settings/sim_interferometer.xml or sim_beam_pattern.xml; units are converted to SI and
// radians here, and bad values are fringe::Error naming the key.
// RandomSeed 'time' becomes a seed from the wall clock (logged by the caller if wanted).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fringe/astro/observation.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/jones/tec_screen.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/corruption_config.h"
#include "fringe/sky/sky_assembly.h"
#include "fringe/sky/sky_config.h"
#include "fringe/telescope/element_errors.h"

namespace fringe::app {

astro::ObservationConfig observation_config(const settings::Settings& s);

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
sky::SkyGeometry sky_geometry(const astro::ObservationConfig& observation);

struct TelescopeConfig {
  std::string input_directory;  // resolved path of telescope/input_directory
  std::string station_type;     // full option text, e.g. "Isotropic beam"
  std::string pol_mode;         // "Full" or "Scalar"
};
TelescopeConfig telescope_config(const settings::Settings& s);

// A seed key: an integer >= 1, or the word 'time' (seconds of the wall clock, at least 1).
std::uint64_t positive_seed(const settings::Settings& s, const std::string& key);

// The typed beam settings (telescope/station_type, normalise_beams_at_phase_centre,
// allow_station_beam_duplication, gaussian_beam/..., aperture_array/array_pattern/{enable,
// normalise}, aperture_array/element_pattern/...), checked by jones::validate. Read by the
// simulator, the beam pattern and the imager's A-terms alike.
jones::StationBeamConfig station_beam_config(const settings::Settings& s);

// The element error overrides telescope/aperture_array/array_pattern/element/* (degrees ->
// radians; seeds: 'time' = wall clock), for telescope::apply_element_errors.
telescope::ElementErrorConfig element_error_config(const settings::Settings& s);

// telescope/ionosphere_screen_type, external_tec_screen/..., isoplanatic_screen (km -> m; the
// word 'file' of the pixel size and time interval: 0 and -1, taken from the FITS header).
jones::IonosphereConfig ionosphere_config(const settings::Settings& s);

// interferometer/gain_corruption/...: absent or disabled keys give a disabled config.
sim::GainCorruptionConfig gain_corruption_config(const settings::Settings& s);

}  // namespace fringe::app
