// Station beams and beam patterns through the public API (docs/cpp_api.md, docs/python.md
// "Beams, imaging and calibration").
//  - station_beams: the station beam E (jones/station_jones.h: Isotropic, Gaussian, VLA PBCOR,
//    aperture arrays with their element patterns) of a telescope's stations, for given
//    directions at one time and frequency, as arrays, on the CPU (aperture arrays optionally
//    on a GPU: jones/aperture_array_cuda.h).
//  - run_beam_pattern: the sim_beam_pattern pipeline (beam_pattern/beam_pattern.h: image grid
//    or sky-model positions, times x channels, voltage / auto-power / cross-power products,
//    an aperture-array GPU back end when config.devices allows) from its typed config, with
//    its FITS products returned as arrays.
// Units: radians, Hz, MJD(UTC) days; beams are dimensionless (1 at the normalisation
// direction when normalised).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fringe/api/imager.h"
#include "fringe/api/settings.h"
#include "fringe/api/types.h"
#include "fringe/beam_pattern/beam_pattern.h"
#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/core/complex.h"
#include "fringe/core/device.h"
#include "fringe/core/jones.h"
#include "fringe/core/log.h"
#include "fringe/jones/station_beam_config.h"

namespace fringe::api {

using beam_pattern::BeamPatternConfig;
using jones::StationBeamConfig;

struct StationBeamRequest {
  StationBeamConfig beam;            // station type, normalisation, Gaussian and aperture-array
                                     // options (the telescope/ settings group)
  bool full_polarisation = true;     // 2x2 E (telescope/pol_mode Full) or the scalar E (Scalar)
  bool parallactic = false;          // Full: J = E R (the simulator's J); false: E alone (beam
                                     // patterns)
  double time_mjd_utc = 0.0;         // MJD(UTC), days: sets GAST (the sky's rotation)
  double freq_hz = 0.0;              // > 0
  double phase_centre_ra_rad = 0.0;  // beam and normalisation direction (Tracking)
  double phase_centre_dec_rad = 0.0;
  bool drift_scan = false;               // beams at each station's zenith instead
  bool horizon_frame = false;            // directions are azimuth / elevation in each station's own
                                         // horizon frame (needs parallactic == false)
  std::vector<std::size_t> station_ids;  // stations to evaluate, empty: all
  int time_index = 0;                    // time step (time-variable element errors only)
  // GPUs (core/device.h choose_gpus, at most one): aperture-array stations with RA/Dec
  // directions are evaluated there when every selected station is uniform or grouped
  // (jones/aperture_array.h) and beams are not duplicated; everything else on the CPU.
  DeviceRequest devices{.use_gpus = false, .cuda_device_ids = {}, .num_devices = 0};
};

// [station][direction] (stations in request order): Full: jones (2x2 each, row-major: rows the
// X and Y feeds, columns the theta and phi components of the sky field); Scalar: scalar.
// Directions below a station's horizon give 0, except for isotropic stations (1 everywhere).
struct StationBeams {
  std::size_t num_stations = 0;
  std::size_t num_directions = 0;
  bool full = true;
  std::vector<Jones<double>> jones;
  std::vector<Complex<double>> scalar;
  std::vector<std::size_t> station_ids;    // telescope index of each row
  std::size_t stations_below_horizon = 0;  // beam direction below the horizon (E = 0)
  std::string device = "CPU";              // where E was evaluated: "CPU" or "GPU <index>"
};

// lon_rad, lat_rad: RA and Dec (or azimuth and elevation with horizon_frame), one per
// direction. fringe::Error for a bad config (jones::validate), mismatched spans, a station index
// out of range, a non-positive frequency, or element pattern files fringe cannot evaluate.
StationBeams station_beams(const Telescope& telescope, const StationBeamRequest& request,
                           std::span<const double> lon_rad, std::span<const double> lat_rad,
                           Logger* log = nullptr);

// RA, Dec (rad) of direction cosines (l, m) about a phase centre (SIN projection, l East, m
// North); NaN outside the unit circle.
void lm_to_radec(double ra0_rad, double dec0_rad, std::span<const double> l,
                 std::span<const double> m, std::span<double> ra_rad, std::span<double> dec_rad);

// The beam pattern config of a sim_beam_pattern settings tree (app/beam_pattern_settings.h);
// errors name the settings key.
BeamPatternConfig beam_pattern_config(const SettingsTree& settings);

// The products of a beam-pattern run: the files written (config.root_path) and every FITS
// product as an array (axes as in the file, NAXIS1 fastest: [time][channel][y][x] for
// images, see docs/beam_pattern.md), named by its file name without root path and extension
// (e.g. "S0000_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I").
struct BeamPatternProducts {
  std::vector<std::string> names;  // FITS products, in product order
  std::vector<FitsImage> images;   // the same order
  beam_pattern::BeamPatternResult result;
};

// Runs the pipeline on `telescope` (nullptr: load config.telescope_directory). Outputs are
// checked first (fringe::check_outputs: only earlier fringe/OSKAR products are replaced). With
// config.root_path empty the files go to a temporary folder, are read back and removed.
BeamPatternProducts run_beam_pattern(const BeamPatternConfig& config, const Telescope* telescope,
                                     Logger* log = nullptr);

}  // namespace fringe::api
