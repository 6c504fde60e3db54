// The Measurement Set metadata the simulator passes to the writer (issue 18; docs/ms_output.md):
// TELESCOPE_NAME (OSKAR's by default), OSKAR's ANTENNA names from the station folders, and the
// PHASED_ARRAY rows of aperture-array runs (the telescope model's element layouts). The
// expected element offsets are the layout positions turned from the station's East-North-Up
// frame into ITRF with fringe::astro, independently of the writer's own frame code.
#include <gtest/gtest.h>

#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/astro/time.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/tm_loader.h"
#include "sim_test_setup.h"

namespace {

namespace fs = std::filesystem;
using fringe::sim::SimulationConfig;
using fringe_sim_test::kDeg;

// One time and channel of a field at RA 30 deg, Dec -26 deg, 150 MHz.
SimulationConfig small_config(const std::string& name) {
  SimulationConfig c =
      fringe_sim_test::vla_config(fringe_sim_test::fresh_out_path("sim_ms_metadata_test", name));
  c.observation.phase_centre_ra = 30 * kDeg;
  c.observation.phase_centre_dec = -26 * kDeg;
  c.observation.start_frequency_hz = 150e6;
  c.observation.num_channels = 1;
  c.observation.length_sec = 60;
  c.observation.num_time_steps = 1;
  return c;
}

fringe::sky::SkyModel one_source(const SimulationConfig& c) {
  fringe::sky::SkyModel sky;
  fringe::sky::Source s;
  s.ra = c.observation.phase_centre_ra;
  s.dec = c.observation.phase_centre_dec;
  s.I = 1.0;
  sky.push_back(s);
  return sky;
}

fringe::telescope::TelescopeModel load(const std::string& model) {
  return fringe::telescope::load_telescope_model(
      std::string(FRINGE_SOURCE_DIR) + "/telescope-models/" + model, nullptr);
}

TEST(SimMsMetadata, ApertureArrayWritesPhasedArray) {
  const auto tel = load("ska-low-aa0.5.tm");
  SimulationConfig c = small_config("aa.ms");
  c.beam.station_type = fringe::jones::StationType::ApertureArray;
  // The phase centre (and the source) on the array's meridian.
  c.observation.phase_centre_ra =
      fringe::astro::gast_rad(c.observation.start_mjd_utc) + tel.centre.lon;
  c.observation.phase_centre_dec = -40 * kDeg;
  fringe::sim::RunContext ctx;
  fringe::sim::simulate_interferometer(c, one_source(c), tel, ctx);
  fringe::io::MsReader ms(c.ms_path);
  EXPECT_EQ(ms.telescope_name(), "OSKAR 2.13.0-dev");
  EXPECT_EQ(ms.station_names(),
            (std::vector<std::string>{"s0000 (station000)", "s0001 (station001)",
                                      "s0002 (station002)", "s0003 (station003)"}));
  const auto pa = ms.phased_array();
  ASSERT_EQ(pa.size(), 4u);
  const auto positions = ms.station_positions_ecef_m();
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(pa[i].antenna_id, static_cast<int>(i));
    EXPECT_EQ(pa[i].position_ecef_m, positions[i]);
    const auto& model = tel.model_of(i);
    const auto& enu = model.feed(fringe::telescope::Feed::X).true_enu;
    ASSERT_EQ(pa[i].element_offset_ecef_m.size(), enu.size());
    ASSERT_EQ(enu.size(), 256u);
    const auto g =
        fringe::astro::ecef_to_geodetic({positions[i][0], positions[i][1], positions[i][2]});
    for (std::size_t e = 0; e < enu.size(); e += 17) {
      const auto d = fringe::astro::enu_to_ecef_offset(enu[e], g.lon, g.lat);
      EXPECT_NEAR(pa[i].element_offset_ecef_m[e][0], d.x, 1e-9) << i << " " << e;
      EXPECT_NEAR(pa[i].element_offset_ecef_m[e][1], d.y, 1e-9) << i << " " << e;
      EXPECT_NEAR(pa[i].element_offset_ecef_m[e][2], d.z, 1e-9) << i << " " << e;
    }
    EXPECT_EQ(pa[i].flag_receptors, 2);
    EXPECT_EQ(pa[i].num_flagged, 0u);
  }
}

TEST(SimMsMetadata, OtherStationTypesWriteNoRows) {
  const auto tel = load("vla-a.tm");  // one shared station folder "station"
  SimulationConfig c = small_config("vla.ms");
  c.observation.start_frequency_hz = 1.4e9;
  c.observation.phase_centre_dec = 30 * kDeg;
  c.observation.phase_centre_ra = 200 * kDeg;
  c.telescope_name = "VLA test";
  fringe::sim::RunContext ctx;
  fringe::sim::simulate_interferometer(c, one_source(c), tel, ctx);
  fringe::io::MsReader ms(c.ms_path);
  EXPECT_EQ(ms.telescope_name(), "VLA test");
  EXPECT_TRUE(ms.phased_array().empty());
  const auto names = ms.station_names();
  ASSERT_EQ(names.size(), 27u);
  EXPECT_EQ(names[0], "s0000 (station)");
  EXPECT_EQ(names[26], "s0026 (station)");  // OSKAR: a copy only with beam duplication
  c.beam.allow_station_beam_duplication = true;
  c.ms_path += "_dup.ms";
  fringe::sim::simulate_interferometer(c, one_source(c), tel, ctx);
  const auto dup = fringe::io::MsReader(c.ms_path).station_names();
  EXPECT_EQ(dup[0], "s0000 (station)");
  EXPECT_EQ(dup[1], "s0001 (copy of station)");
}

}  // namespace
