// OSKAR's gain models on the GPU back end against the CPU back end, element by element through
// the Measurement Sets both write (sim_gpu_compare.h):
//  - the root station gain table (gain_model.h5 at the telescope model's root,
//    sim/station_gain_model.h): SKA-Low AA0.5 aperture arrays with the table of
//    tests/data/oskar-reference/gain_model, autocorrelations and system noise (added after
//    the gains);
//  - per-element gain tables (gain_model.h5 in station and tile folders, multiplying the
//    beamforming weights that the GPU back end uploads): the model of
//    tests/data/oskar-reference/element_gain_model.
// Full double and Scalar single each. Skipped without a CUDA device. (fringe against OSKAR:
// external.sim_vs_oskar.gain_model* and external.sim_vs_oskar.element_gain_model*.)
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "fringe/astro/time.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/telescope/tm_loader.h"
#include "sim_gpu_compare.h"

namespace {

using fringe_sim_test::Metric;
using fringe_sim_test::SimCase;
constexpr double kDeg = std::numbers::pi / 180.0;
const std::string kFolder = "sim_gain_model_gpu_test";

// 12 polarised points within about 2 degrees of a phase centre 5 degrees from the zenith.
void add_sky(SimCase& c) {
  auto& s = c.config;
  s.observation.phase_centre_ra =
      fringe::astro::gast_rad(s.observation.start_mjd_utc + 600.0 / 86400.0) + c.tel.centre.lon;
  s.observation.phase_centre_dec = c.tel.centre.lat + 5 * kDeg;
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
}

SimCase make_case() {
  const std::string src = FRINGE_SOURCE_DIR;
  SimCase c{
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
  add_sky(c);
  return c;
}

// Per-element tables (README of the data folder): 5 stations (flat with X-only and X/Y tables,
// tiled with tables at both levels, none, distinct tiles with a station-level table), tables
// of 2 times x 3 channels (120, 99.8, 108 MHz). `uniform_only` drops the last station (distinct
// tiles), so every beam is evaluated by the GPU's aperture-array kernels; with it, the run
// takes the GPU back end's path for non-uniform stations.
SimCase make_element_case(bool uniform_only) {
  SimCase c{fringe::telescope::load_telescope_model(
                std::string(FRINGE_SOURCE_DIR) +
                "/tests/data/oskar-reference/element_gain_model/telescope.tm"),
            {},
            {}};
  if (uniform_only) c.tel.stations.pop_back();
  auto& s = c.config;
  s.observation.start_frequency_hz = 100e6;  // channels take table channels 1 and 2
  s.observation.num_channels = 2;
  s.observation.frequency_inc_hz = 7e6;
  s.observation.start_mjd_utc = 60384.35;
  s.observation.length_sec = 1200;
  s.observation.num_time_steps = 3;  // the 3rd is past the tables: their last time
  s.beam.station_type = fringe::jones::StationType::ApertureArray;
  s.write_autos = true;
  add_sky(c);
  return c;
}

// Double: both write float32 to the MS; the sums agree to float rounding.
TEST(GainModelGpu, FullDoubleWithNoiseMatchesCpu) {
  fringe_sim_test::compare_gpu_cpu(make_case(), kFolder, "gain_full_dp", 1e-6, Metric::MaxOverMax);
}

// Single: float arithmetic on both sides, different summation orders.
TEST(GainModelGpu, ScalarSingleWithNoiseMatchesCpu) {
  SimCase c = make_case();
  c.config.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.config.precision = fringe::Precision::Single;
  fringe_sim_test::compare_gpu_cpu(c, kFolder, "gain_scalar_sp", 2e-5, Metric::MaxOverMax);
}

TEST(GainModelGpu, ElementGainsFullDoubleMatchCpu) {
  fringe_sim_test::compare_gpu_cpu(make_element_case(true), kFolder, "element_gain_full_dp", 1e-6,
                                   Metric::MaxOverMax);
}

TEST(GainModelGpu, ElementGainsWithDistinctTilesFullDoubleMatchCpu) {
  fringe_sim_test::compare_gpu_cpu(make_element_case(false), kFolder,
                                   "element_gain_distinct_tiles_full_dp", 1e-6, Metric::MaxOverMax);
}

TEST(GainModelGpu, ElementGainsScalarSingleMatchCpu) {
  SimCase c = make_element_case(true);
  c.config.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.config.precision = fringe::Precision::Single;
  fringe_sim_test::compare_gpu_cpu(c, kFolder, "element_gain_scalar_sp", 2e-5, Metric::MaxOverMax);
}

}  // namespace
