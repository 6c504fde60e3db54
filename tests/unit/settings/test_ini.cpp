// OSKAR-compatible INI files: reading old and new key styles, writing non-defaults in schema
// order, round trips, unknown keys with suggestions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"

using namespace fringe::settings;
namespace fs = std::filesystem;

namespace {

Settings make() { return Settings(Schema::load(embedded_schemas(), "app.xml")); }

fs::path scratch(const std::string& name) {
  fs::path p = fs::path(FRINGE_BINARY_DIR) / "test_ini_scratch" / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// An OSKAR 2.x style file: backslash keys (old Qt), slash and dot keys, General app/version,
// a comment, a line without '=', British date and h:m:s length (as OSKAR's reference files).
const char* kOskarFile =
    "[General]\n"
    "app=oskar_sim_interferometer\n"
    "version=2.13.0-dev\n"
    "\n"
    "[simulator]\n"
    "double_precision=false\n"
    "use_gpus=false\n"
    "\n"
    "; a comment line\n"
    "this line has no equals sign\n"
    "[sky]\n"
    "oskar_sky_model\\file=sky.osm\n"
    "oskar_sky_model\\filter\\flux_min=0.5\n"
    "healpix_fits.coord_sys=E\n"
    "\n"
    "[observation]\n"
    "phase_centre_ra_deg=200\n"
    "phase_centre_dec_deg=30\n"
    "start_frequency_hz=1.4e9\n"
    "num_channels=2\n"
    "frequency_inc_hz=4e6\n"
    "start_time_utc=15-3-2024 08:26:00.000\n"
    "length=00:08:00.000\n"
    "num_time_steps=4\n"
    "\n"
    "[telescope]\n"
    "input_directory=tel.tm\n"
    "station_type=Gaussian beam\n"
    "gaussian_beam\\fwhm_deg=0.5\n"
    "gaussian_beam/ref_freq_hz=1.4e9\n"
    "\n"
    "[interferometer]\n"
    "ms_filename=out.ms\n";

}  // namespace

TEST(Ini, ParseFollowsOskarRules) {
  std::istringstream in(kOskarFile);
  IniFile ini = parse_ini(in, "x.ini");
  EXPECT_EQ(ini.app, "oskar_sim_interferometer");
  EXPECT_EQ(ini.version, "2.13.0-dev");
  ASSERT_GE(ini.entries.size(), 5u);
  EXPECT_EQ(ini.entries[0].key, "simulator/double_precision");
  EXPECT_EQ(ini.entries[0].line, 6);
  EXPECT_EQ(ini.entries[2].key, "sky/oskar_sky_model/file");
  EXPECT_EQ(ini.entries[4].key, "sky/healpix_fits/coord_sys");
  // Spaces around '=' are accepted (fringe extension); values are not unquoted.
  std::istringstream in2("[a]\n  b = \"x, y\"  \n[General]\nc=1\nnoequals\n");
  IniFile ini2 = parse_ini(in2);
  ASSERT_EQ(ini2.entries.size(), 2u);
  ASSERT_EQ(ini2.malformed.size(), 1u);
  EXPECT_EQ(ini2.malformed[0].value, "noequals");
  EXPECT_EQ(ini2.malformed[0].line, 5);
  EXPECT_EQ(ini2.entries[0].key, "a/b");
  EXPECT_EQ(ini2.entries[0].value, "\"x, y\"");
  EXPECT_EQ(ini2.entries[1].key, "c");
}

TEST(Ini, OskarFileLoadsWritesNonDefaultsAndReReadsEqual) {
  fs::path dir = scratch("roundtrip");
  fs::create_directories(dir / "tel.tm");
  std::ofstream(dir / "sky.osm") << "0 0 1\n";
  std::ofstream(dir / "oskar.ini") << kOskarFile;

  Settings s = make();
  LoadReport r = load_ini(s, (dir / "oskar.ini").string());
  for (const auto& p : r.errors) ADD_FAILURE() << p.text();
  // The one warning: the line without '=' (line 10), which OSKAR drops silently.
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].line, 10);
  EXPECT_NE(r.warnings[0].text().find("oskar.ini:10: 'this line has no equals sign' is not a "
                                      "setting line"),
            std::string::npos)
      << r.warnings[0].text();
  for (const auto& p : s.validate()) ADD_FAILURE() << p.text();
  EXPECT_FALSE(s.get_bool("simulator/double_precision"));
  EXPECT_EQ(s.get_path_list("sky/oskar_sky_model/file")[0], (dir / "sky.osm").string());
  EXPECT_DOUBLE_EQ(s.get_double("sky/oskar_sky_model/filter/flux_min"), 0.5);
  EXPECT_EQ(s.get_option("sky/healpix_fits/coord_sys"), "Equatorial");
  EXPECT_EQ(s.get("observation/start_time_utc"), "15-03-2024 08:26:00.000");
  EXPECT_DOUBLE_EQ(s.get_seconds("observation/length"), 480.0);
  EXPECT_DOUBLE_EQ(s.get_double("telescope/gaussian_beam/fwhm_deg"), 0.5);

  write_ini(s, (dir / "out.ini").string(), "sim_interferometer", "0.1.0");
  const std::string text = read_text(dir / "out.ini");
  const std::string expected =
      "[General]\napp=sim_interferometer\nversion=0.1.0\n"
      "\n[simulator]\ndouble_precision=false\nuse_gpus=false\n"
      "\n[sky]\noskar_sky_model/file=sky.osm\noskar_sky_model/filter/flux_min=0.5\n"
      "healpix_fits/coord_sys=Equatorial\n"
      "\n[observation]\nphase_centre_ra_deg=200\nphase_centre_dec_deg=30\n"
      "start_frequency_hz=1.4e9\nnum_channels=2\nfrequency_inc_hz=4e6\n"
      "start_time_utc=15-03-2024 08:26:00.000\nlength=00:08:00.000\nnum_time_steps=4\n"
      "\n[telescope]\ninput_directory=tel.tm\nstation_type=Gaussian beam\n"
      "gaussian_beam/fwhm_deg=0.5\ngaussian_beam/ref_freq_hz=1.4e9\n"
      "\n[interferometer]\nms_filename=out.ms\n";
  EXPECT_EQ(text, expected);
  EXPECT_FALSE(fs::exists(dir / "out.ini.tmp"));

  Settings again = make();
  LoadReport r2 = load_ini(again, (dir / "out.ini").string());
  EXPECT_TRUE(r2.errors.empty());
  EXPECT_TRUE(r2.warnings.empty());
  for (const auto& key : s.schema().setting_keys()) {
    EXPECT_EQ(again.get(key), s.get(key)) << key;
    EXPECT_EQ(again.is_default(key), s.is_default(key)) << key;
  }
  // A second write is identical (stable).
  write_ini(again, (dir / "out2.ini").string(), "sim_interferometer", "0.1.0");
  EXPECT_EQ(read_text(dir / "out2.ini"), text);
}

TEST(Ini, DefaultsAreNotWritten) {
  Settings s = make();
  s.set("simulator/use_gpus", "true");  // equals the default
  s.set("sky/healpix_fits/freq_hz", "408e6");
  s.set("telescope/level", "3");
  std::string text = format_ini(s, "a", "1");
  EXPECT_EQ(text, "[General]\napp=a\nversion=1\n\n[telescope]\nlevel=3\n");
}

TEST(Ini, UnknownKeysWarnWithSuggestion) {
  Settings s = make();
  std::istringstream in(
      "[observation]\nstart_frequncy_hz=1e8\n"
      "[sky]\nfile=x.osm\n"
      "[observation]\nnum_channels=2\nnum_channels=3\n"
      "[simulator]\nuse_gpus=perhaps\n"
      "[nothing]\ncompletely_unrelated_thing=1\n");
  IniFile ini = parse_ini(in, "f.ini");
  LoadReport r = apply_ini(s, ini);
  ASSERT_EQ(r.warnings.size(), 4u);
  EXPECT_NE(r.warnings[0].text().find("did you mean 'observation/start_frequency_hz'?"),
            std::string::npos)
      << r.warnings[0].text();
  EXPECT_NE(r.warnings[0].text().find("f.ini:2"), std::string::npos);
  EXPECT_NE(r.warnings[1].message.find("did you mean 'sky/oskar_sky_model/file'?"),
            std::string::npos)
      << r.warnings[1].message;
  EXPECT_NE(r.warnings[2].message.find("given again"), std::string::npos);
  EXPECT_EQ(r.warnings[3].message, "unknown setting");
  EXPECT_EQ(s.get_int("observation/num_channels"), 3);  // the last one is used
  ASSERT_EQ(r.errors.size(), 1u);
  const std::string e = r.errors[0].text();
  EXPECT_NE(e.find("f.ini:9"), std::string::npos) << e;
  EXPECT_NE(e.find("simulator/use_gpus"), std::string::npos) << e;
  EXPECT_NE(e.find("'perhaps'"), std::string::npos) << e;
  EXPECT_NE(e.find("true or false"), std::string::npos) << e;
}

TEST(Ini, SuggestKey) {
  Schema schema = Schema::load(embedded_schemas(), "app.xml");
  EXPECT_EQ(suggest_key(schema, "simulator/use_gpu"), "simulator/use_gpus");
  EXPECT_EQ(suggest_key(schema, "Simulator/Use_GPUS"), "simulator/use_gpus");
  EXPECT_EQ(suggest_key(schema, "telescope/input_dir"), "telescope/input_directory");
  EXPECT_EQ(suggest_key(schema, "zzzzzzzzzzzzzzzz"), "");
}

TEST(Ini, MissingFileIsAnError) {
  Settings s = make();
  EXPECT_THROW(load_ini(s, "/nonexistent/settings.ini"), fringe::Error);
}
