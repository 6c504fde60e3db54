// BeamPatternConfig: every setting of sim_beam_pattern (settings/sim_beam_pattern.xml, which
// imports settings/common/{simulator,observation,telescope}.xml), typed and in SI units,
// filled in one place from the settings (docs/architecture.md). Radians, Hz, seconds.
//
// Mapping (settings key -> field):
//   simulator/double_precision            -> precision
//   simulator/use_gpus, cuda_device_ids   -> use_gpus, cuda_device_ids (empty = all); the
//                                            beam-pattern pipeline runs on the CPU
//   simulator/num_devices                 -> num_threads (CPU threads; 0 = auto)
//   simulator/max_sources_per_chunk       -> max_pixels_per_chunk (pixels or sources)
//   simulator/keep_log_file, write_status_to_log_file -> keep_log_file, write_status_to_log
//   observation/...                       -> observation (sim/observation_config.h), and
//   observation/pointing_file             -> pointing_file (resolved path, "" = none)
//   telescope/input_directory, pol_mode   -> telescope_directory, pol_mode
//   telescope/station_type, gaussian_beam/..., aperture_array/{array_pattern/{enable,
//     normalise}, element_pattern/...}, normalise_beams_at_phase_centre,
//     allow_station_beam_duplication      -> beam (station_beam_config, simulation_config.h)
//   telescope/aperture_array/array_pattern/element/... -> element_errors (deg -> rad;
//                                            element_error_config, simulation_config.h)
//   telescope/ionosphere_screen_type, external_tec_screen/..., isoplanatic_screen: only the
//     defaults are accepted (the schema marks the others unsupported)
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

#include <cstddef>
#include <string>
#include <vector>

#include "fringe/core/precision.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/observation_config.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/telescope/element_errors.h"

namespace fringe::sim {

enum class BeamFrame { Equatorial, Horizon };
enum class BeamCoordinates { Image, SkyModel };
enum class AverageAxis { None, Time, Channel };

struct BeamImageConfig {
  int width = 256;                  // pixels along axis 1 (RA, or East-West in the Horizon frame)
  int height = 256;                 // pixels along axis 2 (Dec, or North-South)
  double cell_rad[2] = {0.0, 0.0};  // pixel size along axes 1 and 2 (CDELT magnitudes)
};

// Which files are written (beam_pattern/station_outputs and telescope_outputs).
struct BeamOutputs {
  // Per station, text.
  bool text_raw_complex = false, text_amp = false, text_phase = false, text_auto_power = false;
  // Per station, FITS.
  bool fits_amp = false, fits_phase = false;
  bool fits_auto_power = false, fits_auto_power_phase = false;
  bool fits_auto_power_real = false, fits_auto_power_imag = false;
  // Telescope (mean over station pairs), text and FITS.
  bool text_cross_raw_complex = false, text_cross_amp = false, text_cross_phase = false;
  bool fits_cross_amp = false, fits_cross_phase = false;
  bool fits_cross_real = false, fits_cross_imag = false;

  bool any_voltage() const;      // complex response, amplitude or phase
  bool any_auto_power() const;   // E B E^H per station
  bool any_cross_power() const;  // mean of E_p B E_q^H over station pairs
  bool any() const { return any_voltage() || any_auto_power() || any_cross_power(); }
};

// The test source of the power patterns: B = [[I+Q, U+iV], [U-iV, I-Q]].
struct TestSourceConfig {
  bool stokes_i = true;  // an unpolarised source, I = 1 (file names "_I")
  bool custom = false;   // the Stokes below (file names "_CUSTOM"); Full mode only
  double i = 1.0, q = 0.0, u = 0.0, v = 0.0;
};

struct BeamPatternConfig {
  // simulator/...
  Precision precision = Precision::Double;
  bool use_gpus = true;
  std::vector<int> cuda_device_ids;  // empty: all
  int num_threads = 0;               // 0 = auto (the number of cores)
  std::size_t max_pixels_per_chunk = 16384;
  bool keep_log_file = false;
  bool write_status_to_log = false;

  ObservationConfig observation;
  std::string pointing_file;  // resolved observation/pointing_file ("" = none)

  // telescope/...
  std::string telescope_directory;
  PolarisationMode pol_mode = PolarisationMode::Full;
  jones::StationBeamConfig beam;
  telescope::ElementErrorConfig element_errors;

  // beam_pattern/...
  bool all_stations = false;
  std::vector<std::size_t> station_ids{0};  // when !all_stations; distinct
  BeamFrame frame = BeamFrame::Equatorial;
  BeamCoordinates coordinates = BeamCoordinates::Image;
  BeamImageConfig image;
  std::string sky_model_file;
  std::string root_path;
  bool separate = true;      // output/separate_time_and_channel
  bool average_all = false;  // output/average_time_and_channel
  AverageAxis average_axis = AverageAxis::None;
  BeamOutputs outputs;
  TestSourceConfig test_source;
};

// Reads and checks every key above; bad values throw fringe::Error::in_setting naming the
// key, its value and what is expected: no output selected, HDF5 outputs, image sizes < 1,
// fields of view outside (0, 180] deg, pixel sizes <= 0, negative or repeated station
// indices, cross-power outputs with fewer than two listed stations, power outputs in Full
// mode without a test source, Sky model without a file, an empty root path, Drift scan
// observations in the Equatorial frame, and station-beam values that jones::validate refuses.
// Station indices beyond the telescope are checked by the pipeline (beam_pattern.h).
BeamPatternConfig beam_pattern_config(const settings::Settings& s);

// Pixel size (rad) that spreads n pixels over a field of view (rad) on the SIN tangent
// plane: asin(2 sin(fov/2) / n) (OSKAR's oskar_convert_fov_to_cellsize).
double fov_to_cellsize(double fov_rad, int n);

}  // namespace fringe::sim
