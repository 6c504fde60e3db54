// The .tm loader on small fixtures (tests/data/telescope), one per rule of OSKAR's format.
// Positions are checked against ERFA's WGS84 conversions (eraGd2gc / eraGc2gd) and against
// analytic cases (a station straight "up" keeps the centre's lon/lat; at lon 0, lat 0 the
// ENU axes are the ECEF y, z, x axes).
#include <erfa.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "fringe/core/log.h"
#include "fringe/telescope/summary.h"
#include "fringe/telescope/tm_loader.h"

namespace fs = std::filesystem;
using namespace fringe::telescope;
using fringe::astro::Vec3;

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

fs::path fixture(const std::string& name) {
  return fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "telescope" / name;
}

Vec3 erfa_ecef(double lon_deg, double lat_deg, double h) {
  double xyz[3];
  EXPECT_EQ(eraGd2gc(1, lon_deg * kDeg, lat_deg * kDeg, h, xyz), 0);
  return {xyz[0], xyz[1], xyz[2]};
}

void expect_vec(const Vec3& a, const Vec3& b, double tol, const std::string& what) {
  EXPECT_NEAR(a.x, b.x, tol) << what;
  EXPECT_NEAR(a.y, b.y, tol) << what;
  EXPECT_NEAR(a.z, b.z, tol) << what;
}

double norm(const Vec3& v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(TmLoader, EnuLayoutWithErrorColumns) {
  const auto m = load_telescope_model(fixture("enu_errors.tm"));
  EXPECT_EQ(m.layout_frame, LayoutFrame::Enu);
  EXPECT_NEAR(m.centre.lon, 20.0 * kDeg, 1e-15);
  EXPECT_NEAR(m.centre.lat, -30.0 * kDeg, 1e-15);
  EXPECT_DOUBLE_EQ(m.centre.height, 100.0);
  expect_vec(m.centre_ecef, erfa_ecef(20.0, -30.0, 100.0), 1e-6, "centre ECEF vs ERFA");

  ASSERT_EQ(m.num_stations(), 4u);
  // No station folders: one shared model of one element at the origin.
  ASSERT_EQ(m.station_models.size(), 1u);
  EXPECT_EQ(m.station_models[0].num_elements(), 1u);
  for (const auto& s : m.stations) EXPECT_EQ(s.model_index, 0);
  EXPECT_EQ(m.stations[0].name, "s0000");

  // Columns 1-3 measured; + errors = true.
  const auto& s2 = m.stations[2];
  expect_vec(s2.measured_enu, {-300, 400, 0}, 0, "measured ENU");
  expect_vec(s2.true_enu, {-298.5, 397.5, 0.25}, 1e-12, "true ENU");
  expect_vec(m.stations[1].measured_enu, {100, 200, 5}, 0, "comma separated row");
  expect_vec(m.stations[1].true_enu, {100, 200, 5}, 0, "no errors: true = measured");
  EXPECT_TRUE(m.has_position_errors());

  // ENU -> offset ECEF is a rotation: lengths kept, and the Up component is the projection
  // on the ellipsoid normal (cos lat cos lon, cos lat sin lon, sin lat).
  const double lon = 20.0 * kDeg, lat = -30.0 * kDeg;
  const Vec3 up{std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
  for (const auto& s : m.stations) {
    EXPECT_NEAR(norm(s.true_offset_ecef), norm(s.true_enu), 1e-9);
    const Vec3& d = s.true_offset_ecef;
    EXPECT_NEAR(d.x * up.x + d.y * up.y + d.z * up.z, s.true_enu.z, 1e-9);
  }

  // A station straight up keeps the centre's longitude and latitude (ERFA for the truth).
  const auto& s3 = m.stations[3];
  EXPECT_NEAR(s3.geodetic.lon, lon, 1e-12);
  EXPECT_NEAR(s3.geodetic.lat, lat, 1e-12);
  EXPECT_NEAR(s3.geodetic.height, 150.0, 1e-6);
  // Every station's own geodetic position agrees with ERFA's ECEF -> geodetic.
  for (const auto& s : m.stations) {
    double xyz[3] = {s.true_ecef.x, s.true_ecef.y, s.true_ecef.z}, elong, phi, h;
    ASSERT_EQ(eraGc2gd(1, xyz, &elong, &phi, &h), 0);
    EXPECT_NEAR(s.geodetic.lon, elong, 1e-12);
    EXPECT_NEAR(s.geodetic.lat, phi, 1e-12);
    EXPECT_NEAR(s.geodetic.height, h, 1e-6);
  }

  // Longest baseline, from the fixture's coordinates (rotation keeps distances).
  auto dist = [](Vec3 a, Vec3 b) { return std::hypot(a.x - b.x, a.y - b.y, a.z - b.z); };
  const Vec3 meas[] = {{0, 0, 0}, {100, 200, 5}, {-300, 400, 0}, {0, 0, 50}};
  const Vec3 truth[] = {{0, 0, 0}, {100, 200, 5}, {-298.5, 397.5, 0.25}, {0, 0, 50}};
  double lm = 0, lt = 0;
  for (int p = 0; p < 4; ++p)
    for (int q = p + 1; q < 4; ++q) {
      lm = std::max(lm, dist(meas[p], meas[q]));
      lt = std::max(lt, dist(truth[p], truth[q]));
    }
  EXPECT_NEAR(longest_baseline(m, Positions::Measured).length, lm, 1e-8);
  EXPECT_NEAR(longest_baseline(m, Positions::True).length, lt, 1e-8);
  EXPECT_NE(lm, lt);
  const auto lb = longest_baseline(m, Positions::Measured);
  EXPECT_EQ(lb.p, 2u);
  EXPECT_EQ(lb.q, 3u);
}

TEST(TmLoader, EcefLayoutAndSeparateXYElementLayouts) {
  const auto m = load_telescope_model(fixture("ecef.tm"));
  EXPECT_EQ(m.layout_frame, LayoutFrame::Ecef);
  const double a = 6378137.0;  // WGS84: on the equator at lon 0, ECEF = (a + h, 0, 0)
  expect_vec(m.centre_ecef, {a, 0, 0}, 1e-9, "centre");
  ASSERT_EQ(m.num_stations(), 3u);
  // At lon 0, lat 0: E = y, N = z, U = x.
  expect_vec(m.stations[0].measured_enu, {0, 0, 10}, 1e-6, "station 0");
  expect_vec(m.stations[1].measured_enu, {20, 0, 0}, 1e-6, "station 1");
  expect_vec(m.stations[2].measured_enu, {0, 30, 0}, 1e-6, "station 2 measured");
  expect_vec(m.stations[2].true_enu, {0, 30, 0.5}, 1e-6, "station 2 true (dX error)");
  expect_vec(m.stations[2].measured_offset_ecef, {0, 0, 30}, 1e-6, "offset = ECEF - centre");
  expect_vec(m.stations[2].true_offset_ecef, {0.5, 0, 30}, 1e-6, "true offset");
  EXPECT_NEAR(m.stations[0].geodetic.lon, 0.0, 1e-15);
  EXPECT_NEAR(m.stations[0].geodetic.lat, 0.0, 1e-15);
  EXPECT_NEAR(m.stations[0].geodetic.height, 10.0, 1e-6);

  // One shared folder; X and Y feeds have their own layouts.
  ASSERT_EQ(m.station_models.size(), 1u);
  const auto& st = m.station_models[0];
  EXPECT_EQ(st.name, "station");
  ASSERT_EQ(st.num_elements(), 2u);
  EXPECT_TRUE(st.feeds_differ());
  expect_vec(st.feed(Feed::X).measured_enu[0], {1, 0, 0}, 0, "X element 0");
  expect_vec(st.feed(Feed::Y).measured_enu[0], {0, 1, 0}, 0, "Y element 0");
  expect_vec(st.feed(Feed::Y).true_enu[0], {0, 1.1, 0}, 1e-15, "Y element 0 true");
  expect_vec(st.feed(Feed::Y).measured_enu[1], {0, -1, 0}, 0, "Y element 1");
}

TEST(TmLoader, Wgs84LayoutAndFoldersInOskarOrder) {
  const auto m = load_telescope_model(fixture("wgs84.tm"));
  EXPECT_EQ(m.layout_frame, LayoutFrame::Wgs84);
  ASSERT_EQ(m.num_stations(), 3u);
  // Folders sort as bytes: "a10" < "a9" < "b" (station i uses folder i).
  ASSERT_EQ(m.station_models.size(), 3u);
  EXPECT_EQ(m.stations[0].name, "a10");
  EXPECT_EQ(m.stations[1].name, "a9");
  EXPECT_EQ(m.stations[2].name, "b");
  EXPECT_EQ(m.model_of(0).num_elements(), 1u);
  EXPECT_EQ(m.model_of(1).num_elements(), 2u);  // from layout_enu.txt
  EXPECT_EQ(m.model_of(2).num_elements(), 3u);
  // Station 0 sits above the centre: ENU (0, 0, 50).
  expect_vec(m.stations[0].measured_enu, {0, 0, 50}, 1e-6, "station above centre");
  // Geodetic positions come back as written; ECEF agrees with ERFA.
  const double file[3][3] = {{10, 45, 50}, {10.01, 45.0, 0}, {9.99, 44.99, 12.5}};
  for (int i = 0; i < 3; ++i) {
    const auto& s = m.stations[i];
    EXPECT_NEAR(s.geodetic.lon, file[i][0] * kDeg, 1e-12);
    EXPECT_NEAR(s.geodetic.lat, file[i][1] * kDeg, 1e-12);
    EXPECT_NEAR(s.geodetic.height, file[i][2], 1e-6);
    expect_vec(s.true_ecef, erfa_ecef(file[i][0], file[i][1], file[i][2]), 1e-6, "ECEF");
    expect_vec(s.true_enu, s.measured_enu, 0, "WGS84 has no error columns");
  }
  EXPECT_FALSE(m.has_position_errors());
}

TEST(TmLoader, StationTypeMap) {
  const auto m = load_telescope_model(fixture("type_map.tm"));
  ASSERT_EQ(m.num_stations(), 4u);
  ASSERT_EQ(m.station_models.size(), 2u);
  EXPECT_EQ(m.station_models[0].name, "type_a");
  EXPECT_EQ(m.station_models[1].name, "type_b");
  const int expected[] = {1, 0, 1, 1};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(m.stations[i].model_index, expected[i]);
  const auto sum = summarise(m);
  EXPECT_EQ(sum.elements_per_station, (std::vector<std::size_t>{4, 1, 4, 4}));
  EXPECT_EQ(sum.total_elements, 13u);
  EXPECT_EQ(sum.num_station_models, 2u);
  EXPECT_EQ(m.stations[1].name, "s0001");
}

TEST(TmLoader, TilesSharedAndPerElement) {
  const auto m = load_telescope_model(fixture("tiles.tm"));
  ASSERT_EQ(m.station_models.size(), 2u);
  const auto& shared = m.station_models[0];
  EXPECT_EQ(shared.num_elements(), 3u);
  ASSERT_EQ(shared.tiles.size(), 1u);  // one tile folder, copied to all elements
  EXPECT_EQ(shared.tile_index, (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(shared.tile_of(2).num_elements(), 4u);
  EXPECT_EQ(shared.num_leaf_elements(), 12u);
  EXPECT_EQ(shared.num_levels(), 2);

  const auto& per = m.station_models[1];
  ASSERT_EQ(per.tiles.size(), 2u);
  EXPECT_EQ(per.tile_of(0).name, "tile0");
  EXPECT_EQ(per.tile_of(1).name, "tile1");
  EXPECT_EQ(per.num_leaf_elements(), 5u);
  const auto sum = summarise(m);
  EXPECT_EQ(sum.elements_per_station, (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(sum.leaf_elements_per_station, (std::vector<std::size_t>{12, 5}));
  EXPECT_EQ(sum.total_elements, 17u);
  // rms.txt in a tile has no meaning: warned, not used.
  EXPECT_TRUE(contains(m.warnings, "tile1/rms.txt"));
}

// A feed_angle.txt of one line gives every element that angle (both feeds).
TEST(TmLoader, FeedAngleOfOneLineSetsEveryElement) {
  const auto m = load_telescope_model(fixture("feed_angle_one_line.tm"));
  const auto& st = m.station_models.at(0);
  ASSERT_EQ(st.num_elements(), 3u);
  for (const auto f : {Feed::X, Feed::Y}) {
    for (const auto& a : st.feed(f).feed_angle) {
      EXPECT_NEAR(a.alpha, 30 * kDeg, 1e-15);
      EXPECT_NEAR(a.beta, 5 * kDeg, 1e-15);
    }
  }
}

TEST(TmLoader, ElementFiles) {
  const auto m = load_telescope_model(fixture("element_files.tm"));
  ASSERT_EQ(m.station_models.size(), 1u);
  const auto& st = m.station_models[0];
  ASSERT_EQ(st.num_elements(), 3u);
  const auto& x = st.feed(Feed::X);
  const auto& y = st.feed(Feed::Y);
  expect_vec(x.true_enu[0], {0.01, 0.02, 0.03}, 1e-15, "element error columns");
  expect_vec(x.measured_enu[0], {0, 0, 0}, 0, "element measured");

  // gain_phase.txt: G0, phi0 [deg], sigma_G, sigma_phi [deg]; defaults 1, 0, 0, 0.
  EXPECT_DOUBLE_EQ(x.gain_phase[0].gain, 1.1);
  EXPECT_NEAR(x.gain_phase[0].phase, 10 * kDeg, 1e-15);
  EXPECT_DOUBLE_EQ(x.gain_phase[0].gain_error, 0.01);
  EXPECT_NEAR(x.gain_phase[0].phase_error, 1 * kDeg, 1e-15);
  EXPECT_DOUBLE_EQ(x.gain_phase[1].gain, 0.9);
  EXPECT_DOUBLE_EQ(x.gain_phase[1].phase, 0.0);
  EXPECT_NEAR(x.gain_phase[2].phase, -20 * kDeg, 1e-15);
  for (const auto& g : y.gain_phase) EXPECT_DOUBLE_EQ(g.gain, 2.0);  // gain_phase_y.txt

  // cable_length_error_x.txt only: Y uses X's values.
  EXPECT_EQ(x.cable_length_error, (std::vector<double>{0.001, 0.002, 0.003}));
  EXPECT_EQ(y.cable_length_error, x.cable_length_error);

  // apodization.txt (American spelling): re [im].
  EXPECT_EQ(x.apodisation[0], std::complex<double>(0.5, 0));
  EXPECT_EQ(x.apodisation[1], std::complex<double>(1, 0.25));
  EXPECT_EQ(x.apodisation[2], std::complex<double>(0.75, -0.5));
  EXPECT_EQ(y.apodisation, x.apodisation);

  // feed_angle.txt sets both feeds, feed_angle_x.txt then overrides X.
  for (const auto& f : x.feed_angle) {
    EXPECT_NEAR(f.alpha, 90 * kDeg, 1e-15);
    EXPECT_EQ(f.beta, 0.0);
  }
  EXPECT_NEAR(y.feed_angle[0].alpha, 45 * kDeg, 1e-15);
  EXPECT_NEAR(y.feed_angle[1].beta, 10 * kDeg, 1e-15);
  EXPECT_NEAR(y.feed_angle[2].gamma, 5 * kDeg, 1e-15);

  EXPECT_EQ(st.element_types, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(st.mount_types,
            (std::vector<MountType>{MountType::Fixed, MountType::AltAz, MountType::Fixed}));
  ASSERT_EQ(st.permitted_beams.size(), 2u);
  EXPECT_NEAR(st.permitted_beams[0].elevation, 90 * kDeg, 1e-15);
  EXPECT_NEAR(st.permitted_beams[1].azimuth, 180 * kDeg, 1e-15);
  EXPECT_NEAR(st.permitted_beams[1].elevation, 45 * kDeg, 1e-15);

  // Root cable_length_error.txt sets both feeds per station, _y overrides Y.
  EXPECT_DOUBLE_EQ(m.stations[0].cable_length_error_x, 0.1);
  EXPECT_DOUBLE_EQ(m.stations[1].cable_length_error_x, 0.2);
  EXPECT_DOUBLE_EQ(m.stations[0].cable_length_error_y, -0.3);
  EXPECT_DOUBLE_EQ(m.stations[1].cable_length_error_y, -0.4);
  EXPECT_TRUE(m.unsupported_files.empty());
  EXPECT_TRUE(m.warnings.empty());
}

TEST(TmLoader, NoiseInheritedAndOverridden) {
  const auto m = load_telescope_model(fixture("noise.tm"));
  EXPECT_EQ(m.noise_freq_hz, (std::vector<double>{100e6, 150e6, 200e6}));
  EXPECT_EQ(m.noise_rms_jy(0), (std::vector<double>{10, 8, 6}));  // root rms.txt
  EXPECT_EQ(m.noise_rms_jy(1), (std::vector<double>{5, 4, 3}));   // st1/rms.txt
}

TEST(TmLoader, UnsupportedFilesAreListedAndWarned) {
  std::ostringstream log_text;
  fringe::Logger logger(log_text);
  const auto m = load_telescope_model(fixture("unsupported.tm"), &logger);
  EXPECT_EQ(m.layout_frame, LayoutFrame::Enu);  // layout.txt wins over layout_ecef.txt
  EXPECT_EQ(m.num_stations(), 2u);
  std::vector<std::string> paths;
  for (const auto& f : m.unsupported_files) paths.push_back(f.path);
  // Spherical-wave text files and FEKO HDF5 files are read by jones/ and the root
  // gain_model.h5 by the loader (issue 19; test_gain_model.cpp): not listed.
  EXPECT_EQ(paths.size(), 1u);
  EXPECT_TRUE(contains(paths, "HARP_element_100MHz.h5"));
  EXPECT_FALSE(contains(paths, "element_pattern_spherical_wave_x_te_re_0_100.txt"));
  EXPECT_FALSE(contains(paths, "element_pattern_FEKO_100.h5"));
  // Warnings: the unsupported files, the ignored layout_ecef.txt, root gain_phase.txt.
  EXPECT_TRUE(contains(m.warnings, "HARP_element_100MHz.h5"));
  EXPECT_FALSE(contains(m.warnings, "element_pattern_spherical_wave"));
  EXPECT_TRUE(contains(m.warnings, "layout_ecef.txt"));
  EXPECT_TRUE(contains(m.warnings, "gain_phase.txt"));
  EXPECT_EQ(logger.warning_count(), static_cast<int>(m.warnings.size()));
  EXPECT_NE(log_text.str().find("HARP_element_100MHz.h5"), std::string::npos);
  EXPECT_EQ(summarise(m).num_unsupported_files, 1u);
}

TEST(TmLoader, LoadStationModelOnItsOwn) {
  const auto st = load_station_model(fixture("tiles.tm") / "station1");
  EXPECT_EQ(st.num_elements(), 2u);
  EXPECT_EQ(st.num_leaf_elements(), 5u);
}

TEST(Summary, FormatMentionsTheFigures) {
  const auto m = load_telescope_model(fixture("type_map.tm"));
  const auto s = summarise(m);
  const std::string text = format_summary(m, s);
  EXPECT_NE(text.find("stations: 4"), std::string::npos) << text;
  EXPECT_NE(text.find("total elements: 13"), std::string::npos) << text;
  EXPECT_NE(text.find("longest baseline"), std::string::npos) << text;
  // Four stations on a 10 m square: longest is the diagonal.
  EXPECT_NEAR(s.longest_baseline.length, std::sqrt(200.0), 1e-9);
  EXPECT_NEAR(shortest_baseline(m).length, 10.0, 1e-9);
}
