// Station-beam A-terms (image/idg/aterms = Station beams, fringe/imager/aterm_beam.h).
// sim_interferometer's pipeline simulates one 1 Jy source well off the phase centre, seen
// through a Gaussian station beam (VLA-D stations, Full mode: J = E R); the imager, configured
// from the imager's own settings schema (the telescope/ group the simulation used):
// - without A-terms: the source pixel has the apparent flux, the mean of e_p e_q over the
//   visibilities (the beam evaluated at the source by fringe/jones, independently of the
//   imager's subgrid lattice);
// - with A-terms: the true flux, 1 Jy, for Stokes I and for the four Stokes products (I from
//   full 2x2 Jones A-terms);
// - identity A-terms (isotropic stations, Scalar mode) reproduce the image without A-terms;
// - bad settings name the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "fringe/app/field_keys.h"
#include "fringe/app/imager_settings.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/astro/direction.h"
#include "fringe/astro/time.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/imager/image_output.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/model_image.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/jones/station_jones.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/schema.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/interferometer.h"
#include "fringe/sim/simulation_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/tm_loader.h"

namespace {

namespace fs = std::filesystem;
using fringe::settings::Schema;
using fringe::settings::Settings;
constexpr double kDeg = std::numbers::pi / 180.0;
constexpr double kArcsec = kDeg / 3600.0;

constexpr double kRa0 = 200 * kDeg, kDec0 = 30 * kDeg;
constexpr int kSize = 128;
constexpr double kCellArcsec = 10.0;
// The source sits on pixel (kSize/2 + kDx, kSize/2 + kDy): l = -kDx cell, m = kDy cell
// (0.131 deg off the centre, where the 0.25 deg FWHM Gaussian beam has e^2 ~ 0.22).
constexpr int kDx = 40, kDy = 25;

const std::string kTelescope = std::string(FRINGE_SOURCE_DIR) + "/telescope-models/vla-d.tm";

fs::path out_dir() {
  const fs::path d = fs::path(FRINGE_BINARY_DIR) / "aterm_beam_test";
  fs::create_directories(d);
  return d;
}

Settings imager_settings() {
  return Settings(Schema::load(
      fringe::app::imager_schema_files(fringe::settings::embedded_schemas()), "imager.xml"));
}

// The imager's settings for `ms`, with or without station-beam A-terms.
Settings settings_for(const std::string& ms, const std::string& root, bool aterms,
                      const std::string& image_type = "I") {
  Settings s = imager_settings();
  s.set("image/input_vis_data", ms);
  s.set("image/root_path", root);
  s.set("image/algorithm", "IDG");  // A-terms are IDG's (the default algorithm is FFT)
  s.set("image/use_gpus", "false");
  s.set("image/size", std::to_string(kSize));
  s.set("image/specify_cellsize", "true");
  s.set("image/cellsize_arcsec", std::to_string(kCellArcsec));
  s.set("image/image_type", image_type);
  s.set("image/idg/aterm_interval_sec", "900");
  if (aterms) s.set("image/idg/aterms", "Station beams");
  s.set("telescope/input_directory", kTelescope);
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "0.25");
  s.set("telescope/pol_mode", "Full");
  return s;
}

fringe::sim::SimulationConfig sim_config(const Settings& s, const std::string& ms) {
  fringe::sim::SimulationConfig c;
  c.observation.phase_centre_ra = kRa0;
  c.observation.phase_centre_dec = kDec0;
  c.observation.start_frequency_hz = 1.4e9;
  c.observation.num_channels = 2;
  c.observation.frequency_inc_hz = 8e6;
  c.observation.start_mjd_utc = 60384.30;  // the field is up at the VLA
  c.observation.length_sec = 3600;
  c.observation.num_time_steps = 4;
  c.pol_mode = s.get_option("telescope/pol_mode") == "Scalar"
                   ? fringe::sim::PolarisationMode::Scalar
                   : fringe::sim::PolarisationMode::Full;
  c.beam = fringe::app::station_beam_config(s);  // the beam the imager reads too
  c.devices.use_gpus = false;
  c.devices.num_devices = 1;  // one CPU thread
  c.ms_path = ms;
  return c;
}

void source_radec(double& ra, double& dec) {
  fringe::astro::lm_to_radec(-kDx * kCellArcsec * kArcsec, kDy * kCellArcsec * kArcsec, kRa0, kDec0,
                             ra, dec);
}

// Simulates the off-centre source (once per name) and returns the MS path.
std::string simulate(const Settings& s, const std::string& name) {
  const std::string ms = (out_dir() / name).string();
  fs::remove_all(ms);
  const fringe::sim::SimulationConfig c = sim_config(s, ms);
  fringe::sky::SkyModel sky;
  fringe::sky::Source src;
  source_radec(src.ra, src.dec);
  src.I = 1.0;
  sky.push_back(src);
  fringe::sim::RunContext ctx;
  const auto tel = fringe::telescope::load_telescope_model(kTelescope, nullptr);
  return fringe::sim::simulate_interferometer(c, sky, tel, ctx).ms_path;
}

// The Gaussian-beam MS, one per test (ctest runs the tests of this file as processes in
// parallel: each writes its own).
std::string gaussian_ms() {
  const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return simulate(settings_for("", "", false), name + ".ms");
}

// Mean over times, channels and baselines of e_p e_q at the source (what the dirty image
// without A-terms shows there): the beam evaluated by fringe/jones at the source direction.
double apparent_flux(const Settings& s) {
  const fringe::sim::SimulationConfig c = sim_config(s, (out_dir() / "unused.ms").string());
  const auto tel = fringe::telescope::load_telescope_model(kTelescope, nullptr);
  const auto sites = fringe::jones::station_sites(tel);
  double ra, dec;
  source_radec(ra, dec);
  const std::vector<double> vra{ra}, vdec{dec};
  fringe::jones::StationJonesInput in;
  in.stations = sites;
  in.pointing = fringe::jones::default_pointing(false, kRa0, kDec0);
  in.ra = vra;
  in.dec = vdec;
  const std::size_t n = sites.size();
  std::vector<fringe::Complex<double>> e(n);
  double sum = 0;
  int count = 0;
  for (int t = 0; t < c.observation.num_time_steps; ++t)
    for (int ch = 0; ch < c.observation.num_channels; ++ch) {
      in.gast_rad = fringe::astro::gast_rad(c.observation.time_centre_mjd(t));
      in.freq_hz = c.observation.start_frequency_hz + ch * c.observation.frequency_inc_hz;
      fringe::jones::evaluate_station_jones_scalar<double>(c.beam, in, e);
      for (std::size_t p = 0; p < n; ++p)
        for (std::size_t q = p + 1; q < n; ++q, ++count) sum += (e[p] * conj(e[q])).re;
    }
  return sum / count;
}

std::vector<double> image(const Settings& s, const std::string& product = "I") {
  const fringe::imager::ImagerConfig cfg = fringe::app::imager_config(s);
  fringe::imager::run(cfg);
  return fringe::imager::read_model_image(cfg.root_path + "_" + product + ".fits", kSize,
                                          cfg.cell_rad);
}

double at_source(const std::vector<double>& img) {
  return img[std::size_t(kSize / 2 + kDy) * kSize + kSize / 2 + kDx];
}

TEST(ATermBeam, WithoutATermsTheSourceHasItsApparentFlux) {
  const Settings s = settings_for(gaussian_ms(), (out_dir() / "plain").string(), false);
  const double expected = apparent_flux(s);
  // e = exp(-4 ln 2 r^2 / FWHM^2) = 0.47 at r = 0.131 deg: e^2 = 0.22.
  EXPECT_NEAR(expected, 0.218, 0.005);
  // IDG's dirty image agrees with the DFT to ~5e-7 of the peak (docs/imager.md).
  const double got = at_source(image(s));
  std::printf("no A-terms: source pixel %.7f, apparent flux %.7f\n", got, expected);
  EXPECT_NEAR(got, expected, 1e-4);
}

TEST(ATermBeam, WithStationBeamsTheSourceHasItsTrueFlux) {
  const Settings s = settings_for(gaussian_ms(), (out_dir() / "beam").string(), true);
  const std::vector<double> img = image(s);
  // Tolerance: IDG's single-precision accuracy (~5e-6 of the peak, docs/imager.md) plus the
  // sampling of the beam on the 32 x 32 subgrid pixels (0.014 deg apart, the beam's FWHM 18
  // of them) and the bicubic interpolation of the average beam from them (measured: 2e-8).
  // Beams evaluated 5 % too far out along l give 1.12 here.
  std::printf("station-beam A-terms, Stokes I: source pixel %.9f (true 1)\n", at_source(img));
  EXPECT_NEAR(at_source(img), 1.0, 1e-4);
  // Blank (NaN) where the average beam (~ e^4) is below 1e-4 of its peak: the corners, 0.25
  // deg off the centre (e = 0.06), not the centre.
  EXPECT_TRUE(std::isnan(img[0]));
  EXPECT_FALSE(std::isnan(img[std::size_t(kSize / 2) * kSize + kSize / 2]));
}

TEST(ATermBeam, FullJonesStokesImagesHaveTheTrueFlux) {
  // Four products: A-terms are the full Jones J = E R (parallactic rotation included).
  Settings s =
      settings_for(gaussian_ms(), (out_dir() / "stokes").string(), true, "Stokes (I,Q,U,V)");
  const fringe::imager::ImagerConfig cfg = fringe::app::imager_config(s);
  fringe::imager::run(cfg);
  auto read = [&](const char* p) {
    return fringe::imager::read_model_image(cfg.root_path + "_" + p + ".fits", kSize, cfg.cell_rad);
  };
  std::printf("station-beam A-terms, four Stokes: I %.9f Q %.2e U %.2e V %.2e\n",
              at_source(read("I")), at_source(read("Q")), at_source(read("U")),
              at_source(read("V")));
  EXPECT_NEAR(at_source(read("I")), 1.0, 1e-4);
  for (const char* p : {"Q", "U", "V"}) EXPECT_NEAR(at_source(read(p)), 0.0, 1e-4) << p;
}

TEST(ATermBeam, EllipticalFeedBeamsStokesIHasTheTrueFlux) {
  // Different elliptical X and Y feed beams, fixed to each station's horizon frame: on the
  // sky they turn with the parallactic angle, so each A-term interval (one per time step
  // here) has its own full Jones A-terms; Stokes I divided by tr(G_p G_q)/2 is still exact.
  Settings s = settings_for("", (out_dir() / "elliptical").string(), true, "Stokes (I,Q,U,V)");
  s.set("telescope/gaussian_beam/elliptical", "true");
  s.set("telescope/gaussian_beam/x_fwhm_major_deg", "0.4");
  s.set("telescope/gaussian_beam/x_fwhm_minor_deg", "0.2");
  s.set("telescope/gaussian_beam/x_angle_deg", "30");
  s.set("telescope/gaussian_beam/y_fwhm_major_deg", "0.3");
  s.set("telescope/gaussian_beam/y_fwhm_minor_deg", "0.25");
  s.set("telescope/gaussian_beam/y_angle_deg", "-20");
  const std::string ms = simulate(s, "elliptical.ms");
  s.set("image/input_vis_data", ms);
  const fringe::imager::ImagerConfig cfg = fringe::app::imager_config(s);
  fringe::imager::run(cfg);
  const double with =
      at_source(fringe::imager::read_model_image(cfg.root_path + "_I.fits", kSize, cfg.cell_rad));
  s.set("image/idg/aterms", "None");
  s.set("image/root_path", (out_dir() / "elliptical_plain").string());
  const double without = at_source(image(s, "I"));
  std::printf("elliptical feed beams, Stokes I: %.7f with A-terms, %.7f without\n", with, without);
  EXPECT_NEAR(with, 1.0, 1e-4);
  EXPECT_LT(without, 0.9);
}

// Predicts MODEL_DATA of `ms` from a 1 Jy model pixel at the source; returns the largest
// |MODEL_DATA - DATA| over XX and YY relative to the largest |DATA|.
double predict_vs_data(const std::string& ms, bool aterms) {
  Settings s = settings_for(ms, (out_dir() / "predict").string(), aterms);
  s.set("image/double_precision", "true");
  fringe::imager::ImageCube cube;
  cube.size = kSize;
  cube.cell_rad = kCellArcsec * kArcsec;
  cube.centre_rad = {kRa0, kDec0};
  cube.freq_hz = {1.4e9};
  cube.precision = fringe::Precision::Double;
  cube.bunit = "JY/PIXEL";
  cube.pixels.assign(std::size_t(kSize) * kSize, 0.0);
  cube.pixels[std::size_t(kSize / 2 + kDy) * kSize + kSize / 2 + kDx] = 1.0;
  const std::string model =
      (out_dir() / (fs::path(ms).stem().string() + (aterms ? "_a" : "_n") + "_model.fits"))
          .string();
  fringe::imager::write_image_cube(model, cube);
  s.set("image/model_image", model);
  fringe::imager::run(fringe::app::imager_config(s));
  const fringe::io::MsReader r(ms);
  const auto data = r.read_data(0, fringe::io::MsReader::kAllRows, "DATA");
  const auto pred = r.read_data(0, fringe::io::MsReader::kAllRows, "MODEL_DATA");
  EXPECT_EQ(data.size(), pred.size());
  double diff = 0, peak = 0;
  for (std::size_t i = 0; i < data.size(); i += 4)  // XX, XY, YX, YY
    for (std::size_t q : {std::size_t(0), std::size_t(3)}) {
      const fringe::Complex<float> d = data[i + q] - pred[i + q];
      diff = std::max(diff, std::hypot(double(d.re), double(d.im)));
      peak = std::max(peak, std::hypot(double(data[i + q].re), double(data[i + q].im)));
    }
  return diff / peak;
}

TEST(ATermBeam, PredictionWithStationBeamsGivesTheSimulatedVisibilities) {
  // The degridder applies A_p M A_q^H: a model of the true sky (1 Jy) predicts the
  // beam-attenuated visibilities the simulator wrote, visibility by visibility (each time and
  // channel through its own A-term set). Tolerance: IDG's prediction matches the DFT to
  // 1e-5 (docs/imager.md); DATA is single precision.
  const std::string ms = gaussian_ms();
  const double with = predict_vs_data(ms, true);
  std::printf("prediction with station-beam A-terms: max |MODEL_DATA - DATA| %.2e of max |DATA|\n",
              with);
  EXPECT_LT(with, 1e-4);
  // Without A-terms the prediction is the unattenuated 1 Jy source.
  EXPECT_GT(predict_vs_data(ms, false), 1.0);
}

TEST(ATermBeam, ApertureArrayBeamsPredictTheSimulatedVisibilities) {
  // SKA-Low AA0.5: aperture-array stations, whose beams are complex and differ from station
  // to station, in Scalar mode (one correlation). A 1 Jy model pixel 1.25 deg off the centre,
  // predicted with A-terms (A_p M conj(A_q)), gives the simulated visibilities.
  constexpr int size = 512, dx = 80, dy = 60;
  constexpr double cell_arcsec = 45, ra0 = 60 * kDeg, dec0 = -30 * kDeg;
  const std::string aa = std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm";
  const std::string ms = (out_dir() / "aperture_array.ms").string();
  Settings s = imager_settings();
  s.set("image/input_vis_data", ms);
  s.set("image/root_path", (out_dir() / "aperture_array").string());
  s.set("image/algorithm", "IDG");
  s.set("image/use_gpus", "false");
  s.set("image/double_precision", "true");
  s.set("image/size", std::to_string(size));
  s.set("image/specify_cellsize", "true");
  s.set("image/cellsize_arcsec", std::to_string(cell_arcsec));
  s.set("image/idg/aterms", "Station beams");
  s.set("image/idg/aterm_interval_sec", "300");  // one time step per interval
  // One channel per group: A-terms at each channel's own frequency (with both channels on
  // one subgrid, the beam at 100.5 MHz is used for 100 and 101 MHz: 2e-3 error here).
  s.set("image/idg/channel_group_size", "1");
  s.set("telescope/input_directory", aa);
  s.set("telescope/station_type", "Aperture array");
  s.set("telescope/pol_mode", "Scalar");

  fringe::sim::SimulationConfig c;
  c.observation.phase_centre_ra = ra0;
  c.observation.phase_centre_dec = dec0;
  c.observation.start_frequency_hz = 100e6;
  c.observation.num_channels = 2;
  c.observation.frequency_inc_hz = 1e6;
  c.observation.start_mjd_utc = 60676.5538;  // 2025-01-01 13:17:30 UTC: the field is up
  c.observation.length_sec = 1200;
  c.observation.num_time_steps = 4;
  c.pol_mode = fringe::sim::PolarisationMode::Scalar;
  c.beam = fringe::app::station_beam_config(s);
  c.devices.use_gpus = false;
  c.devices.num_devices = 1;  // one CPU thread
  c.ms_path = ms;
  fs::remove_all(ms);
  fringe::sky::SkyModel sky;
  fringe::sky::Source src;
  fringe::astro::lm_to_radec(-dx * cell_arcsec * kArcsec, dy * cell_arcsec * kArcsec, ra0, dec0,
                             src.ra, src.dec);
  src.I = 1.0;
  sky.push_back(src);
  fringe::sim::RunContext ctx;
  fringe::sim::simulate_interferometer(c, sky, fringe::telescope::load_telescope_model(aa), ctx);

  fringe::imager::ImageCube cube;
  cube.size = size;
  cube.cell_rad = cell_arcsec * kArcsec;
  cube.centre_rad = {ra0, dec0};
  cube.freq_hz = {100e6};
  cube.precision = fringe::Precision::Double;
  cube.bunit = "JY/PIXEL";
  cube.pixels.assign(std::size_t(size) * size, 0.0);
  cube.pixels[std::size_t(size / 2 + dy) * size + size / 2 + dx] = 1.0;
  const std::string model = (out_dir() / "aperture_array_model.fits").string();
  fringe::imager::write_image_cube(model, cube);
  s.set("image/model_image", model);
  // max |MODEL_DATA - DATA| / max |DATA| after a prediction; |DATA| range in lo, peak.
  double lo = 1e30, peak = 0;
  auto predict = [&](bool aterms) {
    s.set("image/idg/aterms", aterms ? "Station beams" : "None");
    fringe::imager::run(fringe::app::imager_config(s));
    const fringe::io::MsReader r(ms);
    const std::size_t npol = r.corr_types().size();
    const auto data = r.read_data(0, fringe::io::MsReader::kAllRows, "DATA");
    const auto pred = r.read_data(0, fringe::io::MsReader::kAllRows, "MODEL_DATA");
    EXPECT_EQ(data.size(), pred.size());
    double diff = 0;
    for (std::size_t i = 0; i < data.size(); i += npol) {
      const fringe::Complex<float> d = data[i] - pred[i];
      const double a = std::hypot(double(data[i].re), double(data[i].im));
      diff = std::max(diff, std::hypot(double(d.re), double(d.im)));
      peak = std::max(peak, a);
      lo = std::min(lo, a);
    }
    return diff / peak;
  };
  const double without = predict(false);  // the unattenuated source (|V| = 1)
  const double with = predict(true);
  std::printf(
      "aperture-array A-terms, prediction: max |MODEL_DATA - DATA| %.2e of max |DATA| "
      "(|DATA| %.3f .. %.3f; without A-terms %.2e)\n",
      with, lo, peak, without);
  EXPECT_LT(peak, 0.95);  // the source is attenuated by the beam
  EXPECT_GT(without, 0.1);
  // Measured: 0 in double (MODEL_DATA and DATA round to the same floats), 1.5e-7 in single;
  // the bound is IDG's prediction accuracy (1e-5, docs/imager.md) with margin.
  EXPECT_LT(with, 1e-4);
}

TEST(ATermBeam, IdentityATermsReproduceTheImageWithout) {
  // Isotropic stations in Scalar mode: E = 1 everywhere, so A = identity and the average
  // beam is 1.
  Settings s = settings_for("", "", false);
  s.set("telescope/station_type", "Isotropic beam");
  s.set("telescope/pol_mode", "Scalar");
  const std::string ms = simulate(s, "isotropic.ms");
  s.set("image/input_vis_data", ms);
  s.set("image/double_precision", "true");  // 64-bit FITS: no rounding to float on output
  s.set("image/root_path", (out_dir() / "iso_plain").string());
  const std::vector<double> a = image(s);
  s.set("image/idg/aterms", "Station beams");
  s.set("image/root_path", (out_dir() / "iso_beam").string());
  const std::vector<double> b = image(s);
  ASSERT_EQ(a.size(), b.size());
  double peak = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    peak = std::max(peak, std::abs(a[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  std::printf("identity A-terms: max |difference| %.2e of the peak %.7f\n", diff / peak, peak);
  EXPECT_NEAR(at_source(a), 1.0, 1e-4);
  EXPECT_LT(diff, 1e-9 * peak);
}

TEST(ATermBeam, GpuMatchesCpu) {
  // The CUDA back end with the same station-beam A-terms (full Jones, four products).
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  Settings s = settings_for(gaussian_ms(), (out_dir() / "gpu").string(), true, "Stokes (I,Q,U,V)");
  s.set("image/double_precision", "true");
  s.set("image/use_gpus", "true");
  const fringe::imager::ImagerConfig cfg = fringe::app::imager_config(s);
  const auto r = fringe::imager::run(cfg);
  EXPECT_NE(r.device.find("GPU"), std::string::npos) << r.device;
  const std::vector<double> gpu =
      fringe::imager::read_model_image(cfg.root_path + "_I.fits", kSize, cfg.cell_rad);
  s.set("image/use_gpus", "false");
  s.set("image/root_path", (out_dir() / "gpu_cpu").string());
  const std::vector<double> cpu = image(s, "I");
  double diff = 0, peak = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    if (std::isnan(cpu[i])) {
      EXPECT_TRUE(std::isnan(gpu[i]));
      continue;
    }
    peak = std::max(peak, std::abs(cpu[i]));
    diff = std::max(diff, std::abs(cpu[i] - gpu[i]));
  }
  std::printf("GPU vs CPU with A-terms (double): max |difference| %.2e of the peak\n", diff / peak);
  EXPECT_LT(diff, 1e-9 * peak);
  EXPECT_NEAR(at_source(gpu), 1.0, 1e-4);
}

TEST(ATermBeam, StationBeamsWithoutATelescopeModelNameTheKey) {
  Settings s = settings_for("x.ms", "x", true);
  s.set("telescope/input_directory", "");
  // The imager schema requires telescope/input_directory only with station-beam A-terms.
  bool required = false;
  for (const auto& p : s.validate()) required |= p.key == "telescope/input_directory";
  EXPECT_TRUE(required);
  s.set("image/idg/aterms", "None");
  for (const auto& p : s.validate()) EXPECT_NE(p.key, "telescope/input_directory") << p.text();
  s.set("image/idg/aterms", "Station beams");
  try {
    fringe::app::imager_config(s);
    FAIL() << "expected an error";
  } catch (const fringe::Error& e) {
    EXPECT_EQ(e.context().key, "image/idg/aterms");
    EXPECT_NE(e.message().find("telescope/input_directory"), std::string::npos) << e.message();
  }
}

TEST(ATermBeam, SimInterferometerImagingReadsItsTelescopeGroup) {
  // sim_interferometer's imaging step (interferometer/image_output) converts the same image/
  // keys with its own schema, whose telescope/ group is the simulation's.
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_interferometer.xml"));
  s.set("telescope/input_directory", kTelescope);
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "0.25");
  s.set("telescope/pol_mode", "Scalar");
  s.set("image/algorithm", "IDG");
  s.set("image/idg/aterms", "Station beams");
  const fringe::imager::ImagerConfig c = fringe::app::imager_config(s, "sim.ms");
  EXPECT_EQ(c.idg.aterms.mode, fringe::imager::ATermMode::StationBeams);
  ASSERT_TRUE(c.idg.aterms.telescope);
  EXPECT_EQ(c.idg.aterms.telescope->num_stations(), 27u);
  EXPECT_EQ(c.idg.aterms.beam.station_type, fringe::jones::StationType::Gaussian);
  EXPECT_NEAR(c.idg.aterms.beam.gaussian.fwhm_rad, 0.25 * kDeg, 1e-15);
  EXPECT_FALSE(c.idg.aterms.full_polarisation);
  s.set("image/idg/aterms", "None");
  EXPECT_EQ(fringe::app::imager_config(s, "sim.ms").idg.aterms.mode,
            fringe::imager::ATermMode::None);
}

TEST(ATermBeam, ATelescopeModelWithTooFewStationsIsRefused) {
  // The MS has the 27 VLA stations; ska-low-aa0.5 has 4.
  Settings s = settings_for(gaussian_ms(), (out_dir() / "few").string(), true);
  s.set("telescope/input_directory",
        std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm");
  const fringe::imager::ImagerConfig cfg = fringe::app::imager_config(s);
  try {
    fringe::imager::run(cfg);
    FAIL() << "expected an error";
  } catch (const fringe::Error& e) {
    EXPECT_NE(e.message().find("ATermConfig.mode"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("4 stations"), std::string::npos) << e.message();
    // The imager app shows the key.
    const std::string shown = fringe::app::with_keys(e, fringe::app::imager_field_keys()).message();
    EXPECT_NE(shown.find("image/idg/aterms"), std::string::npos) << shown;
  }
}

}  // namespace
