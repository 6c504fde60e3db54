// Aperture-array station beams (docs/station_beams.md; docs/conventions.md, "Telescope model
// folders"): the telescope model's station and tile folders flattened into nodes (structure of
// arrays), the per-station plan of one time and frequency (beam direction, beamforming weights,
// element parameters, normalisation), and the CPU evaluation. Formulas in aperture_array_math.h;
// the CUDA back end (aperture_array_cuda.h) evaluates the same plans. Units: metres, radians, Hz.
//
// A station is "uniform" when every level of its hierarchy has elements with identical feed
// angles and element types, and every tile of a level is the same model with the same beam
// direction and no time-variable errors: its beam is then element(s) x prod_levels AF_level(s)
// (per feed row), which is what the fast paths (CPU and GPU) evaluate.
//
// Grouped evaluation (issue 19): when only the antennas' level (the bottom of the hierarchy,
// or the station itself when it has no tiles) mixes element types or feed angles, its
// antennas fall into groups g of equal (element type, feed angles) (AaGroup), and
//   beam(s) = prod_{levels above} AF_level(s) x sum_g E_g(s) AF_g(s)     (per feed row)
// with AF_g the weighted array factor over the antennas of group g (their weights are the
// station's, apodisation, gains, errors and array_pattern/normalise included) and E_g the
// element pattern of the group (functional or spherical-wave), evaluated once per (group,
// source, frequency) rather than per antenna. Such stations also count as uniform here
// (is_uniform, AaStationPlan::uniform: the fast paths take them, CPU and GPU); their plans
// carry the groups. Element types matter only through their spherical-wave coefficients: types
// without files share the functional pattern and one group. Other stations (distinct tiles,
// per-tile pointing, tiles with time-variable errors) take the general recursive CPU path,
// which evaluates the element pattern per antenna and stays the reference. On the CPU the
// fast paths evaluate spherical-wave patterns for blocks of directions at once
// (aperture_array_sw_block.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/telescope/spherical_wave_files.h"

namespace fringe::telescope {
struct TelescopeModel;
struct StationModel;
}  // namespace fringe::telescope

namespace fringe::jones {

struct BeamDirection;

// One feed's elements of one node, flattened.
struct AaFeed {
  std::vector<double> x_true, y_true, z_true;   // m, ENU about the node centre (signal)
  std::vector<double> x_meas, y_meas, z_meas;   // m (beamforming weights)
  std::vector<Complex<double>> apodisation;     // static weight (apodisation.txt)
  std::vector<double> gain, phase;              // G0, phi0 (rad) of gain_phase.txt
  std::vector<double> cable_length_m;           // m
  std::vector<double> sigma_gain, sigma_phase;  // time-variable errors (1, rad)
  std::vector<double> alpha;                    // feed angle about the vertical, rad
};

// The antennas of one leaf node that share an element type and feed angles (grouped
// evaluation, above): their indices in the node and a copy of their feeds' data.
struct AaGroup {
  int type = -1;  // element type with spherical-wave files, or -1 (functional)
  double alpha_x = 0.0, alpha_y = 0.0;  // feed angles, rad
  std::vector<std::size_t> index;       // antennas of the node in this group, ascending
  std::array<AaFeed, 2> feeds;          // their data (subset of AaNode::feeds)
  bool same_feed_positions = true;      // X and Y true positions are equal
};

// A station or tile model as evaluated.
struct AaNode {
  std::array<AaFeed, 2> feeds;    // [0] X, [1] Y
  std::vector<int> child;         // per element: node index of its tile; empty for antennas
  std::vector<int> element_type;  // per element: index into `patterns`
  // Spherical-wave coefficients per element type (leaf nodes, element_pattern/enable_numerical
  // true); a type without files uses the functional pattern.
  std::vector<telescope::ElementTypePattern> patterns;
  bool uniform_elements = true;  // identical feed angles, types (with files) and tiles
  // Leaf nodes whose antennas mix element types or feed angles: their groups, in order of
  // first appearance; empty otherwise.
  std::vector<AaGroup> groups;
  bool same_feed_positions = true;         // X and Y true positions are equal
  bool has_time_errors = false;            // any sigma_gain or sigma_phase > 0 (at this level)
  std::vector<astro::Vec3> permitted_enu;  // permitted beam directions (ENU); empty: any
  // The folder's gain_model.h5 (per element, time, channel; null: none): multiplies the
  // beamforming weights. The X weights take its X gains; the Y weights its Y gains when the
  // folder has Y-specific beamforming files (gains_pol_y 1), else its X gains (OSKAR forms both
  // feeds' beams from the X weights then).
  std::shared_ptr<const telescope::GainModel> gains;
  int gains_pol_y = 0;
  std::size_t size() const { return feeds[0].x_true.size(); }
  bool is_leaf() const { return child.empty(); }
};

// The telescope's aperture-array stations, prepared once per run.
class ApertureArrayModel {
 public:
  ApertureArrayModel(const telescope::TelescopeModel& model, const ApertureArrayConfig& config);

  const ApertureArrayConfig& config() const { return config_; }
  const std::vector<AaNode>& nodes() const { return nodes_; }
  // Root node of each station.
  int station_node(std::size_t station) const { return station_node_[station]; }
  std::size_t num_stations() const { return station_node_.size(); }
  // True when the station's beam is element(s) x product of per-level array factors (with
  // the antennas' level evaluated per group when it mixes types or feed angles).
  bool is_uniform(std::size_t station) const { return uniform_[station] != 0; }
  // The stations that are not (the general recursive CPU path; the GPU back end cannot take
  // them), ascending; empty when every station is uniform or grouped.
  std::vector<std::size_t> general_stations() const;
  // A one-line note for a GPU run's log naming how many stations take the CPU path and why
  // (the simulator then evaluates every station's Jones on the CPU, the beam pattern its
  // aperture-array beams); empty when there are none.
  std::string general_stations_note() const;
  // Element parameters at a frequency (the feed angles and element type of the station's
  // first antenna).
  ElementParams<double> element_params(std::size_t station, double freq_hz) const;
  // Sets p.sw (and its normalisation) to the coefficients of element type `type` of leaf
  // node `node` at the frequency nearest freq_hz; leaves p functional when there are none.
  void set_numerical(ElementParams<double>& p, int node, int type, double freq_hz) const;

 private:
  int add_node(const telescope::StationModel& model, telescope::PatternFileMap files);
  ApertureArrayConfig config_;
  std::vector<AaNode> nodes_;
  std::vector<int> station_node_;
  std::vector<std::uint8_t> uniform_;
};

// One level of a uniform station at one time and frequency: the element positions (true) of
// each feed and the beamforming weights (array_pattern/normalise folded in).
struct AaLevel {
  const AaFeed* feed[2] = {nullptr, nullptr};
  std::vector<Complex<double>> weight[2];  // per element
  bool same_positions = true;              // feed[0] and feed[1] true positions equal
};

// One group of a grouped plan: the element pattern of its type and feed angles at the plan's
// frequency, and its antennas (feed pointers into AaGroup::feeds) with their weights.
struct AaGroupPlan {
  ElementParams<double> element;
  AaLevel level;
};

// Everything the array-factor kernels need for one station at one time and frequency.
struct AaStationPlan {
  std::size_t station = 0;
  bool beam_off = false;  // beam direction below the horizon: E = 0
  double k0 = 0.0;        // 2 pi f / c, rad/m
  double freq_hz = 0.0;
  double lst = 0.0;  // GAST + station longitude, rad
  double sin_lat = 0.0, cos_lat = 1.0;
  astro::Vec3 beam_enu;  // beam direction (after permitted-beam snapping)
  ElementParams<double> element;
  bool uniform = true;          // levels[] (and groups[]) describe the whole station
  std::vector<AaLevel> levels;  // outermost (station) first; empty when !uniform
  // Grouped evaluation: non-empty when the antennas' level mixes element types or feed
  // angles; levels[] then holds only the levels above it (none for a station without tiles)
  // and `element` is unused (except in aa_beam_* with array_pattern/enable false, which
  // gives no groups).
  std::vector<AaGroupPlan> groups;
  // For the general (non-uniform) path: the tiles' beam directions and the time step.
  std::vector<astro::Vec3> tile_enu;  // per tile of the station; empty: the station's
  int time_index = 0;
  double norm = 1.0;         // Full mode: 1 / sqrt(sum |E0 elements|^2 / 2) at the phase centre
  double norm_scalar = 1.0;  // Scalar mode: 1 / |E0| (both 1 when normalisation is off)
};

// Per-station beam directions (ENU) at one time: the beam direction of the station and, for
// each tile of the station, the tile's direction (pointing file); sim/ builds them from
// the pointing rules (jones/pointing_file.h) or the default pointing.
struct AaPointing {
  astro::Vec3 station_enu;
  std::vector<astro::Vec3> tile_enu;  // empty: tiles point where the station points
};

// Builds the plan of station `station` at (gast, freq) for time step `time_index` (time-variable
// errors are drawn for it with array_pattern.time_variable_seed). `normalisation_enu` is the
// normalisation direction (phase centre) used when `normalise` is true.
AaStationPlan make_aa_plan(const ApertureArrayModel& model, std::size_t station,
                           const astro::Geodetic& site, const AaPointing& pointing,
                           const astro::Vec3& normalisation_enu, bool normalise, double gast_rad,
                           double freq_hz, int time_index);

// Beam of a station for directions given as ENU unit vectors at the station (e, n, u spans of
// equal length): polarised rows (no parallactic rotation), or scalar. Below the horizon: 0.
// Multiplied by plan.norm; zero when plan.beam_off. CPU; OpenMP over directions.
void aa_beam_enu(const ApertureArrayModel& model, const AaStationPlan& plan,
                 std::span<const double> e, std::span<const double> n, std::span<const double> u,
                 std::span<Jones<double>> out);
void aa_beam_enu_scalar(const ApertureArrayModel& model, const AaStationPlan& plan,
                        std::span<const double> e, std::span<const double> n,
                        std::span<const double> u, std::span<Complex<double>> out);

}  // namespace fringe::jones
