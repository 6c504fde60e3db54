// The shared command line (app_cli.h): exit codes, --get/--set/--settings/--version, messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"

using namespace fringe::settings;
namespace fs = std::filesystem;

namespace {

struct Result {
  int code;
  std::string out, err;
  bool ran;
};

Result run(std::vector<std::string> args, RunFunction f = nullptr) {
  std::vector<const char*> argv{"testapp"};
  for (auto& a : args) argv.push_back(a.c_str());
  AppInfo app;
  app.name = "testapp";
  app.oskar_name = "oskar_testapp";
  app.version = "9.8.7";
  app.summary = "Test app.";
  app.schema_files = &embedded_schemas();
  app.root_schema = "app.xml";
  std::ostringstream out, err;
  bool ran = false;
  RunFunction body = [&](Settings& s, fringe::Logger& log,
                         const fringe::settings::RunOptions& options) {
    ran = true;
    if (f) f(s, log, options);
  };
  int code = run_app(static_cast<int>(argv.size()), argv.data(), app, body, out, err);
  return {code, out.str(), err.str(), ran};
}

fs::path scratch(const std::string& name) {
  fs::path p = fs::path(FRINGE_BINARY_DIR) / "test_app_cli_scratch" / name;
  fs::remove_all(p);
  fs::create_directories(p / "tel.tm");
  return p;
}

std::string good_ini() {
  return "[General]\napp=oskar_testapp\nversion=2.13\n"
         "[observation]\nstart_frequency_hz=1e8\nstart_time_utc=2024-03-15 06:09:00\n"
         "length=60\n[telescope]\ninput_directory=tel.tm\n";
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST(AppCli, HelpVersionSettings) {
  Result h = run({"--help"});
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("--get settings.ini key"), std::string::npos);
  Result v = run({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out, "testapp (fringe) 9.8.7\n");
  Result s = run({"--settings"});
  EXPECT_EQ(s.code, 0);
  EXPECT_NE(s.out.find("k=\"start_frequency_hz\""), std::string::npos);
  EXPECT_EQ(s.out.find("<import filename"), std::string::npos);
}

TEST(AppCli, BadCommandLines) {
  EXPECT_EQ(run({}).code, 2);
  Result u = run({"--frobnicate", "x.ini"});
  EXPECT_EQ(u.code, 2);
  EXPECT_NE(u.err.find("error: unknown option '--frobnicate'"), std::string::npos);
  EXPECT_EQ(run({"a.ini", "b.ini"}).code, 2);
  Result m = run({"/nonexistent/x.ini"});
  EXPECT_EQ(m.code, 2);
  EXPECT_NE(m.err.find("error: cannot read settings file '/nonexistent/x.ini'"), std::string::npos);
  EXPECT_FALSE(m.ran);
}

TEST(AppCli, RunValidatesFirst) {
  fs::path dir = scratch("run");
  std::ofstream(dir / "good.ini") << good_ini();
  Result ok = run({(dir / "good.ini").string()},
                  [](Settings& s, fringe::Logger&, const fringe::settings::RunOptions&) {
                    EXPECT_DOUBLE_EQ(s.get_double("observation/start_frequency_hz"), 1e8);
                  });
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(ok.ran);
  EXPECT_EQ(ok.err, "");

  std::ofstream(dir / "bad.ini") << good_ini() << "[simulator]\nmax_sources_per_chunk=-1\n";
  Result bad = run({(dir / "bad.ini").string()});
  EXPECT_EQ(bad.code, 2);
  EXPECT_FALSE(bad.ran);
  EXPECT_NE(bad.err.find("error: "), std::string::npos);
  EXPECT_NE(bad.err.find("bad.ini:11: setting 'simulator/max_sources_per_chunk' = '-1'"),
            std::string::npos)
      << bad.err;

  std::ofstream(dir / "missing.ini") << "[observation]\nstart_frequency_hz=1e8\n";
  Result missing = run({(dir / "missing.ini").string()});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("setting 'observation/length' = '': is required"), std::string::npos)
      << missing.err;
  EXPECT_NE(missing.err.find("telescope/input_directory"), std::string::npos);

  Result failed = run({(dir / "good.ini").string()},
                      [](Settings&, fringe::Logger&, const fringe::settings::RunOptions&) {
                        throw fringe::Error("boom");
                      });
  EXPECT_EQ(failed.code, 1);
  EXPECT_EQ(failed.err, "error: boom\n");

  // A bad input file found during the run is bad input (2), and the message names the file.
  Result bad_file = run({(dir / "good.ini").string()}, [](Settings&, fringe::Logger&,
                                                          const fringe::settings::RunOptions&) {
    throw fringe::settings::InputError(fringe::Error::in_file("sky.osm", 3, "expected a number"));
  });
  EXPECT_EQ(bad_file.code, 2);
  EXPECT_EQ(bad_file.err, "error: sky.osm:3: expected a number\n");
}

TEST(AppCli, UnknownKeysWarnUnlessStrict) {
  fs::path dir = scratch("strict");
  std::ofstream(dir / "typo.ini") << good_ini() << "[simulator]\nuse_gpu=false\n";
  Result w = run({(dir / "typo.ini").string()});
  EXPECT_EQ(w.code, 0);
  EXPECT_TRUE(w.ran);
  EXPECT_NE(w.err.find("warning: "), std::string::npos);
  EXPECT_NE(w.err.find("did you mean 'simulator/use_gpus'?"), std::string::npos) << w.err;
  Result s = run({"--strict", (dir / "typo.ini").string()});
  EXPECT_EQ(s.code, 2);
  EXPECT_FALSE(s.ran);
  EXPECT_NE(s.err.find("error: "), std::string::npos);
  // A file of another app: a warning.
  std::ofstream(dir / "other.ini") << "[General]\napp=oskar_imager\n"
                                   << good_ini().substr(good_ini().find("[observation]"));
  Result o = run({(dir / "other.ini").string()});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("written for 'oskar_imager'"), std::string::npos) << o.err;
}

TEST(AppCli, GetAndSet) {
  fs::path dir = scratch("getset");
  const std::string ini = (dir / "s.ini").string();
  std::ofstream(ini) << good_ini();
  Result g = run({"--get", ini, "observation/start_frequency_hz"});
  EXPECT_EQ(g.code, 0);
  EXPECT_EQ(g.out, "1e8\n");
  g = run({"--get", ini, "observation/num_channels"});  // the default
  EXPECT_EQ(g.out, "1\n");
  g = run({"--get", ini, "observation/num_chanels"});
  EXPECT_EQ(g.code, 2);
  EXPECT_NE(g.err.find("did you mean 'observation/num_channels'?"), std::string::npos);

  EXPECT_EQ(run({"--set", ini, "observation/num_channels", "4"}).code, 0);
  EXPECT_EQ(run({"--get", ini, "observation/num_channels"}).out, "4\n");
  EXPECT_EQ(run({"--set", ini, "telescope/station_type", "iso"}).code, 0);
  EXPECT_EQ(run({"--get", ini, "telescope/station_type"}).out, "Isotropic beam\n");
  std::string text = read_text(ini);
  // Only the set keys' lines change: app= and version= are the file's own.
  EXPECT_NE(text.find("app=oskar_testapp\n"), std::string::npos);  // kept
  EXPECT_NE(text.find("version=2.13\n"), std::string::npos);
  EXPECT_NE(text.find("[observation]\nstart_frequency_hz=1e8\nstart_time_utc=2024-03-15 "
                      "06:09:00\nlength=60\nnum_channels=4\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("station_type=Isotropic beam\n"), std::string::npos) << text;
  // Reset to default: the key disappears from the file.
  EXPECT_EQ(run({"--set", ini, "observation/num_channels"}).code, 0);
  EXPECT_EQ(read_text(ini).find("num_channels"), std::string::npos);
  // Bad values and keys leave the file alone.
  const std::string before = read_text(ini);
  Result b = run({"--set", ini, "observation/num_channels", "zero"});
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("setting 'observation/num_channels' = 'zero'"), std::string::npos);
  EXPECT_EQ(run({"--set", ini, "observation/nope", "1"}).code, 2);
  EXPECT_EQ(read_text(ini), before);
  // A file with an unknown key: the key is kept (with a warning); with --strict the file is
  // left alone.
  std::ofstream(ini, std::ios::app) << "[sky]\nmystery=1\n";
  Result l = run({"--set", ini, "observation/num_channels", "2"});
  EXPECT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.err.find("warning: "), std::string::npos);
  EXPECT_NE(l.err.find("'sky/mystery' = '1': unknown setting"), std::string::npos) << l.err;
  EXPECT_NE(read_text(ini).find("[sky]\nmystery=1\n"), std::string::npos);
  const std::string kept = read_text(ini);
  Result ls = run({"--strict", "--set", ini, "observation/num_channels", "3"});
  EXPECT_EQ(ls.code, 2);
  EXPECT_NE(ls.err.find("not changing"), std::string::npos) << ls.err;
  EXPECT_EQ(read_text(ini), kept);
  // --set creates a new file.
  const std::string fresh = (dir / "new.ini").string();
  EXPECT_EQ(run({"--set", fresh, "simulator/use_gpus", "false"}).code, 0);
  EXPECT_EQ(read_text(fresh),
            "[General]\napp=testapp\nversion=9.8.7\n\n[simulator]\nuse_gpus=false\n");
}

// Issue 18: the words after --set are positional (FILE KEY VALUE), so a negative VALUE is a
// value (OSKAR accepts `--set s.ini observation/phase_centre_dec_deg -45`); real unknown
// options are still refused, and "--" lets a VALUE be one of the app's own options.
TEST(AppCli, SetNegativeValue) {
  fs::path dir = scratch("negative");
  const std::string ini = (dir / "s.ini").string();
  std::ofstream(ini) << good_ini();
  Result s = run({"--set", ini, "observation/phase_centre_dec_deg", "-45"});
  EXPECT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.err, "");
  EXPECT_EQ(run({"--get", ini, "observation/phase_centre_dec_deg"}).out, "-45\n");
  EXPECT_NE(read_text(ini).find("phase_centre_dec_deg=-45\n"), std::string::npos);
  // Exponents, a leading '.', a list (the key is a DoubleList) and options after the value.
  EXPECT_EQ(run({"--set", ini, "observation/phase_centre_ra_deg", "-1.5e1"}).code, 0);
  EXPECT_EQ(run({"--get", ini, "observation/phase_centre_ra_deg"}).out, "-1.5e1\n");
  Result q = run({"--set", ini, "observation/phase_centre_dec_deg", "-.5", "-q"});
  EXPECT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(run({"--get", ini, "observation/phase_centre_dec_deg"}).out, "-.5\n");
  Result l = run({"--set", ini, "observation/phase_centre_dec_deg", "-10,-20"});
  EXPECT_EQ(l.code, 0) << l.err;
  EXPECT_EQ(run({"--get", ini, "observation/phase_centre_dec_deg"}).out, "-10,-20\n");
  // Options before --set still work; the value slot does not swallow them.
  EXPECT_EQ(run({"--strict", "--set", ini, "observation/phase_centre_dec_deg", "-30"}).code, 0);
  EXPECT_EQ(run({"--get", ini, "observation/phase_centre_dec_deg"}).out, "-30\n");
  // A bad negative value is the value's error (exit 2, the file unchanged), not an option's.
  const std::string before = read_text(ini);
  Result b = run({"--set", ini, "observation/num_channels", "-3"});
  EXPECT_EQ(b.code, 2);
  EXPECT_EQ(b.err.find("unknown option"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("setting 'observation/num_channels' = '-3'"), std::string::npos) << b.err;
  EXPECT_EQ(read_text(ini), before);
  // "--" ends the options: a value spelled like an option.
  Result d = run({"--set", ini, "observation/phase_centre_dec_deg", "--", "-q"});
  EXPECT_EQ(d.code, 2);  // "-q" is not a number: the value is refused, not taken as -q
  EXPECT_NE(d.err.find("= '-q'"), std::string::npos) << d.err;
  // Unknown options are still refused, in every place but the VALUE slot of --set.
  Result u = run({"--bogus", "--set", ini, "observation/phase_centre_dec_deg", "1"});
  EXPECT_EQ(u.code, 2);
  EXPECT_NE(u.err.find("error: unknown option '--bogus'"), std::string::npos) << u.err;
  Result k = run({"--set", ini, "-x", "1"});  // a KEY cannot start with '-'
  EXPECT_EQ(k.code, 2);
  EXPECT_NE(k.err.find("error: unknown option '-x'"), std::string::npos) << k.err;
  Result g = run({"--get", ini, "observation/phase_centre_dec_deg", "--frob"});
  EXPECT_EQ(g.code, 2);
  EXPECT_NE(g.err.find("error: unknown option '--frob'"), std::string::npos) << g.err;
  Result r = run({"-45"});  // a number is positional: a settings file name, not an option
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot read settings file '-45'"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(ini).find("-q"), std::string::npos);
}
