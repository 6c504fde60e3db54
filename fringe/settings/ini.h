// OSKAR-compatible INI settings files (docs/settings.md).
// Reading: lines are trimmed; "[group]" starts a group; a line with '=' splits at the first
// '=' into key and value (both trimmed: unlike OSKAR, "key = value" works); the full key is
// group/key unless the group is General; '\' and '.' in keys become '/'; "[General] app="
// and "version=" are skipped; lines starting with ';' or '#' are comments. A UTF-8 byte
// order mark and CRLF line ends are accepted. Other lines (no '=', e.g. "num_channels 3",
// or "[group" without ']') are ignored with a warning naming file and line (an error with
// --strict): OSKAR drops them silently, which hides typos. Unknown keys are warnings with a
// "did you mean" suggestion; bad values are errors naming file, line, key and value.
// Writing a whole file (format_ini/write_ini): "[General]" app and version, then for each
// top-level group "[group]" and "sub/key=value" lines in schema order, non-default values
// only; written to a temporary name and renamed. Editing an existing file in place, keeping
// every other line, is IniDocument's job (ini_document.h).
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
  std::vector<IniEntry> malformed;  // ignored lines: key "", value = the trimmed line
};

// One line of an INI file, classified as parse_ini reads it (shared with IniDocument so
// that editing finds exactly the lines that reading uses).
struct IniLine {
  enum class Kind { Blank, Comment, Group, Entry, Header, Malformed };
  Kind kind = Kind::Blank;
  std::string key;         // Entry: the full key ('/' separators); Header: "app"/"version"
  std::string value;       // Entry, Header: trimmed value; Malformed: the trimmed line
  size_t value_begin = 0;  // Entry, Header: offset of the value in the raw line
};

// Classifies raw (one line without its '\n'; a trailing '\r' is ignored). `group` is the
// group in force ("" before any "[group]"); a Group line replaces it with its name.
IniLine read_ini_line(std::string_view raw, std::string& group);
// The group name as a key prefix: '\' and '.' become '/', "General" becomes "".
std::string normalise_ini_group(std::string_view group);

IniFile parse_ini(std::istream& in, const std::string& path = "");
// Throws fringe::Error when the file cannot be read.
IniFile read_ini(const std::string& path);

struct LoadReport {
  std::vector<Problem> errors;    // bad values
  std::vector<Problem> warnings;  // unknown keys, keys given twice, lines without '='
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
