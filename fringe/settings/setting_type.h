// The value types of OSKAR's settings schema (docs/settings.md) and their rules.
// A SettingType is built from a <type name=".." default="..">params</type> element; it
// checks a value's text and turns it into the normalised text that is stored, written to
// INI files and compared (e.g. OptionList "g" -> "Gaussian beam", Bool "ON" -> "true").
// Numbers stay as written (so "150e6" round-trips); comparisons are numeric.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fringe::settings {

enum class TypeId {
  Bool,
  Int,
  UnsignedInt,
  IntPositive,
  IntRange,
  IntRangeExt,
  Double,
  UnsignedDouble,
  DoubleRange,
  DoubleRangeExt,
  IntList,
  DoubleList,
  IntListExt,
  String,
  StringList,
  InputFile,
  InputFileList,
  InputDirectory,
  OutputFile,
  OptionList,
  RandomSeed,
  DateTime,
  Time,
};

class SettingType {
 public:
  // Builds a type from its (case-insensitive) name and parameter text; throws fringe::Error
  // for an unknown name or bad parameters.
  static SettingType make(std::string_view name, std::string_view params);

  TypeId id() const { return id_; }
  const std::string& name() const { return name_; }      // canonical name, e.g. "DoubleRangeExt"
  const std::string& params() const { return params_; }  // parameter text as declared

  // Checks text and returns its normalised form. An empty text is returned as "" (meaning
  // "not set"; scalar types have no empty value). Throws fringe::Error whose message says
  // what is expected (without key or value: callers add those).
  std::string normalise(std::string_view text) const;

  // True when two normalised values mean the same (numerically for numbers).
  bool same(const std::string& a, const std::string& b) const;
  // Orders two normalised values of a numeric (or date/time) type: -1, 0, +1. Non-numeric
  // types compare as text.
  int compare(const std::string& a, const std::string& b) const;

  // One phrase saying what is accepted, e.g. "an integer in [1, 10] or 'auto'".
  std::string expected() const;

  bool is_numeric() const;      // Int*, Double*, RandomSeed, DateTime, Time
  bool is_list() const;         // IntList, DoubleList, IntListExt, StringList, InputFileList
  bool is_path() const;         // InputFile, InputFileList, InputDirectory, OutputFile
  bool empty_is_value() const;  // String, lists and paths: "" is a real value

  // Range limits (IntRange*, DoubleRange*) and special words (Ext types, IntListExt).
  double min() const { return min_; }
  double max() const { return max_; }
  const std::vector<std::string>& words() const { return words_; }
  // OptionList options and those marked unsupported (fringe extension).
  const std::vector<std::string>& options() const { return options_; }
  const std::vector<std::string>& unsupported_options() const { return unsupported_; }
  void set_unsupported_options(const std::vector<std::string>& options);

  // The special word (as declared) that text matches case-insensitively, or "".
  std::string match_word(std::string_view text) const;

  // Typed conversions of a normalised value (throw fringe::Error if not convertible).
  bool to_bool(const std::string& v) const;
  long long to_int(const std::string& v) const;  // integer types; words -> range limit
  double to_double(const std::string& v) const;  // numbers, words -> range limit,
                                                 // DateTime -> MJD, Time -> seconds
  std::vector<long long> to_int_list(const std::string& v) const;
  std::vector<double> to_double_list(const std::string& v) const;
  std::vector<std::string> to_string_list(const std::string& v) const;

 private:
  TypeId id_ = TypeId::String;
  std::string name_;
  std::string params_;
  double min_ = 0.0, max_ = 0.0;
  std::vector<std::string> words_;
  std::vector<std::string> options_;
  std::vector<std::string> unsupported_;
};

// Splits a comma list; double quotes protect commas and are removed; items are trimmed.
std::vector<std::string> split_list(std::string_view text);
// Joins items with commas, quoting an item that contains a comma.
std::string join_list(const std::vector<std::string>& items);

}  // namespace fringe::settings
