// Small text helpers shared by the settings code (trimming, case, edit distance).
#pragma once

#include <string>
#include <string_view>

namespace fringe::settings {

std::string_view trim(std::string_view s);  // spaces, tabs, CR, LF at both ends
std::string to_upper(std::string_view s);
std::string to_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);  // ASCII case-insensitive
// Levenshtein distance (insert, delete, substitute), case-insensitive.
size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace fringe::settings
