#include "fringe/settings/setting_type.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "fringe/core/datetime.h"
#include "fringe/core/error.h"
#include "fringe/settings/text.h"

namespace fringe::settings {
namespace {

struct TypeName {
  const char* name;
  TypeId id;
};

// Names as OSKAR accepts them (compared case-insensitively), with aliases.
constexpr TypeName kNames[] = {
    {"Bool", TypeId::Bool},
    {"Int", TypeId::Int},
    {"UnsignedInt", TypeId::UnsignedInt},
    {"uint", TypeId::UnsignedInt},
    {"IntPositive", TypeId::IntPositive},
    {"IntRange", TypeId::IntRange},
    {"IntRangeExt", TypeId::IntRangeExt},
    {"Double", TypeId::Double},
    {"UnsignedDouble", TypeId::UnsignedDouble},
    {"DoubleRange", TypeId::DoubleRange},
    {"DoubleRangeExt", TypeId::DoubleRangeExt},
    {"IntList", TypeId::IntList},
    {"DoubleList", TypeId::DoubleList},
    {"IntListExt", TypeId::IntListExt},
    {"String", TypeId::String},
    {"StringList", TypeId::StringList},
    {"InputFile", TypeId::InputFile},
    {"InputFileList", TypeId::InputFileList},
    {"InputDirectory", TypeId::InputDirectory},
    {"OutputFile", TypeId::OutputFile},
    {"OptionList", TypeId::OptionList},
    {"RandomSeed", TypeId::RandomSeed},
    {"DateTime", TypeId::DateTime},
    {"Time", TypeId::Time},
};

const char* canonical_name(TypeId id) {
  for (const auto& n : kNames)
    if (n.id == id) return n.name;
  return "?";
}

bool parse_int(std::string_view s, long long& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_double(std::string_view s, double& out) {
  if (s.empty()) return false;
  std::string tmp(s);
  for (char c : tmp)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-'))
      return false;  // rejects "nan", "inf", hex and spaces
  char* end = nullptr;
  out = std::strtod(tmp.c_str(), &end);
  return end == tmp.c_str() + tmp.size() && std::isfinite(out);
}

// A range limit in a type's parameters: a number or MIN/MAX words.
double parse_limit(std::string_view s, bool integer) {
  std::string u = to_upper(trim(s));
  if (u == "MAX" || u == "INT_MAX" || u == "DBL_MAX") return integer ? INT_MAX : DBL_MAX;
  if (u == "MIN" || u == "-MAX" || u == "INT_MIN" || u == "-INT_MAX" || u == "-DBL_MAX")
    return integer ? INT_MIN : -DBL_MAX;
  double v = 0.0;
  if (integer) {
    long long i = 0;
    if (!parse_int(u, i)) throw Error("bad range limit '" + std::string(s) + "'");
    return static_cast<double>(i);
  }
  if (!parse_double(u, v)) throw Error("bad range limit '" + std::string(s) + "'");
  return v;
}

std::string limit_text(double v, bool integer) {
  if (integer && v >= INT_MAX) return "MAX";
  if (integer && v <= INT_MIN) return "-MAX";
  if (v >= DBL_MAX) return "MAX";
  if (v <= -DBL_MAX) return "-MAX";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back the same
  return std::string(buf, r.ptr);
}

std::string quoted_words(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) out += i + 1 == words.size() ? " or " : ", ";
    out += "'" + words[i] + "'";
  }
  return out;
}

}  // namespace

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  std::string cur;
  bool in_quotes = false, any = false;
  for (char c : text) {
    if (c == '"') {
      in_quotes = !in_quotes;
      any = true;
    } else if (c == ',' && !in_quotes) {
      items.push_back(std::string(trim(cur)));
      cur.clear();
      any = true;
    } else {
      cur += c;
    }
  }
  if (in_quotes) throw Error("unbalanced double quote in a list");
  std::string last(trim(cur));
  if (!last.empty() || any) items.push_back(last);
  return items;
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    if (items[i].find(',') != std::string::npos)
      out += '"' + items[i] + '"';
    else
      out += items[i];
  }
  return out;
}

SettingType SettingType::make(std::string_view name, std::string_view params) {
  SettingType t;
  bool found = false;
  for (const auto& n : kNames) {
    if (iequals(name, n.name)) {
      t.id_ = n.id;
      found = true;
      break;
    }
  }
  if (!found) throw Error("unknown setting type '" + std::string(name) + "'");
  t.name_ = canonical_name(t.id_);
  t.params_ = std::string(trim(params));
  auto p = split_list(t.params_);
  const bool integer = t.id_ == TypeId::IntRange || t.id_ == TypeId::IntRangeExt;
  switch (t.id_) {
    case TypeId::IntRange:
    case TypeId::DoubleRange:
    case TypeId::IntRangeExt:
    case TypeId::DoubleRangeExt: {
      const bool ext = t.id_ == TypeId::IntRangeExt || t.id_ == TypeId::DoubleRangeExt;
      if (p.size() < 2 || (!ext && p.size() != 2) || (ext && (p.size() < 3 || p.size() > 4)))
        throw Error("type " + t.name_ + " needs parameters " +
                    (ext ? "'min,max,word[,word]'" : "'min,max'") + ", got '" + t.params_ + "'");
      t.min_ = parse_limit(p[0], integer);
      t.max_ = parse_limit(p[1], integer);
      if (t.min_ > t.max_) throw Error("type " + t.name_ + ": min > max in '" + t.params_ + "'");
      for (size_t i = 2; i < p.size(); ++i) {
        if (p[i].empty()) throw Error("type " + t.name_ + ": empty special word");
        t.words_.push_back(p[i]);
      }
      break;
    }
    case TypeId::IntListExt:
      if (p.empty() || p[0].empty())
        throw Error("type IntListExt needs a special word as parameter, e.g. 'all'");
      t.words_ = p;
      break;
    case TypeId::OptionList:
      if (p.empty()) throw Error("type OptionList needs a comma list of options");
      for (const auto& o : p)
        if (o.empty()) throw Error("type OptionList: empty option in '" + t.params_ + "'");
      t.options_ = p;
      break;
    default:
      break;
  }
  return t;
}

void SettingType::set_unsupported_options(const std::vector<std::string>& options) {
  unsupported_.clear();
  for (const auto& o : options) {
    std::string full = normalise(o);  // resolves a prefix to the full option
    unsupported_.push_back(full);
  }
}

std::string SettingType::match_word(std::string_view text) const {
  for (const auto& w : words_)
    if (iequals(trim(text), w)) return w;
  return {};
}

bool SettingType::is_numeric() const {
  switch (id_) {
    case TypeId::Int:
    case TypeId::UnsignedInt:
    case TypeId::IntPositive:
    case TypeId::IntRange:
    case TypeId::IntRangeExt:
    case TypeId::Double:
    case TypeId::UnsignedDouble:
    case TypeId::DoubleRange:
    case TypeId::DoubleRangeExt:
    case TypeId::RandomSeed:
    case TypeId::DateTime:
    case TypeId::Time:
      return true;
    default:
      return false;
  }
}

bool SettingType::is_list() const {
  return id_ == TypeId::IntList || id_ == TypeId::DoubleList || id_ == TypeId::IntListExt ||
         id_ == TypeId::StringList || id_ == TypeId::InputFileList;
}

bool SettingType::is_path() const {
  return id_ == TypeId::InputFile || id_ == TypeId::InputFileList ||
         id_ == TypeId::InputDirectory || id_ == TypeId::OutputFile;
}

bool SettingType::empty_is_value() const { return id_ == TypeId::String || is_list() || is_path(); }

std::string SettingType::expected() const {
  const bool integer = id_ == TypeId::IntRange || id_ == TypeId::IntRangeExt;
  std::string range = "[" + limit_text(min_, integer) + ", " + limit_text(max_, integer) + "]";
  switch (id_) {
    case TypeId::Bool:
      return "true or false";
    case TypeId::Int:
      return "an integer";
    case TypeId::UnsignedInt:
      return "an integer >= 0";
    case TypeId::IntPositive:
      return "an integer >= 1";
    case TypeId::IntRange:
      return "an integer in " + range;
    case TypeId::IntRangeExt:
      return "an integer in " + range + " or " + quoted_words(words_);
    case TypeId::Double:
      return "a number";
    case TypeId::UnsignedDouble:
      return "a number >= 0";
    case TypeId::DoubleRange:
      return "a number in " + range;
    case TypeId::DoubleRangeExt:
      return "a number in " + range + " or " + quoted_words(words_);
    case TypeId::IntList:
      return "a comma-separated list of integers";
    case TypeId::DoubleList:
      return "a comma-separated list of numbers";
    case TypeId::IntListExt:
      return quoted_words(words_) + " or a comma-separated list of integers";
    case TypeId::String:
      return "text";
    case TypeId::StringList:
      return "a comma-separated list";
    case TypeId::InputFile:
      return "the path of an existing file";
    case TypeId::InputFileList:
      return "a comma-separated list of paths of existing files";
    case TypeId::InputDirectory:
      return "the path of an existing directory";
    case TypeId::OutputFile:
      return "a file path";
    case TypeId::OptionList:
      return "one of " + quoted_words(options_) + " (a case-insensitive prefix is enough)";
    case TypeId::RandomSeed:
      return "an integer >= 1 or 'time'";
    case TypeId::DateTime:
      return "a UTC date-time as d-M-yyyy h:m:s.z, yyyy-M-d h:m:s.z, yyyy-M-dTh:m:s.z, "
             "yyyy/M/d/h:m:s.z or an MJD number";
    case TypeId::Time:
      return "a duration in seconds or as h:m:s.z";
  }
  return "?";
}

std::string SettingType::normalise(std::string_view input) const {
  std::string text(trim(input));
  if (text.empty()) return {};
  auto fail = [&](const std::string& why = {}) -> std::string {
    throw Error(why.empty() ? "expected " + expected() : why + "; expected " + expected());
  };
  auto check_int = [&](std::string_view s, long long lo, long long hi) {
    long long v = 0;
    if (!parse_int(s, v)) fail();
    if (v < lo || v > hi) fail(std::string(s) + " is out of range");
    return v;
  };
  auto check_double = [&](std::string_view s, double lo, double hi) {
    double v = 0.0;
    if (!parse_double(s, v)) fail();
    if (v < lo || v > hi) fail(std::string(s) + " is out of range");
    return v;
  };
  switch (id_) {
    case TypeId::Bool: {
      // OSKAR: true iff the text starts with TRUE, ON or 1 (case-insensitive).
      std::string u = to_upper(text);
      if (u.starts_with("TRUE") || u.starts_with("ON") || u.starts_with('1')) return "true";
      if (u == "FALSE" || u == "OFF" || u == "0" || u == "NO") return "false";
      return fail();
    }
    case TypeId::Int:
      check_int(text, INT_MIN, INT_MAX);
      return text;
    case TypeId::UnsignedInt:
      check_int(text, 0, UINT_MAX);
      return text;
    case TypeId::IntPositive:
      check_int(text, 1, INT_MAX);
      return text;
    case TypeId::IntRange:
      check_int(text, static_cast<long long>(min_), static_cast<long long>(max_));
      return text;
    case TypeId::IntRangeExt: {
      std::string w = match_word(text);
      if (!w.empty()) return w;
      check_int(text, static_cast<long long>(min_), static_cast<long long>(max_));
      return text;
    }
    case TypeId::Double:
      check_double(text, -DBL_MAX, DBL_MAX);
      return text;
    case TypeId::UnsignedDouble:
      check_double(text, 0.0, DBL_MAX);
      return text;
    case TypeId::DoubleRange:
      check_double(text, min_, max_);
      return text;
    case TypeId::DoubleRangeExt: {
      std::string w = match_word(text);
      if (!w.empty()) return w;
      check_double(text, min_, max_);
      return text;
    }
    case TypeId::IntList:
    case TypeId::DoubleList:
    case TypeId::IntListExt: {
      if (id_ == TypeId::IntListExt) {
        std::string w = match_word(text);
        if (!w.empty()) return w;
      }
      std::vector<std::string> items;
      try {
        items = split_list(text);
      } catch (const Error& e) {
        fail(e.message());
      }
      for (const auto& item : items) {
        if (item.empty()) fail("empty list item");
        if (id_ == TypeId::DoubleList)
          check_double(item, -DBL_MAX, DBL_MAX);
        else
          check_int(item, INT_MIN, INT_MAX);
      }
      return join_list(items);
    }
    case TypeId::String:
      return text;
    case TypeId::StringList:
    case TypeId::InputFileList: {
      try {
        auto items = split_list(text);
        for (const auto& item : items)
          if (item.empty()) fail("empty list item");
        return join_list(items);
      } catch (const Error& e) {
        return fail(e.message());
      }
    }
    case TypeId::InputFile:
    case TypeId::InputDirectory:
    case TypeId::OutputFile: {
      std::string path = text;
      if (path.size() >= 2 && path.front() == '"' && path.back() == '"')
        path = std::string(trim(path.substr(1, path.size() - 2)));
      return path;
    }
    case TypeId::OptionList: {
      const std::string* found = nullptr;
      for (const auto& o : options_)
        if (iequals(o, text)) {
          found = &o;
          break;
        }
      if (!found) {
        std::string u = to_upper(text);
        for (const auto& o : options_)
          if (to_upper(o).rfind(u, 0) == 0) {
            found = &o;
            break;
          }
      }
      if (!found) fail();
      if (std::find(unsupported_.begin(), unsupported_.end(), *found) != unsupported_.end())
        throw Error("option '" + *found + "' is not supported yet");
      return *found;
    }
    case TypeId::RandomSeed: {
      if (iequals(text, "time")) return "time";
      check_int(text, 1, INT_MAX);
      return text;
    }
    case TypeId::DateTime:
      try {
        return fringe::DateTime::parse(text).to_string();
      } catch (const Error& e) {
        throw Error(e.message());
      }
    case TypeId::Time:
      try {
        return normalise_duration(text);
      } catch (const Error& e) {
        throw Error(e.message());
      }
  }
  return text;
}

bool SettingType::to_bool(const std::string& v) const {
  if (id_ != TypeId::Bool) throw Error("not a Bool setting (type " + name_ + ")");
  return normalise(v) == "true";
}

long long SettingType::to_int(const std::string& v) const {
  if (v.empty()) throw Error("no value");
  if (!match_word(v).empty() && (id_ == TypeId::IntRangeExt || id_ == TypeId::IntListExt))
    throw Error("the value is the special word '" + v + "', not an integer");
  long long i = 0;
  if (!parse_int(trim(v), i)) throw Error("'" + v + "' is not an integer");
  return i;
}

double SettingType::to_double(const std::string& v) const {
  if (v.empty()) throw Error("no value");
  if (id_ == TypeId::DoubleRangeExt) {
    // OSKAR maps the special words to the range limits: the first word to the minimum,
    // a second word to the maximum.
    std::string w = match_word(v);
    if (!w.empty()) return w == words_.front() ? min_ : max_;
  }
  if (id_ == TypeId::DateTime) return fringe::DateTime::parse(v).to_mjd();
  if (id_ == TypeId::Time) return parse_duration_seconds(v);
  if (!match_word(v).empty()) throw Error("the value is the special word '" + v + "'");
  double d = 0.0;
  if (!parse_double(trim(v), d)) throw Error("'" + v + "' is not a number");
  return d;
}

std::vector<long long> SettingType::to_int_list(const std::string& v) const {
  if (!match_word(v).empty()) throw Error("the value is the special word '" + v + "'");
  std::vector<long long> out;
  for (const auto& item : split_list(v)) {
    long long i = 0;
    if (!parse_int(item, i)) throw Error("'" + item + "' is not an integer");
    out.push_back(i);
  }
  return out;
}

std::vector<double> SettingType::to_double_list(const std::string& v) const {
  std::vector<double> out;
  for (const auto& item : split_list(v)) {
    double d = 0.0;
    if (!parse_double(item, d)) throw Error("'" + item + "' is not a number");
    out.push_back(d);
  }
  return out;
}

std::vector<std::string> SettingType::to_string_list(const std::string& v) const {
  if (v.empty()) return {};
  return split_list(v);
}

bool SettingType::same(const std::string& a, const std::string& b) const {
  if (a == b) return true;
  if (a.empty() || b.empty()) return false;
  try {
    if (id_ == TypeId::DateTime) {
      return std::abs(fringe::DateTime::parse(a).to_mjd() - fringe::DateTime::parse(b).to_mjd()) *
                 86400.0 <
             1e-6;
    }
    if (is_numeric()) {
      if (!match_word(a).empty() || !match_word(b).empty() || a == "time" || b == "time")
        return false;
      return to_double(a) == to_double(b);
    }
    if (id_ == TypeId::IntList || id_ == TypeId::DoubleList || id_ == TypeId::IntListExt) {
      if (!match_word(a).empty() || !match_word(b).empty()) return false;
      return to_double_list(a) == to_double_list(b);
    }
  } catch (const Error&) {
    return false;
  }
  return false;
}

int SettingType::compare(const std::string& a, const std::string& b) const {
  if (is_numeric()) {
    try {
      double x = to_double(a), y = to_double(b);
      return x < y ? -1 : (x > y ? 1 : 0);
    } catch (const Error&) {
    }
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace fringe::settings
