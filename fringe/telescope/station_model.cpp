#include "fringe/telescope/station_model.h"

#include <algorithm>

namespace fringe::telescope {
namespace {

bool same(const astro::Vec3& a, const astro::Vec3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}
bool same(const ElementGainPhase& a, const ElementGainPhase& b) {
  return a.gain == b.gain && a.phase == b.phase && a.gain_error == b.gain_error &&
         a.phase_error == b.phase_error;
}
bool same(const FeedAngle& a, const FeedAngle& b) {
  return a.alpha == b.alpha && a.beta == b.beta && a.gamma == b.gamma;
}
bool same(double a, double b) { return a == b; }
bool same(const std::complex<double>& a, const std::complex<double>& b) { return a == b; }

template <class T>
bool same_vector(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

}  // namespace

std::size_t StationModel::num_leaf_elements() const {
  if (tiles.empty()) return num_elements();
  std::size_t total = 0;
  for (std::size_t e = 0; e < num_elements(); ++e) total += tile_of(e).num_leaf_elements();
  return total;
}

bool StationModel::feeds_differ() const {
  const FeedData& x = feeds[0];
  const FeedData& y = feeds[1];
  return !(same_vector(x.measured_enu, y.measured_enu) && same_vector(x.true_enu, y.true_enu) &&
           same_vector(x.gain_phase, y.gain_phase) &&
           same_vector(x.cable_length_error, y.cable_length_error) &&
           same_vector(x.apodisation, y.apodisation) && same_vector(x.feed_angle, y.feed_angle));
}

int StationModel::num_levels() const {
  int deepest = 0;
  for (const auto& t : tiles) deepest = std::max(deepest, t.num_levels());
  return 1 + deepest;
}

void StationModel::resize(std::size_t n) {
  for (auto& f : feeds) {
    f.measured_enu.resize(n);
    f.true_enu.resize(n);
    f.gain_phase.resize(n);
    f.cable_length_error.resize(n, 0.0);
    f.apodisation.resize(n, {1.0, 0.0});
    f.feed_angle.resize(n);
  }
  element_types.resize(n, 0);
  mount_types.resize(n, MountType::Fixed);
}

StationModel StationModel::single_element() {
  StationModel m;
  m.resize(1);
  return m;
}

}  // namespace fringe::telescope
