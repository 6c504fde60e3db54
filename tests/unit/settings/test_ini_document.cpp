// Editing settings files in place (ini_document.h) and `--set` through run_app: one line
// changes, every other byte stays (comments, blank lines, unknown keys, lines without '=',
// key spellings, a UTF-8 byte order mark, CRLF line ends).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/settings/app_cli.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/ini_document.h"

using namespace fringe::settings;
namespace fs = std::filesystem;

namespace {

Schema schema() { return Schema::load(embedded_schemas(), "app.xml"); }

fs::path scratch(const std::string& name) {
  fs::path p = fs::path(FRINGE_BINARY_DIR) / "test_ini_document_scratch" / name;
  fs::remove_all(p);
  fs::create_directories(p / "tel.tm");
  return p;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A user's file: BOM, CRLF, comments, blank lines, an unknown key (a typo), a line without
// '=', a backslash key, spaces around '=' and a duplicate key.
const std::string kUserFile =
    "\xEF\xBB\xBF; my observation\r\n"           // 1
    "[General]\r\n"                              // 2
    "app=oskar_testapp\r\n"                      // 3
    "version=2.13.0\r\n"                         // 4
    "\r\n"                                       // 5
    "[observation]\r\n"                          // 6
    "# the band centre\r\n"                      // 7
    "start_frequency_hz = 1e8\r\n"               // 8
    "num_channels 3\r\n"                         // 9: no '='
    "start_time_utc=2024-03-15 06:09:00\r\n"     // 10
    "length=60\r\n"                              // 11
    "num_chanels=7\r\n"                          // 12: unknown (typo)
    "\r\n"                                       // 13
    "; telescope next\r\n"                       // 14
    "[telescope]\r\n"                            // 15
    "input_directory=tel.tm\r\n"                 // 16
    "gaussian_beam\\fwhm_deg=0.5\r\n"            // 17
    "[sky]\r\n"                                  // 18
    "oskar_sky_model\\filter\\flux_min=0.1\r\n"  // 19
    "oskar_sky_model/filter/flux_min=0.2\r\n";   // 20: duplicate, in force

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

struct Result {
  int code;
  std::string out, err;
};

Result run_cli(std::vector<std::string> args) {
  std::vector<const char*> argv{"testapp"};
  for (auto& a : args) argv.push_back(a.c_str());
  AppInfo app;
  app.name = "testapp";
  app.oskar_name = "oskar_testapp";
  app.version = "9.8.7";
  app.schema_files = &embedded_schemas();
  app.root_schema = "app.xml";
  std::ostringstream out, err;
  const int code = run_app(
      static_cast<int>(argv.size()), argv.data(), app,
      [](Settings&, fringe::Logger&, const RunOptions&) {}, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST(IniDocument, TextRoundTripsByteForByte) {
  EXPECT_EQ(IniDocument::from_text(kUserFile).text(), kUserFile);
  const std::string no_end = "[a]\nb=1";  // last line without a line end
  EXPECT_EQ(IniDocument::from_text(no_end).text(), no_end);
  EXPECT_EQ(IniDocument::from_text("").text(), "");
}

TEST(IniDocument, SetChangesOnlyTheValueOfTheKeysLine) {
  const Schema s = schema();
  IniDocument doc = IniDocument::from_text(kUserFile);
  doc.set(s, "observation/start_frequency_hz", "2e8");
  EXPECT_EQ(doc.text(),
            replace(kUserFile, "start_frequency_hz = 1e8\r\n", "start_frequency_hz = 2e8\r\n"));
  // The key's spelling (backslashes, case) stays; the match is through the schema.
  doc = IniDocument::from_text(kUserFile);
  doc.set(s, "Telescope/Gaussian_Beam/FWHM_deg", "1.5");
  EXPECT_EQ(doc.text(), replace(kUserFile, "fwhm_deg=0.5\r\n", "fwhm_deg=1.5\r\n"));
  // A duplicate: the line in force (the last) changes.
  doc = IniDocument::from_text(kUserFile);
  doc.set(s, "sky/oskar_sky_model/filter/flux_min", "0.3");
  EXPECT_EQ(doc.text(), replace(kUserFile, "flux_min=0.2\r\n", "flux_min=0.3\r\n"));
  EXPECT_THROW(doc.set(s, "observation/length", "60\nx=1"), fringe::Error);
}

TEST(IniDocument, NewKeysGoToTheirSection) {
  const Schema s = schema();
  // After the section's last entry (before its trailing blank line and comment), CRLF.
  IniDocument doc = IniDocument::from_text(kUserFile);
  doc.set(s, "observation/num_channels", "4");
  EXPECT_EQ(doc.text(),
            replace(kUserFile, "num_chanels=7\r\n", "num_chanels=7\r\nnum_channels=4\r\n"));
  // The longest group that holds the key: [telescope] for telescope/gaussian_beam/...
  doc = IniDocument::from_text(kUserFile);
  doc.set(s, "telescope/gaussian_beam/ref_freq_hz", "1e8");
  EXPECT_EQ(doc.text(), replace(kUserFile, "fwhm_deg=0.5\r\n",
                                "fwhm_deg=0.5\r\ngaussian_beam/ref_freq_hz=1e8\r\n"));
  // No section for it: a new one at the end.
  doc = IniDocument::from_text(kUserFile);
  doc.set(s, "simulator/use_gpus", "false");
  EXPECT_EQ(doc.text(), kUserFile + "\r\n[simulator]\r\nuse_gpus=false\r\n");
  // A last line without a line end gets one first.
  doc = IniDocument::from_text("[simulator]\nuse_gpus=false");
  doc.set(s, "simulator/double_precision", "false");
  EXPECT_EQ(doc.text(), "[simulator]\nuse_gpus=false\ndouble_precision=false\n");
  // A new file.
  doc = IniDocument();
  doc.add_header("testapp", "1.0");
  doc.set(s, "telescope/level", "3");
  EXPECT_EQ(doc.text(), "[General]\napp=testapp\nversion=1.0\n\n[telescope]\nlevel=3\n");
}

TEST(IniDocument, RemoveDeletesOnlyTheKeysLines) {
  const Schema s = schema();
  IniDocument doc = IniDocument::from_text(kUserFile);
  EXPECT_TRUE(doc.remove(s, "observation/length"));
  EXPECT_EQ(doc.text(), replace(kUserFile, "length=60\r\n", ""));
  // Both lines of a duplicate go (the earlier one must not come back into force).
  doc = IniDocument::from_text(kUserFile);
  EXPECT_TRUE(doc.remove(s, "sky/oskar_sky_model/filter/flux_min"));
  EXPECT_EQ(doc.text(), replace(replace(kUserFile, "oskar_sky_model\\filter\\flux_min=0.1\r\n", ""),
                                "oskar_sky_model/filter/flux_min=0.2\r\n", ""));
  doc = IniDocument::from_text(kUserFile);
  EXPECT_FALSE(doc.remove(s, "observation/num_channels"));  // "num_channels 3" is no entry
  EXPECT_EQ(doc.text(), kUserFile);
}

TEST(IniDocument, WriteReplacesThroughATemporaryAndKeepsPermissions) {
  const fs::path dir = scratch("write");
  const fs::path file = dir / "s.ini";
  write_bytes(file, kUserFile);
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink("s.ini", dir / "link.ini");
  IniDocument doc = IniDocument::read((dir / "link.ini").string());
  doc.set(schema(), "observation/length", "120");
  doc.write((dir / "link.ini").string());
  EXPECT_TRUE(fs::is_symlink(dir / "link.ini"));  // the link stays a link
  EXPECT_EQ(read_bytes(file), replace(kUserFile, "length=60", "length=120"));
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 3);  // s.ini, link.ini, tel.tm: no temporary left
  EXPECT_TRUE(IniDocument::read((dir / "none.ini").string()).empty());
  EXPECT_THROW(IniDocument::read(dir.string()), fringe::Error);
}

TEST(IniDocument, LoadingWarnsAboutTheLineWithoutEquals) {
  Settings s(schema());
  std::istringstream in(kUserFile);
  LoadReport r = apply_ini(s, parse_ini(in, "u.ini"));
  EXPECT_TRUE(r.errors.empty());
  std::string all;
  for (const auto& p : r.warnings) all += p.text() + "\n";
  EXPECT_NE(all.find("u.ini:9: 'num_channels 3' is not a setting line"), std::string::npos) << all;
  EXPECT_NE(all.find("u.ini:12: setting 'observation/num_chanels' = '7': unknown setting"),
            std::string::npos)
      << all;
  // The BOM does not spoil line 1, CRLF does not spoil values.
  EXPECT_EQ(s.get("observation/length"), "60");
  EXPECT_DOUBLE_EQ(s.get_double("observation/start_frequency_hz"), 1e8);
  EXPECT_DOUBLE_EQ(s.get_double("sky/oskar_sky_model/filter/flux_min"), 0.2);
}

TEST(IniDocument, SetCommandChangesExactlyOneLine) {
  const fs::path dir = scratch("cli");
  const std::string ini = (dir / "s.ini").string();
  write_bytes(ini, kUserFile);
  Result r = run_cli({"--set", ini, "observation/length", "120"});
  EXPECT_EQ(r.code, 0) << r.err;
  // The file's other problems are reported, and kept.
  EXPECT_NE(r.err.find("warning: " + ini + ":9: 'num_channels 3'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean 'observation/num_channels'?"), std::string::npos) << r.err;
  std::string expected = replace(kUserFile, "length=60\r\n", "length=120\r\n");
  EXPECT_EQ(read_bytes(ini), expected);
  // Added in its section; then reset: back to the same bytes.
  EXPECT_EQ(run_cli({"--set", ini, "observation/num_channels", "4"}).code, 0);
  EXPECT_EQ(read_bytes(ini),
            replace(expected, "num_chanels=7\r\n", "num_chanels=7\r\nnum_channels=4\r\n"));
  EXPECT_EQ(run_cli({"--set", ini, "observation/num_channels"}).code, 0);
  EXPECT_EQ(read_bytes(ini), expected);
  // A value equal to the default is no line.
  EXPECT_EQ(run_cli({"--set", ini, "observation/num_channels", "1"}).code, 0);
  EXPECT_EQ(read_bytes(ini), expected);
  // --strict: the file's warnings are errors and the file stays.
  Result strict = run_cli({"--strict", "--set", ini, "observation/length", "30"});
  EXPECT_EQ(strict.code, 2);
  EXPECT_NE(strict.err.find("error: " + ini + ":9:"), std::string::npos) << strict.err;
  EXPECT_EQ(read_bytes(ini), expected);
  // A file that cannot be written (its folder is missing): the run failed (1), named.
  const std::string nowhere = (dir / "no_such_folder" / "s.ini").string();
  Result w = run_cli({"--set", nowhere, "observation/length", "30"});
  EXPECT_EQ(w.code, 1);
  EXPECT_NE(w.err.find("error: cannot write settings file '" + nowhere), std::string::npos)
      << w.err;
  EXPECT_FALSE(fs::exists(dir / "no_such_folder"));
  // A run: the line without '=' is a warning, an error with --strict.
  Result strict_run = run_cli({"--strict", ini});
  EXPECT_EQ(strict_run.code, 2);
  EXPECT_NE(strict_run.err.find("error: " + ini + ":9: 'num_channels 3' is not a setting line"),
            std::string::npos)
      << strict_run.err;
}
