// Summary figures of a telescope model, as printed by the apps' telescope summary:
// station count, elements per station, total elements, longest baseline.
// Units: metres.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fringe/telescope/telescope_model.h"

namespace fringe::telescope {

enum class Positions { Measured, True };

struct Baseline {
  std::size_t p = 0, q = 0;  // station indices, p < q
  double length = 0.0;       // m, 3-D distance between the two stations
};

// Longest 3-D station separation (distance between ECEF positions). With one station the
// result is {0, 0, 0}.
Baseline longest_baseline(const TelescopeModel& model, Positions which = Positions::True);
// Shortest separation between two distinct stations ({0,0,0} with fewer than two).
Baseline shortest_baseline(const TelescopeModel& model, Positions which = Positions::True);

struct TelescopeSummary {
  std::size_t num_stations = 0;
  std::size_t num_station_models = 0;
  std::vector<std::size_t> elements_per_station;       // top-level elements of each station
  std::vector<std::size_t> leaf_elements_per_station;  // antennas (through all tile levels)
  std::size_t total_elements = 0;                      // sum of leaf elements
  std::size_t min_elements = 0, max_elements = 0;      // over leaf_elements_per_station
  Baseline longest_baseline;                           // from true positions
  Baseline longest_baseline_measured;                  // from measured positions
  std::size_t num_unsupported_files = 0;
};

TelescopeSummary summarise(const TelescopeModel& model);

// A few human-readable lines ("512 stations (512 station models), 256 elements each, ...").
std::string format_summary(const TelescopeModel& model, const TelescopeSummary& summary);

}  // namespace fringe::telescope
