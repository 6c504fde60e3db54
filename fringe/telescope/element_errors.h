// Element error overrides of sim_interferometer and sim_beam_pattern
// (telescope/aperture_array/array_pattern/element/..., docs/pointing_and_element_errors.md): values
// greater than zero replace or perturb what the station files say, with seeded random draws, before
// any beam is evaluated. Units: metres and radians (sim/ converts the settings' degrees).
//
// Rules (OSKAR 2.13's meaning of each key: oskar_settings_to_telescope.cpp and
// oskar_station_override_element_*.c; applied at the lowest level of the station hierarchy,
// i.e. to the antennas of a station, or of every tile of a station of tiles):
//   position_error_xy_m > 0     true E, N of every element = measured E, N + N(0, sigma), one
//                               draw per element for both feeds; true U is kept
//                               (seed_position_xy)
//   gain[f] > 0 or gain_error_fixed[f] > 0
//                               G0 = g + N(0, gain_error_fixed[f]) per element, where
//                               g = gain[f] if > 0, else 1 (the file's G0 is replaced)
//                               (seed_gain[f])
//   gain_error_time[f] > 0      sigma_G (time-variable) of every element = value
//   phase_error_fixed[f] > 0    phi0 = N(0, sigma) per element, rad (the file's phi0 is
//                               replaced) (seed_phase[f])
//   phase_error_time[f] > 0     sigma_phi (time-variable) = value, rad
//   cable_length_error[f] > 0   cable length error of every element = N(0, sigma), m
//                               (seed_cable_length[f])
//   orientation_error[f] > 0    feed angle alpha += N(0, sigma), rad (seed_orientation[f])
// [f]: 0 = X feed, 1 = Y feed.
// Random draws use the counter-based Philox generator of core/philox.h, keyed by the seed and
// counted by (station, leaf, element, quantity): station = telescope station index; leaf =
// the depth-first number of the leaf node within its station (a station of tiles: the tile's
// element index; a flat station: 0); element = index within the leaf; quantity = one stream
// per key and feed, so X and Y draws are independent even with equal seeds. Every station
// and every tile thus gets its own draws, and results do not depend on load order or thread
// count. (OSKAR 2.13 draws per station model instead, so stations sharing a model share
// their errors there; fringe gives each station its own.)
// When any random override is active (position, fixed gain error, fixed phase error, cable
// length or orientation), station_models becomes one model per station in station order
// (Station::model_index = station index; each a copy of the station's former model, name and
// directory kept), and every station of tiles gets one tile model per element (tile_index
// e -> e), since the draws make them differ. Without random overrides the shared models are
// changed in place and keep their sharing.
#pragma once

#include <array>
#include <cstdint>

#include "fringe/telescope/telescope_model.h"

namespace fringe::telescope {

struct ElementErrorConfig {
  double position_error_xy_m = 0.0;
  std::array<double, 2> gain{0.0, 0.0};
  std::array<double, 2> gain_error_fixed{0.0, 0.0};
  std::array<double, 2> gain_error_time{0.0, 0.0};
  std::array<double, 2> phase_error_fixed_rad{0.0, 0.0};
  std::array<double, 2> phase_error_time_rad{0.0, 0.0};
  std::array<double, 2> cable_length_error_m{0.0, 0.0};
  std::array<double, 2> orientation_error_rad{0.0, 0.0};

  std::uint64_t seed_position_xy = 1;
  std::array<std::uint64_t, 2> seed_gain{1, 1};
  std::array<std::uint64_t, 2> seed_phase{1, 1};
  std::array<std::uint64_t, 2> seed_cable_length{1, 1};
  std::array<std::uint64_t, 2> seed_orientation{1, 1};

  // True when any value above is > 0 (the model is then changed).
  bool any() const;
};

// Applies the overrides to every station of the model (see the rules above). A model without
// any override (config.any() == false) is left unchanged.
void apply_element_errors(TelescopeModel& model, const ElementErrorConfig& config);

}  // namespace fringe::telescope
