#include "fringe/core/precision.h"

#include <algorithm>
#include <cctype>

namespace fringe {

Precision parse_precision(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "single" || lower == "float") return Precision::Single;
  if (lower == "double") return Precision::Double;
  throw Error("unknown precision '" + std::string(text) + "'; expected 'single' or 'double'");
}

std::string_view to_string(Precision precision) {
  return precision == Precision::Single ? "single" : "double";
}

}  // namespace fringe
