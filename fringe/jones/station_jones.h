// Station Jones terms without the phase K, per station and source, for one time (GAST at the
// dump centre) and one frequency: E (station beam: Isotropic or Gaussian) and, in Full mode,
// the parallactic rotation R, combined as J = E R (docs/conventions.md, "Phase sign and the
// measurement equation"; docs/station_beams.md). The predict module forms K itself and takes these
// arrays as they are:
//   Full:   Jones<T>   [station][source], index p * num_sources + s
//   Scalar: Complex<T> [station][source], the same index
// Also the horizon mask of the pipeline's horizon clip. CPU back end (OpenMP over
// station x source); the per-element formulas are in jones_math.h. Angles in radians,
// frequencies in Hz, times as GAST (rad, astro/time.h gast_rad at the dump centre).
//
// Conventions (OSKAR 2.13):
// - Each station uses its own geodetic longitude and latitude: local hour angle
//   H = GAST + lon - RA, its own horizon, its own parallactic angle and its own beam direction
//   in local coordinates. RA/Dec are used as given (apparent).
// - Beam direction: Tracking mode, the phase centre (RA/Dec); Drift scan mode, each station's
//   zenith (Az/El 0, 90 deg), OSKAR's default beam direction in drift mode (docs/station_beams.md,
//   "Beam direction"). Normalisation direction: the phase centre, which is the same in both modes
//   (drift scan: the zenith). default_pointing() gives both.
// - A station whose beam direction is below its horizon gets E = 0 for every source, for
//   every station type (OSKAR zeroes the beam and warns "beam below horizon").
// - Gaussian beams are 0 for sources below the station's horizon (elevation < 0); Isotropic
//   beams are 1 everywhere (sources below every station's horizon are removed by the
//   pipeline's horizon clip instead).
// - Normalisation (telescope/normalise_beams_at_phase_centre) applies to Gaussian beams only.
// - R is applied in Full mode for every station type, Isotropic included (J = R there).
// Results do not depend on the number of OpenMP threads (each element is computed alone).
// Computation is in double; float outputs are rounded from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/jones.h"
#include "fringe/core/log.h"
#include "fringe/jones/jones_math.h"
#include "fringe/jones/station_beam_config.h"

namespace fringe::telescope {
struct TelescopeModel;
}

namespace fringe::jones {

class ApertureArrayModel;

enum class DirectionFrame { RaDec, AzEl };

// A direction fixed on the sky (RA/Dec) or fixed to each station's horizon (Az/El, azimuth
// from North through East).
struct BeamDirection {
  DirectionFrame frame = DirectionFrame::RaDec;
  double lon_rad = 0.0;  // RA or azimuth
  double lat_rad = 0.0;  // Dec or elevation

  static BeamDirection radec(double ra_rad, double dec_rad) {
    return {DirectionFrame::RaDec, ra_rad, dec_rad};
  }
  static BeamDirection zenith() { return {DirectionFrame::AzEl, 0.0, kPi / 2}; }
};

struct BeamPointing {
  BeamDirection beam;           // where every station beam points
  BeamDirection normalisation;  // where beams are normalised to amplitude 1
};

// Tracking: beam and normalisation at the phase centre (ra0, dec0). Drift scan: both at the
// zenith (ra0, dec0 ignored).
BeamPointing default_pointing(bool drift_scan, double ra0_rad, double dec0_rad);

// ENU unit vector of a direction at a site at the given GAST.
astro::Vec3 direction_enu(const BeamDirection& direction, double gast_rad,
                          const astro::Geodetic& site);

// The geodetic position (lon, lat, height) of every station, in station order.
std::vector<astro::Geodetic> station_sites(const telescope::TelescopeModel& model);

// Per-station constants at one time and frequency (what a kernel needs besides the source
// positions). Validates nothing: call validate(config) first. For Gaussian beams the FWHM at
// freq_hz (scaled when ref_freq_hz > 0) must stay below 180 deg, else fringe::Error.
StationBeamParams<double> make_station_beam_params(const StationBeamConfig& config,
                                                   const astro::Geodetic& site,
                                                   const BeamPointing& pointing, double gast_rad,
                                                   double freq_hz);

// Beam directions that differ from the default pointing (observation/pointing_file, built by
// jones/pointing_file.h): per telescope station, and per tile of each station. Empty vectors
// or empty optionals: the default (BeamPointing::beam; tiles point where their station does).
struct PointingOverrides {
  std::vector<std::optional<BeamDirection>> station;            // [station]
  std::vector<std::vector<std::optional<BeamDirection>>> tile;  // [station][tile]
  bool empty() const { return station.empty() && tile.empty(); }
};

// The inputs of one evaluation: a chunk of sources at one time and frequency.
struct StationJonesInput {
  std::span<const astro::Geodetic> stations;  // per station (see station_sites)
  BeamPointing pointing;
  double gast_rad = 0.0;        // at the dump centre
  double freq_hz = 0.0;         // > 0
  std::span<const double> ra;   // rad, one per source (AzEl frame: azimuth)
  std::span<const double> dec;  // rad, same length (AzEl frame: elevation)

  // Aperture-array stations: the prepared model (required for that station type).
  const ApertureArrayModel* aperture_array = nullptr;
  // Telescope station index of each entry of `stations` (empty: 0, 1, 2, ...); lets a caller
  // evaluate a subset of the stations (beam patterns).
  std::span<const std::size_t> station_ids;
  const PointingOverrides* pointing_overrides = nullptr;  // nullptr: default pointing
  int time_index = 0;  // time step of the observation (time-variable element errors)
  // RaDec: ra/dec are sky coordinates. AzEl: ra/dec hold azimuth/elevation in each station's
  // own horizon frame (beam patterns in the Horizon frame; needs parallactic == false).
  DirectionFrame source_frame = DirectionFrame::RaDec;
  // Full mode: J = E R when true; E alone when false.
  bool parallactic = true;
};

// make_station_beam_params for every entry of input.stations (pointing-file overrides applied);
// appends the entries whose beam direction is below their horizon to `off`. For the
// Isotropic, Gaussian and VLA types (the GPU back end evaluates these parameters).
std::vector<StationBeamParams<double>> station_params(const StationBeamConfig& config,
                                                      const StationJonesInput& input,
                                                      std::vector<std::size_t>& off);

// False when the result does not change with frequency (Isotropic; Gaussian with
// ref_freq_hz == 0): the pipeline may then evaluate once per (time, chunk) for all channels.
bool depends_on_frequency(const StationBeamConfig& config);

// Fill out (size stations.size() * ra.size()) with J = E R (Full mode). Returns the number of
// stations whose beam direction is below their horizon (their J are 0), after logging one
// warning naming them (logger may be nullptr). Throws fringe::Error for an unsupported or
// invalid config (validate), mismatched spans or a non-positive frequency.
// Explicitly instantiated for float and double.
template <typename T>
std::size_t evaluate_station_jones_full(const StationBeamConfig& config,
                                        const StationJonesInput& input, std::span<Jones<T>> out,
                                        Logger* logger = nullptr);

// The same for Scalar mode: E only (no R), a real value stored as a complex number.
template <typename T>
std::size_t evaluate_station_jones_scalar(const StationBeamConfig& config,
                                          const StationJonesInput& input, std::span<Complex<T>> out,
                                          Logger* logger = nullptr);

// Horizon clip mask (docs/simulation.md): mask[s] = 1 when source s is above the
// horizon (Up component > 0, as OSKAR) of at least one of the sites, else 0. OSKAR tests one
// site per station model; passing every station (station_sites) is the brief's "any station".
void horizon_mask(std::span<const astro::Geodetic> sites, double gast_rad,
                  std::span<const double> ra, std::span<const double> dec,
                  std::span<std::uint8_t> mask);

// Indices (ascending) of the sources that horizon_mask keeps.
std::vector<std::size_t> above_horizon_indices(std::span<const astro::Geodetic> sites,
                                               double gast_rad, std::span<const double> ra,
                                               std::span<const double> dec);

}  // namespace fringe::jones
