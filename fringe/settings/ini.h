// OSKAR-compatible INI settings files (oskar-compat.md section 1.2).
// Reading: lines are trimmed; "[group]" starts a group; a line with '=' splits at the first
// '=' into key and value (both trimmed: unlike OSKAR, "key = value" works); the full key is
// group/key unless the group is General; '\' and '.' in keys become '/'; "[General] app="
// and "version=" are skipped; lines without '=' (and lines starting with ';' or '#') are
// ignored. Unknown keys are warnings with a "did you mean" suggestion; bad values are errors
// naming file, line, key and value.
// Writing: "[General]" app and version, then for each top-level group "[group]" and
// "sub/key=value" lines in schema order, non-default values only; written to a temporary
// name and renamed.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "fringe/settings/settings.h"

namespace fringe::settings {

struct IniEntry {
  std::string key;    // full key with '/' separators
  std::string value;  // trimmed
  long line = 0;
};

struct IniFile {
  std::string path;
  std::string app;      // [General] app=, "" if absent
  std::string version;  // [General] version=
  std::vector<IniEntry> entries;
};

IniFile parse_ini(std::istream& in, const std::string& path = "");
// Throws fringe::Error when the file cannot be read.
IniFile read_ini(const std::string& path);

struct LoadReport {
  std::vector<Problem> errors;    // bad values
  std::vector<Problem> warnings;  // unknown keys, keys given twice
};

// Applies the entries to settings (which keep their other values).
LoadReport apply_ini(Settings& settings, const IniFile& ini);
// Reads path, sets the base folder for relative paths to the file's folder, applies it.
LoadReport load_ini(Settings& settings, const std::string& path, IniFile* ini_out = nullptr);

// The text of an INI file holding the settings' non-default values.
std::string format_ini(const Settings& settings, const std::string& app,
                       const std::string& version);
// Writes format_ini() to path through a temporary file and a rename.
void write_ini(const Settings& settings, const std::string& path, const std::string& app,
               const std::string& version);

// The known setting key closest to an unknown one ("" if none is close).
std::string suggest_key(const Schema& schema, std::string_view unknown);

}  // namespace fringe::settings
