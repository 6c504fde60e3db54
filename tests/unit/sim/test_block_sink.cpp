// sim/block_view: the blocks a block sink receives equal, value for value and bit for bit,
// the Measurement Set the same run writes (read back with io/ms MsReader), under both phase
// conventions, with auto-correlations, and for Scalar runs written as 4 products; a run with
// a sink and no file writes nothing; an exception of the sink stops the run and leaves no MS.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/sim/block_view.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/tm_loader.h"
#include "sim_test_setup.h"

namespace {

namespace fs = std::filesystem;
using fringe::sim::BlockView;
using fringe::sim::SimulationConfig;
using fringe_sim_test::kDeg;
using fringe_sim_test::vla;

std::string out_path(const std::string& name) {
  return fringe_sim_test::fresh_out_path("sim_block_sink_test", name);
}

// 5 times x 3 channels in blocks of 2 times x 2 channels (6 blocks, the last ones partial).
SimulationConfig config(const std::string& name) {
  SimulationConfig c = fringe_sim_test::vla_config(out_path(name));
  c.max_times_per_block = 2;
  c.max_channels_per_block = 2;
  c.devices.num_devices = 2;
  return c;
}

// Polarised point sources off the phase centre, so every product and both signs of the
// imaginary parts are exercised.
fringe::sky::SkyModel sky() {
  fringe::sky::SkyModel s;
  for (int i = 0; i < 4; ++i) {
    fringe::sky::Source src;
    src.ra = (200 + 0.1 * i) * kDeg;
    src.dec = (30 - 0.07 * i) * kDeg;
    src.I = 1 + i;
    src.Q = 0.3 * i;
    src.U = -0.2;
    src.V = 0.05 * i;
    s.push_back(src);
  }
  return s;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Runs c with a sink that keeps every block, then compares them with the MS.
void expect_blocks_equal_ms(const SimulationConfig& c) {
  std::vector<BlockView> blocks;
  fringe::sim::RunContext ctx;
  ctx.block_sink = [&](BlockView& v) { blocks.push_back(std::move(v)); };
  const auto result = fringe::sim::simulate_interferometer(c, sky(), vla(), ctx);
  ASSERT_EQ(blocks.size(), result.num_blocks);
  const fringe::io::MsReader ms(result.ms_path);
  const auto data = ms.read_data();
  const auto uvw = ms.read_uvw();
  const auto time = ms.read_time();
  const auto a1 = ms.read_antenna1();
  const auto a2 = ms.read_antenna2();
  const int nc_ms = c.observation.num_channels;
  std::size_t compared = 0, differ = 0;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const BlockView& b = blocks[k];
    EXPECT_EQ(b.block_index, k);
    EXPECT_EQ(b.num_blocks, blocks.size());
    ASSERT_EQ(b.vis.size(), std::size_t(b.num_times) * b.num_channels * b.num_rows * b.num_pols);
    const std::size_t npol = std::size_t(b.num_pols);
    ASSERT_EQ(data.size(), time.size() * std::size_t(nc_ms) * npol);
    for (int t = 0; t < b.num_times; ++t) {
      for (std::size_t r = 0; r < b.num_rows; ++r) {
        const std::size_t row = std::size_t(b.start_time_index + t) * b.num_rows + r;
        ASSERT_LT(row, time.size());
        EXPECT_TRUE(same_bits(b.time_mjd_utc_sec[t], time[row]));
        EXPECT_EQ(b.antenna1[r], a1[row]);
        EXPECT_EQ(b.antenna2[r], a2[row]);
        for (int i = 0; i < 3; ++i)
          EXPECT_TRUE(same_bits(b.uvw[(std::size_t(t) * b.num_rows + r) * 3 + i], uvw[row][i]));
        for (int ch = 0; ch < b.num_channels; ++ch) {
          for (std::size_t p = 0; p < npol; ++p) {
            const auto& v =
                b.vis[((std::size_t(t) * b.num_channels + ch) * b.num_rows + r) * npol + p];
            const auto& m =
                data[(row * nc_ms + std::size_t(b.start_channel_index + ch)) * npol + p];
            ++compared;
            if (!same_bits(v.real(), m.re) || !same_bits(v.imag(), m.im)) ++differ;
          }
        }
      }
    }
  }
  EXPECT_EQ(compared, data.size()) << "every MS value is in one block";
  EXPECT_EQ(differ, 0u) << "of " << compared;
}

TEST(BlockSink, BlocksEqualTheMsCasaConvention) { expect_blocks_equal_ms(config("casa")); }

TEST(BlockSink, BlocksEqualTheMsOskarConventionWithAutos) {
  SimulationConfig c = config("oskar_autos");
  c.casa_phase_convention = false;
  c.write_autos = true;
  c.precision = fringe::Precision::Single;
  expect_blocks_equal_ms(c);
}

TEST(BlockSink, ScalarForcedPolarisedEqualsTheMs) {
  SimulationConfig c = config("scalar4");
  c.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.force_polarised_ms = true;
  c.casa_phase_convention = false;
  expect_blocks_equal_ms(c);
}

TEST(BlockSink, RunWithSinkAndNoFileWritesNothing) {
  SimulationConfig c = config("no_file");
  c.ms_path.clear();
  std::size_t blocks = 0, values = 0;
  fringe::sim::RunContext ctx;
  ctx.block_sink = [&](BlockView& v) {
    ++blocks;
    values += v.vis.size();
  };
  const auto result = fringe::sim::simulate_interferometer(c, sky(), vla(), ctx);
  EXPECT_EQ(result.ms_path, "");
  EXPECT_EQ(blocks, result.num_blocks);
  // 27 VLA stations: 351 baselines x 5 times x 3 channels x 4 products.
  EXPECT_EQ(values, 351u * 5 * 3 * 4);
  EXPECT_EQ(result.vis_path, "");
}

TEST(BlockSink, NoFileAndNoSinkIsAnError) {
  SimulationConfig c = config("nothing");
  c.ms_path.clear();
  fringe::sim::RunContext ctx;
  EXPECT_THROW(fringe::sim::simulate_interferometer(c, sky(), vla(), ctx), fringe::Error);
}

TEST(BlockSink, SinkExceptionStopsTheRunAndLeavesNoMs) {
  SimulationConfig c = config("stopped");
  std::size_t calls = 0;
  fringe::sim::RunContext ctx;
  ctx.block_sink = [&](BlockView&) {
    if (++calls == 2) throw std::runtime_error("consumer gave up");
  };
  EXPECT_THROW(fringe::sim::simulate_interferometer(c, sky(), vla(), ctx), std::runtime_error);
  EXPECT_EQ(calls, 2u);
  EXPECT_FALSE(fs::exists(c.ms_path + ".MS"));
  EXPECT_FALSE(fs::exists(c.ms_path));
}

}  // namespace
