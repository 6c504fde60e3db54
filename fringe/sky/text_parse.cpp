#include "fringe/sky/text_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "fringe/core/constants.h"

namespace fringe::sky::text {

namespace {
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

std::optional<double> parse_number(std::string_view token) {
  token = trim(token);
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  if (token.empty()) return std::nullopt;
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || ptr != token.data() + token.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

std::vector<std::string> split_fields(std::string_view line) {
  std::vector<std::string> fields;
  std::string current;
  bool have_token = false;     // something (possibly empty quotes) since the last separator
  bool pending_comma = false;  // last separator was a comma (so a further comma = empty field)
  int depth = 0;
  char quote = 0;
  std::size_t i = 0;
  auto finish = [&]() {
    fields.push_back(current);
    current.clear();
    have_token = false;
  };
  while (i < line.size()) {
    const char c = line[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        current.push_back(c);
      }
      ++i;
      continue;
    }
    if (depth == 0 && (c == '"' || c == '\'')) {
      quote = c;
      have_token = true;
      ++i;
      continue;
    }
    if (c == '[' || c == '(') ++depth;
    if ((c == ']' || c == ')') && depth > 0) --depth;
    if (depth == 0 && (c == ',' || is_space(c))) {
      // Consume a separator: whitespace* [, whitespace*].
      std::size_t j = i;
      while (j < line.size() && is_space(line[j])) ++j;
      bool comma = false;
      if (j < line.size() && line[j] == ',') {
        comma = true;
        ++j;
        while (j < line.size() && is_space(line[j])) ++j;
      }
      // A token ends a field; so does ",," (empty field) or a leading comma (empty first field).
      if (have_token || (comma && (pending_comma || fields.empty()))) finish();
      pending_comma = comma;
      i = j;
      if (comma && i >= line.size()) finish();  // trailing comma -> empty last field
      continue;
    }
    current.push_back(c);
    have_token = true;
    pending_comma = false;
    ++i;
  }
  if (have_token) finish();
  return fields;
}

std::optional<std::vector<double>> parse_vector(std::string_view field) {
  field = trim(field);
  std::vector<double> out;
  if (field.empty()) return out;
  const char open = field.front();
  if (open != '[' && open != '(') {
    auto v = parse_number(field);
    if (!v) return std::nullopt;
    out.push_back(*v);
    return out;
  }
  const char close = open == '[' ? ']' : ')';
  if (field.back() != close) return std::nullopt;
  std::string_view inner = field.substr(1, field.size() - 2);
  std::size_t i = 0;
  while (i < inner.size()) {
    while (i < inner.size() && (is_space(inner[i]) || inner[i] == ',')) ++i;
    std::size_t j = i;
    while (j < inner.size() && !is_space(inner[j]) && inner[j] != ',') ++j;
    if (j > i) {
      auto v = parse_number(inner.substr(i, j - i));
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
    i = j;
  }
  return out;
}

namespace {

// Splits "a<sep>b<sep>c" where separators are ':' or unit letters; returns up to 3 parts.
// `letters` are the allowed unit letters in order (e.g. "hms" or "dms").
std::optional<double> parse_sexagesimal(std::string_view s, std::string_view letters,
                                        bool* matched) {
  *matched = false;
  s = trim(s);
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  std::vector<std::string_view> parts;
  bool colon_form = s.find(':') != std::string_view::npos;
  bool letter_form = false;
  for (char c : s)
    if (letters.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c)))) !=
        std::string_view::npos)
      letter_form = true;
  // Dotted form "dd.mm.ss" (Dec only): two or more dots.
  const auto dots = static_cast<int>(std::count(s.begin(), s.end(), '.'));
  const bool dotted_form = letters == "dms" && !colon_form && !letter_form && dots >= 2;
  if (!colon_form && !letter_form && !dotted_form) return std::nullopt;
  *matched = true;
  if (colon_form) {
    std::size_t start = 0;
    for (std::size_t k = 0; k <= s.size(); ++k)
      if (k == s.size() || s[k] == ':') {
        parts.push_back(s.substr(start, k - start));
        start = k + 1;
      }
  } else if (letter_form) {
    std::size_t start = 0;
    std::size_t next_letter = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      const char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(s[k])));
      const auto pos = letters.find(lc);
      if (pos != std::string_view::npos) {
        if (pos < next_letter) return std::nullopt;  // letters out of order
        while (parts.size() < pos) parts.push_back("0");
        parts.push_back(s.substr(start, k - start));
        next_letter = pos + 1;
        start = k + 1;
      }
    }
    if (start < s.size()) {
      if (parts.size() >= 3) return std::nullopt;
      parts.push_back(s.substr(start));
    }
  } else {
    // dd.mm.ss[.fff]: first two dots separate fields.
    const auto d1 = s.find('.');
    const auto d2 = s.find('.', d1 + 1);
    parts = {s.substr(0, d1), s.substr(d1 + 1, d2 - d1 - 1), s.substr(d2 + 1)};
  }
  if (parts.empty() || parts.size() > 3) return std::nullopt;
  double values[3] = {0, 0, 0};
  for (std::size_t k = 0; k < parts.size(); ++k) {
    auto v = parse_number(parts[k]);
    if (!v || *v < 0) return std::nullopt;
    values[k] = *v;
  }
  if (values[1] >= 60.0 || values[2] >= 60.0) return std::nullopt;
  const double total = values[0] + values[1] / 60.0 + values[2] / 3600.0;
  return negative ? -total : total;
}

// Decimal number with an optional "deg"/"d"/"rad" suffix.
std::optional<double> parse_decimal_angle(std::string_view s, bool default_degrees) {
  s = trim(s);
  bool degrees = default_degrees;
  if (s.size() > 3 && istarts_with(s.substr(s.size() - 3), "deg")) {
    degrees = true;
    s.remove_suffix(3);
  } else if (s.size() > 3 && istarts_with(s.substr(s.size() - 3), "rad")) {
    degrees = false;
    s.remove_suffix(3);
  }
  auto v = parse_number(s);
  if (!v) return std::nullopt;
  return degrees ? *v * kDegToRad : *v;
}

}  // namespace

static bool has_unit_suffix(std::string_view s) {
  s = trim(s);
  return s.size() > 3 && (istarts_with(s.substr(s.size() - 3), "deg") ||
                          istarts_with(s.substr(s.size() - 3), "rad"));
}

std::optional<double> parse_ra(std::string_view s, bool default_degrees) {
  if (has_unit_suffix(s)) return parse_decimal_angle(s, default_degrees);
  bool matched = false;
  auto hours = parse_sexagesimal(s, "hms", &matched);
  if (matched) {
    if (!hours || std::fabs(*hours) > 24.0) return std::nullopt;
    return *hours * 15.0 * kDegToRad;
  }
  return parse_decimal_angle(s, default_degrees);
}

std::optional<double> parse_dec(std::string_view s, bool default_degrees) {
  bool matched = false;
  std::optional<double> deg;
  if (!has_unit_suffix(s)) deg = parse_sexagesimal(s, "dms", &matched);
  std::optional<double> rad;
  if (matched) {
    if (!deg) return std::nullopt;
    rad = *deg * kDegToRad;
  } else {
    rad = parse_decimal_angle(s, default_degrees);
  }
  if (!rad || std::fabs(*rad) > kPi / 2 + 1e-12) return std::nullopt;
  return rad;
}

}  // namespace fringe::sky::text
