// The noise of vis_add_noise from a sim_interferometer settings file, read as OSKAR 2.13's
// oskar_vis_add_noise reads it (docs/vis_tools.md): interferometer/noise/enable (must be
// true), seed, freq (Telescope model, Observation settings: observation/start_frequency_hz,
// num_channels, frequency_inc_hz; Data file: freq/file; Range: freq/start, inc, number), rms
// (Telescope model, Data file: rms/file, Range: rms/start, rms/end), and the telescope model
// telescope/input_directory (its station count, and its noise_frequencies.txt and rms.txt when
// those are the sources). The noise RMS table is the simulator's (sim/simulation_config.h
// noise_table), so a simulation and vis_add_noise with the same settings use the same sigma.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/settings/schema.h"
#include "fringe/settings/settings.h"
#include "fringe/vis/noise.h"

namespace fringe::app {

struct VisNoiseSettings {
  vis::NoiseTable table;  // one row per station of the telescope model
  std::uint64_t seed = 1;
  std::vector<std::string> input_files;  // the telescope folder and noise files read
};

// Throws fringe::Error::in_setting naming the key for a disabled or bad noise setting, and
// fringe::Error naming the file for a bad telescope model or noise file.
VisNoiseSettings vis_noise_settings(const settings::Settings& s, Logger& log);

// Loads the settings file `path` (OSKAR's -s) against the sim_interferometer schema in
// schema_files and returns vis_noise_settings() of it, with settings keys in its errors. Bad
// values and problems of the noise keys are errors; unknown keys are warnings on err; keys a
// simulation requires but vis_add_noise does not read (a sky, a start time) are not checked.
// The settings file is in input_files.
VisNoiseSettings read_vis_noise_settings(const std::string& path,
                                         const settings::SchemaFiles& schema_files, Logger& log,
                                         std::ostream& err);

}  // namespace fringe::app
