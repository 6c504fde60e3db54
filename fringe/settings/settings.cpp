#include "fringe/settings/settings.h"

#include <climits>
#include <filesystem>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/settings/text.h"

namespace fringe::settings {

namespace fs = std::filesystem;

std::string Problem::text() const {
  ErrorContext c;
  c.file = file;
  c.line = line;
  c.key = key;
  c.value = value;
  return format_error(message, c);
}

Settings::Settings(Schema schema)
    : schema_(std::move(schema)),
      values_(schema_.nodes().size()),
      given_(schema_.nodes().size(), false) {}

int Settings::setting_index(std::string_view key) const {
  int i = schema_.index_of(key);
  if (i < 0 || !schema_.nodes()[i].is_setting()) return -1;
  return i;
}

bool Settings::has(std::string_view key) const { return setting_index(key) >= 0; }

const SettingNode& Settings::node(std::string_view key) const {
  int i = setting_index(key);
  if (i < 0) {
    const SettingNode* n = schema_.find(key);
    throw Error::in_setting(std::string(key), "",
                            n ? "is a group of settings, not a setting" : "unknown setting");
  }
  return schema_.nodes()[i];
}

void Settings::fail(const SettingNode& n, const std::string& message) const {
  throw Error::in_setting(n.key, value_at(static_cast<int>(&n - schema_.nodes().data())), message);
}

void Settings::set(std::string_view key, std::string_view value) {
  const SettingNode& n = node(key);
  const int i = static_cast<int>(&n - schema_.nodes().data());
  std::string normalised;
  try {
    normalised = n.type->normalise(value);
  } catch (const Error& e) {
    throw Error::in_setting(n.key, std::string(trim(value)), e.message());
  }
  if (normalised.empty() && !n.type->empty_is_value()) {
    reset(key);
    return;
  }
  values_[i] = std::move(normalised);
  given_[i] = true;
}

void Settings::reset(std::string_view key) {
  const SettingNode& n = node(key);
  const auto i = static_cast<size_t>(&n - schema_.nodes().data());
  values_[i].clear();
  given_[i] = false;
}

void Settings::reset_all() {
  for (size_t i = 0; i < values_.size(); ++i) {
    values_[i].clear();
    given_[i] = false;
  }
}

std::string Settings::value_at(int i) const {
  return given_[i] ? values_[i] : schema_.nodes()[i].default_value;
}

std::string Settings::get(std::string_view key) const {
  const SettingNode& n = node(key);
  return value_at(static_cast<int>(&n - schema_.nodes().data()));
}

std::string Settings::get_default(std::string_view key) const { return node(key).default_value; }

bool Settings::is_set(std::string_view key) const { return !get(key).empty(); }

bool Settings::is_given(std::string_view key) const {
  const SettingNode& n = node(key);
  return given_[&n - schema_.nodes().data()];
}

bool Settings::is_default(std::string_view key) const {
  const SettingNode& n = node(key);
  return n.type->same(get(key), n.default_value);
}

bool Settings::group_holds(const DependencyGroup& g) const {
  auto holds = [&](const Dependency& d) {
    const int t = setting_index(d.key);
    if (t < 0) return true;  // checked at schema load; cannot happen
    const SettingType& type = *schema_.nodes()[t].type;
    const std::string current = value_at(t);
    switch (d.op) {
      case Compare::EQ:
        return type.same(current, d.value);
      case Compare::NE:
        return !type.same(current, d.value);
      case Compare::GT:
        return type.compare(current, d.value) > 0;
      case Compare::GE:
        return type.compare(current, d.value) >= 0;
      case Compare::LT:
        return type.compare(current, d.value) < 0;
      case Compare::LE:
        return type.compare(current, d.value) <= 0;
    }
    return false;
  };
  if (g.empty()) return true;
  bool result = !g.any;
  for (const auto& d : g.deps) {
    bool ok = holds(d);
    result = g.any ? (result || ok) : (result && ok);
  }
  for (const auto& sub : g.groups) {
    bool ok = group_holds(sub);
    result = g.any ? (result || ok) : (result && ok);
  }
  return result;
}

bool Settings::enabled_at(int i) const {
  for (int n = i; n >= 0; n = schema_.nodes()[n].parent)
    if (!group_holds(schema_.nodes()[n].depends)) return false;
  return true;
}

bool Settings::is_enabled(std::string_view key) const {
  int i = schema_.index_of(key);
  if (i < 0) throw Error::in_setting(std::string(key), "", "unknown setting");
  return enabled_at(i);
}

bool Settings::unsupported_at(int i) const {
  for (int n = i; n >= 0; n = schema_.nodes()[n].parent)
    if (schema_.nodes()[n].unsupported) return true;
  return false;
}

// ---- typed getters ----

namespace {
template <typename F>
auto convert(const Settings& s, const SettingNode& n, F&& f) {
  const std::string v = s.get(n.key);
  if (v.empty() && !n.type->empty_is_value())
    throw Error::in_setting(n.key, v, "has no value (expected " + n.type->expected() + ")");
  try {
    return f(*n.type, v);
  } catch (const Error& e) {
    throw Error::in_setting(n.key, v, e.message());
  }
}

void require_type(const SettingNode& n, bool ok, const char* what) {
  if (!ok)
    throw Error::in_setting(n.key, "",
                            std::string("is of type ") + n.type->name() + ", not " + what);
}
}  // namespace

bool Settings::get_bool(std::string_view key) const {
  const SettingNode& n = node(key);
  require_type(n, n.type->id() == TypeId::Bool, "Bool");
  return convert(*this, n, [](const SettingType& t, const std::string& v) { return t.to_bool(v); });
}

int Settings::get_int(std::string_view key) const {
  const SettingNode& n = node(key);
  const TypeId id = n.type->id();
  require_type(n,
               id == TypeId::Int || id == TypeId::UnsignedInt || id == TypeId::IntPositive ||
                   id == TypeId::IntRange || id == TypeId::IntRangeExt || id == TypeId::RandomSeed,
               "an integer type");
  long long v = convert(*this, n, [](const SettingType& t, const std::string& s) {
    if (s == "time") throw Error("the value is the special word 'time', not an integer");
    return t.to_int(s);
  });
  if (v > INT_MAX || v < INT_MIN) fail(n, "does not fit a 32-bit integer");
  return static_cast<int>(v);
}

double Settings::get_double(std::string_view key) const {
  const SettingNode& n = node(key);
  require_type(n, n.type->is_numeric(), "a numeric type");
  return convert(*this, n, [](const SettingType& t, const std::string& s) {
    if (t.id() == TypeId::RandomSeed && s == "time")
      throw Error("the value is the special word 'time', not a number");
    return t.to_double(s);
  });
}

std::string Settings::get_string(std::string_view key) const { return get(key); }

std::string Settings::get_option(std::string_view key) const {
  const SettingNode& n = node(key);
  require_type(n, n.type->id() == TypeId::OptionList, "OptionList");
  return convert(*this, n, [](const SettingType&, const std::string& v) { return v; });
}

std::vector<int> Settings::get_int_list(std::string_view key) const {
  const SettingNode& n = node(key);
  require_type(n, n.type->id() == TypeId::IntList || n.type->id() == TypeId::IntListExt,
               "IntList or IntListExt");
  auto list = convert(*this, n, [](const SettingType& t, const std::string& v) {
    return v.empty() ? std::vector<long long>{} : t.to_int_list(v);
  });
  std::vector<int> out;
  for (long long v : list) {
    if (v > INT_MAX || v < INT_MIN) fail(n, "an item does not fit a 32-bit integer");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

std::vector<double> Settings::get_double_list(std::string_view key) const {
  const SettingNode& n = node(key);
  const TypeId id = n.type->id();
  require_type(n, id == TypeId::DoubleList || id == TypeId::IntList, "DoubleList");
  return convert(*this, n, [](const SettingType& t, const std::string& v) {
    return v.empty() ? std::vector<double>{} : t.to_double_list(v);
  });
}

std::vector<std::string> Settings::get_string_list(std::string_view key) const {
  const SettingNode& n = node(key);
  return convert(*this, n, [](const SettingType& t, const std::string& v) {
    return t.is_list() ? t.to_string_list(v)
                       : (v.empty() ? std::vector<std::string>{} : std::vector<std::string>{v});
  });
}

fringe::DateTime Settings::get_datetime(std::string_view key) const {
  const SettingNode& n = node(key);
  require_type(n, n.type->id() == TypeId::DateTime, "DateTime");
  return convert(*this, n,
                 [](const SettingType&, const std::string& v) { return DateTime::parse(v); });
}

double Settings::get_seconds(std::string_view key) const {
  const SettingNode& n = node(key);
  require_type(n, n.type->id() == TypeId::Time, "Time");
  return convert(
      *this, n, [](const SettingType&, const std::string& v) { return parse_duration_seconds(v); });
}

bool Settings::is_word(std::string_view key, std::string_view word) const {
  const SettingNode& n = node(key);
  const std::string v = get(key);
  if (n.type->id() == TypeId::RandomSeed) return iequals(v, word) && iequals(word, "time");
  std::string w = n.type->match_word(v);
  return !w.empty() && iequals(w, word);
}

std::string Settings::resolve_path(std::string_view path) const {
  if (path.empty()) return {};
  fs::path p{std::string(path)};
  if (p.is_absolute() || base_dir_.empty()) return p.lexically_normal().string();
  return (fs::path(base_dir_) / p).lexically_normal().string();
}

std::string Settings::get_path(std::string_view key) const {
  const SettingNode& n = node(key);
  require_type(n, n.type->is_path() && n.type->id() != TypeId::InputFileList,
               "a file or folder type");
  return resolve_path(get(key));
}

std::vector<std::string> Settings::get_path_list(std::string_view key) const {
  std::vector<std::string> out;
  for (const auto& p : get_string_list(key)) out.push_back(resolve_path(p));
  return out;
}

// ---- validation ----

std::vector<Problem> Settings::validate() const {
  std::vector<Problem> problems;
  const auto& nodes = schema_.nodes();
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) {
    const SettingNode& n = nodes[i];
    if (!n.is_setting()) continue;
    const SettingType& type = *n.type;
    const std::string v = value_at(i);
    const bool enabled = enabled_at(i);
    auto add = [&](std::string message, bool warning = false) {
      Problem p;
      p.key = n.key;
      p.value = v;
      p.message = std::move(message);
      p.warning = warning;
      problems.push_back(std::move(p));
    };
    if (!enabled) {
      if (given_[i] && !type.same(v, n.default_value))
        add("is ignored: the settings it depends on disable it", true);
      continue;
    }
    if (n.required && v.empty()) {
      add("is required (expected " + type.expected() + ")");
      continue;
    }
    if (unsupported_at(i) && !type.same(v, n.default_value)) {
      add("is not supported yet; only the default '" + n.default_value + "' is accepted");
      continue;
    }
    if (v.empty()) continue;
    std::error_code ec;
    switch (type.id()) {
      case TypeId::InputFile:
      case TypeId::InputFileList:
        for (const auto& item : type.to_string_list(v)) {
          const std::string p = resolve_path(item);
          if (!fs::exists(p, ec))
            add("file not found: '" + p + "' (expected " + type.expected() + ")");
          else if (fs::is_directory(p, ec))
            add("'" + p + "' is a folder (expected " + type.expected() + ")");
        }
        break;
      case TypeId::InputDirectory: {
        const std::string p = resolve_path(v);
        if (!fs::is_directory(p, ec))
          add("folder not found: '" + p + "' (expected " + type.expected() + ")");
        break;
      }
      case TypeId::OutputFile: {
        const fs::path p(resolve_path(v));
        const fs::path parent = p.parent_path();
        if (!parent.empty() && !fs::is_directory(parent, ec))
          add("the folder '" + parent.string() + "' of the output file does not exist");
        break;
      }
      default:
        break;
    }
  }
  return problems;
}

}  // namespace fringe::settings
