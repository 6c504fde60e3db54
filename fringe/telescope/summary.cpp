#include "fringe/telescope/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "fringe/core/constants.h"

namespace fringe::telescope {
namespace {

const astro::Vec3& position(const Station& s, Positions which) {
  return which == Positions::True ? s.true_offset_ecef : s.measured_offset_ecef;
}

double distance(const astro::Vec3& a, const astro::Vec3& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// Extreme pairwise distance: `longer` picks the longest, otherwise the shortest.
Baseline extreme_baseline(const TelescopeModel& model, Positions which, bool longer) {
  Baseline best;
  bool found = false;
  const std::size_t n = model.stations.size();
  for (std::size_t p = 0; p < n; ++p) {
    const astro::Vec3& a = position(model.stations[p], which);
    for (std::size_t q = p + 1; q < n; ++q) {
      const double d = distance(a, position(model.stations[q], which));
      if (!found || (longer ? d > best.length : d < best.length)) {
        best = {p, q, d};
        found = true;
      }
    }
  }
  return best;
}

}  // namespace

Baseline longest_baseline(const TelescopeModel& model, Positions which) {
  return extreme_baseline(model, which, true);
}

Baseline shortest_baseline(const TelescopeModel& model, Positions which) {
  return extreme_baseline(model, which, false);
}

TelescopeSummary summarise(const TelescopeModel& model) {
  TelescopeSummary s;
  s.num_stations = model.num_stations();
  s.num_station_models = model.station_models.size();
  std::vector<std::size_t> leaf_per_model;
  for (const auto& m : model.station_models) leaf_per_model.push_back(m.num_leaf_elements());
  for (std::size_t i = 0; i < s.num_stations; ++i) {
    const auto k = static_cast<std::size_t>(model.stations[i].model_index);
    s.elements_per_station.push_back(model.station_models[k].num_elements());
    s.leaf_elements_per_station.push_back(leaf_per_model[k]);
    s.total_elements += leaf_per_model[k];
  }
  if (!s.leaf_elements_per_station.empty()) {
    const auto [lo, hi] =
        std::minmax_element(s.leaf_elements_per_station.begin(), s.leaf_elements_per_station.end());
    s.min_elements = *lo;
    s.max_elements = *hi;
  }
  s.longest_baseline = longest_baseline(model, Positions::True);
  s.longest_baseline_measured = longest_baseline(model, Positions::Measured);
  s.num_unsupported_files = model.unsupported_files.size();
  return s;
}

std::string format_summary(const TelescopeModel& model, const TelescopeSummary& s) {
  std::ostringstream out;
  char buf[256];
  std::snprintf(buf, sizeof buf, "array centre: lon %.6f deg, lat %.6f deg, alt %.1f m",
                model.centre.lon * kRadToDeg, model.centre.lat * kRadToDeg, model.centre.height);
  out << "telescope model: " << model.directory << "\n" << buf << "\n";
  out << "stations: " << s.num_stations << " (" << s.num_station_models << " station model"
      << (s.num_station_models == 1 ? "" : "s") << ", coordinates from "
      << to_string(model.layout_frame) << " layout)\n";
  out << "elements per station: ";
  if (s.min_elements == s.max_elements)
    out << s.min_elements;
  else
    out << s.min_elements << " to " << s.max_elements;
  out << "; total elements: " << s.total_elements << "\n";
  std::snprintf(buf, sizeof buf, "longest baseline: %.3f km (%s - %s, true positions)",
                s.longest_baseline.length / 1e3,
                s.num_stations > 1 ? model.stations[s.longest_baseline.p].name.c_str() : "-",
                s.num_stations > 1 ? model.stations[s.longest_baseline.q].name.c_str() : "-");
  out << buf;
  if (model.has_position_errors()) {
    std::snprintf(buf, sizeof buf, "; %.3f km from measured positions",
                  s.longest_baseline_measured.length / 1e3);
    out << buf;
  }
  out << "\n";
  if (s.num_unsupported_files > 0)
    out << "unsupported files (not loaded): " << s.num_unsupported_files << "\n";
  return out.str();
}

}  // namespace fringe::telescope
