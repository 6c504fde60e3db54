// Editing a user's settings file in place (`app --set`, the GUI's saves): every line the edit
// does not concern stays byte for byte as it was — comments, blank lines, unknown keys (typos
// included), lines without '=', section headers, their order, the key spellings ('\' or '.'
// separators, spaces around '='), a UTF-8 byte order mark and CRLF or LF line ends.
//
//  - set(key, value) replaces the value on the last line that gives key (the one reading
//    uses; an earlier duplicate stays, as reading ignores it), keeping the text before the
//    value; when no line gives it, "rest=value" is added after the last entry of the section
//    whose group is the longest prefix of key (top-level keys: [General]), or a new
//    "[top]" section is added at the end of the file.
//  - remove(key) deletes every line that gives key (so that no earlier duplicate comes back
//    into force) and nothing else: a reset to the default is the absence of the key.
// Lines are matched as parse_ini reads them (read_ini_line), keys through the schema (case
// folded, '\' and '.' separators).
#pragma once

#include <string>
#include <vector>

#include "fringe/settings/schema.h"

namespace fringe::settings {

class IniDocument {
 public:
  IniDocument() = default;  // an empty (new) file
  static IniDocument from_text(const std::string& text);
  // Reads path; a path that does not exist gives an empty document. Throws fringe::Error
  // when it is a folder or cannot be read.
  static IniDocument read(const std::string& path);

  bool empty() const { return lines_.empty(); }
  // For a new file: "[General]", "app=...", "version=..." lines at the start.
  void add_header(const std::string& app, const std::string& version);
  // Throws fringe::Error (naming the key) when value holds a line break.
  void set(const Schema& schema, const std::string& key, const std::string& value);
  bool remove(const Schema& schema, const std::string& key);  // true if a line went
  std::string text() const;
  // Writes text() to path through a temporary file beside it and a rename (a symbolic link
  // is followed: its target is replaced). The file keeps its permissions.
  void write(const std::string& path) const;

 private:
  struct Line {
    std::string body;  // without the line end
    std::string end;   // "\n", "\r\n" or "" (the last line without one)
  };
  bool same_key(const Schema& schema, const std::string& a, const std::string& b) const;
  size_t insert_position(const std::string& key, std::string* relative_key) const;
  std::string line_end() const;  // the file's style for new lines

  std::string bom_;
  std::vector<Line> lines_;
};

// Writes text to path through a temporary beside it (removed on SIGINT/SIGTERM through
// fringe::interrupt) and a rename; symbolic links are followed and permissions kept.
// Throws fringe::Error naming the path.
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace fringe::settings
