// The simulation pipeline on a GPU (sim/gpu_unit.h) against the same pipeline on the CPU,
// through the Measurement Sets both write: every station type, Full and Scalar, double and
// single precision, points and Gaussians, smearing, autos, station cable length errors; the
// GPU-side stages (horizon clip, every spectrum kind and rotation measure, the common flux
// filter, system noise, the block reduction) and independence of the chunk size.
// Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "fringe/astro/time.h"
#include "fringe/core/device.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/tm_loader.h"
#include "sim_gpu_compare.h"

namespace {

using fringe::sim::SimulationConfig;
using fringe_sim_test::rel_rms;
using Case = fringe_sim_test::SimCase;
constexpr double kDeg = std::numbers::pi / 180.0;

// SKA-Low AA0.5 (4 stations x 256 dipoles) or VLA-A (27 dishes) with a busy sky near a
// transiting phase centre.
Case make_case(const std::string& model, fringe::jones::StationType type) {
  Case c{fringe::telescope::load_telescope_model(
             std::string(FRINGE_SOURCE_DIR) + "/telescope-models/" + model, nullptr),
         {},
         {}};
  SimulationConfig& s = c.config;
  s.observation.start_frequency_hz = model.find("vla") != std::string::npos ? 1.4e9 : 150e6;
  s.observation.num_channels = 3;
  s.observation.frequency_inc_hz = s.observation.start_frequency_hz * 0.01;
  s.observation.start_mjd_utc = 60384.35;
  s.observation.length_sec = 600;
  s.observation.num_time_steps = 3;
  s.observation.phase_centre_ra =
      fringe::astro::gast_rad(s.observation.start_mjd_utc + 300.0 / 86400.0) + c.tel.centre.lon;
  s.observation.phase_centre_dec = c.tel.centre.lat + 10 * kDeg;
  s.beam.station_type = type;
  s.beam.gaussian.fwhm_rad = 2.0 * kDeg;
  s.write_autos = true;
  s.max_sources_per_chunk = 17;
  for (int i = 0; i < 40; ++i) {
    fringe::sky::Source src;
    src.ra = s.observation.phase_centre_ra + 0.02 * std::sin(1.3 * i);
    src.dec = s.observation.phase_centre_dec + 0.02 * std::cos(0.7 * i);
    src.I = 1 + 0.1 * i;
    src.Q = 0.1 * (i % 3);
    src.U = -0.05 * (i % 5);
    src.V = 0.01 * i;
    src.ref_freq = s.observation.start_frequency_hz;
    src.spectral_index = {-0.7};
    if (i % 3 == 0) {
      src.fwhm_major = 60.0 / 3600 * kDeg;
      src.fwhm_minor = 20.0 / 3600 * kDeg;
      src.position_angle = 30 * kDeg;
    }
    c.sky.push_back(src);
  }
  return c;
}

std::vector<fringe::Complex<float>> run(Case& c, bool gpu, const std::string& name) {
  return fringe_sim_test::run_case(c, gpu, "sim_gpu_test", name);
}

void compare(Case c, const std::string& name, double tol) {
  fringe_sim_test::compare_gpu_cpu(std::move(c), "sim_gpu_test", name, tol,
                                   fringe_sim_test::Metric::RelativeRms);
}

// Double: the MS holds float32, so GPU and CPU agree to float rounding (a few 1e-8).
constexpr double kDoubleTol = 1e-7;
// Single: float arithmetic on both sides, different summation orders and sincos: 1e-5.
constexpr double kSingleTol = 1e-5;

TEST(InterferometerGpu, ApertureArrayFullDouble) {
  compare(make_case("ska-low-aa0.5.tm", fringe::jones::StationType::ApertureArray), "aa_full_dp",
          kDoubleTol);
}

TEST(InterferometerGpu, ApertureArrayScalarSingleSmeared) {
  Case c = make_case("ska-low-aa0.5.tm", fringe::jones::StationType::ApertureArray);
  c.config.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.config.precision = fringe::Precision::Single;
  c.config.channel_bandwidth_hz = 100e3;
  c.config.time_average_sec = 10;
  compare(c, "aa_scalar_sp_smear", kSingleTol);
}

TEST(InterferometerGpu, GaussianBeamFullDoubleSmearedWithCableErrors) {
  Case c = make_case("vla-a.tm", fringe::jones::StationType::Gaussian);
  c.config.channel_bandwidth_hz = 1e6;
  c.config.time_average_sec = 10;
  for (std::size_t p = 0; p < c.tel.stations.size(); ++p) {
    c.tel.stations[p].cable_length_error_x = 0.01 * double(p);
    c.tel.stations[p].cable_length_error_y = -0.02 * double(p);
  }
  compare(c, "gauss_full_dp_smear_cable", kDoubleTol);
}

// Drift scan (docs/simulation.md, "Drift scan"): the GPU recomputes the kept sources'
// direction cosines about the zenith for each unit (gpu::drift_directions), the CPU in
// SimInputs::drift_directions; beams at the zenith, ENU station (u, v, w), no time smearing
// although time_average_sec is set. A GPU path that kept the chunk's (l, m, n) about the
// RA/Dec phase centre would differ by O(1).
TEST(InterferometerGpu, DriftScanApertureArrayFullDouble) {
  Case c = make_case("ska-low-aa0.5.tm", fringe::jones::StationType::ApertureArray);
  c.config.observation.mode = fringe::astro::ObservationMode::DriftScan;
  c.config.observation.length_sec = 3600;  // the sky moves 15 deg through the zenith beam
  c.config.channel_bandwidth_hz = 100e3;
  c.config.time_average_sec = 10;
  compare(c, "drift_aa_full_dp", kDoubleTol);
}

TEST(InterferometerGpu, DriftScanGaussianBeamScalarSingle) {
  Case c = make_case("vla-a.tm", fringe::jones::StationType::Gaussian);
  c.config.observation.mode = fringe::astro::ObservationMode::DriftScan;
  c.config.beam.gaussian.fwhm_rad = 20.0 * kDeg;  // the sources are ~10 deg from the zenith
  c.config.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.config.precision = fringe::Precision::Single;
  compare(c, "drift_gauss_scalar_sp", kSingleTol);
}

TEST(InterferometerGpu, IsotropicAndVlaFullSingle) {
  Case c = make_case("vla-a.tm", fringe::jones::StationType::Isotropic);
  c.config.precision = fringe::Precision::Single;
  compare(c, "iso_full_sp", kSingleTol);
  Case v = make_case("vla-a.tm", fringe::jones::StationType::VlaPbcor);
  compare(v, "vla_full_dp", kDoubleTol);
}

// A sky over the whole celestial sphere (about half below the horizon of every station)
// with every spectrum kind: power laws with curvature, linear spectral indices, rotation
// measures from Q/U and from pol fraction/angle, multi-valued I, Gaussian lines; fluxes
// that straddle the common flux filter; system noise on crosses and autos.
Case busy_case(fringe::jones::StationType type) {
  Case c = make_case("vla-a.tm", type);
  c.sky = {};
  SimulationConfig& s = c.config;
  const double f0 = s.observation.start_frequency_hz;
  for (int i = 0; i < 300; ++i) {
    fringe::sky::Source src;
    src.ra = 2.0 * std::numbers::pi * std::fmod(0.618034 * i, 1.0);
    src.dec = std::asin(2.0 * std::fmod(0.4142136 * i + 0.05, 1.0) - 1.0);
    if (i % 5 == 0) {  // some near the phase centre so the data are not only noise
      src.ra = s.observation.phase_centre_ra + 0.01 * std::sin(0.9 * i);
      src.dec = s.observation.phase_centre_dec + 0.01 * std::cos(1.1 * i);
    }
    src.I = 0.5 + 0.01 * i;
    src.Q = 0.05 * (i % 4);
    src.U = -0.03 * (i % 3);
    src.V = 0.002 * i;
    src.ref_freq = f0 * (0.9 + 0.001 * (i % 7));
    switch (i % 6) {
      case 0:
        src.spectral_index = {-0.7, 0.1};
        src.has_curvature = true;
        src.curvature = -0.2;
        break;
      case 1:
        src.spectral_index = {0.3, -0.05};
        src.linear_spectral_index = true;
        break;
      case 2:
        src.has_rotation_measure = true;
        src.rotation_measure = 20.0 + i;
        break;
      case 3:
        src.has_rotation_measure = true;
        src.rotation_measure = -5.0;
        src.pol_fraction = {0.2};
        src.pol_angle = {0.3};
        break;
      case 4:
        src.chan_i = {1.0, 2.0, 3.0};
        src.chan_ref_freq = {f0 * 0.99, f0 * 1.01, f0 * 1.03};
        break;
      default:
        src.chan_i = {2.0, 1.5};
        src.chan_ref_freq = {f0, f0 * 1.02};
        src.line_width = {f0 * 0.005, f0 * 0.01};
        break;
    }
    c.sky.push_back(src);
  }
  s.max_sources_per_chunk = 64;
  s.common_flux_filter.flux_min = 0.6;
  s.common_flux_filter.flux_max = 3.0;
  s.noise.enable = true;
  s.noise.seed = 7;
  s.noise.freq = fringe::sim::NoiseFreqSource::ObservationSettings;
  s.noise.rms = fringe::sim::NoiseRmsSource::Range;
  s.noise.rms_start_jy = 0.3;
  s.noise.rms_end_jy = 0.5;
  s.channel_bandwidth_hz = 1e6;
  s.time_average_sec = 10;
  return c;
}

TEST(InterferometerGpu, HorizonClipSpectraFluxFilterNoiseFullDouble) {
  compare(busy_case(fringe::jones::StationType::Gaussian), "busy_full_dp", kDoubleTol);
}

TEST(InterferometerGpu, HorizonClipSpectraFluxFilterNoiseScalarSingle) {
  Case c = busy_case(fringe::jones::StationType::Isotropic);
  c.config.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.config.precision = fringe::Precision::Single;
  compare(c, "busy_scalar_sp", kSingleTol);
}

// Chunks of 7 sources and one time per block against one chunk and the whole observation in
// one block, both on the GPU: equal but for the summation order.
TEST(InterferometerGpu, ResultsDoNotDependOnChunkOrBlockSize) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  Case a = busy_case(fringe::jones::StationType::Gaussian);
  Case b = a;
  a.config.max_sources_per_chunk = 7;
  a.config.max_times_per_block = 1;
  b.config.max_sources_per_chunk = 100000;
  b.config.max_times_per_block = 8;
  const auto small = run(a, true, "chunks_small");
  const auto large = run(b, true, "chunks_large");
  ASSERT_EQ(small.size(), large.size());
  const double err = rel_rms(small, large);
  EXPECT_LT(err, kDoubleTol);
  std::printf("[ gpu chunks ] 7-source chunks vs one chunk: relative RMS %.3e\n", err);
}

}  // namespace
