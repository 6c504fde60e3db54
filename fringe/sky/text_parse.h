// Small text helpers shared by the sky-model readers: trimming, case-insensitive prefixes,
// strict number parsing (the whole token must be a finite number), field splitting for the
// named-column format, and angle strings (decimal with optional deg/rad suffix, or
// sexagesimal: RA "hh:mm:ss.s" / "12h34m56.7s", Dec "dd:mm:ss", "dd.mm.ss", "12d34m56s").
// Angles are returned in radians.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fringe::sky::text {

std::string_view trim(std::string_view s);
std::string to_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view s, std::string_view prefix);

// Whole token as a finite double (leading '+' allowed); nullopt otherwise.
std::optional<double> parse_number(std::string_view token);

// Splits a data row of the named-column format: fields are separated by commas (with optional
// surrounding whitespace) or by runs of whitespace; brackets [..] / (..) and quotes group a
// field. Two commas with nothing between give an empty field (= column default). Quotes
// around a field are removed.
std::vector<std::string> split_fields(std::string_view line);

// "[1, 2, 3]" or "(1 2 3)" or a single value "4" -> numbers. Empty elements are skipped.
// Returns nullopt if an element is not a number or a bracket is unbalanced.
std::optional<std::vector<double>> parse_vector(std::string_view field);

// Angle strings. `default_degrees` selects the unit of a bare decimal number.
// RA sexagesimal is in hours; Dec sexagesimal in degrees. nullopt if malformed or out of
// range (|Dec| > 90 deg, minutes or seconds >= 60).
std::optional<double> parse_ra(std::string_view s, bool default_degrees);
std::optional<double> parse_dec(std::string_view s, bool default_degrees);

}  // namespace fringe::sky::text
