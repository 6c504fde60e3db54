// telescope/element_errors: the array_pattern/element/* overrides (OSKAR 2.13's rules, see
// element_errors.h) on shipped models (ska-low-aa1.tm: 16 stations of 256 antennas, each its
// own folder; mwa-phase1.tm: 128 stations sharing one folder of 16 dipoles) and on a small
// hierarchical model written to a temporary folder (3 stations sharing one folder of 4 tiles
// that share one tile folder of 3 antennas, with non-default element files).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "fringe/telescope/element_errors.h"
#include "fringe/telescope/tm_loader.h"

namespace fs = std::filesystem;
using namespace fringe::telescope;

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

TelescopeModel shipped(const std::string& name) {
  return load_telescope_model(fs::path(FRINGE_SOURCE_DIR) / "telescope-models" / name);
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

// A folder of its own per test (CTest runs the tests of this binary in parallel processes).
fs::path temp_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::temp_directory_path() / (std::string("fringe_element_errors_") +
                                                    info->test_suite_name() + "_" + info->name());
  fs::remove_all(dir);
  return dir;
}

// 3 stations -> one shared station folder of 4 tiles -> one shared tile folder of 3 antennas.
// The tile files hold position error columns, gains, phases, cable lengths and feed angles
// that differ from the defaults, so "replaced" and "added to" can be told apart.
TelescopeModel hierarchical_model() {
  const fs::path tm = temp_dir() / "tiles.tm";
  write(tm / "position.txt", "20.0 -30.0 0.0\n");
  write(tm / "layout.txt", "0 0 0\n100 0 0\n0 100 0\n");
  write(tm / "station" / "layout.txt", "-5 -5\n5 -5\n-5 5\n5 5\n");
  const fs::path tile = tm / "station" / "tile";
  write(tile / "layout.txt",
        "0 0 0 0.5 -0.25 0.125\n1 0 0 0.5 -0.25 0.125\n0 1 0 0.5 -0.25 0.125\n");
  write(tile / "gain_phase.txt", "3.0 10.0 0.0 0.0\n3.0 10.0 0.0 0.0\n3.0 10.0 0.0 0.0\n");
  write(tile / "cable_length_error.txt", "0.75\n0.75\n0.75\n");
  write(tile / "feed_angle.txt", "30 0 0\n30 0 0\n30 0 0\n");
  return load_telescope_model(tm);
}

// Calls fn(station, leaf, element, leaf model) for every antenna of every station.
void for_each_antenna(
    const TelescopeModel& m,
    const std::function<void(std::size_t, std::size_t, std::size_t, const StationModel&)>& fn) {
  for (std::size_t s = 0; s < m.num_stations(); ++s) {
    std::size_t leaf = 0;
    std::function<void(const StationModel&)> walk = [&](const StationModel& node) {
      if (!node.is_hierarchical()) {
        for (std::size_t e = 0; e < node.num_elements(); ++e) fn(s, leaf, e, node);
        ++leaf;
        return;
      }
      for (std::size_t e = 0; e < node.num_elements(); ++e) walk(node.tile_of(e));
    };
    walk(m.model_of(s));
  }
}

// One value per antenna of every station.
std::vector<double> collect(const TelescopeModel& m,
                            const std::function<double(const StationModel&, std::size_t)>& get) {
  std::vector<double> v;
  for_each_antenna(m, [&](std::size_t, std::size_t, std::size_t e, const StationModel& leaf) {
    v.push_back(get(leaf, e));
  });
  return v;
}

struct Moments {
  double mean = 0, std = 0;
};
Moments moments(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= double(v.size());
  for (double x : v) m.std += (x - m.mean) * (x - m.mean);
  m.std = std::sqrt(m.std / double(v.size() - 1));
  return m;
}
double correlation(const std::vector<double>& a, const std::vector<double>& b) {
  const Moments ma = moments(a), mb = moments(b);
  double c = 0;
  for (std::size_t i = 0; i < a.size(); ++i) c += (a[i] - ma.mean) * (b[i] - mb.mean);
  return c / double(a.size() - 1) / (ma.std * mb.std);
}

// Draws of N values that should be N(0, sigma): the sample mean has sd sigma/sqrt(N), the
// sample std a relative sd of 1/sqrt(2N); the bounds are 5 of those. A wrong scale (sigma^2,
// degrees), a uniform or a shared draw fails them.
void expect_normal(const std::vector<double>& v, double sigma, const std::string& what) {
  ASSERT_GT(v.size(), 1000u) << what;
  const Moments m = moments(v);
  const double n = double(v.size());
  EXPECT_NEAR(m.mean, 0.0, 5 * sigma / std::sqrt(n)) << what;
  EXPECT_NEAR(m.std / sigma, 1.0, 5 / std::sqrt(2 * n)) << what;
  double within = 0;
  for (double x : v) within += std::abs(x) < sigma;
  EXPECT_NEAR(within / n, 0.6827, 5 * std::sqrt(0.6827 * 0.3173 / n)) << what;
}

bool same_vec(const fringe::astro::Vec3& a, const fringe::astro::Vec3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

// Element data of two station models (and their tiles) are equal.
bool same_model(const StationModel& a, const StationModel& b) {
  if (a.num_elements() != b.num_elements() || a.tiles.size() != b.tiles.size() ||
      a.tile_index != b.tile_index || a.element_types != b.element_types || a.name != b.name) {
    return false;
  }
  for (int f = 0; f < 2; ++f) {
    const FeedData &x = a.feeds[f], &y = b.feeds[f];
    for (std::size_t e = 0; e < a.num_elements(); ++e) {
      const auto &gx = x.gain_phase[e], &gy = y.gain_phase[e];
      if (!same_vec(x.measured_enu[e], y.measured_enu[e]) ||
          !same_vec(x.true_enu[e], y.true_enu[e]) || gx.gain != gy.gain || gx.phase != gy.phase ||
          gx.gain_error != gy.gain_error || gx.phase_error != gy.phase_error ||
          x.cable_length_error[e] != y.cable_length_error[e] ||
          x.apodisation[e] != y.apodisation[e] || x.feed_angle[e].alpha != y.feed_angle[e].alpha ||
          x.feed_angle[e].beta != y.feed_angle[e].beta ||
          x.feed_angle[e].gamma != y.feed_angle[e].gamma) {
        return false;
      }
    }
  }
  for (std::size_t t = 0; t < a.tiles.size(); ++t)
    if (!same_model(a.tiles[t], b.tiles[t])) return false;
  return true;
}

bool same_telescope(const TelescopeModel& a, const TelescopeModel& b) {
  if (a.station_models.size() != b.station_models.size()) return false;
  for (std::size_t s = 0; s < a.num_stations(); ++s)
    if (a.stations[s].model_index != b.stations[s].model_index) return false;
  for (std::size_t i = 0; i < a.station_models.size(); ++i)
    if (!same_model(a.station_models[i], b.station_models[i])) return false;
  return true;
}

// Every override on its own, with its value, for loops over the keys.
std::vector<std::pair<std::string, ElementErrorConfig>> single_overrides() {
  std::vector<std::pair<std::string, ElementErrorConfig>> out;
  auto add = [&](const std::string& name, auto set) {
    ElementErrorConfig c;
    set(c);
    out.emplace_back(name, c);
  };
  add("position", [](ElementErrorConfig& c) { c.position_error_xy_m = 0.01; });
  for (int f = 0; f < 2; ++f) {
    const std::string p = f == 0 ? "x_" : "y_";
    add(p + "gain", [f](ElementErrorConfig& c) { c.gain[f] = 2.0; });
    add(p + "gain_error_fixed", [f](ElementErrorConfig& c) { c.gain_error_fixed[f] = 0.1; });
    add(p + "gain_error_time", [f](ElementErrorConfig& c) { c.gain_error_time[f] = 0.1; });
    add(p + "phase_error_fixed", [f](ElementErrorConfig& c) { c.phase_error_fixed_rad[f] = 0.1; });
    add(p + "phase_error_time", [f](ElementErrorConfig& c) { c.phase_error_time_rad[f] = 0.1; });
    add(p + "cable_length_error", [f](ElementErrorConfig& c) { c.cable_length_error_m[f] = 0.1; });
    add(p + "orientation_error", [f](ElementErrorConfig& c) { c.orientation_error_rad[f] = 0.1; });
  }
  return out;
}

}  // namespace

TEST(ElementErrors, AnyIsTrueExactlyWhenAValueIsPositive) {
  ElementErrorConfig none;
  EXPECT_FALSE(none.any());
  none.seed_position_xy = 7;  // seeds alone change nothing
  none.seed_gain = {3, 4};
  none.gain_error_fixed[0] = -1.0;  // values <= 0 mean "not set"
  EXPECT_FALSE(none.any());
  const auto all = single_overrides();
  EXPECT_EQ(all.size(), 15u);
  for (const auto& [name, c] : all) EXPECT_TRUE(c.any()) << name;
}

TEST(ElementErrors, NothingSetLeavesTheModelUnchanged) {
  for (const char* name : {"mwa-phase1.tm", "ska-low-aa1.tm"}) {
    const TelescopeModel before = shipped(name);
    TelescopeModel after = before;
    ElementErrorConfig c;
    c.seed_position_xy = 99;
    apply_element_errors(after, c);
    EXPECT_TRUE(same_telescope(before, after)) << name;
  }
  const TelescopeModel before = hierarchical_model();
  TelescopeModel after = before;
  apply_element_errors(after, ElementErrorConfig{});
  EXPECT_TRUE(same_telescope(before, after));
}

TEST(ElementErrors, EveryOverrideChangesTheModel) {
  const TelescopeModel before = hierarchical_model();
  for (const auto& [name, c] : single_overrides()) {
    TelescopeModel after = before;
    apply_element_errors(after, c);
    EXPECT_FALSE(same_telescope(before, after)) << name;
  }
}

TEST(ElementErrors, FixedValuesKeepSharedModelsAndChangeOnlyTheirFeed) {
  const TelescopeModel before = shipped("mwa-phase1.tm");
  ASSERT_EQ(before.station_models.size(), 1u);
  TelescopeModel m = before;
  ElementErrorConfig c;
  c.gain[0] = 2.5;
  c.gain_error_time[1] = 0.2;
  c.phase_error_time_rad[0] = 3 * kDeg;
  apply_element_errors(m, c);
  ASSERT_EQ(m.station_models.size(), 1u);  // nothing random: still one shared model
  const StationModel& sm = m.station_models[0];
  for (std::size_t e = 0; e < sm.num_elements(); ++e) {
    const auto& x = sm.feeds[0].gain_phase[e];
    const auto& y = sm.feeds[1].gain_phase[e];
    EXPECT_EQ(x.gain, 2.5);
    EXPECT_EQ(y.gain, 1.0);
    EXPECT_EQ(x.gain_error, 0.0);
    EXPECT_EQ(y.gain_error, 0.2);
    EXPECT_EQ(x.phase_error, 3 * kDeg);
    EXPECT_EQ(y.phase_error, 0.0);
    EXPECT_EQ(x.phase, 0.0);
    EXPECT_TRUE(same_vec(sm.feeds[0].true_enu[e], before.station_models[0].feeds[0].true_enu[e]));
  }
}

TEST(ElementErrors, FixedValuesActOnTheTilesOfAStationOfTiles) {
  TelescopeModel m = hierarchical_model();
  ASSERT_EQ(m.station_models.size(), 1u);
  ASSERT_EQ(m.station_models[0].tiles.size(), 1u);
  ElementErrorConfig c;
  c.gain[1] = 0.5;
  apply_element_errors(m, c);
  ASSERT_EQ(m.station_models.size(), 1u);
  const StationModel& st = m.station_models[0];
  ASSERT_EQ(st.tiles.size(), 1u);  // still shared
  for (std::size_t e = 0; e < st.num_elements(); ++e) {
    EXPECT_EQ(st.feeds[1].gain_phase[e].gain, 1.0);  // the station level (tile weights) is kept
  }
  for (std::size_t e = 0; e < st.tiles[0].num_elements(); ++e) {
    EXPECT_EQ(st.tiles[0].feeds[1].gain_phase[e].gain, 0.5);  // replaces the file's 3.0
    EXPECT_EQ(st.tiles[0].feeds[0].gain_phase[e].gain, 3.0);
  }
}

TEST(ElementErrors, StationsSharingAModelGetTheirOwnCopies) {
  TelescopeModel m = shipped("mwa-phase1.tm");
  const std::string name = m.station_models[0].name;
  ElementErrorConfig c;
  c.cable_length_error_m[0] = 0.05;
  apply_element_errors(m, c);
  ASSERT_EQ(m.num_stations(), 128u);
  ASSERT_EQ(m.station_models.size(), 128u);
  for (std::size_t s = 0; s < m.num_stations(); ++s) {
    EXPECT_EQ(m.stations[s].model_index, int(s));
    EXPECT_EQ(m.station_models[s].name, name);
    EXPECT_EQ(m.station_models[s].num_elements(), 16u);
  }
  for (std::size_t s = 1; s < m.num_stations(); ++s) {
    EXPECT_NE(m.station_models[s].feeds[0].cable_length_error,
              m.station_models[0].feeds[0].cable_length_error);
  }
}

TEST(ElementErrors, RandomOverridesUnshareTiles) {
  TelescopeModel m = hierarchical_model();
  ElementErrorConfig c;
  c.orientation_error_rad[1] = 2 * kDeg;
  apply_element_errors(m, c);
  ASSERT_EQ(m.station_models.size(), 3u);
  std::vector<double> alphas;
  for (std::size_t s = 0; s < 3; ++s) {
    const StationModel& st = m.model_of(s);
    ASSERT_EQ(st.tiles.size(), 4u);
    EXPECT_EQ(st.tile_index, (std::vector<int>{0, 1, 2, 3}));
    for (const StationModel& tile : st.tiles) {
      EXPECT_EQ(tile.name, "tile");
      ASSERT_EQ(tile.num_elements(), 3u);
      for (std::size_t e = 0; e < 3; ++e) {
        EXPECT_EQ(tile.feeds[0].feed_angle[e].alpha, 30 * kDeg);  // X untouched
        alphas.push_back(tile.feeds[1].feed_angle[e].alpha);
      }
    }
  }
  // 36 antennas, all different, all near the file's 30 deg.
  for (std::size_t i = 0; i < alphas.size(); ++i) {
    EXPECT_NEAR(alphas[i], 30 * kDeg, 5 * 2 * kDeg);
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(alphas[i], alphas[j]);
  }
}

TEST(ElementErrors, ReproducibleForASeedAndDifferentForAnother) {
  ElementErrorConfig c;
  c.position_error_xy_m = 0.02;
  c.gain_error_fixed = {0.1, 0.1};
  c.phase_error_fixed_rad = {0.1, 0.1};
  c.cable_length_error_m = {0.1, 0.1};
  c.orientation_error_rad = {0.1, 0.1};
  TelescopeModel a = hierarchical_model(), b = a, d = a;
  apply_element_errors(a, c);
  apply_element_errors(b, c);
  EXPECT_TRUE(same_telescope(a, b));
  // Another seed for one quantity changes that quantity only.
  c.seed_cable_length[0] = 2;
  apply_element_errors(d, c);
  EXPECT_FALSE(same_telescope(a, d));
  const auto cable = [](const StationModel& l, std::size_t e) {
    return l.feeds[0].cable_length_error[e];
  };
  const auto gain = [](const StationModel& l, std::size_t e) {
    return l.feeds[0].gain_phase[e].gain;
  };
  const auto ca = collect(a, cable), cd = collect(d, cable);
  for (std::size_t i = 0; i < ca.size(); ++i) EXPECT_NE(ca[i], cd[i]);
  EXPECT_EQ(collect(a, gain), collect(d, gain));
}

TEST(ElementErrors, DrawsDependOnlyOnStationTileAndElement) {
  // The draws of station s do not depend on the other stations: a model of the first station
  // alone gets the same values for it.
  ElementErrorConfig c;
  c.gain_error_fixed[0] = 0.3;
  TelescopeModel all = hierarchical_model();
  TelescopeModel first = all;
  first.stations.resize(1);
  apply_element_errors(all, c);
  apply_element_errors(first, c);
  EXPECT_TRUE(same_model(all.model_of(0), first.model_of(0)));
}

TEST(ElementErrors, PositionErrorsReplaceFileErrorsAndKeepHeight) {
  TelescopeModel m = hierarchical_model();
  const TelescopeModel before = m;
  ElementErrorConfig c;
  c.position_error_xy_m = 1e-3;
  apply_element_errors(m, c);
  for (std::size_t s = 0; s < 3; ++s) {
    const StationModel& st = m.model_of(s);
    for (std::size_t e = 0; e < st.num_elements(); ++e) {  // the tile positions are kept
      EXPECT_TRUE(same_vec(st.feeds[0].true_enu[e], before.model_of(s).feeds[0].true_enu[e]));
    }
  }
  for_each_antenna(m, [&](std::size_t, std::size_t, std::size_t e, const StationModel& leaf) {
    const auto& x = leaf.feeds[0];
    const auto& y = leaf.feeds[1];
    // true = measured + N(0, 1 mm): the file's +0.5, -0.25 m errors are gone; U error kept.
    EXPECT_NEAR(x.true_enu[e].x - x.measured_enu[e].x, 0.0, 6e-3);
    EXPECT_NEAR(x.true_enu[e].y - x.measured_enu[e].y, 0.0, 6e-3);
    EXPECT_NE(x.true_enu[e].x, x.measured_enu[e].x);
    EXPECT_DOUBLE_EQ(x.true_enu[e].z, x.measured_enu[e].z + 0.125);
    EXPECT_TRUE(same_vec(x.measured_enu[e], y.measured_enu[e]));
    EXPECT_TRUE(same_vec(x.true_enu[e], y.true_enu[e]));  // one draw for both feeds
  });
}

TEST(ElementErrors, GainAndPhaseErrorsReplaceFileValues) {
  TelescopeModel m = hierarchical_model();
  ElementErrorConfig c;
  c.gain_error_fixed[0] = 1e-6;  // gain not set: mean 1, not the file's 3
  c.gain[1] = 2.0;
  c.gain_error_fixed[1] = 1e-6;       // mean x_gain
  c.phase_error_fixed_rad[0] = 1e-6;  // mean 0, not the file's 10 deg
  apply_element_errors(m, c);
  for_each_antenna(m, [&](std::size_t, std::size_t, std::size_t e, const StationModel& leaf) {
    const auto& x = leaf.feeds[0].gain_phase[e];
    const auto& y = leaf.feeds[1].gain_phase[e];
    EXPECT_NEAR(x.gain, 1.0, 1e-5);
    EXPECT_NE(x.gain, 1.0);
    EXPECT_NEAR(y.gain, 2.0, 1e-5);
    EXPECT_NEAR(x.phase, 0.0, 1e-5);
    EXPECT_NE(x.phase, 0.0);
    EXPECT_EQ(y.phase, 10 * kDeg);
  });
}

TEST(ElementErrors, PositionErrorStatistics) {
  TelescopeModel m = shipped("ska-low-aa1.tm");
  const TelescopeModel before = m;
  ElementErrorConfig c;
  c.position_error_xy_m = 0.02;
  apply_element_errors(m, c);
  std::vector<double> de, dn;
  for (std::size_t s = 0; s < m.num_stations(); ++s) {
    const FeedData& f = m.model_of(s).feeds[0];
    const FeedData& f0 = before.model_of(s).feeds[0];
    for (std::size_t e = 0; e < f.true_enu.size(); ++e) {
      de.push_back(f.true_enu[e].x - f0.true_enu[e].x);
      dn.push_back(f.true_enu[e].y - f0.true_enu[e].y);
      EXPECT_EQ(f.true_enu[e].z, f0.true_enu[e].z);
    }
  }
  expect_normal(de, 0.02, "dE");
  expect_normal(dn, 0.02, "dN");
  EXPECT_NEAR(correlation(de, dn), 0.0, 5 / std::sqrt(double(de.size())));
}

TEST(ElementErrors, PerFeedDrawStatisticsAndIndependentFeeds) {
  TelescopeModel m = shipped("ska-low-aa1.tm");
  ElementErrorConfig c;
  c.gain = {1.5, 0.0};
  c.gain_error_fixed = {0.05, 0.2};
  c.phase_error_fixed_rad = {0.03, 0.03};
  c.cable_length_error_m = {0.4, 0.4};
  c.orientation_error_rad = {0.01, 0.02};
  apply_element_errors(m, c);  // equal seeds everywhere (1)
  for (int f = 0; f < 2; ++f) {
    const std::string feed = f == 0 ? "X " : "Y ";
    const double g = f == 0 ? 1.5 : 1.0;
    const auto gains = collect(
        m, [&](const StationModel& l, std::size_t e) { return l.feeds[f].gain_phase[e].gain - g; });
    expect_normal(gains, c.gain_error_fixed[f], feed + "gain");
    expect_normal(collect(m, [&](const StationModel& l,
                                 std::size_t e) { return l.feeds[f].gain_phase[e].phase; }),
                  0.03, feed + "phase");
    expect_normal(collect(m, [&](const StationModel& l,
                                 std::size_t e) { return l.feeds[f].cable_length_error[e]; }),
                  0.4, feed + "cable length");
    expect_normal(collect(m, [&](const StationModel& l,
                                 std::size_t e) { return l.feeds[f].feed_angle[e].alpha; }),
                  c.orientation_error_rad[f], feed + "orientation");
  }
  // X and Y (and different quantities) are independent streams even with equal seeds.
  const auto cx = collect(
      m, [](const StationModel& l, std::size_t e) { return l.feeds[0].cable_length_error[e]; });
  const auto cy = collect(
      m, [](const StationModel& l, std::size_t e) { return l.feeds[1].cable_length_error[e]; });
  const auto px = collect(
      m, [](const StationModel& l, std::size_t e) { return l.feeds[0].gain_phase[e].phase; });
  const double bound = 5 / std::sqrt(double(cx.size()));
  EXPECT_NEAR(correlation(cx, cy), 0.0, bound);
  EXPECT_NEAR(correlation(cx, px), 0.0, bound);
  // Stations (and elements) are independent too: station 0 against station 1.
  const auto& s0 = m.model_of(0).feeds[0].cable_length_error;
  const auto& s1 = m.model_of(1).feeds[0].cable_length_error;
  ASSERT_EQ(s0.size(), s1.size());
  EXPECT_NEAR(correlation(s0, s1), 0.0, 5 / std::sqrt(double(s0.size())));
}

TEST(ElementErrors, TileDrawStatistics) {
  // A station of many tiles: every tile gets its own draws (un-shared), and their statistics
  // over all tiles are N(0, sigma).
  const fs::path tm = temp_dir() / "many_tiles.tm";
  write(tm / "position.txt", "0 0\n");
  write(tm / "layout.txt", "0 0\n");
  std::string tiles, antennas;
  for (int i = 0; i < 64; ++i) tiles += std::to_string(i * 10) + " 0\n";
  for (int i = 0; i < 32; ++i) antennas += std::to_string(i) + " 1\n";
  write(tm / "station" / "layout.txt", tiles);
  write(tm / "station" / "tile" / "layout.txt", antennas);
  TelescopeModel m = load_telescope_model(tm);
  ElementErrorConfig c;
  c.phase_error_fixed_rad[0] = 0.2;
  apply_element_errors(m, c);
  ASSERT_EQ(m.model_of(0).tiles.size(), 64u);
  const auto phases = collect(
      m, [](const StationModel& l, std::size_t e) { return l.feeds[0].gain_phase[e].phase; });
  ASSERT_EQ(phases.size(), 64u * 32u);
  expect_normal(phases, 0.2, "tile phases");
  // Tiles 0 and 1 are uncorrelated.
  std::vector<double> t0, t1;
  for (std::size_t e = 0; e < 32; ++e) {
    t0.push_back(m.model_of(0).tiles[0].feeds[0].gain_phase[e].phase);
    t1.push_back(m.model_of(0).tiles[1].feeds[0].gain_phase[e].phase);
  }
  EXPECT_NE(t0, t1);
}
