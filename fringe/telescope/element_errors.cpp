#include "fringe/telescope/element_errors.h"

#include <cstddef>
#include <utility>
#include <vector>

#include "fringe/core/philox.h"

namespace fringe::telescope {
namespace {

// Last counter word: a tag for "element errors" in the high half (so these draws never
// coincide with other users of the same seed, such as the system noise) and the quantity's
// stream in the low half.
constexpr std::uint32_t kDomain = 0x45450000u;
enum Stream : std::uint32_t {
  kPositionXY = 0,
  kGain = 1,         // + feed
  kPhase = 3,        // + feed
  kCableLength = 5,  // + feed
  kOrientation = 7,  // + feed
};

// Where an element sits: its station and leaf node (see element_errors.h).
struct LeafId {
  std::uint32_t station = 0;
  std::uint32_t leaf = 0;
};

// Two independent N(0, 1) deviates for one element and quantity.
std::array<double, 2> normals(std::uint64_t seed, LeafId id, std::size_t element,
                              std::uint32_t stream) {
  const auto z =
      philox_normals(seed, id.station, id.leaf, std::uint32_t(element), kDomain | stream);
  return {z[0], z[1]};
}

bool any_random(const ElementErrorConfig& c) {
  if (c.position_error_xy_m > 0) return true;
  for (int f = 0; f < 2; ++f) {
    if (c.gain_error_fixed[f] > 0 || c.phase_error_fixed_rad[f] > 0 ||
        c.cable_length_error_m[f] > 0 || c.orientation_error_rad[f] > 0) {
      return true;
    }
  }
  return false;
}

// Applies every override to the elements of one leaf node (a station or tile of antennas).
// Random terms are drawn only where their sigma is > 0, so `id` is unused without them.
void apply_to_leaf(StationModel& leaf, const ElementErrorConfig& c, LeafId id) {
  const std::size_t n = leaf.num_elements();
  if (c.position_error_xy_m > 0) {
    for (std::size_t e = 0; e < n; ++e) {
      const auto z = normals(c.seed_position_xy, id, e, kPositionXY);
      for (FeedData& feed : leaf.feeds) {
        feed.true_enu[e].x = feed.measured_enu[e].x + c.position_error_xy_m * z[0];
        feed.true_enu[e].y = feed.measured_enu[e].y + c.position_error_xy_m * z[1];
      }
    }
  }
  for (std::uint32_t f = 0; f < 2; ++f) {
    FeedData& feed = leaf.feeds[f];
    const double gain = c.gain[f], gain_sigma = c.gain_error_fixed[f];
    const double phase_sigma = c.phase_error_fixed_rad[f];
    const double cable_sigma = c.cable_length_error_m[f];
    const double alpha_sigma = c.orientation_error_rad[f];
    for (std::size_t e = 0; e < n; ++e) {
      ElementGainPhase& gp = feed.gain_phase[e];
      if (gain > 0 || gain_sigma > 0) {
        const double g = gain > 0 ? gain : 1.0;
        gp.gain =
            gain_sigma > 0 ? g + gain_sigma * normals(c.seed_gain[f], id, e, kGain + f)[0] : g;
      }
      if (c.gain_error_time[f] > 0) gp.gain_error = c.gain_error_time[f];
      if (phase_sigma > 0) gp.phase = phase_sigma * normals(c.seed_phase[f], id, e, kPhase + f)[0];
      if (c.phase_error_time_rad[f] > 0) gp.phase_error = c.phase_error_time_rad[f];
      if (cable_sigma > 0) {
        feed.cable_length_error[e] =
            cable_sigma * normals(c.seed_cable_length[f], id, e, kCableLength + f)[0];
      }
      if (alpha_sigma > 0) {
        feed.feed_angle[e].alpha +=
            alpha_sigma * normals(c.seed_orientation[f], id, e, kOrientation + f)[0];
      }
    }
  }
}

// Calls fn(leaf, number) for every leaf node below `node` in depth-first element order,
// numbering the leaves from `next`.
template <class Fn>
void for_each_leaf(StationModel& node, std::uint32_t& next, Fn&& fn) {
  if (!node.is_hierarchical()) {
    fn(node, next++);
    return;
  }
  for (StationModel& tile : node.tiles) for_each_leaf(tile, next, fn);
}

// Gives every element of every level its own tile model (tile_index[e] = e).
void unshare_tiles(StationModel& node) {
  if (!node.is_hierarchical()) return;
  std::vector<StationModel> own;
  own.reserve(node.num_elements());
  for (std::size_t e = 0; e < node.num_elements(); ++e) {
    own.push_back(node.tile_of(e));
    node.tile_index[e] = int(e);
  }
  node.tiles = std::move(own);
  for (StationModel& tile : node.tiles) unshare_tiles(tile);
}

}  // namespace

bool ElementErrorConfig::any() const {
  if (position_error_xy_m > 0) return true;
  for (int f = 0; f < 2; ++f) {
    if (gain[f] > 0 || gain_error_fixed[f] > 0 || gain_error_time[f] > 0 ||
        phase_error_fixed_rad[f] > 0 || phase_error_time_rad[f] > 0 ||
        cable_length_error_m[f] > 0 || orientation_error_rad[f] > 0) {
      return true;
    }
  }
  return false;
}

void apply_element_errors(TelescopeModel& model, const ElementErrorConfig& config) {
  if (!config.any()) return;
  if (!any_random(config)) {
    // The same values for every element: shared models stay shared.
    for (StationModel& m : model.station_models) {
      std::uint32_t next = 0;
      for_each_leaf(m, next, [&](StationModel& leaf, std::uint32_t) {
        apply_to_leaf(leaf, config, LeafId{});
      });
    }
    return;
  }
  std::vector<StationModel> own;
  own.reserve(model.num_stations());
  for (std::size_t s = 0; s < model.num_stations(); ++s) {
    StationModel m = model.model_of(s);
    unshare_tiles(m);
    std::uint32_t next = 0;
    for_each_leaf(m, next, [&](StationModel& leaf, std::uint32_t number) {
      apply_to_leaf(leaf, config, LeafId{std::uint32_t(s), number});
    });
    own.push_back(std::move(m));
    model.stations[s].model_index = int(s);
  }
  model.station_models = std::move(own);
}

}  // namespace fringe::telescope
