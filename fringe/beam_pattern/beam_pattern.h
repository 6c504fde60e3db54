// The beam-pattern pipeline on the CPU (OSKAR's oskar_sim_beam_pattern; docs/beam_pattern.md):
// station beams of the selected stations on an image grid or at sky-model positions
// (beam_pattern_grid.h), per time (dump centres) and channel, and the products of
// beam_pattern_products.h written as FITS images and text files (beam_pattern_output.h).
//
//   for each chunk of <= max_pixels_per_chunk pixels:
//     for each time and channel (channel outer when averaging over time only):
//       J = E of every selected station for the chunk's pixels (jones/station_jones.h;
//         no parallactic rotation, as OSKAR's beam patterns):
//         Equatorial frame: RA/Dec directions; J = 0 below the station's horizon (every
//         station type but the isotropic one, which is the identity everywhere, as in
//         OSKAR: also at pixels outside the image circle, which are NaN for other types).
//         Horizon frame: azimuth/elevation in each station's own frame.
//       -> voltage products; auto power J B J^H per station; cross power (the mean over
//          station pairs, via suffix sums: sum_{p<q} J_p B J_q^H = sum_p J_p B (sum_{q>p} J_q)^H)
//       -> written at once (separate) or accumulated and written when an average is complete.
// Beam direction: the phase centre (Tracking); each station's zenith (Drift scan, Horizon
// frame only); the pointing file (config.pointing_file) overrides per station and tile
// (jones/pointing_file.h). Normalisation: StationBeamConfig.normalise_at_phase_centre
// (station_jones.h). Aperture-array stations: jones/aperture_array.h, with the element error
// overrides applied to a copy of the telescope model first (telescope/element_errors.h).
// OpenMP threads: config.devices.num_devices (0 = all cores), restored afterwards.
// GPU: aperture-array beams in the Equatorial frame on at most one GPU of config.devices
// (core choose_gpus); everything else on the CPU.
// Units: radians, Hz, seconds; MJD(UTC) days for times.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/core/log.h"
#include "fringe/core/progress.h"
#include "fringe/core/timer.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::beam_pattern {

struct BeamPatternContext {
  Logger* logger = nullptr;                 // nullable
  ProgressCallback progress;                // empty: nobody listens
  StageTimers* timers = nullptr;            // stages "coordinates", "station beams", "products",
                                            // "write"
  std::vector<std::string> settings_lines;  // FITS HISTORY
  std::string application = "sim_beam_pattern";
  bool strict = false;  // --strict: all-zero beams are an error, not a warning
};

struct BeamPatternResult {
  std::vector<std::string> files;        // final paths, in product order
  std::vector<std::size_t> station_ids;  // telescope indices of the evaluated stations
  std::size_t num_pixels = 0;            // image pixels or sky-model positions
  std::size_t num_chunks = 0;
  int num_threads = 0;
  std::size_t stations_with_beam_below_horizon = 0;  // max over evaluations (0 normally)
};

// The telescope indices the config selects (all, or station_ids checked against the model):
// fringe::Error naming BeamPatternConfig.station_ids (or all_stations) otherwise.
std::vector<std::size_t> selected_stations(const BeamPatternConfig& config,
                                           const telescope::TelescopeModel& telescope);

// Loads config.telescope_directory (telescope/tm_loader.h), warnings to the logger.
telescope::TelescopeModel load_beam_pattern_telescope(const BeamPatternConfig& config,
                                                      Logger* logger);

// Runs the pipeline and writes every product; errors throw fringe::Error and leave no
// output file (each is renamed from its temporary name only after all are complete).
// Aperture-array models with numerical element pattern files are refused
// (jones/numerical_patterns.h).
BeamPatternResult run_beam_pattern(const BeamPatternConfig& config,
                                   const telescope::TelescopeModel& telescope,
                                   const BeamPatternContext& context);

}  // namespace fringe::beam_pattern
