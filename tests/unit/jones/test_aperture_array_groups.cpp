// Grouped evaluation of aperture-array stations (aperture_array.h, docs/station_beams.md):
// stations whose antennas mix element types or feed angles are evaluated as
// sum_g E_g AF_g over groups of equal (type, feed angles). The general recursive path, which
// evaluates the element pattern per antenna, is the reference: the grouped beam must equal it
// to rounding, element by element, for functional dipoles with mixed feed angles and every
// kind of element error (static and time-variable gains and phases, cable lengths,
// apodisation, position errors, distinct X/Y layouts), for OSKAR spherical-wave patterns of
// mixed types (tests/data/oskar-reference/spherical_wave_aa/sw.tm, station 1), and for a
// station of identical tiles whose antennas mix feed angles. Full and Scalar modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <numbers>
#include <vector>

#include "fringe/jones/aperture_array.h"
#include "fringe/telescope/telescope_model.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::jones {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

using telescope::StationModel;
using telescope::TelescopeModel;

StationModel flat(const std::vector<astro::Vec3>& pos) {
  StationModel m;
  m.resize(pos.size());
  for (auto& f : m.feeds) {
    f.measured_enu = pos;
    f.true_enu = pos;
  }
  return m;
}

TelescopeModel telescope_of(std::vector<StationModel> models) {
  TelescopeModel t;
  t.station_models = std::move(models);
  for (std::size_t i = 0; i < t.station_models.size(); ++i) {
    telescope::Station s;
    s.model_index = int(i);
    s.geodetic = {0.3, -30.0 * kDeg, 0.0};
    t.stations.push_back(s);
  }
  return t;
}

astro::Vec3 azel(double az_deg, double el_deg) {
  const double az = az_deg * kDeg, el = el_deg * kDeg;
  return {std::cos(el) * std::sin(az), std::cos(el) * std::cos(az), std::sin(el)};
}

AaStationPlan plan_for(const ApertureArrayModel& m, std::size_t station, const astro::Vec3& beam,
                       double freq, int time_index = 0) {
  AaPointing p;
  p.station_enu = beam;
  return make_aa_plan(m, station, {0.3, -30.0 * kDeg, 0.0}, p, beam, true, 0.7, freq, time_index);
}

// The same plan forced onto the general recursive path (the reference).
AaStationPlan general_of(const AaStationPlan& plan) {
  AaStationPlan g = plan;
  g.uniform = false;
  g.levels.clear();
  g.groups.clear();
  return g;
}

// Directions over the whole sphere (a quarter below the horizon), more than one CPU block.
struct Directions {
  std::vector<double> e, n, u;
};
Directions sphere(std::size_t count) {
  Directions d;
  for (std::size_t i = 0; i < count; ++i) {
    // Fibonacci sphere from u = 1 down to u = -0.5.
    const double u = 1.0 - 1.5 * (double(i) + 0.5) / double(count);
    const double r = std::sqrt(1.0 - u * u), phi = 2.399963229728653 * double(i);
    d.e.push_back(r * std::cos(phi));
    d.n.push_back(r * std::sin(phi));
    d.u.push_back(u);
  }
  return d;
}

// Largest difference of the grouped and general beams, relative to the largest |component|
// of the general one; also checks that both are zero below the horizon and the beam is not
// trivially zero.
double compare(const ApertureArrayModel& m, const AaStationPlan& grouped, bool scalar) {
  const AaStationPlan general = general_of(grouped);
  Directions d = sphere(701);
  d.e[0] = grouped.beam_enu.x;  // the beam direction, where the normalised beam is about 1
  d.n[0] = grouped.beam_enu.y;
  d.u[0] = grouped.beam_enu.z;
  // The zenith and a direction 5e-6 rad from it (theta is held at >= 1e-5 rad there).
  d.e[1] = 0.0;
  d.n[1] = 0.0;
  d.u[1] = 1.0;
  d.e[2] = 3e-6;
  d.n[2] = -4e-6;
  d.u[2] = std::sqrt(1.0 - 25e-12);
  const std::size_t ns = d.e.size();
  double diff = 0.0, scale = 0.0;
  if (scalar) {
    std::vector<Complex<double>> a(ns), b(ns);
    aa_beam_enu_scalar(m, grouped, d.e, d.n, d.u, a);
    aa_beam_enu_scalar(m, general, d.e, d.n, d.u, b);
    for (std::size_t s = 0; s < ns; ++s) {
      diff = std::max(diff, abs(a[s] - b[s]));
      scale = std::max(scale, abs(b[s]));
      if (d.u[s] < 0.0) EXPECT_EQ(abs(a[s]), 0.0) << s;
    }
  } else {
    std::vector<Jones<double>> a(ns), b(ns);
    aa_beam_enu(m, grouped, d.e, d.n, d.u, a);
    aa_beam_enu(m, general, d.e, d.n, d.u, b);
    for (std::size_t s = 0; s < ns; ++s) {
      const Jones<double>& x = a[s];
      const Jones<double>& y = b[s];
      diff = std::max({diff, abs(x.a - y.a), abs(x.b - y.b), abs(x.c - y.c), abs(x.d - y.d)});
      scale = std::max({scale, abs(y.a), abs(y.b), abs(y.c), abs(y.d)});
      if (d.u[s] < 0.0) EXPECT_EQ(abs(x.a) + abs(x.b) + abs(x.c) + abs(x.d), 0.0) << s;
    }
  }
  EXPECT_GT(scale, 0.1);  // normalised at the phase centre: the beam reaches about 1
  std::cout << "[ stats    ] grouped vs general (" << (scalar ? "Scalar" : "Full")
            << "): max difference / max |beam| = " << diff / scale << "\n";
  return diff / scale;
}

// Seven dipoles, three distinct feed-angle pairs, every element error on.
StationModel mixed_angle_station() {
  const std::vector<astro::Vec3> pos = {{0, 0, 0},     {2.2, -0.3, 0.1}, {-1.1, 1.9, -0.2},
                                        {3.3, 2.5, 0}, {-2.4, -1.7, 0},  {0.6, 3.1, 0.05},
                                        {-3.0, 0.4, 0}};
  StationModel st = flat(pos);
  const double ax[] = {0.0, 0.0, 30.0, 30.0, 0.0, 90.0, 30.0};
  for (std::size_t f = 0; f < 2; ++f) {
    auto& feed = st.feeds[f];
    for (std::size_t k = 0; k < pos.size(); ++k) {
      const double dk = double(k);
      feed.feed_angle[k].alpha = (ax[k] + (f == 1 ? 5.0 : 0.0)) * kDeg;
      feed.true_enu[k] = {pos[k].x + 0.01 * dk, pos[k].y - 0.02 * double(f), pos[k].z};
      feed.gain_phase[k] = {1.0 + 0.05 * dk, 0.1 * dk, 0.03, 0.02 + 0.01 * double(f)};
      feed.cable_length_error[k] = 0.02 * dk - 0.05;
      feed.apodisation[k] = {1.0 - 0.04 * dk, 0.01 * dk};
    }
  }
  return st;
}

ApertureArrayConfig dipole_config() {
  ApertureArrayConfig c;
  c.element_pattern.functional_type = ElementFunctionalType::Dipole;
  c.element_pattern.enable_numerical = false;
  c.element_pattern.taper = ElementTaper::Cosine;
  c.element_pattern.taper_cosine_power = 1.2;
  c.array_pattern.normalise = true;
  return c;
}

TEST(ApertureArrayGroups, MixedFeedAnglesWithErrorsEqualGeneralPath) {
  const TelescopeModel tel = telescope_of({mixed_angle_station()});
  const ApertureArrayModel m(tel, dipole_config());
  ASSERT_TRUE(m.is_uniform(0));
  const AaNode& node = m.nodes()[std::size_t(m.station_node(0))];
  ASSERT_EQ(node.groups.size(), 3u);
  EXPECT_EQ(node.groups[0].index, (std::vector<std::size_t>{0, 1, 4}));
  EXPECT_EQ(node.groups[1].index, (std::vector<std::size_t>{2, 3, 6}));
  EXPECT_EQ(node.groups[2].index, (std::vector<std::size_t>{5}));
  EXPECT_FALSE(node.groups[0].same_feed_positions);
  for (int t : {0, 3}) {  // time-variable errors drawn per time step
    const AaStationPlan plan = plan_for(m, 0, azel(200.0, 65.0), 120e6, t);
    ASSERT_TRUE(plan.uniform);
    ASSERT_EQ(plan.groups.size(), 3u);
    EXPECT_TRUE(plan.levels.empty());
    EXPECT_LE(compare(m, plan, false), 1e-13) << t;
    EXPECT_LE(compare(m, plan, true), 1e-13) << t;
  }
}

// The reference itself must see the feed angles: a station whose angles are all equal gives a
// different beam (so the comparison above cannot pass by ignoring them).
TEST(ApertureArrayGroups, FeedAnglesChangeTheBeam) {
  StationModel same = mixed_angle_station();
  for (auto& f : same.feeds)
    for (auto& a : f.feed_angle) a.alpha = 0.0;
  const TelescopeModel tel = telescope_of({mixed_angle_station(), same});
  const ApertureArrayModel m(tel, dipole_config());
  EXPECT_TRUE(m.nodes()[std::size_t(m.station_node(1))].groups.empty());
  const AaStationPlan p0 = plan_for(m, 0, azel(200.0, 65.0), 120e6);
  const AaStationPlan p1 = plan_for(m, 1, azel(200.0, 65.0), 120e6);
  const double e[1] = {azel(30.0, 40.0).x}, n[1] = {azel(30.0, 40.0).y},
               u[1] = {azel(30.0, 40.0).z};
  Jones<double> a[1], b[1];
  aa_beam_enu(m, p0, e, n, u, a);
  aa_beam_enu(m, p1, e, n, u, b);
  EXPECT_GT(abs(a[0].b - b[0].b), 1e-3);
}

// Element types without spherical-wave files all use the functional pattern: one group (the
// station is uniform) when the feed angles agree.
TEST(ApertureArrayGroups, TypesWithoutFilesShareOneGroup) {
  StationModel st = mixed_angle_station();
  for (auto& f : st.feeds)
    for (auto& a : f.feed_angle) a.alpha = 0.3;
  st.element_types = {0, 1, 2, 1, 0, 2, 1};
  const TelescopeModel tel = telescope_of({st});
  const ApertureArrayModel m(tel, dipole_config());
  EXPECT_TRUE(m.nodes()[std::size_t(m.station_node(0))].groups.empty());
  const AaStationPlan plan = plan_for(m, 0, azel(20.0, 70.0), 150e6);
  ASSERT_TRUE(plan.uniform);
  EXPECT_LE(compare(m, plan, false), 1e-13);
}

// array_pattern/enable = false: no groups (the first antenna's element pattern alone, as the
// general path gives).
TEST(ApertureArrayGroups, ArrayPatternOffGivesNoGroups) {
  const TelescopeModel tel = telescope_of({mixed_angle_station()});
  ApertureArrayConfig c = dipole_config();
  c.array_pattern.enable = false;
  const ApertureArrayModel m(tel, c);
  const AaStationPlan plan = plan_for(m, 0, azel(200.0, 65.0), 120e6);
  EXPECT_TRUE(plan.groups.empty());
  EXPECT_LE(compare(m, plan, false), 1e-13);
  EXPECT_LE(compare(m, plan, true), 1e-13);
}

// A station of three identical tiles, each of four antennas with two feed angles: the
// station's array factor times the grouped tile.
TEST(ApertureArrayGroups, TilesOfMixedAntennasEqualGeneralPath) {
  StationModel tile = flat({{0, 0, 0}, {1.1, 0, 0.02}, {0, 1.1, 0}, {1.1, 1.1, -0.01}});
  for (auto& f : tile.feeds)
    for (std::size_t k = 0; k < 4; ++k) f.feed_angle[k].alpha = (k % 2 ? 45.0 : 0.0) * kDeg;
  StationModel st = flat({{0, 0, 0}, {5.0, 1.0, 0}, {-3.0, 4.0, 0}});
  st.feeds[0].gain_phase[1] = {1.3, 0.2, 0.0, 0.0};  // static station-level weights
  st.tiles.push_back(tile);
  st.tile_index.assign(3, 0);
  const TelescopeModel tel = telescope_of({st});
  const ApertureArrayModel m(tel, dipole_config());
  ASSERT_TRUE(m.is_uniform(0));
  const AaStationPlan plan = plan_for(m, 0, azel(45.0, 60.0), 160e6);
  ASSERT_TRUE(plan.uniform);
  ASSERT_EQ(plan.levels.size(), 1u);
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_LE(compare(m, plan, false), 1e-13);
  EXPECT_LE(compare(m, plan, true), 1e-13);
}

// OSKAR spherical-wave patterns: station 1 of sw.tm mixes element types 0 and 1 (files at the
// root and in the station folder); as given, and with feed angles of its own (four groups)
// and time-variable errors.
TEST(ApertureArrayGroups, SphericalWaveMixedTypesEqualGeneralPath) {
  const std::filesystem::path dir = std::filesystem::path(FRINGE_SOURCE_DIR) / "tests" / "data" /
                                    "oskar-reference" / "spherical_wave_aa" / "sw.tm";
  TelescopeModel tel = telescope::load_telescope_model(dir);
  ASSERT_EQ(tel.stations.size(), 3u);
  for (const bool modified : {false, true}) {
    if (modified) {
      StationModel& sm = tel.station_models.at(std::size_t(tel.stations[1].model_index));
      for (auto& f : sm.feeds) {
        for (std::size_t k = 0; k < f.feed_angle.size(); ++k) {
          if (k >= 3) f.feed_angle[k].alpha += 35.0 * kDeg;
          f.gain_phase[k].gain_error = 0.05;
          f.gain_phase[k].phase_error = 0.03;
        }
      }
    }
    for (const bool normalise : {false, true}) {
      ApertureArrayConfig c;
      c.element_pattern.enable_numerical = true;
      c.element_pattern.normalise = normalise;
      const ApertureArrayModel m(tel, c);
      for (const double freq : {105e6, 112e6}) {
        const AaStationPlan plan = plan_for(m, 1, azel(10.0, 75.0), freq, 2);
        ASSERT_TRUE(plan.uniform);
        ASSERT_EQ(plan.groups.size(), modified ? 4u : 2u);
        for (const AaGroupPlan& g : plan.groups) EXPECT_NE(g.element.sw, nullptr);
        EXPECT_NE(plan.groups[0].element.sw, plan.groups[1].element.sw);
        EXPECT_LE(compare(m, plan, false), 1e-13) << modified << normalise << freq;
        EXPECT_LE(compare(m, plan, true), 1e-13) << modified << normalise << freq;
      }
    }
  }
}

// A real station: SKA-Low AA1's first station (256 dipoles) with feed angles rotated by
// 0, 22.5, 45 and 67.5 deg in turn (four groups) and time-variable errors, as the GPU test
// ApertureArrayGpu.GroupedStations uses it.
TEST(ApertureArrayGroups, Aa1FourFeedAngleGroupsEqualGeneralPath) {
  TelescopeModel tel = telescope::load_telescope_model(std::filesystem::path(FRINGE_SOURCE_DIR) /
                                                       "telescope-models" / "ska-low-aa1.tm");
  for (auto& sm : tel.station_models) {
    for (auto& f : sm.feeds) {
      for (std::size_t k = 0; k < f.feed_angle.size(); ++k) {
        f.feed_angle[k].alpha += double(k % 4) * 22.5 * kDeg;
        f.gain_phase[k].gain_error = 0.02;
        f.gain_phase[k].phase_error = 0.01;
      }
    }
  }
  ApertureArrayConfig c = dipole_config();
  c.array_pattern.normalise = false;
  const ApertureArrayModel m(tel, c);
  const AaStationPlan plan = plan_for(m, 0, azel(30.0, 70.0), 150e6, 1);
  ASSERT_TRUE(plan.uniform);
  ASSERT_EQ(plan.groups.size(), 4u);
  EXPECT_EQ(plan.groups[0].level.weight[0].size(), 64u);
  EXPECT_LE(compare(m, plan, false), 1e-12);
  EXPECT_LE(compare(m, plan, true), 1e-12);
}

// Uniform stations with spherical-wave patterns: the CPU's vectorised block evaluation
// (aperture_array_sw_block.h) against the general path's per-direction sum (sw_pattern).
TEST(ApertureArrayGroups, SphericalWaveUniformStationsEqualGeneralPath) {
  const std::filesystem::path dir = std::filesystem::path(FRINGE_SOURCE_DIR) / "tests" / "data" /
                                    "oskar-reference" / "spherical_wave_aa" / "sw.tm";
  const TelescopeModel tel = telescope::load_telescope_model(dir);
  for (const bool normalise : {false, true}) {
    ApertureArrayConfig c;
    c.element_pattern.enable_numerical = true;
    c.element_pattern.normalise = normalise;
    c.element_pattern.swap_xy = normalise;
    c.element_pattern.taper = normalise ? ElementTaper::Cosine : ElementTaper::None;
    c.element_pattern.taper_cosine_power = 2.0;
    const ApertureArrayModel m(tel, c);
    for (const std::size_t station : {0u, 2u}) {
      const AaStationPlan plan = plan_for(m, station, azel(250.0, 50.0), 112e6);
      ASSERT_TRUE(plan.uniform);
      ASSERT_TRUE(plan.groups.empty());
      ASSERT_NE(plan.element.sw, nullptr);
      EXPECT_LE(compare(m, plan, false), 1e-13) << station << normalise;
    }
  }
}

}  // namespace
}  // namespace fringe::jones
