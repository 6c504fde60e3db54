// Reading the small text tables of a telescope model (.tm) directory.
// OSKAR's rules: fields are separated by spaces, tabs or commas (runs of separators count as
// one), '#' starts a comment that runs to the end of the line, blank lines are skipped.
// A UTF-8 byte-order mark at the start of a file is skipped (editors on Windows write one).
// Every value is checked: a field that is not a number, or whose magnitude exceeds
// kMaxTextValue, raises fringe::Error naming the file, the line and the column. No units
// here: callers convert (degrees -> radians etc.) and check their own ranges (check_range).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace fringe::telescope {

// No quantity in a telescope model comes near this magnitude (positions are < 1e8 m, gains
// ~1, frequencies < 1e12 Hz); larger finite values (1e308) would only turn into Inf or NaN
// later in products, so they are refused where they are read.
constexpr double kMaxTextValue = 1e30;

// One data line: its 1-based line number in the file and its fields as written.
struct TextRow {
  long line = 0;
  std::vector<std::string> fields;
};

// All data lines of a file (comments and blank lines removed). Throws fringe::Error if the
// file cannot be opened.
std::vector<TextRow> read_text_rows(const std::filesystem::path& file);

// The row's fields as numbers. The row must have between min_columns and max_columns fields;
// missing trailing columns are filled from `defaults` (defaults.size() == max_columns, the
// first min_columns entries unused). `what` describes the columns for error messages,
// e.g. "E N [U [dE dN dU]] in metres".
std::vector<double> parse_row(const std::filesystem::path& file, const TextRow& row,
                              std::size_t min_columns, const std::vector<double>& defaults,
                              const std::string& what);

// A whole file of rows with 1..max columns, as numbers (see parse_row).
std::vector<std::vector<double>> read_number_table(const std::filesystem::path& file,
                                                   std::size_t min_columns,
                                                   const std::vector<double>& defaults,
                                                   const std::string& what);

// A file of one integer per line (e.g. station_type_map.txt, element_types.txt). If `lines`
// is given it receives the 1-based line number of each value.
std::vector<int> read_int_column(const std::filesystem::path& file, const std::string& what,
                                 std::vector<long>* lines = nullptr);

// Parses one field as a finite double with |value| <= kMaxTextValue; throws fringe::Error
// (file, line, column) otherwise.
double parse_number(const std::filesystem::path& file, long line, std::size_t column,
                    const std::string& field);

// Throws fringe::Error (file, line) unless lo <= value <= hi: "<what> <field> is outside
// [lo, hi] <unit> (column n)", e.g. what = "latitude", unit = "degrees".
void check_range(const std::filesystem::path& file, const TextRow& row, std::size_t column,
                 double value, double lo, double hi, const std::string& what,
                 const std::string& unit);

}  // namespace fringe::telescope
