#include "fringe/api/telescope.h"

#include <cmath>
#include <sstream>

#include "fringe/astro/geodesy.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::api {
namespace {

void put(std::vector<double>& out, std::size_t row, const astro::Vec3& v) {
  out[3 * row] = v.x;
  out[3 * row + 1] = v.y;
  out[3 * row + 2] = v.z;
}

}  // namespace

Telescope load_telescope(const std::string& directory) {
  return telescope::load_telescope_model(directory, nullptr);
}

std::vector<double> station_positions_enu(const Telescope& t, PositionKind kind) {
  std::vector<double> out(3 * t.num_stations());
  for (std::size_t i = 0; i < t.num_stations(); ++i)
    put(out, i, kind == PositionKind::True ? t.stations[i].true_enu : t.stations[i].measured_enu);
  return out;
}

std::vector<double> station_positions_offset_ecef(const Telescope& t, PositionKind kind) {
  std::vector<double> out(3 * t.num_stations());
  for (std::size_t i = 0; i < t.num_stations(); ++i)
    put(out, i,
        kind == PositionKind::True ? t.stations[i].true_offset_ecef
                                   : t.stations[i].measured_offset_ecef);
  return out;
}

std::vector<double> element_positions_enu(const Telescope& t, std::size_t station, int feed,
                                          PositionKind kind) {
  if (station >= t.num_stations())
    throw Error("station index " + std::to_string(station) +
                " is out of range: the telescope has " + std::to_string(t.num_stations()) +
                " stations");
  if (feed != 0 && feed != 1)
    throw Error("feed " + std::to_string(feed) + " is not 0 (X) or 1 (Y)");
  const telescope::FeedData& f = t.model_of(station).feeds[static_cast<std::size_t>(feed)];
  const auto& positions = kind == PositionKind::True ? f.true_enu : f.measured_enu;
  std::vector<double> out(3 * positions.size());
  for (std::size_t e = 0; e < positions.size(); ++e) put(out, e, positions[e]);
  return out;
}

void set_station_coords_enu(Telescope& t, double lon_deg, double lat_deg, double alt_m,
                            std::span<const double> east, std::span<const double> north,
                            std::span<const double> up, std::span<const double> east_error,
                            std::span<const double> north_error, std::span<const double> up_error) {
  const std::size_t n = t.num_stations();
  auto check = [&](std::span<const double> v, const char* name, bool optional) {
    if (optional && v.empty()) return;
    if (v.size() != n)
      throw Error(std::string("set_station_coords_enu: '") + name + "' has " +
                  std::to_string(v.size()) + " values; the telescope has " + std::to_string(n) +
                  " stations (the station count cannot change)");
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite(v[i]))
        throw Error(std::string("set_station_coords_enu: '") + name + "' of station " +
                    std::to_string(i) + " is not a finite number of metres");
  };
  check(east, "east", false);
  check(north, "north", false);
  check(up, "up", false);
  check(east_error, "east_error", true);
  check(north_error, "north_error", true);
  check(up_error, "up_error", true);
  if (!(std::fabs(lon_deg) <= 360.0) || !(std::fabs(lat_deg) <= 90.0) || !std::isfinite(alt_m))
    throw Error("set_station_coords_enu: array centre lon " + std::to_string(lon_deg) +
                " deg, lat " + std::to_string(lat_deg) + " deg, alt " + std::to_string(alt_m) +
                " m: expected |lon| <= 360, |lat| <= 90 and a finite altitude");
  auto at = [](std::span<const double> v, std::size_t i) { return v.empty() ? 0.0 : v[i]; };
  // Build the new positions first: a failure (a position far from the Earth) leaves t as it was.
  const astro::Geodetic centre{lon_deg * kDegToRad, lat_deg * kDegToRad, alt_m};
  const astro::Vec3 centre_ecef = astro::geodetic_to_ecef(centre);
  std::vector<telescope::Station> stations = t.stations;
  for (std::size_t i = 0; i < n; ++i) {
    telescope::Station& s = stations[i];
    s.measured_enu = {east[i], north[i], up[i]};
    s.true_enu = {east[i] + at(east_error, i), north[i] + at(north_error, i),
                  up[i] + at(up_error, i)};
    s.measured_offset_ecef = astro::enu_to_ecef_offset(s.measured_enu, centre.lon, centre.lat);
    s.true_offset_ecef = astro::enu_to_ecef_offset(s.true_enu, centre.lon, centre.lat);
    s.true_ecef = {centre_ecef.x + s.true_offset_ecef.x, centre_ecef.y + s.true_offset_ecef.y,
                   centre_ecef.z + s.true_offset_ecef.z};
    try {
      s.geodetic = astro::ecef_to_geodetic(s.true_ecef);
    } catch (const Error& e) {
      throw Error("set_station_coords_enu: station " + std::to_string(i) + ": " + e.message());
    }
  }
  t.centre = centre;
  t.centre_ecef = centre_ecef;
  t.layout_frame = telescope::LayoutFrame::Enu;
  t.layout_file.clear();  // the positions no longer come from a file
  t.stations = std::move(stations);
}

std::string describe_telescope(const Telescope& t) {
  std::ostringstream s;
  s.precision(10);
  s << t.num_stations() << (t.num_stations() == 1 ? " station" : " stations");
  if (!t.directory.empty()) s << " from " << t.directory;
  s << ", centre lon " << t.centre.lon * kRadToDeg << " deg, lat " << t.centre.lat * kRadToDeg
    << " deg, alt " << t.centre.height << " m";
  return s.str();
}

}  // namespace fringe::api
