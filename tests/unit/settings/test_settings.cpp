// Settings values: typed getters, defaults, dependencies (AND/OR, ancestors), validation.
#include <gtest/gtest.h>

#include <cfloat>
#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/settings.h"

using fringe::Error;
using fringe::settings::Problem;
using fringe::settings::Schema;
using fringe::settings::Settings;
namespace fs = std::filesystem;

namespace {

Settings make() { return Settings(Schema::load(fringe::settings::embedded_schemas(), "app.xml")); }

std::string set_error(Settings& s, const std::string& key, const std::string& value) {
  try {
    s.set(key, value);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Problems of validate() whose key is key.
std::vector<Problem> problems_for(const Settings& s, const std::string& key) {
  std::vector<Problem> out;
  for (const auto& p : s.validate())
    if (p.key == key) out.push_back(p);
  return out;
}

// A fresh folder under the build tree.
fs::path scratch(const std::string& name) {
  fs::path p = fs::path(FRINGE_BINARY_DIR) / "test_settings_scratch" / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// Makes the required observation and telescope settings valid.
void fill_required(Settings& s, const fs::path& dir) {
  fs::create_directories(dir / "tel.tm");
  s.set_base_dir(dir.string());
  s.set("observation/start_frequency_hz", "100e6");
  s.set("observation/start_time_utc", "2024-03-15 06:09:00");
  s.set("observation/length", "00:15:00");
  s.set("telescope/input_directory", "tel.tm");
}

}  // namespace

TEST(Settings, DefaultsAndTypedGetters) {
  Settings s = make();
  EXPECT_TRUE(s.get_bool("simulator/double_precision"));
  EXPECT_EQ(s.get_int("simulator/max_sources_per_chunk"), 16384);
  EXPECT_TRUE(s.is_word("simulator/num_devices", "auto"));
  EXPECT_THROW(s.get_int("simulator/num_devices"), Error);
  EXPECT_TRUE(s.is_word("simulator/cuda_device_ids", "all"));
  EXPECT_DOUBLE_EQ(s.get_double("sky/healpix_fits/freq_hz"), 408e6);
  EXPECT_EQ(s.get_option("sky/healpix_fits/coord_sys"), "Galactic");
  EXPECT_EQ(s.get_double("sky/oskar_sky_model/filter/flux_min"), -DBL_MAX);
  EXPECT_EQ(s.get_double("sky/oskar_sky_model/filter/flux_max"), DBL_MAX);
  EXPECT_EQ(s.get_double_list("observation/phase_centre_ra_deg"), std::vector<double>{0.0});
  EXPECT_TRUE(s.get_int_list("telescope/station_ids").empty());
  EXPECT_TRUE(s.get_string_list("sky/oskar_sky_model/file").empty());
  EXPECT_EQ(s.get_int("sky/generator/grid/seed"), 1);
  EXPECT_TRUE(s.is_default("simulator/use_gpus"));
  EXPECT_FALSE(s.is_given("simulator/use_gpus"));
  EXPECT_FALSE(s.is_set("observation/start_frequency_hz"));
  // Required settings without a value say so, naming the key.
  try {
    s.get_double("observation/start_frequency_hz");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("observation/start_frequency_hz"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("has no value"), std::string::npos);
  }
  // Getter of the wrong kind.
  EXPECT_THROW(s.get_bool("simulator/max_sources_per_chunk"), Error);
  EXPECT_THROW(s.get_int("nope"), Error);
}

TEST(Settings, SetNormalisesAndTracksDefaults) {
  Settings s = make();
  s.set("simulator/use_gpus", "OFF");
  EXPECT_EQ(s.get("simulator/use_gpus"), "false");
  EXPECT_FALSE(s.is_default("simulator/use_gpus"));
  s.set("simulator/use_gpus", "true");
  EXPECT_TRUE(s.is_default("simulator/use_gpus"));  // same as default
  EXPECT_TRUE(s.is_given("simulator/use_gpus"));
  s.set("telescope/station_type", "gauss");
  EXPECT_EQ(s.get_option("telescope/station_type"), "Gaussian beam");
  s.set("sky/healpix_fits/freq_hz", "408000000");
  EXPECT_TRUE(s.is_default("sky/healpix_fits/freq_hz"));
  s.set("observation/start_time_utc", "1-2-2015 10:05:23.2");
  EXPECT_EQ(s.get("observation/start_time_utc"), "01-02-2015 10:05:23.2");
  EXPECT_NEAR(s.get_double("observation/start_time_utc"),
              s.get_datetime("observation/start_time_utc").to_mjd(), 0);
  s.set("observation/length", "01:00:00");
  EXPECT_DOUBLE_EQ(s.get_seconds("observation/length"), 3600.0);
  EXPECT_DOUBLE_EQ(s.get_double("observation/length"), 3600.0);
  s.set("Observation/Num_Channels", "3");  // case-insensitive key
  EXPECT_EQ(s.get_int("observation/num_channels"), 3);
  s.reset("observation/num_channels");
  EXPECT_EQ(s.get_int("observation/num_channels"), 1);
  s.set("observation/num_channels", "");  // empty clears a scalar
  EXPECT_FALSE(s.is_given("observation/num_channels"));
  s.set("sky/generator/grid/seed", "time");
  EXPECT_TRUE(s.is_word("sky/generator/grid/seed", "time"));
  EXPECT_THROW(s.get_int("sky/generator/grid/seed"), Error);
  s.reset_all();
  EXPECT_FALSE(s.is_given("sky/generator/grid/seed"));
}

TEST(Settings, ErrorMessagesContainKeyAndValue) {
  Settings s = make();
  struct Case {
    const char* key;
    const char* value;
    const char* expect;
  } cases[] = {
      {"simulator/use_gpus", "maybe", "true or false"},
      {"simulator/max_sources_per_chunk", "0", "an integer >= 1"},
      {"simulator/num_devices", "many", "'auto'"},
      {"sky/generator/grid/fov_deg", "200", "[0, 180]"},
      {"telescope/channels", "65", "[1, 64]"},
      {"telescope/station_type", "dish", "one of 'Aperture array'"},
      {"telescope/station_type", "VLA", "not supported yet"},
      {"observation/start_time_utc", "2024-02-30 00:00:00", "day must be in 1..29"},
      {"observation/length", "1:75:00", "minutes"},
      {"observation/phase_centre_ra_deg", "1,,2", "empty list item"},
      {"sky/generator/grid/seed", "0", "'time'"},
      {"telescope/level", "1.5", "an integer"},
  };
  for (const auto& c : cases) {
    std::string e = set_error(s, c.key, c.value);
    EXPECT_NE(e.find(std::string("setting '") + c.key + "'"), std::string::npos) << e;
    EXPECT_NE(e.find(std::string("'") + c.value + "'"), std::string::npos) << e;
    EXPECT_NE(e.find(c.expect), std::string::npos) << e;
  }
  std::string e = set_error(s, "simulator/nope", "1");
  EXPECT_NE(e.find("unknown setting"), std::string::npos);
  EXPECT_NE(set_error(s, "simulator", "1").find("group"), std::string::npos);
}

TEST(Settings, DependenciesAndAncestors) {
  Settings s = make();
  // Simple EQ.
  EXPECT_TRUE(s.is_enabled("simulator/cuda_device_ids"));
  s.set("simulator/use_gpus", "false");
  EXPECT_FALSE(s.is_enabled("simulator/cuda_device_ids"));
  // GT on an unsigned int.
  EXPECT_FALSE(s.is_enabled("sky/generator/grid/fov_deg"));
  s.set("sky/generator/grid/side_length", "1");
  EXPECT_TRUE(s.is_enabled("sky/generator/grid/fov_deg"));
  // Ancestor dependency: children of telescope/gaussian_beam follow station_type.
  EXPECT_FALSE(s.is_enabled("telescope/gaussian_beam/fwhm_deg"));
  s.set("telescope/station_type", "Gaussian beam");
  EXPECT_TRUE(s.is_enabled("telescope/gaussian_beam/fwhm_deg"));
  EXPECT_TRUE(s.is_enabled("telescope/gaussian_beam"));
  // AND of (enable) with OR of (rms == Data file, rms == Range).
  const char* f = "interferometer/noise/rms_file";
  EXPECT_FALSE(s.is_enabled(f));
  s.set("interferometer/noise/rms", "Data");
  EXPECT_FALSE(s.is_enabled(f));  // enable is still false
  s.set("interferometer/noise/enable", "true");
  EXPECT_TRUE(s.is_enabled(f));
  s.set("interferometer/noise/rms", "Range");
  EXPECT_TRUE(s.is_enabled(f));
  s.set("interferometer/noise/rms", "Telescope");
  EXPECT_FALSE(s.is_enabled(f));
  // NE.
  EXPECT_FALSE(s.is_enabled("interferometer/noise/start"));
  s.set("interferometer/noise/rms", "Range");
  EXPECT_TRUE(s.is_enabled("interferometer/noise/start"));
}

TEST(Settings, ValidateRequiredOnlyWhenEnabled) {
  Settings s = make();
  auto p = problems_for(s, "observation/start_frequency_hz");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].message.find("is required"), std::string::npos);
  EXPECT_FALSE(p[0].warning);
  fill_required(s, scratch("required"));
  for (const auto& q : s.validate()) ADD_FAILURE() << q.text();
}

TEST(Settings, ValidateUnsupported) {
  Settings s = make();
  fill_required(s, scratch("unsupported"));
  s.set("telescope/gaussian_beam/elliptical", "true");
  // Disabled (station type is not Gaussian beam): only a warning that it is ignored.
  auto p = problems_for(s, "telescope/gaussian_beam/elliptical");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(p[0].warning);
  EXPECT_NE(p[0].message.find("ignored"), std::string::npos);
  s.set("telescope/station_type", "Gaussian beam");
  p = problems_for(s, "telescope/gaussian_beam/elliptical");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_FALSE(p[0].warning);
  EXPECT_NE(p[0].message.find("not supported yet"), std::string::npos);
  EXPECT_NE(p[0].text().find("'true'"), std::string::npos);
  s.set("telescope/gaussian_beam/elliptical", "false");  // the default is fine
  EXPECT_TRUE(problems_for(s, "telescope/gaussian_beam/elliptical").empty());
  // Under an unsupported group.
  s.set("telescope/ionosphere/screen_height_km", "300.0");
  EXPECT_TRUE(problems_for(s, "telescope/ionosphere/screen_height_km").empty());
  s.set("telescope/ionosphere/screen_height_km", "200");
  EXPECT_EQ(problems_for(s, "telescope/ionosphere/screen_height_km").size(), 1u);
}

TEST(Settings, ValidateFilesRelativeToBaseDir) {
  Settings s = make();
  fs::path dir = scratch("files");
  fill_required(s, dir);
  std::ofstream(dir / "sky.osm") << "0 0 1\n";
  s.set("sky/oskar_sky_model/file", "sky.osm, missing.osm");
  auto p = problems_for(s, "sky/oskar_sky_model/file");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].message.find("missing.osm"), std::string::npos);
  EXPECT_NE(p[0].message.find("file not found"), std::string::npos);
  EXPECT_EQ(s.get_path_list("sky/oskar_sky_model/file")[0], (dir / "sky.osm").string());
  s.set("sky/oskar_sky_model/file", "sky.osm");
  EXPECT_TRUE(problems_for(s, "sky/oskar_sky_model/file").empty());
  s.set("telescope/input_directory", "nowhere.tm");
  p = problems_for(s, "telescope/input_directory");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].message.find("folder not found"), std::string::npos);
  s.set("telescope/input_directory", "sky.osm");  // a file, not a folder
  EXPECT_EQ(problems_for(s, "telescope/input_directory").size(), 1u);
  s.set("telescope/input_directory", (dir / "tel.tm").string());  // absolute
  EXPECT_TRUE(problems_for(s, "telescope/input_directory").empty());
  EXPECT_EQ(s.get_path("telescope/input_directory"), (dir / "tel.tm").string());
  s.set("interferometer/ms_filename", "no/such/folder/out.ms");
  EXPECT_EQ(problems_for(s, "interferometer/ms_filename").size(), 1u);
  s.set("interferometer/ms_filename", "out.ms");
  EXPECT_TRUE(problems_for(s, "interferometer/ms_filename").empty());
  // A disabled input file is not checked.
  s.set("interferometer/noise/rms_file", "absent.txt");
  EXPECT_TRUE(problems_for(s, "interferometer/noise/rms_file")[0].warning);
}
