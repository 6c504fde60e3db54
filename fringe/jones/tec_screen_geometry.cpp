// Station and point geometry of the TEC screen at one time (tec_screen_geometry.h).
#include "fringe/jones/tec_screen_geometry.h"

#include <cmath>

#include "fringe/astro/horizontal_math.h"
#include "fringe/core/error.h"

namespace fringe::jones {
namespace {

// (u, v) (m) of an ECEF offset (x, y, z) towards hour angle ha and declination dec (the
// interferometer's (u, v) without the wavelength; ha = -lon, dec = lat gives East, North).
void offset_uv(const astro::Vec3& d, double ha, double dec, double& u, double& v) {
  const double sh = std::sin(ha), ch = std::cos(ha), sd = std::sin(dec), cd = std::cos(dec);
  u = d.x * sh + d.y * ch;
  v = d.z * cd - d.x * ch * sd + d.y * sh * sd;
}

}  // namespace

TecStations tec_stations(std::span<const astro::Geodetic> sites,
                         std::span<const astro::Vec3> offset_ecef, bool duplicate_first,
                         bool faraday, double start_mjd_utc) {
  if (sites.size() != offset_ecef.size()) {
    throw Error("tec_stations: " + std::to_string(sites.size()) + " sites but " +
                std::to_string(offset_ecef.size()) + " offsets");
  }
  TecStations s;
  s.sites.assign(sites.begin(), sites.end());
  s.offset_ecef.assign(offset_ecef.begin(), offset_ecef.end());
  if (duplicate_first && !sites.empty()) {
    s.sites.assign(sites.size(), sites[0]);
    s.offset_ecef.assign(sites.size(), offset_ecef[0]);
  }
  if (faraday) {
    const double year = astro::decimal_year_from_mjd(start_mjd_utc);
    for (const astro::Geodetic& g : s.sites) {
      s.field.push_back(astro::igrf_field(g.lat, g.lon, g.height, year));
    }
  }
  return s;
}

TecPoints TecGeometry::points() const {
  TecPoints p;
  p.num_stations = u.size();
  p.num_points = lm_stride > 0 ? lm_stride : l.size();
  p.u = u.data();
  p.v = v.data();
  p.l = l.data();
  p.m = m.data();
  p.lm_stride = lm_stride;
  p.b_los = b_los.empty() ? nullptr : b_los.data();
  return p;
}

void tec_geometry(const TecStations& st, const TecPointsInput& in, TecGeometry& g) {
  const std::size_t np = st.sites.size(), ns = in.lon.size();
  const bool horizon = in.frame == TecFrame::Horizon;
  const bool faraday = !st.field.empty();
  g.u.resize(np);
  g.v.resize(np);
  for (std::size_t p = 0; p < np; ++p) {
    const astro::Geodetic& site = st.sites[p];
    if (horizon) {
      offset_uv(st.offset_ecef[p], -site.lon, site.lat, g.u[p], g.v[p]);
    } else {
      offset_uv(st.offset_ecef[p], in.gast_rad - in.ra0, in.dec0, g.u[p], g.v[p]);
    }
  }
  // RA/Dec points about an RA/Dec phase centre: the same (l, m) for every station.
  const bool shared_lm = !horizon && !in.points_azel;
  g.lm_stride = shared_lm ? 0 : ns;
  g.l.resize(shared_lm ? ns : np * ns);
  g.m.resize(g.l.size());
  g.b_los.resize(faraday ? np * ns : 0);
  if (shared_lm) {
    const double sd0 = std::sin(in.dec0), cd0 = std::cos(in.dec0);
    for (std::size_t i = 0; i < ns; ++i) {
      const double dra = in.lon[i] - in.ra0;
      const double sd = std::sin(in.lat[i]), cd = std::cos(in.lat[i]);
      g.l[i] = cd * std::sin(dra);
      g.m[i] = cd0 * sd - sd0 * cd * std::cos(dra);
    }
  }
  if (shared_lm && !faraday) return;
  for (std::size_t p = 0; p < np; ++p) {
    const astro::Geodetic& site = st.sites[p];
    const double lst = in.gast_rad + site.lon;
    const double slat = std::sin(site.lat), clat = std::cos(site.lat);
    const double ha0 = lst - in.ra0, sh0 = std::sin(ha0), ch0 = std::cos(ha0);
    const double sd0 = std::sin(in.dec0), cd0 = std::cos(in.dec0);
    for (std::size_t i = 0; i < ns; ++i) {
      // The point's East, North, Up direction cosines at the station.
      double e, n, up;
      if (in.points_azel) {
        const double ce = std::cos(in.lat[i]);
        e = ce * std::sin(in.lon[i]);
        n = ce * std::cos(in.lon[i]);
        up = std::sin(in.lat[i]);
      } else {
        astro::hadec_to_enu(lst - in.lon[i], in.lat[i], site.lat, e, n, up);
      }
      const std::size_t k = p * ns + i;
      if (horizon) {
        g.l[k] = e;
        g.m[k] = n;
      } else if (!shared_lm) {
        // Back to the equator (x = cos(dec) cos(ha), y = cos(dec) sin(ha), z = sin(dec)),
        // then the direction cosines about the phase centre at hour angle ha0.
        const double x = up * clat - n * slat, y = -e, z = n * clat + up * slat;
        g.l[k] = sh0 * x - ch0 * y;
        g.m[k] = cd0 * z - sd0 * (ch0 * x + sh0 * y);
      }
      if (faraday) {
        // The field along the line of sight, which runs from the source to the station: minus
        // the field's component along the direction towards the source (nT -> T).
        const astro::GeomagneticField& f = st.field[p];
        g.b_los[k] = -(e * f.east_nT + n * f.north_nT + up * f.up_nT) * 1e-9;
      }
    }
  }
}

}  // namespace fringe::jones
