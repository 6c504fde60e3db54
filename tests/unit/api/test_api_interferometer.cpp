// fringe/api/interferometer.h: the Interferometer run from typed objects and from a settings
// tree gives the same Measurement Set; the pull-style BlockStream yields the blocks a sink of
// a run that writes the MS receives (and so the MS: test_sim BlockSink.*), in order, with no
// file written; closing a stream early stops the run; errors surface as fringe::Error.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "fringe/api/interferometer.h"
#include "fringe/api/predict.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/settings.h"
#include "fringe/telescope/tm_loader.h"

namespace {

namespace fs = std::filesystem;
namespace api = fringe::api;
constexpr double kDeg = std::numbers::pi / 180.0;

fs::path out_dir() {
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "api_interferometer_test";
  fs::create_directories(dir);
  return dir;
}
std::string out_path(const std::string& name) {
  fs::remove_all(out_dir() / name);
  return (out_dir() / name).string();
}
std::string tm() { return std::string(FRINGE_SOURCE_DIR) + "/telescope-models/vla-a.tm"; }

// Two sources near the phase centre (RA 200, Dec 30 deg), written as an OSKAR sky file
// (RA, Dec [deg], I, Q, U, V [Jy]) for the settings run.
const char* kSkyText = "200.05 30.02 2.0 0.1 -0.2 0.05\n199.9 29.95 1.0 0 0 0\n";

api::Sky sky_objects() {
  api::Sky sky;
  fringe::sky::Source a, b;
  a.ra = 200.05 * kDeg;
  a.dec = 30.02 * kDeg;
  a.I = 2.0;
  a.Q = 0.1;
  a.U = -0.2;
  a.V = 0.05;
  b.ra = 199.9 * kDeg;
  b.dec = 29.95 * kDeg;
  b.I = 1.0;
  sky.push_back(a);
  sky.push_back(b);
  return sky;
}

fringe::settings::Settings settings(const std::string& ms) {
  const std::string sky = (out_dir() / "sky.osm").string();
  std::ofstream(sky) << kSkyText;
  fringe::settings::Settings s(fringe::settings::Schema::load(fringe::settings::embedded_schemas(),
                                                              "sim_interferometer.xml"));
  s.set("simulator/use_gpus", "false");
  s.set("sky/oskar_sky_model/file", sky);
  s.set("telescope/input_directory", tm());
  s.set("telescope/station_type", "Isotropic beam");
  s.set("observation/phase_centre_ra_deg", "200");
  s.set("observation/phase_centre_dec_deg", "30");
  s.set("observation/start_frequency_hz", "1.4e9");
  s.set("observation/num_channels", "3");
  s.set("observation/frequency_inc_hz", "4e6");
  s.set("observation/start_time_utc", "2024-03-15 08:24:00");
  s.set("observation/length", "00:08:00");
  s.set("observation/num_time_steps", "5");
  s.set("interferometer/max_time_samples_per_block", "2");
  s.set("interferometer/ms_filename", ms);
  return s;
}

// The same run as settings(): typed objects.
api::Interferometer objects(const std::string& ms) {
  api::Interferometer sim;
  sim.set_sky_model(sky_objects());
  sim.set_telescope_model(fringe::telescope::load_telescope_model(tm(), nullptr));
  fringe::api::Observation o;
  o.phase_centre_ra = 200 * kDeg;
  o.phase_centre_dec = 30 * kDeg;
  o.start_frequency_hz = 1.4e9;
  o.num_channels = 3;
  o.frequency_inc_hz = 4e6;
  o.start_mjd_utc = 60384.35;  // 2024-03-15 08:24:00 UTC
  o.length_sec = 480;
  o.num_time_steps = 5;
  sim.set_observation(o);
  sim.config().beam.station_type = fringe::jones::StationType::Isotropic;
  sim.config().max_times_per_block = 2;
  sim.config().ms_path = ms;
  return sim;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_data(const std::string& ms_a, const std::string& ms_b) {
  const fringe::io::MsReader a(ms_a), b(ms_b);
  const auto da = a.read_data(), db = b.read_data();
  ASSERT_EQ(da.size(), db.size());
  ASSERT_GT(da.size(), 0u);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < da.size(); ++i)
    differ += !same_bits(da[i].re, db[i].re) || !same_bits(da[i].im, db[i].im);
  EXPECT_EQ(differ, 0u) << "of " << da.size();
  EXPECT_EQ(a.read_uvw(), b.read_uvw());
  EXPECT_EQ(a.read_time(), b.read_time());
}

TEST(ApiInterferometer, SettingsAndObjectsGiveTheSameMs) {
  const std::string ms_s = out_path("from_settings.ms"), ms_o = out_path("from_objects.ms");
  const auto from_settings = api::Interferometer::from_settings(settings(ms_s));
  EXPECT_EQ(from_settings.sky_model().size(), 2u);
  const auto rs = from_settings.run();
  const auto ro = objects(ms_o).run();
  EXPECT_EQ(rs.ms_path, ms_s);
  EXPECT_EQ(rs.num_rows, 5u * 351);
  expect_same_data(rs.ms_path, ro.ms_path);
}

TEST(ApiInterferometer, StreamYieldsTheBlocksOfTheRunInOrderWithoutFiles) {
  const std::string ms = out_path("streamed.ms");
  api::Interferometer sim = objects(ms);
  std::vector<api::BlockView> from_run;
  sim.run([&](api::BlockView& v) { from_run.push_back(v); });
  fs::remove_all(ms);
  api::BlockStream stream = sim.blocks();
  std::size_t k = 0;
  while (auto v = stream.next()) {
    ASSERT_LT(k, from_run.size());
    EXPECT_EQ(v->block_index, k);
    EXPECT_EQ(v->vis, from_run[k].vis);
    EXPECT_EQ(v->uvw, from_run[k].uvw);
    EXPECT_EQ(v->time_mjd_utc_sec, from_run[k].time_mjd_utc_sec);
    EXPECT_EQ(v->antenna1, from_run[k].antenna1);
    ++k;
  }
  EXPECT_EQ(k, from_run.size());
  EXPECT_EQ(k, 3u);  // 5 times in blocks of 2
  ASSERT_TRUE(stream.result().has_value());
  EXPECT_EQ(stream.result()->ms_path, "");
  EXPECT_FALSE(fs::exists(ms));
}

TEST(ApiInterferometer, ClosingAStreamEarlyStopsTheRunAndRemovesItsFiles) {
  const std::string ms = out_path("closed.ms");
  api::Interferometer sim = objects(ms);
  api::BlockStream stream = sim.blocks(/*write_files=*/true, /*queue_blocks=*/1);
  ASSERT_TRUE(stream.next().has_value());
  stream.close();
  EXPECT_FALSE(stream.result().has_value());
  EXPECT_FALSE(fs::exists(ms));
  EXPECT_FALSE(stream.next().has_value());
}

TEST(ApiInterferometer, ErrorsAreFringeErrors) {
  api::Interferometer no_sky;
  EXPECT_THROW(no_sky.run(), fringe::Error);
  // An empty sky: the pipeline's error, rethrown by the stream in place of a block.
  api::Interferometer sim = objects("");
  sim.set_sky_model(api::Sky());
  api::BlockStream stream = sim.blocks();
  EXPECT_THROW(stream.next(), fringe::Error);
  EXPECT_FALSE(stream.next().has_value());
  // A bad setting names its key.
  auto s = settings(out_path("bad.ms"));
  s.set("telescope/input_directory", (out_dir() / "no_such.tm").string());
  try {
    (void)api::Interferometer::from_settings(s);
    FAIL() << "expected fringe::Error";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such.tm"), std::string::npos) << e.what();
  }
  // An output that is not a Measurement Set is refused before any work.
  const std::string file = (out_dir() / "not_an_ms.MS").string();
  std::ofstream(file) << "precious";
  EXPECT_THROW(objects(file).run(), fringe::Error);
  EXPECT_EQ(fs::file_size(file), 8u);
}

// station_uvw() gives the UVW the simulator writes: baseline (p, q) = uvw_p - uvw_q of the
// measured positions (CASA convention), bit for bit.
TEST(ApiPredict, StationUvwMatchesTheWrittenUvw) {
  const std::string ms = out_path("uvw.ms");
  api::Interferometer sim = objects(ms);
  sim.run();
  const auto written = fringe::io::MsReader(ms).read_uvw();
  const std::size_t n = sim.telescope_model().stations.size(), nb = n * (n - 1) / 2;
  for (int t = 0; t < 5; ++t) {
    const auto uvw = api::station_uvw(sim.telescope_model(), sim.observation(), t);
    std::size_t b = 0;
    for (std::size_t p = 0; p < n; ++p) {
      for (std::size_t q = p + 1; q < n; ++q, ++b) {
        for (int k = 0; k < 3; ++k)
          ASSERT_EQ(uvw[3 * p + k] - uvw[3 * q + k], written[t * nb + b][k]) << t << " " << b;
      }
    }
  }
}

}  // namespace
