// Measurement Set metadata for other tools (issue 18; docs/ms_output.md): TELESCOPE_NAME, the
// ANTENNA names and the PHASED_ARRAY table EveryBeam reads for an aperture-array ("OSKAR")
// telescope. Expected station frames are built here from longitude and latitude (East,
// North, Up of the WGS84 ellipsoid), not from the writer's code; the table layout and the
// values are also compared with the MS that OSKAR 2.13 wrote for the same telescope
// (tests/data/oskar-reference/low_aa1_dipole_gauss).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;
using Vec = std::array<double, 3>;

// OSKAR's MS, packed in the repository (tests/data/oskar-reference/README.md): unpacked into a
// folder of the calling test's own, because CTest runs the tests of this program as parallel
// processes and a shared folder would be removed by one while another reads it.
std::string reference_ms() {
  static const std::string path = [] {
    const fs::path archive = fs::path(FRINGE_SOURCE_DIR) / "tests" / "data" / "oskar-reference" /
                             "low_aa1_dipole_gauss" / "low_aa1_dipole_gauss.ms.tar.gz";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_io_ms_metadata" /
                         (std::string("oskar_") + info->test_suite_name() + "_" + info->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string cmd = "tar xzf '" + archive.string() + "' -C '" + dir.string() + "'";
    if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "could not unpack " << archive;
    return (dir / "low_aa1_dipole_gauss.ms").string();
  }();
  return path;
}

std::string test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_io_ms_metadata" /
                       (std::string(info->test_suite_name()) + "_" + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// Three stations near the SKA-Low site, 100 m apart (lon, lat in degrees).
constexpr double kLonDeg[3] = {116.76, 116.761, 116.762};
constexpr double kLatDeg[3] = {-26.82, -26.821, -26.822};

Vec station_ecef(int i) {
  const astro::Vec3 e =
      astro::geodetic_to_ecef({kLonDeg[i] * kDegToRad, kLatDeg[i] * kDegToRad, 300.0});
  return {e.x, e.y, e.z};
}

vis::VisMeta make_meta() {
  vis::VisMeta m;
  m.station_names = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i) m.station_ecef_m.push_back(station_ecef(i));
  m.array_centre_ecef_m = m.station_ecef_m[0];
  m.phase_centre_ra_rad = 1.0;
  m.phase_centre_dec_rad = -0.5;
  m.num_channels = 1;
  m.start_frequency_hz = 100e6;
  m.frequency_inc_hz = 1e6;
  m.num_times = 1;
  m.start_time_mjd_utc = 60000.0;
  m.time_inc_sec = 1.0;
  return m;
}

std::string write(const vis::VisMeta& meta, const std::string& name) {
  MsWriter w(test_dir() + "/" + name, meta);
  w.finish();
  return w.path();
}

// East, North and Up unit vectors (ITRF) at geodetic longitude/latitude (degrees).
std::array<Vec, 3> enu_axes(double lon_deg, double lat_deg) {
  const double lon = lon_deg * kDegToRad, lat = lat_deg * kDegToRad;
  return {Vec{-std::sin(lon), std::cos(lon), 0.0},
          Vec{-std::sin(lat) * std::cos(lon), -std::sin(lat) * std::sin(lon), std::cos(lat)},
          Vec{std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)}};
}

void expect_near(const Vec& a, const Vec& b, double tol, const std::string& what) {
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[k], b[k], tol) << what << " [" << k << "]";
}

TEST(MsMetadata, TelescopeNameDefaultIsOskars) {
  vis::VisMeta m = make_meta();
  EXPECT_EQ(MsReader(write(m, "default.ms")).telescope_name(), "OSKAR 2.13.0-dev");
  m.telescope_name = "SKA-LOW";  // interferometer/telescope_name overrides it
  EXPECT_EQ(MsReader(write(m, "override.ms")).telescope_name(), "SKA-LOW");
}

TEST(MsMetadata, AntennaNames) {
  vis::VisMeta m = make_meta();
  EXPECT_EQ(MsReader(write(m, "labels.ms")).station_names(),
            (std::vector<std::string>{"s0000 (a)", "s0001 (b)", "s0002 (c)"}));
  m.antenna_names = {"S10-1", "S10-2", "s0002 (copy of station)"};
  EXPECT_EQ(MsReader(write(m, "names.ms")).station_names(), m.antenna_names);
  m.antenna_names = {"only one"};
  EXPECT_THROW(write(m, "bad.ms"), Error);
}

TEST(MsMetadata, NoElementsNoPhasedArrayRows) {
  const vis::VisMeta m = make_meta();
  MsReader r(write(m, "dishes.ms"));
  EXPECT_TRUE(r.phased_array().empty());
  EXPECT_EQ(r.column_layout("PHASED_ARRAY").size(), 5u);  // the table exists, as in OSKAR's
}

TEST(MsMetadata, PhasedArrayRows) {
  vis::VisMeta m = make_meta();
  // Station 0: three elements; station 1: none; station 2: two elements, rotated 30 deg.
  m.element_enu_m = {
      {{1.0, 0.0, 0.0}, {0.0, 2.0, 0.0}, {0.0, 0.0, 3.0}}, {}, {{1.0, 0.0, 0.0}, {-4.0, 5.0, 0.5}}};
  const double alpha = 30.0 * kDegToRad;
  m.feed_angles_rad = {{{0.0, 0.0}}, {{0.0, 0.0}}, {{alpha, 0.0}}};
  MsReader r(write(m, "aa.ms"));
  const std::vector<PhasedArrayRow> pa = r.phased_array();
  ASSERT_EQ(pa.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(pa[i].antenna_id, i);
    expect_near(pa[i].position_ecef_m, m.station_ecef_m[i], 0.0, "POSITION");
  }
  // Station 0: p, q, r = East, North, Up; element offsets are x p + y q + z r.
  const auto e0 = enu_axes(kLonDeg[0], kLatDeg[0]);
  for (int j = 0; j < 3; ++j) expect_near(pa[0].axes[j], e0[j], 1e-12, "axes station 0");
  ASSERT_EQ(pa[0].element_offset_ecef_m.size(), 3u);
  expect_near(pa[0].element_offset_ecef_m[0], e0[0], 1e-12, "element (1, 0, 0)");
  expect_near(pa[0].element_offset_ecef_m[1], {2 * e0[1][0], 2 * e0[1][1], 2 * e0[1][2]}, 1e-12,
              "element (0, 2, 0)");
  expect_near(pa[0].element_offset_ecef_m[2], {3 * e0[2][0], 3 * e0[2][1], 3 * e0[2][2]}, 1e-12,
              "element (0, 0, 3)");
  // Full polarisation: ELEMENT_FLAG [2, elements], all false.
  EXPECT_EQ(pa[0].flag_receptors, 2);
  EXPECT_EQ(pa[0].num_flag_cells, 6u);
  EXPECT_EQ(pa[0].num_flagged, 0u);
  // Station 1 has no elements: a row (the rows are station indices) with none.
  EXPECT_TRUE(pa[1].element_offset_ecef_m.empty());
  // Station 2: p is alpha from East towards North, q is 90 deg further, r stays Up.
  const auto e2 = enu_axes(kLonDeg[2], kLatDeg[2]);
  Vec p, q;
  for (int k = 0; k < 3; ++k) {
    p[k] = std::cos(alpha) * e2[0][k] + std::sin(alpha) * e2[1][k];
    q[k] = -std::sin(alpha) * e2[0][k] + std::cos(alpha) * e2[1][k];
  }
  expect_near(pa[2].axes[0], p, 1e-12, "p station 2");
  expect_near(pa[2].axes[1], q, 1e-12, "q station 2");
  expect_near(pa[2].axes[2], e2[2], 1e-12, "r station 2");
  ASSERT_EQ(pa[2].element_offset_ecef_m.size(), 2u);
  expect_near(pa[2].element_offset_ecef_m[0], p, 1e-12, "element (1, 0, 0) rotated");
  Vec expected;
  for (int k = 0; k < 3; ++k) expected[k] = -4.0 * p[k] + 5.0 * q[k] + 0.5 * e2[2][k];
  expect_near(pa[2].element_offset_ecef_m[1], expected, 1e-12, "element (-4, 5, 0.5) rotated");
  // The axes are orthonormal and right-handed (p x q = r).
  const Vec& a = pa[2].axes[0];
  const Vec& b = pa[2].axes[1];
  expect_near({a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]},
              pa[2].axes[2], 1e-12, "p x q");
}

TEST(MsMetadata, ElementFlagsFollowTheProducts) {
  vis::VisMeta m = make_meta();
  m.element_enu_m = {{{0.0, 0.0, 0.0}}, {{0.0, 0.0, 0.0}}, {{0.0, 0.0, 0.0}}};
  m.pol_mode = vis::PolMode::Scalar;
  EXPECT_EQ(MsReader(write(m, "scalar.ms")).phased_array()[0].flag_receptors, 1);
  m.force_polarised = true;  // a 4-product MS: two receptors, as OSKAR
  EXPECT_EQ(MsReader(write(m, "forced.ms")).phased_array()[0].flag_receptors, 2);
  m.element_enu_m.pop_back();
  EXPECT_THROW(write(m, "bad.ms"), Error);
}

// The column names, types, units and keywords of PHASED_ARRAY, OBSERVATION and ANTENNA are
// OSKAR 2.13's, and PHASED_ARRAY's shapes and column comments too.
TEST(MsMetadata, LayoutMatchesOskarReference) {
  MsReader ref(reference_ms());
  vis::VisMeta m = make_meta();
  m.element_enu_m = {{{0.0, 0.0, 0.0}}, {}, {}};
  MsReader ours(write(m, "layout.ms"));
  for (const std::string& table :
       std::vector<std::string>{"PHASED_ARRAY", "OBSERVATION", "ANTENNA"}) {
    const auto a = ours.column_layout(table);
    const auto b = ref.column_layout(table);
    ASSERT_EQ(a.size(), b.size()) << table;
    for (std::size_t c = 0; c < a.size(); ++c) {
      const std::string where = table + "::" + b[c].name;
      EXPECT_EQ(a[c].name, b[c].name) << where;
      EXPECT_EQ(a[c].data_type, b[c].data_type) << where;
      EXPECT_EQ(a[c].is_array, b[c].is_array) << where;
      // OBSERVATION's LOG and SCHEDULE are [any] in OSKAR's MS, [1] in casacore's default
      // layout that fringe uses (a difference no reader depends on): shapes of PHASED_ARRAY.
      if (table == "PHASED_ARRAY") EXPECT_EQ(a[c].ndim, b[c].ndim) << where;
      EXPECT_EQ(a[c].shape, b[c].shape) << where;
      EXPECT_EQ(a[c].units, b[c].units) << where;
      EXPECT_EQ(a[c].keywords, b[c].keywords) << where;
      if (table == "PHASED_ARRAY") EXPECT_EQ(a[c].comment, b[c].comment) << where;
    }
  }
  // OSKAR's value carries two trailing spaces (from its version string); fringe writes the
  // name without them (EveryBeam compares the start of the name only).
  EXPECT_EQ(ref.telescope_name(), "OSKAR 2.13.0-dev  ");
  EXPECT_EQ(ours.telescope_name(), "OSKAR 2.13.0-dev");
}

// Reads the element layout of a station folder (E N [U] per line, '#' comments, spaces or
// commas), as OSKAR's telescope model gives it.
std::vector<Vec> read_layout(const fs::path& file) {
  std::ifstream in(file);
  std::vector<Vec> out;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    for (char& c : line)
      if (c == ',') c = ' ';
    std::istringstream ss(line);
    Vec v{0.0, 0.0, 0.0};
    if (!(ss >> v[0] >> v[1])) continue;
    ss >> v[2];
    out.push_back(v);
  }
  return out;
}

// Written from the same station positions and element layouts, fringe's PHASED_ARRAY holds
// OSKAR's values (station axes and element offsets to well below a micrometre), and the
// ANTENNA names the make_meta of the simulator builds are OSKAR's.
TEST(MsMetadata, PhasedArrayMatchesOskarReference) {
  MsReader ref(reference_ms());
  const auto ref_pa = ref.phased_array();
  const auto positions = ref.station_positions_ecef_m();
  ASSERT_EQ(ref_pa.size(), positions.size());
  ASSERT_EQ(ref_pa.size(), 16u);
  vis::VisMeta m = make_meta();
  m.station_names.clear();
  m.station_ecef_m = positions;
  m.array_centre_ecef_m = positions[0];
  const fs::path tm = fs::path(FRINGE_SOURCE_DIR) / "telescope-models" / "ska-low-aa1.tm";
  for (std::size_t i = 0; i < positions.size(); ++i) {
    char folder[32];
    std::snprintf(folder, sizeof folder, "station%03zu", i);
    m.station_names.push_back(folder);
    m.element_enu_m.push_back(read_layout(tm / folder / "layout.txt"));
  }
  MsReader ours(write(m, "aa1.ms"));
  EXPECT_EQ(ours.station_names(), ref.station_names());  // "s0000 (station000)", ...
  const auto pa = ours.phased_array();
  ASSERT_EQ(pa.size(), ref_pa.size());
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const std::string s = "station " + std::to_string(i);
    EXPECT_EQ(pa[i].antenna_id, ref_pa[i].antenna_id) << s;
    expect_near(pa[i].position_ecef_m, ref_pa[i].position_ecef_m, 0.0, s + " POSITION");
    for (int j = 0; j < 3; ++j)
      expect_near(pa[i].axes[j], ref_pa[i].axes[j], 1e-9, s + " axis " + std::to_string(j));
    ASSERT_EQ(pa[i].element_offset_ecef_m.size(), ref_pa[i].element_offset_ecef_m.size()) << s;
    ASSERT_EQ(pa[i].element_offset_ecef_m.size(), 256u) << s;
    for (std::size_t e = 0; e < pa[i].element_offset_ecef_m.size(); ++e) {
      expect_near(pa[i].element_offset_ecef_m[e], ref_pa[i].element_offset_ecef_m[e], 1e-7,
                  s + " element " + std::to_string(e));
    }
    EXPECT_EQ(pa[i].flag_receptors, ref_pa[i].flag_receptors) << s;
    EXPECT_EQ(pa[i].num_flag_cells, ref_pa[i].num_flag_cells) << s;
    EXPECT_EQ(pa[i].num_flagged, ref_pa[i].num_flagged) << s;
  }
}

}  // namespace
}  // namespace fringe::io
