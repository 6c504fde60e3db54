// sim/interferometer: the whole CPU pipeline, read back from the Measurement Set it writes.
// Truth from outside the code: a 1 Jy unpolarised source at the phase centre gives the
// identity on every baseline; a source at (l, m) gives exp(+2 pi i (U l + V m + W (n - 1)))
// with the WRITTEN UVW (docs/conventions.md, "Phase sign and the measurement equation"); results do
// not depend on threads or block sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "fringe/astro/direction.h"
#include "fringe/astro/time.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/sim/block_plan.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/tm_loader.h"
#include "sim_test_setup.h"

namespace {

namespace fs = std::filesystem;
using fringe::sim::PolarisationMode;
using fringe::sim::SimulationConfig;
using fringe_sim_test::kDeg;
using fringe_sim_test::vla;
constexpr double kC = 299792458.0;

std::string out_path(const std::string& name) {
  return fringe_sim_test::fresh_out_path("sim_pipeline_test", name);
}

// These tests check the CPU path (test_interferometer_gpu.cpp: the GPU).
SimulationConfig base_config(const std::string& name) {
  return fringe_sim_test::vla_config(out_path(name));
}

fringe::sky::SkyModel point_at(double ra, double dec, double I, double Q = 0, double U = 0,
                               double V = 0) {
  fringe::sky::SkyModel sky;
  fringe::sky::Source s;
  s.ra = ra;
  s.dec = dec;
  s.I = I;
  s.Q = Q;
  s.U = U;
  s.V = V;
  sky.push_back(s);
  return sky;
}

// A varied sky: points and Gaussians, polarised, spectral indices, around the phase centre.
fringe::sky::SkyModel busy_sky(int n) {
  fringe::sky::SkyModel sky;
  for (int i = 0; i < n; ++i) {
    fringe::sky::Source s;
    s.ra = (200 + 0.2 * std::sin(1.3 * i)) * kDeg;
    s.dec = (30 + 0.2 * std::cos(0.7 * i)) * kDeg;
    s.I = 1 + 0.1 * i;
    s.Q = 0.1 * (i % 3);
    s.U = -0.05 * (i % 5);
    s.V = 0.01 * i;
    s.ref_freq = 1.4e9;
    s.spectral_index = {-0.7};
    if (i % 3 == 0) {
      s.fwhm_major = 20.0 / 3600 * kDeg;
      s.fwhm_minor = 8.0 / 3600 * kDeg;
      s.position_angle = 30 * kDeg;
    }
    sky.push_back(s);
  }
  return sky;
}

std::vector<fringe::Complex<float>> run_and_read(const SimulationConfig& c,
                                                 const fringe::sky::SkyModel& sky) {
  fringe::sim::RunContext ctx;
  const auto result = fringe::sim::simulate_interferometer(c, sky, vla(), ctx);
  return fringe::io::MsReader(result.ms_path).read_data();
}

void expect_identical(const std::vector<fringe::Complex<float>>& a,
                      const std::vector<fringe::Complex<float>>& b) {
  ASSERT_EQ(a.size(), b.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].re != b[i].re || a[i].im != b[i].im) ++differ;
  }
  EXPECT_EQ(differ, 0u) << "of " << a.size() << " values";
}

double rel_rms(const std::vector<fringe::Complex<float>>& a,
               const std::vector<fringe::Complex<float>>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += std::norm(std::complex<double>(a[i].re - b[i].re, a[i].im - b[i].im));
    den += std::norm(std::complex<double>(b[i].re, b[i].im));
  }
  return std::sqrt(num / den);
}

TEST(BlockPlan, CoversTheObservationInWriterOrder) {
  const auto plan = fringe::sim::plan_blocks(5, 3, 2, 2);
  ASSERT_EQ(plan.blocks.size(), 6u);  // times {0-1, 2-3, 4} x channels {0-1, 2}
  EXPECT_EQ(plan.blocks[0].start_time, 0);
  EXPECT_EQ(plan.blocks[1].start_channel, 2);
  EXPECT_EQ(plan.blocks[1].num_channels, 1);
  EXPECT_EQ(plan.blocks[5].start_time, 4);
  EXPECT_EQ(plan.blocks[5].num_times, 1);
  EXPECT_THROW(fringe::sim::plan_blocks(0, 1, 1, 1), fringe::Error);
}

// Full mode applies each station's own parallactic rotation R_p (docs/conventions.md, "Phase sign
// and the measurement equation"), so the autos are R_p I R_p^T = identity and the crosses R_p
// R_q^T, a rotation by psi_p - psi_q (the identity when the stations share a site; up to a few 0.01
// rad on the 36 km VLA with the source near the zenith). Checked as structure: real, XX = YY, XY =
// -YX, XX^2 + XY^2 = 1.
TEST(Interferometer, UnpolarisedSourceAtPhaseCentreGivesIdentityFull) {
  SimulationConfig c = base_config("identity_full.ms");
  c.write_autos = true;
  const auto data = run_and_read(c, point_at(200 * kDeg, 30 * kDeg, 1.0));
  fringe::io::MsReader ms(c.ms_path);
  ASSERT_EQ(ms.num_pols(), 4);
  ASSERT_EQ(ms.num_rows(), 5u * (27u + 351u));
  ASSERT_EQ(data.size(), ms.num_rows() * 3 * 4);
  const auto a1 = ms.read_antenna1();
  const auto a2 = ms.read_antenna2();
  for (std::size_t r = 0; r < ms.num_rows(); ++r) {
    for (std::size_t ch = 0; ch < 3; ++ch) {
      const auto* v = &data[(r * 3 + ch) * 4];
      for (int p = 0; p < 4; ++p) ASSERT_NEAR(v[p].im, 0.0, 2e-6) << "row " << r;
      if (a1[r] == a2[r]) {  // auto-correlation: exactly the identity
        ASSERT_NEAR(v[0].re, 1.0, 2e-6) << "row " << r;
        ASSERT_NEAR(v[1].re, 0.0, 2e-6) << "row " << r;
        ASSERT_NEAR(v[2].re, 0.0, 2e-6) << "row " << r;
        ASSERT_NEAR(v[3].re, 1.0, 2e-6) << "row " << r;
      } else {
        ASSERT_NEAR(v[0].re, v[3].re, 2e-6) << "row " << r;
        ASSERT_NEAR(v[1].re, -v[2].re, 2e-6) << "row " << r;
        ASSERT_NEAR(v[0].re * v[0].re + v[1].re * v[1].re, 1.0, 4e-6) << "row " << r;
      }
    }
  }
}

TEST(Interferometer, UnpolarisedSourceAtPhaseCentreGivesOneScalar) {
  SimulationConfig c = base_config("identity_scalar.ms");
  c.pol_mode = PolarisationMode::Scalar;
  c.precision = fringe::Precision::Single;
  const auto data = run_and_read(c, point_at(200 * kDeg, 30 * kDeg, 1.0));
  ASSERT_EQ(fringe::io::MsReader(c.ms_path).num_pols(), 1);
  for (const auto& v : data) {
    ASSERT_NEAR(v.re, 1.0, 2e-6);
    ASSERT_NEAR(v.im, 0.0, 2e-6);
  }
}

TEST(Interferometer, OffCentreSourcePhaseFollowsWrittenUvw) {
  SimulationConfig c = base_config("off_centre.ms");
  c.pol_mode = PolarisationMode::Scalar;
  const double ra = 200.05 * kDeg, dec = 30.03 * kDeg;
  const auto data = run_and_read(c, point_at(ra, dec, 2.0));
  double l = 0, m = 0, n = 0;
  fringe::astro::radec_to_lmn(ra, dec, 200 * kDeg, 30 * kDeg, l, m, n);
  fringe::io::MsReader ms(c.ms_path);
  const auto uvw = ms.read_uvw();
  const auto freqs = ms.channel_frequencies_hz();
  double max_err = 0;
  for (std::size_t r = 0; r < ms.num_rows(); ++r) {
    for (std::size_t ch = 0; ch < freqs.size(); ++ch) {
      const double k = 2 * std::numbers::pi * freqs[ch] / kC;
      const double phase = k * (uvw[r][0] * l + uvw[r][1] * m + uvw[r][2] * (n - 1));
      const std::complex<double> want = 2.0 * std::polar(1.0, phase);
      const auto& got = data[r * freqs.size() + ch];
      max_err = std::max(max_err, std::abs(std::complex<double>(got.re, got.im) - want));
    }
  }
  EXPECT_LT(max_err, 1e-5);  // float32 DATA; 36 km baselines, phases up to ~1e3 rad
}

TEST(Interferometer, ThreadCountDoesNotChangeResults) {
  const auto sky = busy_sky(40);
  SimulationConfig c = base_config("threads1.ms");
  c.beam.station_type = fringe::jones::StationType::Gaussian;
  c.beam.gaussian.fwhm_rad = 0.5 * kDeg;
  c.beam.gaussian.ref_freq_hz = 1.4e9;
  c.channel_bandwidth_hz = 1e6;
  c.time_average_sec = 10;
  c.max_sources_per_chunk = 7;  // 6 chunks per time: units of the same time on several threads
  c.write_autos = true;
  const auto one = run_and_read(c, sky);
  for (int threads : {2, 3}) {
    c.devices.num_devices = threads;
    c.ms_path = out_path("threads" + std::to_string(threads) + ".ms");
    expect_identical(run_and_read(c, sky), one);  // bitwise
  }
}

TEST(Interferometer, BlockAndChunkSizesDoNotChangeResults) {
  const auto sky = busy_sky(25);
  SimulationConfig c = base_config("blocks_ref.ms");
  c.devices.num_devices = 2;
  const auto ref = run_and_read(c, sky);
  c.max_times_per_block = 2;
  c.max_channels_per_block = 2;
  c.ms_path = out_path("blocks_small.ms");
  expect_identical(run_and_read(c, sky), ref);  // blocks only regroup independent samples
  c.max_sources_per_chunk = 4;
  c.ms_path = out_path("chunks_small.ms");
  // Chunks change the summation order of sources: rounding only (double compute, float DATA).
  EXPECT_LT(rel_rms(run_and_read(c, sky), ref), 1e-7);
}

TEST(Interferometer, SingleAgreesWithDouble) {
  const auto sky = busy_sky(30);
  SimulationConfig c = base_config("double.ms");
  const auto d = run_and_read(c, sky);
  c.precision = fringe::Precision::Single;
  c.ms_path = out_path("single.ms");
  const double err = rel_rms(run_and_read(c, sky), d);
  std::printf("single vs double relative RMS: %.3g\n", err);
  // Phases are formed in double, so float32 arithmetic on the products dominates.
  EXPECT_LT(err, 1e-5);
}

TEST(Interferometer, EmptySkyFailsAndWritesNothing) {
  SimulationConfig c = base_config("empty.ms");
  fringe::sim::RunContext ctx;
  try {
    fringe::sim::simulate_interferometer(c, fringe::sky::SkyModel(), vla(), ctx);
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("sky model is empty"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(c.ms_path));
  for (const auto& entry : fs::directory_iterator(fs::path(c.ms_path).parent_path())) {
    EXPECT_EQ(entry.path().string().find("empty.ms.tmp"), std::string::npos) << entry.path();
  }
}

// A failure inside a work unit (here: a Gaussian beam wider than 180 deg at the observed
// frequency) stops every thread, reaches the caller as itself and leaves no MS behind.
TEST(Interferometer, FailureInAWorkUnitIsReported) {
  SimulationConfig c = base_config("unit_failure.ms");
  c.beam.station_type = fringe::jones::StationType::Gaussian;
  c.beam.gaussian.fwhm_rad = 100 * kDeg;
  c.beam.gaussian.ref_freq_hz = 2.8e9;  // 200 deg at 1.4 GHz
  c.devices.num_devices = 3;
  c.max_sources_per_chunk = 2;
  fringe::sim::RunContext ctx;
  try {
    fringe::sim::simulate_interferometer(c, busy_sky(12), vla(), ctx);
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_EQ(std::string(e.what()).find("aborted"), std::string::npos) << e.what();
    std::printf("error: %s\n", e.what());
  }
  EXPECT_FALSE(fs::exists(c.ms_path));
}

// Aperture-array stations (SKA-Low AA0.5: 4 stations x 256 dipoles) normalised at the phase
// centre: for a 1 Jy unpolarised source there, each station's E E^H has trace 2, so every
// auto-correlation has (XX + YY) / 2 = 1 exactly; thread count changes nothing (bitwise).
TEST(Interferometer, ApertureArrayAutosAtPhaseCentreAreNormalised) {
  const auto tel = fringe::telescope::load_telescope_model(
      std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm", nullptr);
  SimulationConfig c = base_config("aa_autos.ms");
  c.observation.start_frequency_hz = 110e6;
  c.observation.frequency_inc_hz = 10e6;
  c.observation.num_time_steps = 2;
  c.observation.length_sec = 600;
  // The phase centre on the array's meridian at the middle of the observation.
  const double mjd_mid = c.observation.start_mjd_utc + 300.0 / 86400.0;
  c.observation.phase_centre_ra = fringe::astro::gast_rad(mjd_mid) + tel.centre.lon;
  c.observation.phase_centre_dec = -40 * kDeg;
  c.beam.station_type = fringe::jones::StationType::ApertureArray;
  c.write_autos = true;
  const auto sky = point_at(c.observation.phase_centre_ra, c.observation.phase_centre_dec, 1.0);
  fringe::sim::RunContext ctx;
  fringe::sim::simulate_interferometer(c, sky, tel, ctx);
  fringe::io::MsReader ms(c.ms_path);
  const auto data = ms.read_data();
  const auto a1 = ms.read_antenna1();
  const auto a2 = ms.read_antenna2();
  std::size_t autos = 0;
  for (std::size_t r = 0; r < ms.num_rows(); ++r) {
    if (a1[r] != a2[r]) continue;
    for (std::size_t ch = 0; ch < 3; ++ch, ++autos) {
      const auto* v = &data[(r * 3 + ch) * 4];
      EXPECT_NEAR((v[0].re + v[3].re) / 2, 1.0, 2e-6) << "row " << r;
      EXPECT_GT(std::abs(v[0].re - v[3].re), 1e-4);  // dipoles: XX != YY off the zenith
    }
  }
  EXPECT_EQ(autos, 2u * 4u * 3u);
  c.devices.num_devices = 2;
  c.max_sources_per_chunk = 1;
  c.ms_path = out_path("aa_autos_2.ms");
  fringe::sim::simulate_interferometer(c, sky, tel, ctx);
  expect_identical(fringe::io::MsReader(c.ms_path).read_data(), data);
}

// SKA-Low AA0.5 (4 x 256 dipoles) observing a few sources around a transiting phase centre.
struct AaRun {
  fringe::telescope::TelescopeModel tel;
  SimulationConfig config;
  fringe::sky::SkyModel sky;
};
AaRun aa05_run(const std::string& name) {
  AaRun r{fringe::telescope::load_telescope_model(
              std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm", nullptr),
          base_config(name),
          {}};
  SimulationConfig& c = r.config;
  c.observation.start_frequency_hz = 150e6;
  c.observation.num_channels = 1;
  c.observation.num_time_steps = 3;
  c.observation.length_sec = 900;
  c.observation.phase_centre_ra =
      fringe::astro::gast_rad(c.observation.start_mjd_utc + 450.0 / 86400.0) + r.tel.centre.lon;
  c.observation.phase_centre_dec = -30 * kDeg;
  c.beam.station_type = fringe::jones::StationType::ApertureArray;
  c.write_autos = true;
  for (int i = 0; i < 5; ++i) {
    auto s = point_at(c.observation.phase_centre_ra + 0.02 * i, -30 * kDeg - 0.015 * i, 1 + i);
    r.sky.push_back(s.source(0));
  }
  return r;
}

std::vector<fringe::Complex<float>> run_aa(AaRun& r) {
  fringe::sim::RunContext ctx;
  fringe::sim::simulate_interferometer(r.config, r.sky, r.tel, ctx);
  return fringe::io::MsReader(r.config.ms_path).read_data();
}

// A pointing file that names the phase centre changes nothing; one pointing elsewhere does.
TEST(Interferometer, PointingFileSetsTheBeamDirection) {
  AaRun r = aa05_run("aa_pointing_ref.ms");
  const auto ref = run_aa(r);
  const fs::path file = fs::path(FRINGE_BINARY_DIR) / "sim_pipeline_test" / "pointing.txt";
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    std::fprintf(f, "# all stations at the phase centre\n* RADEC %.15f %.15f\n",
                 r.config.observation.phase_centre_ra / kDeg,
                 r.config.observation.phase_centre_dec / kDeg);
    std::fclose(f);
  }
  r.config.pointing_file = file.string();
  r.config.ms_path = out_path("aa_pointing_same.ms");
  expect_identical(run_aa(r), ref);
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    std::fprintf(f, "1 AZEL 0 60\n");  // station 1 only, fixed on the sky of its horizon
    std::fclose(f);
  }
  r.config.ms_path = out_path("aa_pointing_other.ms");
  const auto moved = run_aa(r);
  EXPECT_GT(rel_rms(moved, ref), 1e-2);
}

// Element error overrides through the pipeline: reproducible for a seed, different for another
// seed, and time-variable errors change the data from one time step to the next.
TEST(Interferometer, ElementErrorsAreSeeded) {
  AaRun r = aa05_run("aa_errors_ref.ms");
  const auto clean = run_aa(r);
  r.config.element_errors.gain_error_fixed = {0.1, 0.1};
  r.config.element_errors.phase_error_fixed_rad = {5 * kDeg, 5 * kDeg};
  r.config.ms_path = out_path("aa_errors_a.ms");
  const auto a = run_aa(r);
  r.config.ms_path = out_path("aa_errors_b.ms");
  expect_identical(run_aa(r), a);
  EXPECT_GT(rel_rms(a, clean), 1e-4);
  r.config.element_errors.seed_gain = {2, 2};
  r.config.ms_path = out_path("aa_errors_c.ms");
  EXPECT_GT(rel_rms(run_aa(r), a), 1e-5);
  // Time-variable errors only: the autos of a static sky change between time steps.
  AaRun t = aa05_run("aa_errors_time.ms");
  t.config.beam.aperture_array.array_pattern.time_variable_seed = 3;
  for (auto& m : t.tel.station_models)
    for (auto& f : m.feeds)
      for (auto& g : f.gain_phase) g.gain_error = 0.05;
  const auto timed = run_aa(t);
  EXPECT_GT(rel_rms(timed, clean), 1e-4);
}

// Element pattern files fringe cannot evaluate (here an old fitted-pattern file) are not
// silently replaced by the functional pattern.
TEST(Interferometer, NumericalElementPatternFilesAreRefused) {
  auto tel = vla();
  tel.unsupported_files.push_back(
      {"station/element_pattern_fit_x_0_100.txt",
       "numerical element pattern (spherical-wave ...): not supported"});
  SimulationConfig c = base_config("aa_numerical.ms");
  c.beam.station_type = fringe::jones::StationType::ApertureArray;
  fringe::sim::RunContext ctx;
  try {
    fringe::sim::simulate_interferometer(c, point_at(200 * kDeg, 30 * kDeg, 1), tel, ctx);
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_EQ(e.context().field, "ElementPatternConfig.enable_numerical");
    EXPECT_NE(std::string(e.what()).find("cannot evaluate"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(c.ms_path));
  c.beam.aperture_array.element_pattern.enable_numerical = false;  // functional pattern: runs
  EXPECT_NO_THROW(
      fringe::sim::simulate_interferometer(c, point_at(200 * kDeg, 30 * kDeg, 1), tel, ctx));
}

}  // namespace

namespace {

// System noise through the pipeline: a 0 Jy source (an empty sky is refused), Range noise
// frequencies/RMS. Same seed: bitwise the same MS whatever the threads and block sizes;
// another seed: different data; the cross std matches sigma (docs/conventions.md, "System noise").
SimulationConfig noise_config(const std::string& name, std::uint64_t seed) {
  SimulationConfig c = base_config(name);
  c.noise.enable = true;
  c.noise.seed = seed;
  c.noise.freq = fringe::sim::NoiseFreqSource::Range;
  c.noise.freq_number = 2;
  c.noise.freq_start_hz = 1.0e9;
  c.noise.freq_inc_hz = 1.0e9;  // 1.4 GHz channels are nearest to 1 GHz: rms_start
  c.noise.rms = fringe::sim::NoiseRmsSource::Range;
  c.noise.rms_start_jy = 3.0;
  c.noise.rms_end_jy = 100.0;
  return c;
}

TEST(InterferometerNoise, SeededThreadAndBlockIndependent) {
  const auto sky = point_at(200 * kDeg, 30 * kDeg, 0.0);
  SimulationConfig a = noise_config("noise_a.ms", 5);
  const auto va = run_and_read(a, sky);
  SimulationConfig b = noise_config("noise_b.ms", 5);
  b.devices.num_devices = 3;
  b.max_times_per_block = 2;
  b.max_channels_per_block = 1;
  const auto vb = run_and_read(b, sky);
  ASSERT_EQ(va.size(), vb.size());
  double ss = 0;
  for (std::size_t i = 0; i < va.size(); ++i) {
    EXPECT_EQ(va[i].re, vb[i].re);
    EXPECT_EQ(va[i].im, vb[i].im);
    ss += double(va[i].re) * va[i].re + double(va[i].im) * va[i].im;
  }
  // Every part has std sqrt(3 * 3) = 3 Jy.
  EXPECT_NEAR(std::sqrt(ss / (2.0 * double(va.size()))), 3.0, 0.1);
  const auto vc = run_and_read(noise_config("noise_c.ms", 6), sky);
  std::size_t same = 0;
  for (std::size_t i = 0; i < va.size(); ++i) same += va[i].re == vc[i].re;
  EXPECT_EQ(same, 0u);
}

TEST(InterferometerNoise, NoiseTableOptions) {
  fringe::sim::NoiseConfig n;
  fringe::sim::ObservationConfig o;
  o.start_frequency_hz = 100e6;
  o.frequency_inc_hz = 10e6;
  o.num_channels = 3;
  n.freq = fringe::sim::NoiseFreqSource::ObservationSettings;
  n.rms = fringe::sim::NoiseRmsSource::Range;
  n.rms_start_jy = 1;
  n.rms_end_jy = 5;
  const auto t = fringe::sim::noise_table(n, o, vla());
  EXPECT_EQ(t.freq_hz, (std::vector<double>{100e6, 110e6, 120e6}));
  ASSERT_EQ(t.rms_jy.size(), vla().num_stations());
  EXPECT_EQ(t.rms_jy[7], (std::vector<double>{1, 3, 5}));
  n.freq = fringe::sim::NoiseFreqSource::Range;
  n.freq_number = 1;
  n.freq_start_hz = 7e6;
  const auto r = fringe::sim::noise_table(n, o, vla());
  EXPECT_EQ(r.freq_hz, (std::vector<double>{7e6}));
  EXPECT_EQ(r.rms_jy[0], (std::vector<double>{1}));
  n.freq = fringe::sim::NoiseFreqSource::TelescopeModel;  // vla-a.tm has no noise files
  EXPECT_THROW(fringe::sim::noise_table(n, o, vla()), fringe::Error);
}

TEST(InterferometerNoise, TelescopeNameInMs) {
  SimulationConfig c = base_config("telescope_name.ms");
  c.telescope_name = "OSKAR 2.13 (fringe)";
  fringe::sim::RunContext ctx;
  fringe::sim::simulate_interferometer(c, point_at(200 * kDeg, 30 * kDeg, 1), vla(), ctx);
  EXPECT_EQ(fringe::io::MsReader(c.ms_path).telescope_name(), "OSKAR 2.13 (fringe)");
}

}  // namespace
