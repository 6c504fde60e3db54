#include "fringe/jones/pointing_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/telescope/telescope_model.h"
#include "fringe/telescope/text_table.h"

namespace fringe::jones {
namespace {

constexpr const char* kRowForm = "'station [tile] AZEL|RADEC lon_deg lat_deg'";
constexpr long kWildcard = -1;

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::optional<DirectionFrame> frame_of(const std::string& field) {
  const std::string u = upper(field);
  if (u == "AZEL") return DirectionFrame::AzEl;
  if (u == "RADEC") return DirectionFrame::RaDec;
  return std::nullopt;
}

// One row being read: its file and line, for error messages.
struct RowReader {
  const std::string& path;
  const telescope::TextRow& row;

  Error error(const std::string& message) const { return Error::in_file(path, row.line, message); }

  // A 0-based index or '*' (kWildcard) in column `column` (0-based).
  long index(std::size_t column, const char* level) const {
    const std::string& f = row.fields[column];
    if (f == "*") return kWildcard;
    long value = 0;
    const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    if (ec != std::errc() || ptr != f.data() + f.size() || value < 0) {
      throw error("column " + std::to_string(column + 1) + ": expected a 0-based " + level +
                  " index or '*', found '" + f + "'");
    }
    return value;
  }

  // An angle in degrees in column `column` (0-based), returned in radians.
  double angle(std::size_t column, const std::string& what) const {
    const std::string& f = row.fields[column];
    const char* first = f.data();
    const char* last = f.data() + f.size();
    if (first != last && *first == '+') ++first;  // from_chars does not take a leading '+'
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (first == last || ec != std::errc() || ptr != last || !std::isfinite(value)) {
      throw error("column " + std::to_string(column + 1) + ": expected " + what +
                  " in degrees, found '" + f + "'");
    }
    return value * kDegToRad;
  }
};

// The row's indices, frame and angles, checked against nothing but the row itself.
struct PointingRow {
  std::vector<long> indices;  // station [, tile]; kWildcard for '*'
  BeamDirection direction;
};

PointingRow parse_row(const RowReader& r) {
  const auto& fields = r.row.fields;
  const std::size_t n = fields.size();
  std::size_t k = 0;  // column of the frame word
  while (k < n && !frame_of(fields[k])) ++k;
  if (k == n) {
    if (n >= 4) {
      throw r.error("column " + std::to_string(n - 2) + ": expected the frame word AZEL or " +
                    "RADEC before lon_deg lat_deg, found '" + fields[n - 3] + "'");
    }
    throw r.error("missing the frame word AZEL or RADEC: expected " + std::string(kRowForm));
  }
  if (k == 0) {
    throw r.error("missing the station index (0-based or '*') before the frame word '" + fields[0] +
                  "': expected " + kRowForm);
  }
  if (n - k - 1 != 2) {
    throw r.error("expected two angles (lon_deg lat_deg) after the frame word '" + fields[k] +
                  "', found " + std::to_string(n - k - 1) + " field(s)");
  }
  if (k > 2) {
    throw r.error("the row names " + std::to_string(k) +
                  " levels (station, tile, ...): pointing below the tile level is not "
                  "supported yet; only 'station' and 'station tile' rows are");
  }
  PointingRow out;
  out.indices.push_back(r.index(0, "station"));
  if (k == 2) out.indices.push_back(r.index(1, "tile"));
  const DirectionFrame frame = *frame_of(fields[k]);
  const bool azel = frame == DirectionFrame::AzEl;
  const double lon = r.angle(k + 1, azel ? "the azimuth (East of North)" : "the right ascension");
  const double lat = r.angle(k + 2, azel ? "the elevation" : "the declination");
  if (std::abs(lat) > kPi / 2) {
    throw r.error("column " + std::to_string(k + 3) + ": " +
                  (azel ? "elevation " : "declination ") + fields[k + 2] +
                  " deg is outside [-90, 90] degrees");
  }
  out.direction = {frame, lon, lat};
  return out;
}

// The stations a row names, checked against the model.
std::vector<std::size_t> stations_of(const RowReader& r, long index, std::size_t num_stations) {
  if (index == kWildcard) {
    std::vector<std::size_t> all(num_stations);
    for (std::size_t s = 0; s < num_stations; ++s) all[s] = s;
    return all;
  }
  if (std::size_t(index) >= num_stations) {
    throw r.error("column 1: station index " + std::to_string(index) +
                  " is out of range: the telescope model has " + std::to_string(num_stations) +
                  " station(s), 0.." + std::to_string(long(num_stations) - 1));
  }
  return {std::size_t(index)};
}

// Checks a tile index against station s of the model.
void check_tile(const RowReader& r, const telescope::TelescopeModel& model, std::size_t s,
                long tile) {
  const telescope::StationModel& m = model.model_of(s);
  if (!m.is_hierarchical()) {
    throw r.error("column 2: station " + std::to_string(s) +
                  " has no tiles (its elements are antennas), so a row cannot name a tile of it");
  }
  if (tile != kWildcard && std::size_t(tile) >= m.num_elements()) {
    throw r.error("column 2: tile index " + std::to_string(tile) + " is out of range: station " +
                  std::to_string(s) + " has " + std::to_string(m.num_elements()) + " tile(s), 0.." +
                  std::to_string(long(m.num_elements()) - 1));
  }
}

}  // namespace

PointingOverrides load_pointing_file(const std::string& path,
                                     const telescope::TelescopeModel& model) {
  const auto rows = telescope::read_text_rows(path);
  PointingOverrides out;
  if (rows.empty()) return out;
  const std::size_t num_stations = model.num_stations();
  out.station.assign(num_stations, std::nullopt);
  out.tile.resize(num_stations);
  for (std::size_t s = 0; s < num_stations; ++s) {
    const telescope::StationModel& m = model.model_of(s);
    if (m.is_hierarchical()) out.tile[s].assign(m.num_elements(), std::nullopt);
  }
  for (const auto& row : rows) {
    const RowReader r{path, row};
    const PointingRow p = parse_row(r);
    const auto stations = stations_of(r, p.indices[0], num_stations);
    if (p.indices.size() == 1) {
      for (std::size_t s : stations) {
        out.station[s] = p.direction;
        std::fill(out.tile[s].begin(), out.tile[s].end(), std::nullopt);
      }
      continue;
    }
    const long tile = p.indices[1];
    for (std::size_t s : stations) check_tile(r, model, s, tile);
    for (std::size_t s : stations) {
      if (tile == kWildcard) {
        std::fill(out.tile[s].begin(), out.tile[s].end(), p.direction);
      } else {
        out.tile[s][std::size_t(tile)] = p.direction;
      }
    }
  }
  return out;
}

}  // namespace fringe::jones
