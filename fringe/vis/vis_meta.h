// VisMeta: everything about a visibility data set that is not per-sample data: stations,
// axes (frequency, time), polarisation mode, phase centre and the Measurement Set options
// that OSKAR exposes (ms_dish_diameter, force_polarised_ms, use_casa_phase_convention),
// plus the history text (settings file and run log) that goes into the MS HISTORY table.
// Units: metres (ITRF/ECEF, absolute), radians, Hz, seconds; times are UTC.
// Axis conventions (OSKAR's; docs/conventions.md, "Time"): channel c is centred at
// start_frequency_hz + c frequency_inc_hz and dump t at start + (t + 1/2) time_inc_sec.
// Compiles as C++17 (fringe/io/ms includes it).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "fringe/core/constants.h"

namespace fringe::vis {

// Full: the four linear products XX, XY, YX, YY (pol index 0..3, OSKAR order).
// Scalar: one product, written as XX.
enum class PolMode { Full, Scalar };

constexpr int num_pols(PolMode mode) { return mode == PolMode::Full ? 4 : 1; }

struct VisMeta {
  // Telescope.
  // OBSERVATION::TELESCOPE_NAME; OSKAR 2.13 writes "OSKAR 2.13.0-dev" (its reference MSs).
  std::string telescope_name = "OSKAR 2.13.0-dev";
  std::vector<std::string> station_names;             // one per station (e.g. "station001")
  std::vector<std::array<double, 3>> station_ecef_m;  // absolute ITRF X, Y, Z of each station
  std::array<double, 3> array_centre_ecef_m{};        // absolute ITRF of the array reference
  double dish_diameter_m = 1.0;                       // ms_dish_diameter (all stations)
  // Feed angles (alpha_x, alpha_y) per station, radians; empty means 0 for every station.
  // OSKAR takes them from the first element of each aperture-array station (FEED
  // RECEPTOR_ANGLE; alpha_x also rotates the station's PHASED_ARRAY axes).
  std::vector<std::array<double, 2>> feed_angles_rad;
  // ANTENNA::NAME per station as written; empty: "s0000 (<station name>)" ("s0000" for an
  // empty station name). OSKAR 2.13: "s%04d (<station folder>)"; with station beam
  // duplication "(copy of <folder>)" for a station that uses another station's folder.
  std::vector<std::string> antenna_names;
  // Aperture-array element positions per station for the MS PHASED_ARRAY table (EveryBeam
  // reads it): metres in the station's frame (East, North, Up before the alpha_x rotation;
  // OSKAR's true X-feed positions of the top-level elements). Empty, or one list per station;
  // rows go up to the last station with elements (none at all for non-aperture-array runs,
  // as OSKAR).
  std::vector<std::vector<std::array<double, 3>>> element_enu_m;

  // Phase centre (J2000 / as given), radians.
  double phase_centre_ra_rad = 0.0;
  double phase_centre_dec_rad = 0.0;
  // OSKAR's phase-centre type: 0, the RA/Dec above (tracking); 1, a drift scan, whose phase
  // centre is (azimuth, elevation) = (0, pi/2), the zenith, held in the two angles above
  // (as OSKAR 2.13 writes it, also into the MS FIELD directions).
  int phase_centre_type = 0;

  // Frequency axis.
  int num_channels = 0;
  double start_frequency_hz = 0.0;
  double frequency_inc_hz = 0.0;      // channel spacing (also the MS CHAN_WIDTH, as OSKAR)
  double channel_bandwidth_hz = 0.0;  // bandwidth-smearing width

  // Time axis.
  int num_times = 0;
  double start_time_mjd_utc = 0.0;  // start of the first dump, MJD (days, UTC)
  double time_inc_sec = 0.0;        // dump spacing (MS INTERVAL)
  double time_average_sec = 0.0;    // time-smearing width (MS EXPOSURE; may be 0)

  // Products.
  PolMode pol_mode = PolMode::Full;
  bool write_autocorrelations = false;
  bool write_crosscorrelations = true;

  // Measurement Set options.
  // true (OSKAR's default since 2.10): ANTENNA1 = p < ANTENNA2 = q, UVW = uvw_p - uvw_q.
  // false: ANTENNA1 = q > ANTENNA2 = p, UVW and phase sign flipped (docs/conventions.md, "Phase
  // sign and the measurement equation").
  bool casa_phase_convention = true;
  bool force_polarised = false;  // Scalar data into a 4-product MS: XX = YY = V, XY = YX = 0

  // History.
  std::string application = "fringe";       // HISTORY APPLICATION / ORIGIN of the first row
  std::string observer;                     // OBSERVATION::OBSERVER; empty: $USER or "Unknown"
  std::vector<std::string> settings_lines;  // the settings file, one line per entry
  std::vector<std::string> log_lines;       // the run log, one line per entry

  std::size_t num_stations() const { return station_names.size(); }
  // Centre of channel c, Hz.
  double channel_frequency_hz(int c) const { return start_frequency_hz + c * frequency_inc_hz; }
  // Centre of dump t as MJD(UTC) * 86400 + (t + 1/2) time_inc_sec: the MS TIME value.
  double time_centre_mjd_utc_sec(int t) const {
    return start_time_mjd_utc * kSecondsPerDay + (t + 0.5) * time_inc_sec;
  }
};

// Throws fringe::Error if the metadata are inconsistent (sizes of the per-station arrays,
// non-positive counts, no products selected, non-finite values).
void validate(const VisMeta& meta);

}  // namespace fringe::vis
