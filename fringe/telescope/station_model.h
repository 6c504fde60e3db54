// StationModel: one station (or tile) of a telescope model, as loaded from a station folder
// of an OSKAR .tm directory. A station is a set of elements (antennas, or tiles when the
// station is hierarchical); each element has separate X and Y feed data, since OSKAR allows
// different positions, gains, weights and orientations per feed.
// Units: metres and radians (files hold degrees; the loader converts). Positions are local
// East-North-Up about the station centre, in the station's own horizon frame.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/telescope/gain_model.h"

namespace fringe::telescope {

enum class Feed { X = 0, Y = 1 };

// gain_phase.txt: complex gain G0 exp(i phi0) plus per-time random errors
// (Gaussian, standard deviations sigma_G and sigma_phi). OSKAR file columns: G0, phi0 [deg],
// sigma_G, sigma_phi [deg]; defaults 1, 0, 0, 0.
struct ElementGainPhase {
  double gain = 1.0;         // G0
  double phase = 0.0;        // phi0, rad
  double gain_error = 0.0;   // sigma_G (time-variable)
  double phase_error = 0.0;  // sigma_phi, rad (time-variable)
};

// feed_angle*.txt: Euler angles of the feed, alpha (rotation about the vertical, East
// towards North), beta, gamma; rad. Defaults 0.
struct FeedAngle {
  double alpha = 0.0;
  double beta = 0.0;
  double gamma = 0.0;
};

// Per-feed element data; every vector has one entry per element.
struct FeedData {
  std::vector<astro::Vec3> measured_enu;  // m; used to form beamforming weights
  std::vector<astro::Vec3> true_enu;      // m; measured + error columns; used for the signal
  std::vector<ElementGainPhase> gain_phase;
  std::vector<double> cable_length_error;         // m
  std::vector<std::complex<double>> apodisation;  // weight, default 1 + 0i
  std::vector<FeedAngle> feed_angle;
};

// mount_types.txt: first letter per element ('F' fixed, 'A' alt-az); loaded, not used by OSKAR.
enum class MountType : char { Fixed = 'F', AltAz = 'A' };

// permitted_beams.txt: the nearest permitted direction replaces the requested beam direction.
struct PermittedBeam {
  double azimuth = 0.0;    // rad, East of North
  double elevation = 0.0;  // rad
};

struct StationModel {
  std::string name;       // folder name ("" for the implicit one-element station)
  std::string directory;  // folder path ("" when implicit)

  // [0] = X feed, [1] = Y feed. Where no Y-specific file exists, Y repeats X (OSKAR's rule).
  std::array<FeedData, 2> feeds;

  std::vector<int> element_types;  // index into element models, default 0
  std::vector<MountType> mount_types;
  std::vector<PermittedBeam> permitted_beams;  // empty: any direction allowed

  // Hierarchical stations: `tiles` holds the distinct child station models and
  // `tile_index[e]` says which one element e is. One tile folder is shared by all elements
  // (tiles.size() == 1); otherwise there is one tile folder per element. Empty for a leaf.
  std::vector<StationModel> tiles;
  std::vector<int> tile_index;

  // gain_model.h5 in this folder: complex gains per (time, channel, element) that multiply the
  // elements' beamforming weights (docs/station_beams.md, "Per-element gain model"); null when
  // absent. The table's third dimension equals num_elements() (checked by the loader).
  std::shared_ptr<const GainModel> element_gains;
  // True when the folder has a Y-specific layout, gain_phase, cable_length_error or apodisation
  // file. OSKAR then forms the Y beam with the Y weights (and the table's "gain_ypol");
  // otherwise the X weights, gains included, serve both feeds.
  bool y_feed_files = false;

  // Noise RMS per noise frequency (rms.txt, inherited from the root); Jy. Top level only.
  std::vector<double> noise_rms_jy;

  std::size_t num_elements() const { return feeds[0].measured_enu.size(); }
  bool is_hierarchical() const { return !tiles.empty(); }
  const FeedData& feed(Feed f) const { return feeds[static_cast<int>(f)]; }
  FeedData& feed(Feed f) { return feeds[static_cast<int>(f)]; }
  const StationModel& tile_of(std::size_t element) const { return tiles[tile_index[element]]; }

  // Number of antennas at the bottom of the hierarchy (elements x tile elements ...).
  std::size_t num_leaf_elements() const;
  // True when the Y feed has any data different from the X feed (positions, gains, ...).
  bool feeds_differ() const;
  // Depth of the hierarchy: 1 for a flat station, 2 for a station of tiles, ...
  int num_levels() const;

  // One element at the origin with default data (the root has no station folders).
  static StationModel single_element();
  // Resizes every per-element array to n elements, filling defaults.
  void resize(std::size_t n);
};

}  // namespace fringe::telescope
