// BeamPatternConfig: everything the beam-pattern pipeline (beam_pattern.h) needs, typed and in
// SI units: radians, Hz, seconds. The app layer fills it from the settings of sim_beam_pattern
// (app/beam_pattern_settings.h, which lists the key of each field); this module reads no
// settings. Errors of the pipeline name fields as "BeamPatternConfig.member".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fringe/astro/observation.h"
#include "fringe/core/device.h"
#include "fringe/core/precision.h"
#include "fringe/jones/polarisation_mode.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/jones/tec_screen.h"
#include "fringe/telescope/element_errors.h"

namespace fringe::beam_pattern {

using astro::ObservationConfig;
using astro::ObservationMode;
using jones::PolarisationMode;

enum class BeamFrame { Equatorial, Horizon };
enum class BeamCoordinates { Image, SkyModel };
enum class AverageAxis { None, Time, Channel };

struct BeamImageConfig {
  int width = 256;                  // pixels along axis 1 (RA, or East-West in the Horizon frame)
  int height = 256;                 // pixels along axis 2 (Dec, or North-South)
  double cell_rad[2] = {0.0, 0.0};  // pixel size along axes 1 and 2 (CDELT magnitudes)
  // Field of view along axes 1 and 2 (OSKAR's): the pixels span sin(fov/2) either side of
  // the centre (beam_pattern_grid.h); 0: derived from the pixel size (cellsize_to_fov).
  double fov_rad[2] = {0.0, 0.0};
};

// Which files are written: per station and for the telescope (station pairs).
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
  Precision precision = Precision::Double;
  // At most one GPU, for aperture-array stations in the Equatorial frame (beam_pattern.h);
  // devices.num_devices is also the number of CPU threads (0: every core).
  DeviceRequest devices{.use_gpus = true, .cuda_device_ids = {}, .num_devices = 0};
  std::size_t max_pixels_per_chunk = 16384;
  bool keep_log_file = false;
  bool write_status_to_log = false;

  ObservationConfig observation;
  std::string pointing_file;  // resolved path ("" = none)

  std::string telescope_directory;
  PolarisationMode pol_mode = PolarisationMode::Full;
  jones::StationBeamConfig beam;
  telescope::ElementErrorConfig element_errors;
  // The External TEC screen (docs/ionosphere.md, "Beam patterns"): Z after each station beam.
  jones::IonosphereConfig ionosphere;

  bool all_stations = false;
  std::vector<std::size_t> station_ids{0};  // when !all_stations; distinct
  BeamFrame frame = BeamFrame::Equatorial;
  BeamCoordinates coordinates = BeamCoordinates::Image;
  BeamImageConfig image;
  std::string sky_model_file;
  std::string root_path;           // resolved (relative to the settings file)
  std::string root_path_as_given;  // as written in the settings (text file headers)
  bool separate = true;            // a file per time and channel
  bool average_all = false;        // averaged over times and channels
  AverageAxis average_axis = AverageAxis::None;
  BeamOutputs outputs;
  TestSourceConfig test_source;
};

// Pixel size (rad) that spreads n pixels over a field of view (rad) on the SIN tangent
// plane: asin(2 sin(fov/2) / n) (OSKAR's oskar_convert_fov_to_cellsize).
double fov_to_cellsize(double fov_rad, int n);
// Its inverse, the field of view of n pixels of a given size: 2 asin(n sin(cell) / 2)
// (OSKAR's oskar_convert_cellsize_to_fov; NaN when n sin(cell) > 2).
double cellsize_to_fov(double cell_rad, int n);

}  // namespace fringe::beam_pattern
