#include "fringe/api/settings.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fringe/api/version.h"
#include "fringe/app/imager_settings.h"
#include "fringe/app/models.h"
#include "fringe/app/settings_to_config.h"
#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/core/output_guard.h"
#include "fringe/settings/ini.h"
#include "fringe/settings/ini_document.h"

namespace fringe::api {
namespace {

struct AppSchema {
  const char* name;
  const char* oskar_name;
  const char* root;
};
constexpr AppSchema kApps[] = {
    {"sim_interferometer", "oskar_sim_interferometer", "sim_interferometer.xml"},
    {"sim_beam_pattern", "oskar_sim_beam_pattern", "sim_beam_pattern.xml"},
    {"imager", "oskar_imager", "imager.xml"},
    {"calibrate", "", "calibrate.xml"},
};

const AppSchema& find_app(const std::string& app) {
  for (const auto& a : kApps)
    if (app == a.name || (*a.oskar_name && app == a.oskar_name)) return a;
  std::string known;
  for (const auto& a : kApps) known += std::string(known.empty() ? "" : ", ") + a.name;
  throw Error("unknown app '" + app + "': expected one of " + known);
}

settings::Schema app_schema(const AppSchema& a, const settings::SchemaFiles& files) {
  if (std::string(a.name) == "imager")  // the telescope group depends on the A-term choice
    return settings::Schema::load(app::imager_schema_files(files), a.root);
  return settings::Schema::load(files, a.root);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error::in_file(path, 0, "cannot read the settings file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::vector<std::string> settings_apps() {
  std::vector<std::string> names;
  for (const auto& a : kApps) names.emplace_back(a.name);
  return names;
}

SettingsTree::SettingsTree(std::string app, settings::Settings settings)
    : app_(std::move(app)), settings_(std::move(settings)) {}

SettingsTree::SettingsTree(const std::string& app, const settings::SchemaFiles& files)
    : SettingsTree(find_app(app).name, settings::Settings(app_schema(find_app(app), files))) {}

SettingsTree SettingsTree::load(const std::string& app, const settings::SchemaFiles& files,
                                const std::string& path) {
  SettingsTree tree(app, files);
  const AppSchema& a = find_app(app);
  settings::IniFile ini;
  const settings::LoadReport r = settings::load_ini(tree.settings_, path, &ini);
  if (!r.errors.empty()) {
    const settings::Problem& first = r.errors.front();
    std::string message = first.message;
    if (r.errors.size() > 1)
      message += " (and " + std::to_string(r.errors.size() - 1) + " more bad value" +
                 (r.errors.size() > 2 ? "s" : "") + ")";
    ErrorContext c;
    c.file = first.file;
    c.line = first.line;
    c.key = first.key;
    c.value = first.value;
    throw Error(message, c);
  }
  for (const auto& p : r.warnings) tree.warnings_.push_back(p.text());
  if (!ini.app.empty() && ini.app != a.name && !(*a.oskar_name && ini.app == a.oskar_name))
    tree.warnings_.push_back(path + ": the file was written for '" + ini.app + "', not " + a.name);
  tree.file_ = path;
  tree.loaded_text_ = read_text(path);
  tree.remember_file_state();
  return tree;
}

void SettingsTree::remember_file_state() {
  file_given_.clear();
  file_values_.clear();
  for (const std::string& key : keys()) {
    file_given_.push_back(settings_.is_given(key));
    file_values_.push_back(settings_.get(key));
  }
}

namespace {

// Runs f; an unknown key's error (from settings::Settings) gains the value given and a
// "did you mean" suggestion.
template <typename F>
auto with_suggestion(const settings::Settings& s, const std::string& key, const std::string& value,
                     F&& f) {
  if (!s.has(key)) {
    try {
      return f();
    } catch (Error& e) {
      ErrorContext c = e.context();
      if (c.value.empty()) c.value = value;
      const std::string near = settings::suggest_key(s.schema(), key);
      e.relabel(e.message() + (near.empty() ? "" : " (did you mean '" + near + "'?)"), c);
      throw;
    }
  }
  return f();
}

}  // namespace

std::string SettingsTree::value(const std::string& key) const {
  return with_suggestion(settings_, key, "", [&] { return settings_.get(key); });
}

void SettingsTree::set_value(const std::string& key, const std::string& value) {
  with_suggestion(settings_, key, value, [&] { settings_.set(key, value); });
}

void SettingsTree::reset(const std::string& key) {
  with_suggestion(settings_, key, "", [&] { settings_.reset(key); });
}

bool SettingsTree::is_given(const std::string& key) const {
  return with_suggestion(settings_, key, "", [&] { return settings_.is_given(key); });
}

std::vector<std::string> SettingsTree::keys() const { return settings_.schema().setting_keys(); }

std::vector<std::pair<std::string, std::string>> SettingsTree::items(bool include_defaults) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& key : keys()) {
    if (include_defaults ? settings_.is_set(key) : !settings_.is_default(key))
      out.emplace_back(key, settings_.get(key));
  }
  return out;
}

std::vector<std::string> SettingsTree::validate() const {
  std::vector<std::string> out;
  for (const auto& p : settings_.validate())
    out.push_back(p.warning ? "warning: " + p.text() : p.text());
  return out;
}

void SettingsTree::save(const std::string& path_in) {
  const std::string path = path_in.empty() ? file_ : path_in;
  if (path.empty()) throw Error("SettingsTree.save: no path given and no file was loaded");
  const bool own_file =
      !file_.empty() && paths_overlap(path, file_) && std::filesystem::is_regular_file(path);
  if (!own_file) {
    OutputTarget target;
    target.path = path;
    target.kind = OutputKind::Text;
    target.text_signature = "[General]";  // a settings file as fringe and OSKAR write them
    check_output(target);
  }
  settings::IniDocument doc;
  if (!loaded_text_.empty()) {
    doc = settings::IniDocument::from_text(loaded_text_);
  } else {
    doc.add_header(app_, version());
  }
  const settings::Schema& schema = settings_.schema();
  const std::vector<std::string> all = keys();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& key = all[i];
    if (!file_values_.empty() && file_given_[i] == settings_.is_given(key) &&
        file_values_[i] == settings_.get(key))
      continue;  // unchanged since the file was read: its line stays as it is
    if (settings_.is_given(key) && !settings_.is_default(key))
      doc.set(schema, key, settings_.get(key));
    else
      doc.remove(schema, key);
  }
  doc.write(path);  // a temporary beside path, then a rename
  file_ = path;
  loaded_text_ = doc.text();
  remember_file_state();
}

Observation observation_from_settings(const SettingsTree& tree) {
  return app::observation_config(tree.settings());
}

Sky sky_from_settings(const SettingsTree& tree, std::vector<std::string>* warnings) {
  std::ostringstream log;
  Logger logger(log);
  logger.set_level(LogLevel::Warning);
  Sky sky = app::load_sky(tree.settings(), logger, false);
  if (warnings) {
    std::istringstream lines(log.str());
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) warnings->push_back(line);
  }
  return sky;
}

Telescope telescope_from_settings(const SettingsTree& tree) {
  std::ostringstream log;
  Logger logger(log);
  return app::load_telescope(tree.settings(), logger);
}

}  // namespace fringe::api
