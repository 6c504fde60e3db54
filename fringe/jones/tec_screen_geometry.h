// Where each station looks through the TEC screen at one time (docs/ionosphere.md, "The
// model"): the station positions under the screen, the screen offsets (l, m) of the points
// (sources or beam-pattern pixels) and, in Full mode, the geomagnetic field along each line of
// sight. Host code; the result feeds apply_tec_screen (tec_screen.h) or its CUDA twin through
// TecPoints (tec_screen_math.h).
//
// OSKAR 2.13 has two frames, chosen by the phase centre of the run:
//   PhaseCentre (tracking, an RA/Dec phase centre): station (u, v) towards the phase centre at
//     the Greenwich hour angle GAST - RA0 of the time, and (l, m) the points' direction cosines
//     about the phase centre;
//   Horizon (drift scans, whose phase centre is the zenith): station (u, v) = its East and
//     North offsets from the array centre in its own horizon frame (the (u, v) formula at
//     hour angle -longitude and declination = its latitude), and (l, m) the East and North
//     direction cosines of the points at the station.
// Units: radians, metres, tesla.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/astro/igrf.h"
#include "fringe/jones/tec_screen_math.h"

namespace fringe::jones {

enum class TecFrame { PhaseCentre, Horizon };

// The stations under the screen, fixed for a run.
struct TecStations {
  std::vector<astro::Geodetic> sites;          // each station's own position
  std::vector<astro::Vec3> offset_ecef;        // its ECEF offset from the array centre, m
  std::vector<astro::GeomagneticField> field;  // per station (Full mode); empty: none
};

// sites and offsets of the stations (the same length); duplicate_first: every station takes
// station 0's position, as OSKAR does with allow_station_beam_duplication; faraday: the IGRF
// field at each station at the decimal year of start_mjd_utc (OSKAR evaluates it once per run
// at the start time). Throws fringe::Error from igrf_field for years outside IGRF-14.
TecStations tec_stations(std::span<const astro::Geodetic> sites,
                         std::span<const astro::Vec3> offset_ecef, bool duplicate_first,
                         bool faraday, double start_mjd_utc);

// The points and time of one evaluation.
struct TecPointsInput {
  TecFrame frame = TecFrame::PhaseCentre;
  double gast_rad = 0;
  double ra0 = 0, dec0 = 0;  // the phase centre (PhaseCentre frame)
  // Directions of the points: RA/Dec (rad), or azimuth (from North through East) and
  // elevation in each station's horizon frame when points_azel.
  std::span<const double> lon, lat;
  bool points_azel = false;
};

// The host arrays behind a TecPoints.
struct TecGeometry {
  std::vector<double> u, v;  // per station, m
  std::vector<double> l, m;  // per point (lm_stride 0) or per (station, point)
  std::size_t lm_stride = 0;
  std::vector<double> b_los;  // per (station, point), T; empty without a field
  TecPoints points() const;   // views of the arrays (valid while this object lives)
};

// Fills g for the stations and points (resizes its arrays).
void tec_geometry(const TecStations& stations, const TecPointsInput& in, TecGeometry& g);

}  // namespace fringe::jones
