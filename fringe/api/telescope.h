// The telescope model in the public API (docs/cpp_api.md, docs/python.md "Telescope"): load an
// OSKAR .tm folder into an api::Telescope (telescope/telescope_model.h), read station and
// element positions as flat arrays, and override station positions. Positions are metres,
// angles radians unless a name says _deg; ENU is East-North-Up about the array centre, "offset
// ECEF" is ECEF minus the array centre's ECEF.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fringe/api/types.h"

namespace fringe::api {

// Loads a .tm folder (telescope/tm_loader.h: OSKAR's rules). Loader warnings are in
// Telescope::warnings. Throws fringe::Error naming the file (and line) for missing or
// malformed files.
Telescope load_telescope(const std::string& directory);

// Which station positions: the layout file's columns ("measured", used for the written
// (u,v,w)) or those plus the error columns ("true", used for the simulated signal).
enum class PositionKind { Measured, True };

// Station positions as a row-major num_stations x 3 array [m]: ENU about the array centre,
// or offset ECEF.
std::vector<double> station_positions_enu(const Telescope& telescope,
                                          PositionKind kind = PositionKind::Measured);
std::vector<double> station_positions_offset_ecef(const Telescope& telescope,
                                                  PositionKind kind = PositionKind::Measured);

// Element positions of station `station` (its model) as a row-major num_elements x 3 array of
// ENU metres about the station centre, X feed (feed 0) or Y feed (feed 1). Throws
// fringe::Error for an index out of range.
std::vector<double> element_positions_enu(const Telescope& telescope, std::size_t station,
                                          int feed = 0, PositionKind kind = PositionKind::Measured);

// Replaces the array centre and every station position (as OSKAR's
// Telescope.set_station_coords_enu): lon, lat [deg], alt [m] of the centre; east, north, up
// [m] of each station about it, with optional errors (empty spans = 0) giving the true
// positions. The number of stations must stay the same (each keeps its station model).
// Throws fringe::Error for a count mismatch or a non-finite value; the telescope is unchanged
// then.
void set_station_coords_enu(Telescope& telescope, double lon_deg, double lat_deg, double alt_m,
                            std::span<const double> east_m, std::span<const double> north_m,
                            std::span<const double> up_m, std::span<const double> east_error_m = {},
                            std::span<const double> north_error_m = {},
                            std::span<const double> up_error_m = {});

// "4 stations (SKA-Low AA0.5), 256 elements each, centre lon 116.7645 deg, lat -26.8247 deg"
std::string describe_telescope(const Telescope& telescope);

}  // namespace fringe::api
