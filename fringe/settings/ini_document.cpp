#include "fringe/settings/ini_document.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/output_guard.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/text.h"

namespace fringe::settings {

namespace fs = std::filesystem;

namespace {
constexpr const char* kBom = "\xEF\xBB\xBF";  // UTF-8 byte order mark
}  // namespace

IniDocument IniDocument::from_text(const std::string& text) {
  IniDocument doc;
  size_t pos = 0;
  if (text.compare(0, 3, kBom) == 0) {
    doc.bom_ = kBom;
    pos = 3;
  }
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      doc.lines_.push_back({text.substr(pos), ""});
      break;
    }
    const bool crlf = nl > pos && text[nl - 1] == '\r';
    doc.lines_.push_back({text.substr(pos, nl - pos - (crlf ? 1 : 0)), crlf ? "\r\n" : "\n"});
    pos = nl + 1;
  }
  return doc;
}

IniDocument IniDocument::read(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  if (fs::is_directory(path, ec)) throw Error("'" + path + "' is a folder, not a settings file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot read settings file '" + path + "'");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw Error("cannot read settings file '" + path + "'");
  return from_text(text);
}

std::string IniDocument::line_end() const {
  for (const auto& l : lines_)
    if (!l.end.empty()) return l.end;
  return "\n";
}

void IniDocument::add_header(const std::string& app, const std::string& version) {
  const std::string eol = line_end();
  std::vector<Line> head{{"[General]", eol}, {"app=" + app, eol}, {"version=" + version, eol}};
  if (!lines_.empty()) head.push_back({"", eol});
  lines_.insert(lines_.begin(), head.begin(), head.end());
}

bool IniDocument::same_key(const Schema& schema, const std::string& a, const std::string& b) const {
  const SettingNode* na = schema.find(a);
  return na ? na == schema.find(b) : iequals(a, b);
}

// Where a line for key goes when the file has none: after the last entry of the section whose
// group is the longest prefix of key (the last such section on a tie), top-level keys in
// [General] (or the lines before any section when they hold entries). Returns lines_.size()
// + 1 when no section fits (a new one is needed); *relative_key gets the key as written there.
size_t IniDocument::insert_position(const std::string& key, std::string* relative_key) const {
  struct Section {
    std::string group;  // normalised
    bool has_header = false;
    bool has_entries = false;
    size_t after = 0;  // index after the header or the last entry
  };
  std::vector<Section> sections{{"", false, false, 0}};
  std::string group;
  for (size_t i = 0; i < lines_.size(); ++i) {
    const IniLine l = read_ini_line(lines_[i].body, group);
    if (l.kind == IniLine::Kind::Group) {
      sections.push_back({normalise_ini_group(group), true, false, i + 1});
    } else if (l.kind == IniLine::Kind::Entry || l.kind == IniLine::Kind::Header ||
               l.kind == IniLine::Kind::Malformed) {
      sections.back().has_entries = true;
      sections.back().after = i + 1;
    }
  }
  const bool top_level = key.find('/') == std::string::npos;
  const Section* best = nullptr;
  for (const auto& s : sections) {
    bool fits;
    if (top_level)
      fits = s.group.empty() && (s.has_header || s.has_entries);
    else
      fits = !s.group.empty() && key.size() > s.group.size() && key[s.group.size()] == '/' &&
             iequals(std::string_view(key).substr(0, s.group.size()), s.group);
    if (fits && (!best || s.group.size() >= best->group.size())) best = &s;
  }
  if (!best) return lines_.size() + 1;
  *relative_key = best->group.empty() ? key : key.substr(best->group.size() + 1);
  return best->after;
}

void IniDocument::set(const Schema& schema, const std::string& key, const std::string& value) {
  if (value.find_first_of("\r\n") != std::string::npos)
    throw Error::in_setting(key, value, "a value must fit on one line");
  const SettingNode* node = schema.find(key);
  const std::string canonical = node ? node->key : key;
  // The last line giving the key is the one reading uses: change its value only.
  std::string group;
  size_t found = lines_.size();
  size_t value_begin = 0;
  for (size_t i = 0; i < lines_.size(); ++i) {
    const IniLine l = read_ini_line(lines_[i].body, group);
    if (l.kind == IniLine::Kind::Entry && same_key(schema, l.key, canonical)) {
      found = i;
      value_begin = l.value_begin;
    }
  }
  if (found < lines_.size()) {
    lines_[found].body = lines_[found].body.substr(0, value_begin) + value;
    return;
  }
  const std::string eol = line_end();
  std::string relative;
  const size_t at = insert_position(canonical, &relative);
  if (at <= lines_.size()) {
    if (at == lines_.size() && !lines_.empty() && lines_.back().end.empty())
      lines_.back().end = eol;
    lines_.insert(lines_.begin() + static_cast<std::ptrdiff_t>(at),
                  Line{relative + "=" + value, eol});
    return;
  }
  // A new section at the end, after a blank line.
  const size_t slash = canonical.find('/');
  const std::string top = slash == std::string::npos ? "General" : canonical.substr(0, slash);
  relative = slash == std::string::npos ? canonical : canonical.substr(slash + 1);
  if (!lines_.empty() && lines_.back().end.empty()) lines_.back().end = eol;
  if (!lines_.empty() && !trim(lines_.back().body).empty()) lines_.push_back({"", eol});
  lines_.push_back({"[" + top + "]", eol});
  lines_.push_back({relative + "=" + value, eol});
}

bool IniDocument::remove(const Schema& schema, const std::string& key) {
  const SettingNode* node = schema.find(key);
  const std::string canonical = node ? node->key : key;
  std::string group;
  std::vector<Line> kept;
  kept.reserve(lines_.size());
  bool removed = false;
  for (auto& line : lines_) {
    const IniLine l = read_ini_line(line.body, group);
    if (l.kind == IniLine::Kind::Entry && same_key(schema, l.key, canonical)) {
      removed = true;
      continue;
    }
    kept.push_back(std::move(line));
  }
  lines_ = std::move(kept);
  return removed;
}

std::string IniDocument::text() const {
  std::string out = bom_;
  for (const auto& l : lines_) out.append(l.body).append(l.end);
  return out;
}

void IniDocument::write(const std::string& path) const { write_text_atomically(path, text()); }

void write_text_atomically(const std::string& path, const std::string& text) {
  fs::path target(path);
  std::error_code ec;
  // Replace what a symbolic link points to, not the link (a shared settings file stays shared).
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::canonical(target, ec);
    if (!ec) target = resolved;
  }
  const std::string tmp = temporary_path_for(target.string());
  const int registration = interrupt::register_temporary(tmp);
  bool renamed = false;
  struct Cleanup {
    const std::string& tmp;
    int registration;
    bool& renamed;
    ~Cleanup() {
      if (!renamed) remove_temporary(tmp);
      interrupt::unregister_temporary(registration);
    }
  } cleanup{tmp, registration, renamed};
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw Error("cannot write settings file '" + tmp + "' (is the folder writable?)");
    f << text;
    f.flush();
    if (!f) throw Error("failed writing settings file '" + tmp + "' (is the disk full?)");
  }
  const fs::file_status old = fs::status(target, ec);
  if (!ec && fs::exists(old)) fs::permissions(tmp, old.permissions(), ec);
  fs::rename(tmp, target, ec);
  if (ec) throw Error("cannot replace settings file '" + path + "': " + ec.message());
  renamed = true;
}

}  // namespace fringe::settings
