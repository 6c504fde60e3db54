// Settings -> BeamPatternConfig (beam_pattern/beam_pattern_config.h): every key of
// sim_beam_pattern (settings/sim_beam_pattern.xml, which imports settings/common/{simulator,
// observation,telescope}.xml), read and checked in one place. Radians, Hz, seconds.
//
// Mapping (settings key -> field):
//   simulator/double_precision            -> precision
//   simulator/use_gpus, cuda_device_ids   -> devices.use_gpus, devices.cuda_device_ids
//   simulator/num_devices                 -> devices.num_devices (CPU threads; 0 = auto)
//   simulator/max_sources_per_chunk       -> max_pixels_per_chunk (pixels or sources)
//   simulator/keep_log_file, write_status_to_log_file -> keep_log_file, write_status_to_log
//   observation/...                       -> observation (astro/observation.h), and
//   observation/pointing_file             -> pointing_file (resolved path, "" = none)
//   telescope/input_directory, pol_mode   -> telescope_directory, pol_mode
//   telescope/station_type, gaussian_beam/..., aperture_array/{array_pattern/{enable,
//     normalise}, element_pattern/...}, normalise_beams_at_phase_centre,
//     allow_station_beam_duplication      -> beam (station_beam_config, simulation_settings.h)
//   telescope/aperture_array/array_pattern/element/... -> element_errors (deg -> rad;
//                                            element_error_config, simulation_settings.h)
//   telescope/ionosphere_screen_type, external_tec_screen/..., isoplanatic_screen
//                                         -> ionosphere (ionosphere_config, settings_to_config.h)
//   beam_pattern/all_stations, station_ids -> all_stations, station_ids
//   beam_pattern/coordinate_frame         -> frame;  coordinate_type -> coordinates
//   beam_pattern/beam_image/size          -> image.width, image.height (one value: square)
//   beam_pattern/beam_image/specify_cellsize, fov_deg, cellsize_arcsec -> image.cell_rad
//     (Equatorial: cell = asin(2 sin(fov/2) / N) per axis from the field of view, as OSKAR's
//     imager, or the given pixel size; Horizon: the whole hemisphere, fov = 180 deg)
//   beam_pattern/sky_model/file           -> sky_model_file (resolved)
//   beam_pattern/root_path                -> root_path (resolved)
//   beam_pattern/output/{separate_time_and_channel, average_time_and_channel,
//     average_single_axis}                -> separate, average_all, average_axis
//   beam_pattern/station_outputs/{text_file,fits_image}/..., telescope_outputs/... -> outputs
//   beam_pattern/{station,telescope}_outputs/hdf5_file/...: true is refused ("not supported")
//   beam_pattern/test_source/...          -> test_source
// A key disabled by its schema dependencies counts as its default (false for outputs).
#pragma once

#include <string>
#include <vector>

#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/beam_pattern/beam_pattern_products.h"
#include "fringe/core/output_guard.h"
#include "fringe/settings/settings.h"

namespace fringe::app {

// Reads and checks every key above; bad values throw fringe::Error::in_setting naming the
// key, its value and what is expected: no output selected, HDF5 outputs, image sizes < 1,
// fields of view outside (0, 180] deg, pixel sizes <= 0, negative or repeated station
// indices, cross-power outputs with fewer than two listed stations, power outputs in Full
// mode without a test source, Sky model without a file, an empty root path, and station-beam
// values that jones::validate refuses. Drift scan: the phase centre becomes OSKAR's (0, 90 deg)
// (docs/beam_pattern.md, "Drift scan").
// Station indices beyond the telescope are checked by the pipeline (beam_pattern.h).
beam_pattern::BeamPatternConfig beam_pattern_config(const settings::Settings& s);

// First line of sim_beam_pattern's log file (simulator/keep_log_file), which lets a later run
// replace it. (The other outputs' kinds and signatures come from their writers:
// beam_pattern/beam_pattern_output.h.)
inline constexpr const char* kBeamPatternLogSignature = "# fringe sim_beam_pattern log";

// Every output of a sim_beam_pattern run, for fringe::check_outputs: its products (final
// paths set) and the log file <root_path>.log when keep_log_file.
std::vector<OutputTarget> beam_pattern_outputs(
    const std::vector<beam_pattern::BeamProduct>& products, const std::string& root_path,
    bool keep_log_file);

}  // namespace fringe::app
