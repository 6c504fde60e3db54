// Settings trees in the public API (docs/cpp_api.md, docs/python.md "SettingsTree"): the
// settings of one app (sim_interferometer, sim_beam_pattern, imager, calibrate) as an OSKAR
// INI file, loaded, edited and saved with the validation the apps apply, and the typed objects
// the apps derive from them (observation, sky, telescope). The schema files are the program's
// own (the Python package embeds every app's; a C++ program embeds them with
// fringe_embed_schemas() and passes settings::embedded_schemas()).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fringe/api/types.h"
#include "fringe/settings/schema.h"
#include "fringe/settings/settings.h"

namespace fringe::api {

// The apps a SettingsTree can hold, by fringe name ("sim_interferometer", ...).
std::vector<std::string> settings_apps();

class SettingsTree {
 public:
  // An empty tree (every value at its default) for `app`: a fringe app name or OSKAR's
  // ("oskar_sim_interferometer"). Throws fringe::Error for an unknown app or a schema that
  // `files` lacks.
  SettingsTree(const std::string& app, const settings::SchemaFiles& files);

  // Loads an INI file with the app's validation: throws fringe::Error naming the file, line,
  // key and value of the first bad value (and how many more there are). Unknown keys, lines
  // without '=' and a file written for another app are warnings (warnings()).
  static SettingsTree load(const std::string& app, const settings::SchemaFiles& files,
                           const std::string& path);

  const std::string& app() const { return app_; }    // fringe's name of the app
  const std::string& file() const { return file_; }  // loaded from / last saved to ("" = none)
  const std::vector<std::string>& warnings() const { return warnings_; }

  // The value of a key ("" when it has neither a value nor a default); throws fringe::Error
  // for an unknown key.
  std::string value(const std::string& key) const;
  // Sets a value with the schema's validation; throws fringe::Error naming key and value
  // (an unknown key gets a "did you mean" suggestion). An empty value resets a scalar.
  void set_value(const std::string& key, const std::string& value);
  void reset(const std::string& key);           // back to the default
  bool is_given(const std::string& key) const;  // set by the file or set_value()

  // (key, value) of every setting given a non-default value, in schema order; with
  // include_defaults every setting that has a value.
  std::vector<std::pair<std::string, std::string>> items(bool include_defaults = false) const;
  // Every setting key of the schema, in order.
  std::vector<std::string> keys() const;

  // The checks an app makes before it runs (required keys, input files that exist, ...),
  // one "file:line: setting 'k' = 'v': message" text per problem (warnings prefixed
  // "warning: ").
  std::vector<std::string> validate() const;

  // Writes the tree as an INI file at `path` ("" = the loaded file). Lines of the loaded file
  // that are not settings with changed values stay as they were (comments, unknown keys).
  // Output safety (core/output_guard.h): `path` is replaced only when it is the tree's own
  // file or an INI file that begins with "[General]" (written by fringe or OSKAR); anything
  // else there is refused with fringe::Error. Written to a temporary name, then renamed.
  void save(const std::string& path = "");

  const settings::Settings& settings() const { return settings_; }

 private:
  SettingsTree(std::string app, settings::Settings settings);
  std::string app_;
  settings::Settings settings_;
  std::string file_;
  std::string loaded_text_;  // the text of the loaded file ("" when none)
  // Per key of keys(): whether it was given and its value when the file was loaded or saved,
  // so save() edits only the lines of settings that changed since.
  std::vector<bool> file_given_;
  std::vector<std::string> file_values_;
  void remember_file_state();
  std::vector<std::string> warnings_;
};

// The observation the app would run (observation/ settings, the apps' range checks; errors
// name the settings key).
Observation observation_from_settings(const SettingsTree& tree);
// The sky the app would simulate (sky/ settings: files, generators, filters, in OSKAR's
// order). Warnings are appended to *warnings when given.
Sky sky_from_settings(const SettingsTree& tree, std::vector<std::string>* warnings = nullptr);
// The telescope model of telescope/input_directory.
Telescope telescope_from_settings(const SettingsTree& tree);

}  // namespace fringe::api
