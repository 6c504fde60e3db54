// OSKAR's station gain model (gain_model.h5, sim/station_gain_model.h) on the GPU back end
// against the CPU back end, element by element through the Measurement Sets both write:
// SKA-Low AA0.5 aperture arrays with the gain table of tests/data/oskar-reference/gain_model,
// Full double and Scalar single, autocorrelations and system noise (added after the gains).
// Skipped without a CUDA device. (fringe against OSKAR: external.sim_vs_oskar.gain_model.)
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "fringe/astro/time.h"
#include "fringe/core/device.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/telescope/tm_loader.h"

namespace {

namespace fs = std::filesystem;
constexpr double kDeg = std::numbers::pi / 180.0;

struct Case {
  fringe::telescope::TelescopeModel tel;
  fringe::sim::SimulationConfig config;
  fringe::sky::SkyModel sky;
};

Case make_case() {
  const std::string src = FRINGE_SOURCE_DIR;
  Case c{
      fringe::telescope::load_telescope_model(src + "/telescope-models/ska-low-aa0.5.tm"), {}, {}};
  // The reference case's table: 3 times x 3 channels (100.4 to 120 MHz) x 5 stations.
  c.tel.gain_model = fringe::telescope::load_gain_model(
      src + "/tests/data/oskar-reference/gain_model/telescope.tm/gain_model.h5",
      c.tel.num_stations());
  auto& s = c.config;
  s.observation.start_frequency_hz = 105e6;  // channels take table channels 1 and 0
  s.observation.num_channels = 2;
  s.observation.frequency_inc_hz = 6e6;
  s.observation.start_mjd_utc = 60384.35;
  s.observation.length_sec = 1200;
  s.observation.num_time_steps = 4;  // the 4th is past the table: its last time
  s.observation.phase_centre_ra =
      fringe::astro::gast_rad(s.observation.start_mjd_utc + 600.0 / 86400.0) + c.tel.centre.lon;
  s.observation.phase_centre_dec = c.tel.centre.lat + 5 * kDeg;
  s.beam.station_type = fringe::jones::StationType::ApertureArray;
  s.write_autos = true;
  s.noise.enable = true;
  s.noise.seed = 11;
  s.noise.freq = fringe::sim::NoiseFreqSource::ObservationSettings;
  s.noise.rms = fringe::sim::NoiseRmsSource::Range;
  s.noise.rms_start_jy = 0.2;
  s.noise.rms_end_jy = 0.2;
  s.channel_bandwidth_hz = 1e5;
  s.time_average_sec = 1;
  for (int i = 0; i < 12; ++i) {
    fringe::sky::Source src_i;
    src_i.ra = s.observation.phase_centre_ra + 0.03 * std::sin(1.7 * i);
    src_i.dec = s.observation.phase_centre_dec + 0.03 * std::cos(0.9 * i);
    src_i.I = 2 + 0.3 * i;
    src_i.Q = 0.2 * (i % 3);
    src_i.U = -0.1 * (i % 4);
    src_i.V = 0.05 * i;
    src_i.ref_freq = s.observation.start_frequency_hz;
    c.sky.push_back(src_i);
  }
  return c;
}

std::vector<fringe::Complex<float>> run(Case c, bool gpu, const std::string& name) {
  c.config.devices.use_gpus = gpu;
  c.config.devices.num_devices = gpu ? 0 : 2;
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "sim_gain_model_gpu_test";
  fs::create_directories(dir);
  const fs::path ms = dir / (name + (gpu ? "_gpu.ms" : "_cpu.ms"));
  fs::remove_all(ms);
  c.config.ms_path = ms.string();
  fringe::sim::RunContext ctx;
  const auto result = fringe::sim::simulate_interferometer(c.config, c.sky, c.tel, ctx);
  EXPECT_EQ(result.gpus.empty(), !gpu);
  return fringe::io::MsReader(result.ms_path).read_data();
}

// Largest |gpu - cpu| over the largest |cpu|, element by element.
void compare(const Case& c, const std::string& name, double tol) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const auto cpu = run(c, false, name);
  const auto gpu = run(c, true, name);
  ASSERT_EQ(cpu.size(), gpu.size());
  double max_diff = 0, max_ref = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const std::complex<double> a(cpu[i].re, cpu[i].im), b(gpu[i].re, gpu[i].im);
    max_diff = std::max(max_diff, std::abs(a - b));
    max_ref = std::max(max_ref, std::abs(a));
  }
  ASSERT_GT(max_ref, 0.0);
  EXPECT_LT(max_diff / max_ref, tol) << name;
  std::printf("[ gpu vs cpu ] %-24s max |diff| / max |cpu| %.3e\n", name.c_str(),
              max_diff / max_ref);
}

// Double: both write float32 to the MS; the sums agree to float rounding.
TEST(GainModelGpu, FullDoubleWithNoiseMatchesCpu) { compare(make_case(), "gain_full_dp", 1e-6); }

// Single: float arithmetic on both sides, different summation orders.
TEST(GainModelGpu, ScalarSingleWithNoiseMatchesCpu) {
  Case c = make_case();
  c.config.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.config.precision = fringe::Precision::Single;
  compare(c, "gain_scalar_sp", 2e-5);
}

}  // namespace
