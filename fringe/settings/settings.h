// Settings: a schema plus the values a user gave, with typed getters and validation.
// Keys are full keys ("observation/start_frequency_hz"); lookups fall back to a
// case-insensitive match. A value is stored normalised (see setting_type.h); a key with no
// value has its schema default. Relative paths in file-type values resolve against the
// base folder (load_ini sets it to the INI file's folder, which agrees with OSKAR when it is
// run from that folder, as OSKAR users usually do).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fringe/core/datetime.h"
#include "fringe/settings/schema.h"

namespace fringe::settings {

// One problem found while loading or validating: where, which key and value, and what was
// expected. text() formats it as "file:line: setting 'key' = 'value': message".
struct Problem {
  std::string key;
  std::string value;
  std::string message;
  std::string file;
  long line = 0;
  bool warning = false;  // true: reported, not fatal (unless --strict)
  std::string text() const;
};

class Settings {
 public:
  explicit Settings(Schema schema);

  const Schema& schema() const { return schema_; }
  bool has(std::string_view key) const;  // a setting (not a group) with this key exists

  // Sets a value (normalised); throws fringe::Error naming key and value when the key is
  // unknown or the value invalid. An empty value clears a scalar setting (back to default).
  void set(std::string_view key, std::string_view value);
  void reset(std::string_view key);  // back to the default
  void reset_all();

  // The current value, normalised ("" when neither set nor defaulted).
  std::string get(std::string_view key) const;
  std::string get_default(std::string_view key) const;
  bool is_set(std::string_view key) const;      // has a non-empty value (given or default)
  bool is_default(std::string_view key) const;  // the value means the same as the default
  bool is_given(std::string_view key) const;    // a value was set explicitly
  // True when the key's dependencies and those of all its ancestors hold.
  bool is_enabled(std::string_view key) const;

  // Typed getters; each throws fringe::Error (naming key and value) when the key is unknown,
  // has no value, or the value does not convert.
  bool get_bool(std::string_view key) const;
  int get_int(std::string_view key) const;
  double get_double(std::string_view key) const;  // DateTime -> MJD, Time -> seconds,
                                                  // DoubleRangeExt words -> range limits
  std::string get_string(std::string_view key) const;
  std::string get_option(std::string_view key) const;  // OptionList: the full option text
  std::vector<int> get_int_list(std::string_view key) const;
  std::vector<double> get_double_list(std::string_view key) const;
  std::vector<std::string> get_string_list(std::string_view key) const;
  fringe::DateTime get_datetime(std::string_view key) const;
  double get_seconds(std::string_view key) const;  // Time
  // True when the value is the given special word (IntRangeExt, DoubleRangeExt,
  // IntListExt, RandomSeed 'time'), case-insensitive.
  bool is_word(std::string_view key, std::string_view word) const;
  // File-type values resolved against base_dir() ("" stays "").
  std::string get_path(std::string_view key) const;
  std::vector<std::string> get_path_list(std::string_view key) const;

  void set_base_dir(std::string dir) { base_dir_ = std::move(dir); }
  const std::string& base_dir() const { return base_dir_; }
  std::string resolve_path(std::string_view path) const;

  // Checks, for every setting: required keys that are enabled have a value; settings marked
  // unsupported (or under an unsupported group) keep their default when enabled; input files
  // and folders exist when set and enabled; output files' folders exist. Settings given a
  // non-default value while disabled by their dependencies give warnings.
  std::vector<Problem> validate() const;

 private:
  const SettingNode& node(std::string_view key) const;  // throws for unknown keys
  int setting_index(std::string_view key) const;
  std::string value_at(int index) const;
  bool enabled_at(int index) const;
  bool group_holds(const DependencyGroup& g) const;
  bool unsupported_at(int index) const;
  [[noreturn]] void fail(const SettingNode& n, const std::string& message) const;

  Schema schema_;
  std::vector<std::string> values_;  // per node; meaningful where given_[i]
  std::vector<bool> given_;
  std::string base_dir_;
};

}  // namespace fringe::settings
