// Internal helpers shared by station_jones.cpp (isotropic, Gaussian, VLA beams) and
// aperture_array_jones.cpp (aperture-array stations): input checks, station ids and beam
// directions per station, source directions, the beam-below-horizon warning.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/jones/station_jones.h"

namespace fringe::jones::detail {

// Throws fringe::Error for mismatched spans, a bad frequency or GAST, a wrong output size,
// station ids of the wrong length, or the AzEl frame with the parallactic rotation.
void check_input(const StationJonesInput& in, std::size_t out_size, bool full);

// Telescope station index of entry p of in.stations.
inline std::size_t station_id(const StationJonesInput& in, std::size_t p) {
  return in.station_ids.empty() ? p : in.station_ids[p];
}

// The pointing of entry p: the default, with the station's override (pointing file) if any.
BeamPointing station_pointing(const StationJonesInput& in, std::size_t p);

// Per-source terms: RaDec: sin/cos of Dec; AzEl: the ENU vector is formed directly.
struct SourceTerms {
  std::vector<double> sin_dec, cos_dec;
};
SourceTerms source_terms(const StationJonesInput& in);

// ENU direction of source s at a station (lst = GAST + lon), in either frame; also the
// sines/cosines of the hour angle for the parallactic rotation (RaDec only).
struct SourceAtStation {
  double e, n, u;
  double sin_ha, cos_ha;
};
SourceAtStation source_at_station(const StationJonesInput& in, const SourceTerms& t, std::size_t s,
                                  double lst, double sin_lat, double cos_lat);

// Logs one warning naming the entries whose beam direction is below their horizon.
void warn_beams_off(Logger* logger, const std::vector<std::size_t>& off, double gast_rad);

// Aperture-array stations (aperture_array_jones.cpp): J = E R (Full, or E when
// !in.parallactic) or the scalar E; returns the number of stations whose beam is off.
// Instantiated for float and double.
template <typename T>
std::size_t evaluate_aperture_array_full(const StationBeamConfig& config,
                                         const StationJonesInput& in, std::span<Jones<T>> out,
                                         Logger* logger);
template <typename T>
std::size_t evaluate_aperture_array_scalar(const StationBeamConfig& config,
                                           const StationJonesInput& in, std::span<Complex<T>> out,
                                           Logger* logger);

}  // namespace fringe::jones::detail
