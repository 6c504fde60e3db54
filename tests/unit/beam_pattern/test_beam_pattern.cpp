// beam_pattern: settings -> BeamPatternConfig (units, words, refusals naming the key;
// app/beam_pattern_settings.h) and
// the whole CPU pipeline, read back from the FITS and text files it writes. Truth from
// outside the pipeline: OSKAR's pixel grid (oskar_evaluate_image_lmn_grid: N pixels evenly
// from +s to -s in l and -s to +s in m, s = sin(fov/2) = N sin(|CDELT|)/2, read from each
// file's header); an isotropic station has amplitude 1 everywhere (OSKAR sets isotropic
// beams to 1, below the horizon too); a Gaussian beam is exp(-(l^2 + m^2) / (2 sigma^2)),
// sigma = sin(FWHM) / (2 sqrt(2 ln 2)), 0.5 at the radius sin(FWHM)/2 (OSKAR's;
// docs/conventions.md, "Station beams"); identical stations have cross power = auto power; averages
// are means of the separate outputs.
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/app/beam_pattern_settings.h"
#include "fringe/app/field_keys.h"
#include "fringe/astro/horizontal.h"
#include "fringe/astro/time.h"
#include "fringe/beam_pattern/beam_pattern.h"
#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/beam_pattern/beam_pattern_products.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/settings.h"
#include "fringe/telescope/tm_loader.h"

namespace {

namespace fs = std::filesystem;
using fringe::settings::Schema;
using fringe::settings::Settings;
using namespace fringe::beam_pattern;
using fringe::app::beam_pattern_config;
constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;

const std::string kTelescope =
    std::string(FRINGE_SOURCE_DIR) + "/telescope-models/ska-low-aa0.5.tm";

std::string out_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_beam_pattern" /
                       (std::string(info->test_suite_name()) + "_" + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// RA 60, Dec -30 transits the SKA-Low site at about 13:27:30 UTC on 2025-01-01 (elevation
// about 87 deg); two dumps of 10 min are centred on it.
Settings base_settings(const std::string& root) {
  Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_beam_pattern.xml"));
  s.set("simulator/use_gpus", "false");
  s.set("simulator/num_devices", "2");
  s.set("observation/phase_centre_ra_deg", "60");
  s.set("observation/phase_centre_dec_deg", "-30");
  s.set("observation/start_frequency_hz", "100e6");
  s.set("observation/start_time_utc", "2025-01-01 13:17:30");
  s.set("observation/length", "00:20:00");
  s.set("telescope/input_directory", kTelescope);
  s.set("telescope/station_type", "Isotropic beam");
  s.set("beam_pattern/root_path", root);
  s.set("beam_pattern/beam_image/size", "16");
  s.set("beam_pattern/station_outputs/fits_image/amp", "true");
  return s;
}

std::string error_of(const Settings& s) {
  try {
    beam_pattern_config(s);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  return "";
}

BeamPatternResult run(const Settings& s,
                      const std::function<void(fringe::telescope::TelescopeModel&)>& edit = {}) {
  const BeamPatternConfig c = beam_pattern_config(s);
  fringe::telescope::TelescopeModel tel = load_beam_pattern_telescope(c, nullptr);
  if (edit) edit(tel);
  BeamPatternContext context;
  context.settings_lines = {"[beam_pattern]", "test=1"};
  return run_beam_pattern(c, tel, context);
}

// A FITS image read through CFITSIO: axes, WCS numbers, all pixels (as double).
struct Image {
  std::vector<long> axes;
  double crpix[2] = {0, 0}, cdelt[2] = {0, 0}, crval[2] = {0, 0};
  int bitpix = 0;
  std::vector<double> data;

  long width() const { return axes[0]; }
  long height() const { return axes[1]; }
  std::size_t plane() const { return std::size_t(axes[0] * axes[1]); }
  // Pixel (i, j) (0-based) of plane k (channel + time * channels).
  double at(long i, long j, std::size_t k = 0) const {
    return data[k * plane() + std::size_t(j * axes[0] + i)];
  }
};

Image read_fits(const std::string& path) {
  Image im;
  fitsfile* f = nullptr;
  int status = 0, n = 0;
  fits_open_diskfile(&f, path.c_str(), READONLY, &status);
  EXPECT_EQ(status, 0) << path;
  if (status) return im;
  fits_get_img_type(f, &im.bitpix, &status);
  fits_get_img_dim(f, &n, &status);
  im.axes.resize(std::size_t(n));
  fits_get_img_size(f, n, im.axes.data(), &status);
  for (int a = 0; a < 2; ++a) {
    const std::string i = std::to_string(a + 1);
    fits_read_key(f, TDOUBLE, ("CRPIX" + i).c_str(), &im.crpix[a], nullptr, &status);
    fits_read_key(f, TDOUBLE, ("CDELT" + i).c_str(), &im.cdelt[a], nullptr, &status);
    fits_read_key(f, TDOUBLE, ("CRVAL" + i).c_str(), &im.crval[a], nullptr, &status);
  }
  std::size_t total = 1;
  for (long a : im.axes) total *= std::size_t(a);
  im.data.resize(total);
  double nulval = 0;
  int anynul = 0;
  fits_read_img(f, TDOUBLE, 1, LONGLONG(total), &nulval, im.data.data(), &anynul, &status);
  fits_close_file(f, &status);
  EXPECT_EQ(status, 0) << path;
  return im;
}

// Direction cosines of pixel column i / row j (OSKAR's grid, oskar_evaluate_image_lmn_grid):
// N values evenly spaced from +s to -s (l, East on the left) and from -s to +s (m), with
// s = sin(fov / 2) = N sin(cell) / 2, cell = |CDELT| (OSKAR's fov_to_cellsize inverted).
double grid_value(long n, double cdelt_deg, long k, double sign) {
  const double s = 0.5 * double(n) * std::sin(std::abs(cdelt_deg) * kDeg);
  return n == 1 ? 0.0 : sign * (-s + double(k) * 2.0 * s / double(n - 1));
}
double pix_l(const Image& im, long i) { return grid_value(im.width(), im.cdelt[0], i, -1.0); }
double pix_m(const Image& im, long j) { return grid_value(im.height(), im.cdelt[1], j, 1.0); }

// Rows of a text output (comment lines skipped), as numbers.
std::vector<std::vector<double>> read_rows(const std::string& path,
                                           std::vector<std::string>* header = nullptr) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#", 0) == 0) {
      if (header) header->push_back(line);
      continue;
    }
    std::istringstream words(line);
    std::vector<double> row;
    for (std::string w; words >> w;) row.push_back(w == "nan" ? std::nan("") : std::stod(w));
    rows.push_back(row);
  }
  return rows;
}

bool no_temporary_files(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp-") != std::string::npos) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Settings -> config.

TEST(BeamPatternConfig, DefaultsAndUnits) {
  Settings s = base_settings("/tmp/bp");
  s.reset("beam_pattern/beam_image/size");
  const BeamPatternConfig c = beam_pattern_config(s);
  EXPECT_EQ(c.precision, fringe::Precision::Double);
  EXPECT_FALSE(c.devices.use_gpus);
  EXPECT_EQ(c.devices.num_devices, 2);
  EXPECT_EQ(c.max_pixels_per_chunk, 16384u);
  EXPECT_EQ(c.pol_mode, PolarisationMode::Full);
  EXPECT_EQ(c.beam.station_type, fringe::jones::StationType::Isotropic);
  EXPECT_FALSE(c.all_stations);
  EXPECT_EQ(c.station_ids, (std::vector<std::size_t>{0}));
  EXPECT_EQ(c.frame, BeamFrame::Equatorial);
  EXPECT_EQ(c.coordinates, BeamCoordinates::Image);
  EXPECT_EQ(c.image.width, 256);
  EXPECT_EQ(c.image.height, 256);
  // OSKAR's cell for fov = 2 deg: asin(2 sin(1 deg) / 256).
  EXPECT_NEAR(c.image.cell_rad[0], std::asin(2 * std::sin(1 * kDeg) / 256), 1e-18);
  EXPECT_EQ(c.image.cell_rad[1], c.image.cell_rad[0]);
  EXPECT_TRUE(c.separate);
  EXPECT_FALSE(c.average_all);
  EXPECT_EQ(c.average_axis, AverageAxis::None);
  EXPECT_TRUE(c.outputs.fits_amp);
  EXPECT_FALSE(c.outputs.any_auto_power());
  EXPECT_TRUE(c.test_source.stokes_i);
  EXPECT_FALSE(c.test_source.custom);
  EXPECT_EQ(c.root_path, "/tmp/bp");
  EXPECT_NEAR(c.observation.phase_centre_ra, 60 * kDeg, 1e-15);
  EXPECT_EQ(c.observation.num_time_steps, 1);
  EXPECT_EQ(c.pointing_file, "");
  EXPECT_EQ(c.element_errors.position_error_xy_m, 0.0);
}

TEST(BeamPatternConfig, ExplicitValues) {
  Settings s = base_settings("/tmp/bp");
  s.set("simulator/double_precision", "false");
  s.set("simulator/max_sources_per_chunk", "100");
  s.set("simulator/keep_log_file", "true");
  s.set("telescope/pol_mode", "Scalar");
  s.set("beam_pattern/all_stations", "true");
  s.set("beam_pattern/beam_image/size", "128,64");
  s.set("beam_pattern/beam_image/fov_deg", "4,2");
  s.set("beam_pattern/output/average_time_and_channel", "true");
  s.set("beam_pattern/output/average_single_axis", "Time");
  s.set("beam_pattern/station_outputs/text_file/auto_power", "true");
  s.set("beam_pattern/telescope_outputs/fits_image/cross_power_imag", "true");
  s.set("telescope/aperture_array/array_pattern/element/x_phase_error_fixed_deg", "2");
  s.set("telescope/aperture_array/array_pattern/element/seed_y_gain_errors", "7");
  const BeamPatternConfig c = beam_pattern_config(s);
  EXPECT_EQ(c.precision, fringe::Precision::Single);
  EXPECT_EQ(c.max_pixels_per_chunk, 100u);
  EXPECT_TRUE(c.keep_log_file);
  EXPECT_EQ(c.pol_mode, PolarisationMode::Scalar);
  EXPECT_TRUE(c.all_stations);
  EXPECT_EQ(c.image.width, 128);
  EXPECT_EQ(c.image.height, 64);
  EXPECT_NEAR(c.image.cell_rad[0], std::asin(2 * std::sin(2 * kDeg) / 128), 1e-18);
  EXPECT_NEAR(c.image.cell_rad[1], std::asin(2 * std::sin(1 * kDeg) / 64), 1e-18);
  EXPECT_TRUE(c.average_all);
  EXPECT_EQ(c.average_axis, AverageAxis::Time);
  EXPECT_TRUE(c.outputs.text_auto_power);
  EXPECT_TRUE(c.outputs.fits_cross_imag);
  EXPECT_NEAR(c.element_errors.phase_error_fixed_rad[0], 2 * kDeg, 1e-16);
  EXPECT_EQ(c.element_errors.seed_gain[1], 7u);
}

TEST(BeamPatternConfig, CellSizeHorizonCustomSourceAndSkyModel) {
  Settings s = base_settings("/tmp/bp");
  s.set("beam_pattern/beam_image/specify_cellsize", "true");
  s.set("beam_pattern/beam_image/cellsize_arcsec", "30");
  s.set("beam_pattern/station_outputs/fits_image/auto_power", "true");
  s.set("beam_pattern/test_source/custom", "true");
  s.set("beam_pattern/test_source/custom_stokes_q", "0.25");
  s.set("beam_pattern/test_source/custom_stokes_v", "-0.5");
  BeamPatternConfig c = beam_pattern_config(s);
  EXPECT_NEAR(c.image.cell_rad[0], 30 * kDeg / 3600, 1e-18);
  EXPECT_TRUE(c.test_source.custom);
  EXPECT_EQ(c.test_source.q, 0.25);
  EXPECT_EQ(c.test_source.v, -0.5);
  const auto b = test_source_brightness(c.test_source, 1);
  EXPECT_EQ(b.a.re, 1.25);
  EXPECT_EQ(b.d.re, 0.75);
  EXPECT_EQ(b.b.im, -0.5);  // U + iV
  EXPECT_EQ(b.c.im, 0.5);   // U - iV

  s.set("beam_pattern/coordinate_frame", "Horizon");
  c = beam_pattern_config(s);
  EXPECT_EQ(c.frame, BeamFrame::Horizon);
  EXPECT_NEAR(c.image.cell_rad[0], std::asin(2.0 / 16), 1e-18);  // the hemisphere, fov 180

  s.set("beam_pattern/coordinate_type", "Sky model");
  s.set("beam_pattern/sky_model/file", "/tmp/positions.txt");
  s.set("beam_pattern/station_outputs/text_file/amp", "true");
  c = beam_pattern_config(s);
  EXPECT_EQ(c.coordinates, BeamCoordinates::SkyModel);
  EXPECT_EQ(c.sky_model_file, "/tmp/positions.txt");
  EXPECT_FALSE(c.outputs.fits_amp);  // FITS outputs need an image (schema dependency)
  EXPECT_TRUE(c.outputs.text_amp);
}

struct BadCase {
  const char* key;
  const char* value;
  const char* expect;  // in the message, after "setting '<key>' = "
};

TEST(BeamPatternConfig, BadValuesNameTheKey) {
  const BadCase cases[] = {
      {"beam_pattern/beam_image/size", "0", "setting 'beam_pattern/beam_image/size' = '0'"},
      {"beam_pattern/beam_image/size", "4,4,4", "one or two image sizes"},
      {"beam_pattern/beam_image/fov_deg", "200", "setting 'beam_pattern/beam_image/fov_deg'"},
      {"beam_pattern/beam_image/fov_deg", "0", "(0, 180] deg"},
      {"beam_pattern/station_ids", "-1", "setting 'beam_pattern/station_ids' = '-1'"},
      {"beam_pattern/station_ids", "2,1,2", "station 2 is listed twice"},
      {"beam_pattern/root_path", "", "setting 'beam_pattern/root_path' = ''"},
      {"simulator/max_sources_per_chunk", "0", "setting 'simulator/max_sources_per_chunk'"},
      {"telescope/gaussian_beam/fwhm_deg", "0", "setting 'telescope/gaussian_beam/fwhm_deg'"},
      {"beam_pattern/station_outputs/hdf5_file/amp", "true",
       "setting 'beam_pattern/station_outputs/hdf5_file/amp' = 'true': HDF5 outputs are not "
       "supported yet"},
      {"beam_pattern/telescope_outputs/hdf5_file/cross_power_phase", "true",
       "'beam_pattern/telescope_outputs/hdf5_file/cross_power_phase' = 'true': HDF5"},
      {"beam_pattern/station_outputs/fits_image/amp", "false",
       "setting 'beam_pattern/output/separate_time_and_channel' = 'true': no output file"},
  };
  for (const BadCase& b : cases) {
    Settings s = base_settings("/tmp/bp");
    if (std::string(b.key) == "telescope/gaussian_beam/fwhm_deg") {
      s.set("telescope/station_type", "Gaussian beam");
    }
    std::string e;
    try {  // the value may already be refused by its type
      s.set(b.key, b.value);
      if (std::string(b.value).empty()) s.reset(b.key);
      e = error_of(s);
    } catch (const fringe::Error& error) {
      e = error.what();
    }
    EXPECT_NE(e.find(b.expect), std::string::npos) << b.key << " = " << b.value << ": " << e;
  }
}

TEST(BeamPatternConfig, RefusalsThatNeedSeveralKeys) {
  {  // Amplitude needs separate outputs: with only averages there is nothing to write.
    Settings s = base_settings("/tmp/bp");
    s.set("beam_pattern/output/separate_time_and_channel", "false");
    s.set("beam_pattern/output/average_time_and_channel", "true");
    EXPECT_NE(error_of(s).find("no output file is selected"), std::string::npos);
    s.set("beam_pattern/station_outputs/fits_image/auto_power", "true");
    EXPECT_EQ(error_of(s), "");
  }
  {  // Power outputs in Full mode need a test source.
    Settings s = base_settings("/tmp/bp");
    s.set("beam_pattern/station_outputs/fits_image/auto_power", "true");
    s.set("beam_pattern/test_source/stokes_i", "false");
    EXPECT_NE(error_of(s).find("setting 'beam_pattern/test_source/stokes_i' = 'false'"),
              std::string::npos)
        << error_of(s);
    s.set("telescope/pol_mode", "Scalar");  // the test source is not used
    EXPECT_EQ(error_of(s), "");
  }
  {  // Cross power needs two stations.
    Settings s = base_settings("/tmp/bp");
    s.set("beam_pattern/telescope_outputs/fits_image/cross_power_amp", "true");
    EXPECT_NE(error_of(s).find("'beam_pattern/station_ids' = '0': cross-power outputs need at "
                               "least two stations"),
              std::string::npos)
        << error_of(s);
  }
  {  // Sky model positions need a file.
    Settings s = base_settings("/tmp/bp");
    s.set("beam_pattern/coordinate_type", "Sky model");
    s.set("beam_pattern/station_outputs/text_file/amp", "true");
    EXPECT_NE(error_of(s).find("setting 'beam_pattern/sky_model/file' = ''"), std::string::npos)
        << error_of(s);
  }
}

// The pipeline names the config field; the app's map gives the user the key.
TEST(BeamPatternConfig, StationIndicesCheckedAgainstTheTelescope) {
  Settings s = base_settings((fs::path(out_dir()) / "bp").string());
  s.set("beam_pattern/station_ids", "1,4");
  try {
    run(s);
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    EXPECT_EQ(e.context().field, "BeamPatternConfig.station_ids");
    const fringe::Error keyed = fringe::app::with_keys(e, fringe::app::beam_pattern_field_keys());
    EXPECT_NE(std::string(keyed.what())
                  .find("setting 'beam_pattern/station_ids' = '1,4': "
                        "station 4 is not in the telescope model"),
              std::string::npos)
        << keyed.what();
  }
}

// ---------------------------------------------------------------------------------------
// Products, names.

TEST(BeamPatternProducts, NamesFollowOskar) {
  Settings s = base_settings("/out/beam");
  s.set("beam_pattern/station_ids", "3,1");
  s.set("beam_pattern/station_outputs/text_file/raw_complex", "true");
  s.set("beam_pattern/station_outputs/fits_image/auto_power_real", "true");
  s.set("beam_pattern/telescope_outputs/text_file/cross_power_raw_complex", "true");
  s.set("beam_pattern/test_source/custom", "true");
  s.set("beam_pattern/output/average_single_axis", "Channel");
  const BeamPatternConfig c = beam_pattern_config(s);
  const std::vector<std::size_t> ids = {3, 1};
  std::vector<std::string> names;
  for (const auto& p : plan_products(c, ids)) names.push_back(p.path);
  auto has = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  EXPECT_TRUE(has("/out/beam_S0003_TIME_SEP_CHAN_SEP_RAW_COMPLEX.txt"));
  EXPECT_TRUE(has("/out/beam_S0001_TIME_SEP_CHAN_SEP_AMP_X_PHI.fits"));
  EXPECT_TRUE(has("/out/beam_S0003_TIME_SEP_CHAN_SEP_AMP_Y_THETA.fits"));
  EXPECT_TRUE(has("/out/beam_S0003_TIME_SEP_CHAN_SEP_AUTO_POWER_REAL_I_I.fits"));
  EXPECT_TRUE(has("/out/beam_S0003_TIME_SEP_CHAN_SEP_AUTO_POWER_REAL_CUSTOM_V.fits"));
  EXPECT_TRUE(has("/out/beam_S0001_TIME_SEP_CHAN_AVG_AUTO_POWER_REAL_CUSTOM_Q.fits"));
  EXPECT_TRUE(has("/out/beam_TIME_SEP_CHAN_SEP_CROSS_POWER_RAW_COMPLEX_I.txt"));
  EXPECT_TRUE(has("/out/beam_TIME_SEP_CHAN_AVG_CROSS_POWER_RAW_COMPLEX_CUSTOM.txt"));
  // 2 stations: raw 1 + amp 4 + auto real 2 x 4 (separate) + 2 x 4 (channel average);
  // cross raw 2 x 2.
  EXPECT_EQ(names.size(), 2u * (1 + 4 + 8 + 8) + 4u);
  EXPECT_EQ(names.front(), "/out/beam_S0003_TIME_SEP_CHAN_SEP_RAW_COMPLEX.txt");

  Settings scalar = base_settings("/out/beam");
  scalar.set("telescope/pol_mode", "Scalar");
  scalar.set("beam_pattern/station_outputs/fits_image/auto_power", "true");
  names.clear();
  for (const auto& p : plan_products(beam_pattern_config(scalar), ids)) names.push_back(p.path);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "/out/beam_S0003_TIME_SEP_CHAN_SEP_AMP.fits",
                       "/out/beam_S0001_TIME_SEP_CHAN_SEP_AMP.fits",
                       "/out/beam_S0003_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.fits",
                       "/out/beam_S0001_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.fits"}));
}

TEST(BeamPatternProducts, StokesOfPowerMatrices) {
  // B of (I, Q, U, V) = (2, 0.5, -0.25, 0.75) seen through the identity: Stokes back.
  TestSourceConfig t;
  t.i = 2;
  t.q = 0.5;
  t.u = -0.25;
  t.v = 0.75;
  const auto b = test_source_brightness(t, 1);
  const double expect[4] = {2, 0.5, -0.25, 0.75};
  for (int k = 0; k < 4; ++k) {
    const auto z = power_stokes(b, k, true);
    EXPECT_NEAR(z.re, expect[k], 1e-15) << k;
    EXPECT_NEAR(z.im, 0.0, 1e-15) << k;
  }
  EXPECT_EQ(power_stokes(b, 0, false).re, 2.5);  // Scalar: the power itself (P.a)
  EXPECT_NEAR(complex_value({3, 4}, ProductValue::Amp), 5, 1e-15);
  EXPECT_NEAR(complex_value({0, -2}, ProductValue::Phase), -kPi / 2, 1e-15);
}

// ---------------------------------------------------------------------------------------
// The pipeline.

// OSKAR's isotropic station beam is 1 in every direction, below the horizon too, and at the
// pixels outside the image circle (oskar_station_beam.c sets it without the directions).
TEST(BeamPatternPipeline, IsotropicAmplitudeIsOneAboveAndBelowTheHorizon) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/iso");
  s.set("observation/start_time_utc", "2025-01-01 09:30:00");  // phase centre at ~40 deg
  s.set("telescope/pol_mode", "Scalar");
  s.set("beam_pattern/beam_image/size", "41");
  s.set("beam_pattern/beam_image/fov_deg", "180");  // the hemisphere about the phase centre
  s.set("beam_pattern/station_ids", "2");
  const BeamPatternResult r = run(s);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0], dir + "/iso_S0002_TIME_SEP_CHAN_SEP_AMP.fits");
  const Image im = read_fits(r.files[0]);
  ASSERT_EQ(im.axes, (std::vector<long>{41, 41, 1, 1}));
  EXPECT_EQ(im.bitpix, DOUBLE_IMG);
  EXPECT_EQ(im.crpix[0], 21.0);
  EXPECT_EQ(im.crpix[1], 21.0);
  EXPECT_DOUBLE_EQ(im.cdelt[0], -std::asin(2.0 / 41) / kDeg);
  // Independent elevation of each pixel at the dump centre (station 2's own site).
  const auto tel = fringe::telescope::load_telescope_model(kTelescope, nullptr);
  const auto& site = tel.stations[2].geodetic;
  const double gast =
      fringe::astro::gast_rad(beam_pattern_config(s).observation.time_centre_mjd(0));
  int above = 0, below = 0, outside = 0;
  for (long j = 0; j < 41; ++j) {
    for (long i = 0; i < 41; ++i) {
      const double l = pix_l(im, i), m = pix_m(im, j);
      const double v = im.at(i, j);
      if (l * l + m * m > 1.0) {
        EXPECT_EQ(v, 1.0) << i << "," << j;  // no direction there, but OSKAR's 1 all the same
        ++outside;
        continue;
      }
      const double n = std::sqrt(1 - l * l - m * m), d0 = -30 * kDeg;
      const double dec = std::asin(n * std::sin(d0) + m * std::cos(d0));
      const double ra = 60 * kDeg + std::atan2(l, n * std::cos(d0) - m * std::sin(d0));
      const auto azel = fringe::astro::radec_to_azel(ra, dec, gast, site.lon, site.lat);
      if (azel.el > 1e-9) {
        EXPECT_EQ(v, 1.0) << i << "," << j;
        ++above;
      } else if (azel.el < -1e-9) {
        EXPECT_EQ(v, 1.0) << i << "," << j;
        ++below;
      }
    }
  }
  EXPECT_GT(above, 1000);
  EXPECT_GT(below, 100);
  EXPECT_GT(outside, 100);
  EXPECT_TRUE(no_temporary_files(dir));
}

TEST(BeamPatternPipeline, IsotropicFullAutoPowerIsStokesIOne) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/iso");
  s.set("beam_pattern/station_outputs/fits_image/amp", "false");
  s.set("beam_pattern/station_outputs/fits_image/auto_power", "true");
  s.set("beam_pattern/station_outputs/fits_image/auto_power_real", "true");
  s.set("beam_pattern/beam_image/fov_deg", "60");
  s.set("observation/num_time_steps", "2");
  const BeamPatternResult r = run(s);
  ASSERT_EQ(r.files.size(), 8u);  // amp, real x I, Q, U, V
  for (const auto& f : r.files) {
    const Image im = read_fits(f);
    ASSERT_EQ(im.axes, (std::vector<long>{16, 16, 1, 2}));
    const bool stokes_i = f.find("_I_I.fits") != std::string::npos;
    for (double v : im.data) EXPECT_NEAR(v, stokes_i ? 1.0 : 0.0, 1e-14) << f;
  }
}

// A Gaussian station beam on OSKAR's grid: CRPIX = (N + 1) / 2; with an odd size the centre
// pixel is the phase centre (1) and the pixels k away are at the half-power radius when the
// pixel spacing N sin(cell) / (N - 1) is r_half / k; every pixel (odd and even sizes) is
// exp(-(l^2 + m^2) / (2 sigma^2)) at its grid position.
TEST(BeamPatternPipeline, GaussianHalfPowerRadiusAndPeakAtCentre) {
  for (int size : {63, 64}) {
    const std::string dir = out_dir();
    const double fwhm = 4.0 * kDeg, r_half = std::sin(fwhm) / 2;
    const int k = 10;  // the half-power radius is exactly k pixels
    Settings s = base_settings(dir + "/g");
    s.set("telescope/pol_mode", "Scalar");
    s.set("telescope/station_type", "Gaussian beam");
    s.set("telescope/gaussian_beam/fwhm_deg", "4");
    s.set("beam_pattern/beam_image/size", std::to_string(size));
    s.set("beam_pattern/beam_image/specify_cellsize", "true");
    char cell[64];
    const double spacing = r_half / k;
    std::snprintf(cell, sizeof cell, "%.17g", std::asin(spacing * (size - 1) / size) / kDeg * 3600);
    s.set("beam_pattern/beam_image/cellsize_arcsec", cell);
    s.set("beam_pattern/station_ids", "0,3");
    const BeamPatternResult r = run(s);
    ASSERT_EQ(r.files.size(), 2u);
    for (const auto& f : r.files) {
      const Image im = read_fits(f);
      EXPECT_EQ(im.crpix[0], 0.5 * (size + 1));
      EXPECT_EQ(im.crpix[1], 0.5 * (size + 1));
      if (size % 2 == 1) {
        // The peak is the centre pixel, the reference pixel.
        long best = 0;
        for (long p = 1; p < long(im.plane()); ++p) {
          if (im.data[std::size_t(p)] > im.data[std::size_t(best)]) best = p;
        }
        EXPECT_EQ(best % size + 1, long(im.crpix[0])) << f;
        EXPECT_EQ(best / size + 1, long(im.crpix[1])) << f;
        const long c = size / 2;
        EXPECT_NEAR(im.at(c, c), 1.0, 1e-12);
        for (auto [di, dj] : {std::pair{k, 0}, {-k, 0}, {0, k}, {0, -k}}) {
          EXPECT_NEAR(im.at(c + di, c + dj), 0.5, 1e-9) << f << " " << di << "," << dj;
        }
      }
      // Every pixel: exp(-(l^2 + m^2) / (2 sigma^2)) with l, m of OSKAR's grid.
      const double sigma = std::sin(fwhm) / (2 * std::sqrt(2 * std::log(2.0)));
      double worst = 0;
      for (long j = 0; j < size; ++j) {
        for (long i = 0; i < size; ++i) {
          const double l = pix_l(im, i), m = pix_m(im, j);
          const double expect = std::exp(-(l * l + m * m) / (2 * sigma * sigma));
          worst = std::max(worst, std::abs(im.at(i, j) - expect));
        }
      }
      EXPECT_LT(worst, 1e-9) << f;
    }
  }
}

TEST(BeamPatternPipeline, CrossPowerOfIdenticalStationsEqualsAutoPower) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/x");
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "5");
  s.set("beam_pattern/beam_image/fov_deg", "12");
  s.set("beam_pattern/station_ids", "0,1,2,3");
  s.set("beam_pattern/station_outputs/fits_image/amp", "false");
  s.set("beam_pattern/station_outputs/fits_image/auto_power_real", "true");
  s.set("beam_pattern/station_outputs/fits_image/auto_power_imag", "true");
  s.set("beam_pattern/telescope_outputs/fits_image/cross_power_real", "true");
  s.set("beam_pattern/telescope_outputs/fits_image/cross_power_imag", "true");
  s.set("beam_pattern/test_source/custom", "true");
  s.set("beam_pattern/test_source/custom_stokes_q", "0.3");
  s.set("beam_pattern/test_source/custom_stokes_u", "-0.2");
  s.set("beam_pattern/test_source/custom_stokes_v", "0.1");
  // Every station at station 0's site: identical beams.
  const BeamPatternResult r = run(s, [](fringe::telescope::TelescopeModel& t) {
    for (auto& st : t.stations) st.geodetic = t.stations[0].geodetic;
  });
  int compared = 0;
  for (const std::string src : {"_I_", "_CUSTOM_"}) {
    for (const std::string stokes : {"I", "Q", "U", "V"}) {
      for (const std::string part : {"REAL", "IMAG"}) {
        const Image a = read_fits(dir + "/x_S0002_TIME_SEP_CHAN_SEP_AUTO_POWER_" + part + src +
                                  stokes + ".fits");
        const Image x =
            read_fits(dir + "/x_TIME_SEP_CHAN_SEP_CROSS_POWER_" + part + src + stokes + ".fits");
        ASSERT_EQ(a.data.size(), x.data.size());
        for (std::size_t i = 0; i < a.data.size(); ++i) {
          EXPECT_NEAR(x.data[i], a.data[i], 1e-13) << src << stokes << part << " " << i;
        }
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 16);
  // The custom source is polarised: its auto power Stokes Q is not zero.
  const Image q = read_fits(dir + "/x_S0000_TIME_SEP_CHAN_SEP_AUTO_POWER_REAL_CUSTOM_Q.fits");
  EXPECT_GT(std::abs(q.at(8, 8)), 0.1);
}

// Averages (over both axes, over time, over channels) against the means of the separate
// outputs, for real/imaginary parts (linear in the power) of a frequency-dependent pattern:
// a polarised test source and a Gaussian beam whose width scales with frequency.
TEST(BeamPatternPipeline, AveragesAreMeansOfSeparateOutputs) {
  for (const char* axis : {"Time", "Channel"}) {
    const std::string dir = out_dir();
    Settings s = base_settings(dir + "/a");
    s.set("observation/num_time_steps", "3");
    s.set("observation/length", "03:00:00");
    s.set("observation/num_channels", "2");
    s.set("observation/frequency_inc_hz", "40e6");
    s.set("telescope/station_type", "Gaussian beam");
    s.set("telescope/gaussian_beam/fwhm_deg", "8");
    s.set("telescope/gaussian_beam/ref_freq_hz", "100e6");
    s.set("beam_pattern/beam_image/fov_deg", "20");
    s.set("beam_pattern/station_ids", "0,2");
    s.set("beam_pattern/station_outputs/fits_image/amp", "false");
    s.set("beam_pattern/station_outputs/fits_image/auto_power_real", "true");
    s.set("beam_pattern/station_outputs/fits_image/auto_power_imag", "true");
    s.set("beam_pattern/telescope_outputs/fits_image/cross_power_real", "true");
    s.set("beam_pattern/telescope_outputs/text_file/cross_power_raw_complex", "true");
    s.set("beam_pattern/test_source/stokes_i", "false");
    s.set("beam_pattern/test_source/custom", "true");
    s.set("beam_pattern/test_source/custom_stokes_q", "0.6");
    s.set("beam_pattern/test_source/custom_stokes_u", "0.3");
    s.set("beam_pattern/output/average_time_and_channel", "true");
    s.set("beam_pattern/output/average_single_axis", axis);
    s.set("simulator/max_sources_per_chunk", "100");  // 3 chunks of the 256 pixels
    run(s);
    const bool over_time = std::string(axis) == "Time";
    const std::string single = over_time ? "TIME_AVG_CHAN_SEP_" : "TIME_SEP_CHAN_AVG_";
    const std::pair<std::string, std::string> products[] = {{"S0002_", "AUTO_POWER_REAL_CUSTOM_U"},
                                                            {"S0000_", "AUTO_POWER_REAL_CUSTOM_Q"},
                                                            {"", "CROSS_POWER_REAL_CUSTOM_Q"}};
    for (const auto& [station, what] : products) {
      auto name = [&](const std::string& mode) {
        return dir + "/a_" + station + mode + what + ".fits";
      };
      const Image sep = read_fits(name("TIME_SEP_CHAN_SEP_"));
      const Image all = read_fits(name("TIME_AVG_CHAN_AVG_"));
      const Image one = read_fits(name(single));
      ASSERT_EQ(sep.axes, (std::vector<long>{16, 16, 2, 3})) << what;
      ASSERT_EQ(all.axes, (std::vector<long>{16, 16, 1, 1}));
      ASSERT_EQ(one.axes, (std::vector<long>{16, 16, over_time ? 2 : 1, over_time ? 1 : 3}));
      const std::size_t np = sep.plane();
      double spread = 0;
      for (std::size_t p = 0; p < np; ++p) {
        double total = 0;
        for (std::size_t k = 0; k < 6; ++k) total += sep.data[k * np + p];
        EXPECT_NEAR(all.data[p], total / 6, 1e-13) << what << " " << p;
        for (int o = 0; o < (over_time ? 2 : 3); ++o) {
          double sum = 0;
          for (int i = 0; i < (over_time ? 3 : 2); ++i) {
            const int t = over_time ? i : o, c = over_time ? o : i;
            sum += sep.data[std::size_t(t * 2 + c) * np + p];
          }
          EXPECT_NEAR(one.data[std::size_t(o) * np + p], sum / (over_time ? 3 : 2), 1e-13)
              << what << " " << axis << " " << o << " " << p;
        }
        spread = std::max(spread, std::abs(sep.data[p] - sep.data[5 * np + p]));
      }
      EXPECT_GT(spread, 1e-3) << what << ": the test needs outputs that change";
    }
    // The text file of the averaged cross power: one row per pixel, the 8 numbers of the
    // complex 2x2 matrix, OSKAR's nine header lines.
    std::vector<std::string> header;
    const auto rows =
        read_rows(dir + "/a_TIME_AVG_CHAN_AVG_CROSS_POWER_RAW_COMPLEX_CUSTOM.txt", &header);
    ASSERT_EQ(rows.size(), 256u);
    for (const auto& row : rows) ASSERT_EQ(row.size(), 8u);
    ASSERT_EQ(header.size(), 9u);
    EXPECT_EQ(header[0], "# Beam pixel list for telescope (interferometer)");
    EXPECT_EQ(header[3], over_time ? "#     [pixel chunk], [channel], [time], [pixel index]"
                                   : "#     [pixel chunk], [time], [channel], [pixel index]");
    EXPECT_EQ(header[4], "# Number of pixel chunks: 3");
    EXPECT_EQ(header[8], "# Total number of pixels: 256");
    EXPECT_TRUE(no_temporary_files(dir));
  }
}

TEST(BeamPatternPipeline, HorizonFrameIsotropicAndGaussian) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/h");
  s.set("beam_pattern/coordinate_frame", "Horizon");
  s.set("beam_pattern/beam_image/size", "33");
  s.set("beam_pattern/station_ids", "1");
  BeamPatternResult r = run(s);
  ASSERT_EQ(r.files.size(), 4u);  // AMP_X_THETA .. AMP_Y_PHI
  const Image xx = read_fits(r.files[0]), xy = read_fits(r.files[1]);
  EXPECT_DOUBLE_EQ(xx.cdelt[0], std::asin(2.0 / 33) / kDeg);  // East on the left: CDELT1 > 0
  int inside = 0;
  for (long j = 0; j < 33; ++j) {
    for (long i = 0; i < 33; ++i) {
      const double l = pix_l(xx, i), m = pix_m(xx, j);
      if (l * l + m * m > 1 + 1e-12) {
        EXPECT_EQ(xx.at(i, j), 1.0);  // outside the hemisphere: the isotropic 1 all the same
        continue;
      }
      ++inside;
      EXPECT_NEAR(xx.at(i, j), 1.0, 1e-14) << i << "," << j;  // isotropic: the identity
      EXPECT_NEAR(xy.at(i, j), 0.0, 1e-14) << i << "," << j;
    }
  }
  EXPECT_GT(inside, 700);

  // A Gaussian beam points at the phase centre: the peak is the pixel nearest to its
  // azimuth/elevation at the station.
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "10");
  s.set("telescope/pol_mode", "Scalar");
  s.set("beam_pattern/beam_image/size", "101");
  r = run(s);
  const Image g = read_fits(r.files[0]);
  const auto tel = fringe::telescope::load_telescope_model(kTelescope, nullptr);
  const auto& site = tel.stations[1].geodetic;
  const double gast =
      fringe::astro::gast_rad(beam_pattern_config(s).observation.time_centre_mjd(0));
  const auto b = fringe::astro::radec_to_azel(60 * kDeg, -30 * kDeg, gast, site.lon, site.lat);
  const double bl = std::cos(b.el) * std::sin(b.az), bm = std::cos(b.el) * std::cos(b.az);
  long best = -1;
  for (long p = 0; p < long(g.plane()); ++p) {
    const double v = g.data[std::size_t(p)];
    if (!std::isnan(v) && (best < 0 || v > g.data[std::size_t(best)])) best = p;
  }
  ASSERT_GE(best, 0);
  const double pl = pix_l(g, best % 101), pm = pix_m(g, best / 101);
  const double cell = 2.0 / 100;  // the grid spacing: 101 pixels over [-1, 1]
  EXPECT_LE(std::abs(pl - bl), 0.5 * cell + 1e-12) << pl << " " << bl;
  EXPECT_LE(std::abs(pm - bm), 0.5 * cell + 1e-12) << pm << " " << bm;

  // Drift scan: the beam points at the zenith, the reference pixel.
  s.set("observation/mode", "Drift scan");
  r = run(s);
  const Image z = read_fits(r.files[0]);
  EXPECT_NEAR(z.at(50, 50), 1.0, 1e-12);
  const double sigma = std::sin(10 * kDeg) / (2 * std::sqrt(2 * std::log(2.0)));
  const double l = pix_l(z, 57);  // 7 pixels right of the zenith
  EXPECT_NEAR(z.at(57, 50), std::exp(-l * l / (2 * sigma * sigma)), 1e-12);
}

// Aperture-array stations (SKA-Low AA0.5: 256 dipoles per station, four different layouts):
// normalised to 1 at the phase centre, which is the reference pixel; a station's outputs do
// not depend on which other stations are selected.
TEST(BeamPatternPipeline, ApertureArrayStations) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/aa");
  s.set("telescope/station_type", "Aperture array");
  s.set("beam_pattern/beam_image/size", "33");  // odd: the centre pixel is the phase centre
  s.set("beam_pattern/beam_image/fov_deg", "30");
  s.set("beam_pattern/station_ids", "3,1");
  s.set("beam_pattern/station_outputs/fits_image/auto_power", "true");
  run(s);
  s.set("beam_pattern/station_ids", "3");
  s.set("beam_pattern/root_path", dir + "/alone");
  run(s);
  const Image a = read_fits(dir + "/aa_S0003_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.fits");
  const Image b = read_fits(dir + "/alone_S0003_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.fits");
  const Image other = read_fits(dir + "/aa_S0001_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.fits");
  ASSERT_EQ(a.data.size(), b.data.size());
  EXPECT_EQ(a.data, b.data);
  EXPECT_NEAR(a.at(16, 16), 1.0, 1e-9);  // CRPIX 17: the phase centre
  EXPECT_NEAR(other.at(16, 16), 1.0, 1e-9);
  double max_a = 0, diff = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    max_a = std::max(max_a, a.data[i]);
    diff = std::max(diff, std::abs(a.data[i] - other.data[i]));
  }
  EXPECT_NEAR(max_a, 1.0, 1e-6);
  EXPECT_GT(diff, 1e-3);  // different station layouts, different sidelobes
}

// The GPU path (aperture-array stations, Equatorial frame) gives the CPU's images: double to
// rounding, single within the CUDA evaluator's float bound. Skipped without a CUDA device.
TEST(BeamPatternPipeline, GpuMatchesCpuForApertureArrays) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const std::string dir = out_dir();
  for (const char* precision : {"true", "false"}) {
    Settings s = base_settings(dir + "/cpu");
    s.set("simulator/double_precision", precision);
    s.set("telescope/station_type", "Aperture array");
    s.set("beam_pattern/beam_image/size", "48");
    s.set("beam_pattern/beam_image/fov_deg", "40");
    s.set("beam_pattern/station_ids", "0,2");
    s.set("beam_pattern/station_outputs/fits_image/auto_power", "true");
    run(s);
    s.set("simulator/use_gpus", "true");
    s.set("beam_pattern/root_path", dir + "/gpu");
    run(s);
    const double tol = std::string(precision) == "true" ? 1e-12 : 2e-5;
    // File, and the smallest peak it must reach: the Stokes I auto power is 1 at the phase
    // centre; single Jones elements of E can be small there (OSKAR's (theta, phi) basis), so
    // they only have to be non-trivial.
    const std::pair<const char*, double> files[] = {
        {"_S0000_TIME_SEP_CHAN_SEP_AMP_X_THETA.fits", 1e-3},
        {"_S0002_TIME_SEP_CHAN_SEP_AMP_Y_THETA.fits", 1e-3},
        {"_S0002_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.fits", 0.5}};
    for (const auto& [name, min_peak] : files) {
      const Image c = read_fits(dir + "/cpu" + name);
      const Image g = read_fits(dir + "/gpu" + name);
      ASSERT_EQ(c.data.size(), g.data.size()) << name;
      double diff = 0, peak = 0;
      for (std::size_t i = 0; i < c.data.size(); ++i) {
        if (std::isnan(c.data[i])) continue;
        diff = std::max(diff, std::abs(c.data[i] - g.data[i]));
        peak = std::max(peak, std::abs(c.data[i]));
      }
      EXPECT_GT(peak, min_peak) << name;
      // Relative to the co-polar scale (1 at the phase centre).
      EXPECT_LT(diff, tol) << name << " precision double=" << precision;
    }
  }
}

// The External TEC screen with the GPU's aperture-array beams (docs/ionosphere.md, "Beam
// patterns"): OSKAR's iono_equatorial case (tracking, Full mode, Faraday rotation; the screen
// is applied on the host in both runs) gives the CPU's images: double to rounding, single
// within the CUDA evaluator's float bound. Skipped without a CUDA device.
TEST(BeamPatternPipeline, GpuMatchesCpuWithTecScreen) {
  if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const std::string dir = out_dir();
  const std::string ini = std::string(FRINGE_SOURCE_DIR) +
                          "/tests/data/oskar-reference/beam_pattern/iono_equatorial/"
                          "oskar_sim_beam_pattern.ini";
  for (const char* precision : {"true", "false"}) {
    Settings s(Schema::load(fringe::settings::embedded_schemas(), "sim_beam_pattern.xml"));
    fringe::settings::load_ini(s, ini);
    s.set("simulator/double_precision", precision);
    s.set("simulator/use_gpus", "false");
    s.set("beam_pattern/root_path", dir + "/cpu");
    run(s);
    s.set("simulator/use_gpus", "true");
    s.set("beam_pattern/root_path", dir + "/gpu");
    run(s);
    const double tol = std::string(precision) == "true" ? 1e-12 : 2e-5;
    for (const char* name :
         {"_S0000_TIME_SEP_CHAN_SEP_AMP_X_THETA.fits", "_S0003_TIME_SEP_CHAN_SEP_AMP_Y_PHI.fits",
          "_S0003_TIME_SEP_CHAN_SEP_AMP_X_PHI.fits"}) {
      const Image c = read_fits(dir + "/cpu" + name);
      const Image g = read_fits(dir + "/gpu" + name);
      ASSERT_EQ(c.data.size(), g.data.size()) << name;
      double diff = 0, peak = 0;
      for (std::size_t i = 0; i < c.data.size(); ++i) {
        if (std::isnan(c.data[i])) continue;
        diff = std::max(diff, std::abs(c.data[i] - g.data[i]));
        peak = std::max(peak, std::abs(c.data[i]));
      }
      EXPECT_GT(peak, 1e-3) << name;  // amplitudes of E Z, mixed by the Faraday rotation
      EXPECT_LT(diff, tol) << name << " precision double=" << precision;
    }
  }
}

// observation/pointing_file reaches the selected stations by their telescope index: station 2
// points at its zenith (the Horizon image centre), station 0 keeps the phase centre.
TEST(BeamPatternPipeline, PointingFileOverridesAStation) {
  const std::string dir = out_dir();
  {
    std::ofstream f(dir + "/pointing.txt");
    f << "# station frame lon lat\n2 AZEL 0 90\n";
  }
  Settings s = base_settings(dir + "/p");
  s.set("observation/start_time_utc", "2025-01-01 11:00:00");  // phase centre ~35 deg off zenith
  s.set("observation/pointing_file", dir + "/pointing.txt");
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "10");
  s.set("telescope/pol_mode", "Scalar");
  s.set("telescope/normalise_beams_at_phase_centre", "false");
  s.set("beam_pattern/coordinate_frame", "Horizon");
  s.set("beam_pattern/beam_image/size", "51");
  s.set("beam_pattern/station_ids", "0,2");
  const BeamPatternResult r = run(s);
  ASSERT_EQ(r.files.size(), 2u);
  const Image s0 = read_fits(r.files[0]), s2 = read_fits(r.files[1]);
  EXPECT_NE(r.files[1].find("_S0002_"), std::string::npos);
  EXPECT_NEAR(s2.at(25, 25), 1.0, 1e-12);  // zenith
  EXPECT_LT(s0.at(25, 25), 1e-3);          // the phase centre is far from the zenith
}

TEST(BeamPatternPipeline, SkyModelPositionsAsText) {
  const std::string dir = out_dir();
  const std::string sky = dir + "/positions.osm";
  {
    std::ofstream f(sky);
    f << "# RA, Dec [deg], then anything\n"
      << "60 -30 1 0 0 0\n"
      << "60.0, -28.0\n"
      << "not a position\n"
      << "62 -30 # two numbers and a comment\n";
  }
  Settings s = base_settings(dir + "/sky");
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "4");
  s.set("telescope/pol_mode", "Scalar");
  s.set("beam_pattern/coordinate_type", "Sky model");
  s.set("beam_pattern/sky_model/file", sky);
  s.set("beam_pattern/station_outputs/text_file/amp", "true");
  s.set("beam_pattern/station_outputs/text_file/auto_power", "true");
  s.set("observation/num_channels", "2");
  s.set("observation/frequency_inc_hz", "1e6");
  const BeamPatternResult r = run(s);
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_EQ(r.num_pixels, 3u);
  EXPECT_EQ(r.files[0], dir + "/sky_S0000_TIME_SEP_CHAN_SEP_AMP.txt");
  EXPECT_EQ(r.files[1], dir + "/sky_S0000_TIME_SEP_CHAN_SEP_AUTO_POWER_AMP_I_I.txt");
  std::vector<std::string> header;
  const auto amp = read_rows(r.files[0], &header);
  const auto power = read_rows(r.files[1]);
  ASSERT_EQ(amp.size(), 6u);  // 1 time x 2 channels x 3 positions, one value per line
  ASSERT_EQ(header.size(), 9u);
  EXPECT_EQ(header[0], "# Beam pixel list for station 0");
  EXPECT_EQ(header[1], "# Filename is '" + dir + "/sky_S0000_TIME_SEP_CHAN_SEP_AMP.txt'");
  EXPECT_EQ(header[8], "# Total number of pixels: 3");
  const double sigma = std::sin(4 * kDeg) / (2 * std::sqrt(2 * std::log(2.0)));
  const double d0 = -30 * kDeg;
  const double positions[3][2] = {{60, -30}, {60, -28}, {62, -30}};  // the file's, in order
  for (std::size_t k = 0; k < amp.size(); ++k) {
    ASSERT_EQ(amp[k].size(), 1u);
    // Rows: chunk (one), time (one), channel, position.
    const double ra = positions[k % 3][0] * kDeg, dec = positions[k % 3][1] * kDeg;
    const double l = std::cos(dec) * std::sin(ra - 60 * kDeg);
    const double m =
        std::sin(dec) * std::cos(d0) - std::cos(dec) * std::sin(d0) * std::cos(ra - 60 * kDeg);
    const double expect = std::exp(-(l * l + m * m) / (2 * sigma * sigma));
    EXPECT_NEAR(amp[k][0], expect, 1e-9) << k;
    EXPECT_NEAR(power[k][0], expect * expect, 1e-9) << k;
  }
  EXPECT_LT(amp[1][0], 0.9);  // the positions differ
}

TEST(BeamPatternPipeline, SinglePrecisionWritesFloatImages) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/d");
  s.set("telescope/station_type", "Gaussian beam");
  s.set("telescope/gaussian_beam/fwhm_deg", "3");
  s.set("beam_pattern/beam_image/fov_deg", "6");
  run(s);
  s.set("simulator/double_precision", "false");
  s.set("beam_pattern/root_path", dir + "/f");
  run(s);
  const Image d = read_fits(dir + "/d_S0000_TIME_SEP_CHAN_SEP_AMP_X_THETA.fits");
  const Image f = read_fits(dir + "/f_S0000_TIME_SEP_CHAN_SEP_AMP_X_THETA.fits");
  EXPECT_EQ(d.bitpix, DOUBLE_IMG);
  EXPECT_EQ(f.bitpix, FLOAT_IMG);
  ASSERT_EQ(d.data.size(), f.data.size());
  for (std::size_t i = 0; i < d.data.size(); ++i) EXPECT_NEAR(f.data[i], d.data[i], 1e-6);
}

// More than 256 files: each is closed between writes (open-file limits); 128 MWA stations
// x (FITS amplitude, text amplitude, text phase) = 384 files.
TEST(BeamPatternPipeline, ManyOutputFiles) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/m");
  s.set("telescope/input_directory",
        std::string(FRINGE_SOURCE_DIR) + "/telescope-models/mwa-phase1.tm");
  s.set("telescope/pol_mode", "Scalar");
  s.set("beam_pattern/all_stations", "true");
  s.set("beam_pattern/beam_image/size", "4");
  s.set("beam_pattern/station_outputs/text_file/amp", "true");
  s.set("beam_pattern/station_outputs/text_file/phase", "true");
  s.set("simulator/max_sources_per_chunk", "5");  // 4 writes per file
  s.set("observation/phase_centre_dec_deg", "-27");
  s.set("observation/start_time_utc", "2025-01-01 14:00:00");
  const BeamPatternResult r = run(s);
  ASSERT_EQ(r.files.size(), 384u);
  EXPECT_EQ(r.station_ids.size(), 128u);
  const Image last = read_fits(dir + "/m_S0127_TIME_SEP_CHAN_SEP_AMP.fits");
  for (double v : last.data) EXPECT_EQ(v, 1.0);
  const auto rows = read_rows(dir + "/m_S0127_TIME_SEP_CHAN_SEP_PHASE.txt");
  ASSERT_EQ(rows.size(), 16u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 1u);
    EXPECT_EQ(row[0], 0.0);
  }
  EXPECT_TRUE(no_temporary_files(dir));
}

TEST(BeamPatternPipeline, FailureLeavesNoFiles) {
  const std::string dir = out_dir();
  Settings s = base_settings(dir + "/missing_folder/x");
  EXPECT_THROW(run(s), fringe::Error);
  EXPECT_TRUE(fs::is_empty(dir));
}

}  // namespace
