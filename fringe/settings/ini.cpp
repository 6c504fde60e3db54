#include "fringe/settings/ini.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <istream>
#include <map>
#include <sstream>

#include "fringe/core/error.h"
#include "fringe/settings/ini_document.h"
#include "fringe/settings/text.h"

namespace fringe::settings {

namespace fs = std::filesystem;

std::string normalise_ini_group(std::string_view group) {
  std::string g(trim(group));
  if (g == "General") return {};
  std::replace(g.begin(), g.end(), '\\', '/');
  std::replace(g.begin(), g.end(), '.', '/');
  return g;
}

IniLine read_ini_line(std::string_view raw, std::string& group) {
  IniLine out;
  const std::string_view line = trim(raw);
  if (line.empty()) return out;
  if (line.front() == ';' || line.front() == '#') {
    out.kind = IniLine::Kind::Comment;
    return out;
  }
  if (line.front() == '[' && line.back() == ']') {
    group = std::string(trim(line.substr(1, line.size() - 2)));
    out.kind = IniLine::Kind::Group;
    return out;
  }
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos) {
    out.kind = IniLine::Kind::Malformed;
    out.value = std::string(line);
    return out;
  }
  std::string key(trim(line.substr(0, eq)));
  const std::string_view value = trim(line.substr(eq + 1));
  out.value = std::string(value);
  // Offset of the value in raw: after the '=' and the spaces that follow it.
  const size_t eq_in_raw = static_cast<size_t>(line.data() - raw.data()) + eq;
  out.value_begin = value.empty() ? eq_in_raw + 1 : static_cast<size_t>(value.data() - raw.data());
  std::replace(key.begin(), key.end(), '\\', '/');
  std::replace(key.begin(), key.end(), '.', '/');
  const std::string g = normalise_ini_group(group);
  if (g.empty() && (key == "app" || key == "version")) {
    out.kind = IniLine::Kind::Header;
    out.key = key;
    return out;
  }
  out.kind = IniLine::Kind::Entry;
  out.key = g.empty() ? key : g + "/" + key;
  return out;
}

IniFile parse_ini(std::istream& in, const std::string& path) {
  IniFile ini;
  ini.path = path;
  std::string group;
  std::string raw;
  long line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view view(raw);
    if (line_no == 1 && view.substr(0, 3) == "\xEF\xBB\xBF") view.remove_prefix(3);
    IniLine l = read_ini_line(view, group);
    switch (l.kind) {
      case IniLine::Kind::Header:
        (l.key == "app" ? ini.app : ini.version) = l.value;
        break;
      case IniLine::Kind::Entry:
        ini.entries.push_back({l.key, l.value, line_no});
        break;
      case IniLine::Kind::Malformed:
        ini.malformed.push_back({"", l.value, line_no});
        break;
      default:
        break;
    }
  }
  return ini;
}

IniFile read_ini(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw Error("'" + path + "' is a folder, not a settings file");
  std::ifstream f(path);
  if (!f) throw Error("cannot read settings file '" + path + "'");
  return parse_ini(f, path);
}

std::string suggest_key(const Schema& schema, std::string_view unknown) {
  std::string best;
  size_t best_d = std::string::npos;
  const size_t limit = std::max<size_t>(3, unknown.size() / 3);
  for (const auto& key : schema.setting_keys()) {
    // The distance is at least the length difference: skip keys that cannot win or be
    // accepted (same result; a long unknown key no longer costs seconds: found by fuzz_ini).
    const size_t len_diff =
        std::max(unknown.size(), key.size()) - std::min(unknown.size(), key.size());
    if (len_diff >= best_d || len_diff > limit) continue;
    size_t d = edit_distance(unknown, key);
    if (d < best_d) {
      best_d = d;
      best = key;
    }
  }
  if (!best.empty() && best_d <= limit) return best;
  // Same last part under a different group (e.g. a key given in the wrong [group]).
  const size_t slash = unknown.rfind('/');
  const std::string_view leaf =
      slash == std::string_view::npos ? unknown : unknown.substr(slash + 1);
  std::string found;
  for (const auto& n : schema.nodes()) {
    if (n.is_setting() && iequals(n.leaf, leaf)) {
      if (!found.empty()) return {};  // ambiguous
      found = n.key;
    }
  }
  return found;
}

LoadReport apply_ini(Settings& settings, const IniFile& ini) {
  LoadReport report;
  for (const auto& m : ini.malformed) {
    Problem p;
    p.file = ini.path;
    p.line = m.line;
    p.message = "'" + m.value +
                "' is not a setting line and is ignored (expected key=value, [group], or a "
                "comment starting with ';' or '#')";
    p.warning = true;
    report.warnings.push_back(std::move(p));
  }
  std::map<std::string, long> seen;
  for (const auto& e : ini.entries) {
    Problem p;
    p.key = e.key;
    p.value = e.value;
    p.file = ini.path;
    p.line = e.line;
    if (!settings.has(e.key)) {
      const SettingNode* n = settings.schema().find(e.key);
      if (n) {
        p.message = "is a group of settings, not a setting";
      } else {
        p.message = "unknown setting";
        std::string hint = suggest_key(settings.schema(), e.key);
        if (!hint.empty()) p.message += " (did you mean '" + hint + "'?)";
      }
      p.warning = true;
      report.warnings.push_back(std::move(p));
      continue;
    }
    const std::string canonical = settings.schema().find(e.key)->key;
    auto [it, inserted] = seen.emplace(canonical, e.line);
    if (!inserted) {
      Problem w = p;
      w.message = "is given again (first on line " + std::to_string(it->second) +
                  "); the last value is used";
      w.warning = true;
      report.warnings.push_back(std::move(w));
    }
    try {
      settings.set(e.key, e.value);
    } catch (const Error& err) {
      p.message = err.message();
      report.errors.push_back(std::move(p));
    }
  }
  return report;
}

LoadReport load_ini(Settings& settings, const std::string& path, IniFile* ini_out) {
  IniFile ini = read_ini(path);
  fs::path dir = fs::path(path).parent_path();
  settings.set_base_dir(dir.empty() ? std::string(".") : dir.string());
  LoadReport r = apply_ini(settings, ini);
  if (ini_out) *ini_out = std::move(ini);
  return r;
}

std::string format_ini(const Settings& settings, const std::string& app,
                       const std::string& version) {
  // Group the lines by top-level group in schema order; top-level settings go to [General].
  std::vector<std::string> general;
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& n : settings.schema().nodes()) {
    if (!n.is_setting() || !settings.is_given(n.key) || settings.is_default(n.key)) continue;
    const std::string value = settings.get(n.key);
    const size_t slash = n.key.find('/');
    if (slash == std::string::npos) {
      general.push_back(n.key + "=" + value);
      continue;
    }
    const std::string top = n.key.substr(0, slash);
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == top; });
    if (it == groups.end()) it = groups.insert(groups.end(), {top, {}});
    it->second.push_back(n.key.substr(slash + 1) + "=" + value);
  }
  std::ostringstream out;
  out << "[General]\napp=" << app << "\nversion=" << version << "\n";
  for (const auto& line : general) out << line << "\n";
  for (const auto& [name, lines] : groups) {
    out << "\n[" << name << "]\n";
    for (const auto& line : lines) out << line << "\n";
  }
  return out.str();
}

void write_ini(const Settings& settings, const std::string& path, const std::string& app,
               const std::string& version) {
  write_text_atomically(path, format_ini(settings, app, version));
}

}  // namespace fringe::settings
