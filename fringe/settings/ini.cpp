#include "fringe/settings/ini.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <istream>
#include <map>
#include <sstream>

#include "fringe/core/error.h"
#include "fringe/settings/text.h"

namespace fringe::settings {

namespace fs = std::filesystem;

IniFile parse_ini(std::istream& in, const std::string& path) {
  IniFile ini;
  ini.path = path;
  std::string group;
  std::string raw;
  long line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = trim(raw);
    if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line = trim(line.substr(3));
    if (line.empty() || line.front() == ';' || line.front() == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      group = std::string(trim(line.substr(1, line.size() - 2)));
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key(trim(line.substr(0, eq)));
    std::string value(trim(line.substr(eq + 1)));
    std::replace(key.begin(), key.end(), '\\', '/');
    std::replace(key.begin(), key.end(), '.', '/');
    const bool general = group.empty() || group == "General";
    if (general && key == "app") {
      ini.app = value;
      continue;
    }
    if (general && key == "version") {
      ini.version = value;
      continue;
    }
    std::string g = group;
    std::replace(g.begin(), g.end(), '\\', '/');
    std::replace(g.begin(), g.end(), '.', '/');
    if (!general) key = g.append("/").append(key);
    ini.entries.push_back({key, value, line_no});
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
  for (const auto& key : schema.setting_keys()) {
    size_t d = edit_distance(unknown, key);
    if (d < best_d) {
      best_d = d;
      best = key;
    }
  }
  const size_t limit = std::max<size_t>(3, unknown.size() / 3);
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
  const std::string text = format_ini(settings, app, version);
  const fs::path target(path);
  fs::path tmp = target;
  tmp += ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw Error("cannot write settings file '" + tmp.string() + "'");
    f << text;
    f.flush();
    if (!f) throw Error("failed writing settings file '" + tmp.string() + "'");
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error("cannot replace settings file '" + path + "'");
  }
}

}  // namespace fringe::settings
