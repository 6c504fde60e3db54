// Pointing files (observation/pointing_file; OSKAR's format, docs/pointing_and_element_errors.md):
// per-station and per-tile beam directions that replace the default pointing.
//
// Format: one row per line, fields separated by spaces, tabs or commas, '#' starts a comment,
// blank lines are skipped:
//     station [tile] frame lon_deg lat_deg
// station and tile are 0-based indices or '*' (every index at that level); frame is AZEL or
// RADEC (any case); lon/lat are RA and Dec, or azimuth (East of North) and elevation, in
// degrees. A row applies to the node it names and to everything below it: a station row sets
// that station's direction and clears its tiles' own directions (they then point where the
// station does); a tile row sets that tile only. Later rows win.
// Only stations and tiles can be named (a row with more indices is refused as not supported
// yet). Malformed rows raise fringe::Error naming the file, the line and what was expected.
// Angles are returned in radians, as given (no snapping to permitted beams here).
#pragma once

#include <string>

#include "fringe/jones/station_jones.h"

namespace fringe::telescope {
struct TelescopeModel;
}

namespace fringe::jones {

// Reads a pointing file for `model`. The result is empty (PointingOverrides::empty()) when the
// file has no data rows; otherwise `station` has one entry per telescope station and `tile`
// one vector per station, with one entry per element for a station of tiles and none for a
// flat station. Entries no row names stay std::nullopt (the default pointing).
// Throws fringe::Error if the file cannot be read or a row is malformed: a bad index, a
// station index >= the number of stations, a tile index on a flat station or >= the
// station's element count, a missing or unknown frame word, a bad number, a latitude outside
// [-90, 90] degrees, a wrong number of fields, or more than two index levels.
PointingOverrides load_pointing_file(const std::string& path,
                                     const telescope::TelescopeModel& model);

}  // namespace fringe::jones
