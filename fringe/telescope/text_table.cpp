#include "fringe/telescope/text_table.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>

#include "fringe/core/error.h"

namespace fringe::telescope {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

std::string format_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool is_separator(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\v'; }

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  const std::size_t end = line.find('#');
  const std::size_t n = end == std::string::npos ? line.size() : end;
  while (i < n) {
    while (i < n && is_separator(line[i])) ++i;
    std::size_t j = i;
    while (j < n && !is_separator(line[j])) ++j;
    if (j > i) fields.emplace_back(line.substr(i, j - i));
    i = j;
  }
  return fields;
}

Error file_error(const std::filesystem::path& file, long line, std::size_t column,
                 const std::string& message) {
  ErrorContext c;
  c.file = file.string();
  c.line = line;
  c.column = static_cast<long>(column);
  return Error(message, std::move(c));
}

std::string ordinal_column(std::size_t column) { return "column " + std::to_string(column); }

}  // namespace

std::vector<TextRow> read_text_rows(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw Error::in_file(file.string(), 0, "cannot open file for reading");
  std::vector<TextRow> rows;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1 && line.rfind(kUtf8Bom, 0) == 0) line.erase(0, kUtf8Bom.size());
    auto fields = split_fields(line);
    if (fields.empty()) continue;
    rows.push_back({number, std::move(fields)});
  }
  if (in.bad()) throw Error::in_file(file.string(), number, "read error");
  return rows;
}

double parse_number(const std::filesystem::path& file, long line, std::size_t column,
                    const std::string& field) {
  const char* first = field.data();
  const char* last = field.data() + field.size();
  if (first != last && *first == '+') ++first;  // from_chars does not take a leading '+'
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last || first == last || !std::isfinite(value)) {
    throw file_error(file, line, column,
                     ordinal_column(column) + ": expected a number, found '" + field + "'");
  }
  if (std::fabs(value) > kMaxTextValue) {
    throw file_error(file, line, column,
                     ordinal_column(column) + ": " + field + " is out of range (|value| <= " +
                         format_value(kMaxTextValue) + " expected)");
  }
  return value;
}

std::vector<double> parse_row(const std::filesystem::path& file, const TextRow& row,
                              std::size_t min_columns, const std::vector<double>& defaults,
                              const std::string& what) {
  const std::size_t max_columns = defaults.size();
  const std::size_t n = row.fields.size();
  if (n < min_columns || n > max_columns) {
    std::ostringstream msg;
    msg << "expected ";
    if (min_columns == max_columns)
      msg << min_columns;
    else
      msg << min_columns << " to " << max_columns;
    msg << (max_columns == 1 ? " column" : " columns") << " (" << what << "), found " << n;
    throw Error::in_file(file.string(), row.line, msg.str());
  }
  std::vector<double> values(defaults);
  for (std::size_t i = 0; i < n; ++i)
    values[i] = parse_number(file, row.line, i + 1, row.fields[i]);
  return values;
}

void check_range(const std::filesystem::path& file, const TextRow& row, std::size_t column,
                 double value, double lo, double hi, const std::string& what,
                 const std::string& unit) {
  if (value >= lo && value <= hi) return;
  const std::string written =
      column >= 1 && column <= row.fields.size() ? row.fields[column - 1] : format_value(value);
  throw Error::in_file(file.string(), row.line,
                       what + " " + written + " is outside [" + format_value(lo) + ", " +
                           format_value(hi) + "]" + (unit.empty() ? "" : " " + unit) + " (" +
                           ordinal_column(column) + ")");
}

std::vector<std::vector<double>> read_number_table(const std::filesystem::path& file,
                                                   std::size_t min_columns,
                                                   const std::vector<double>& defaults,
                                                   const std::string& what) {
  std::vector<std::vector<double>> table;
  for (const auto& row : read_text_rows(file))
    table.push_back(parse_row(file, row, min_columns, defaults, what));
  return table;
}

std::vector<int> read_int_column(const std::filesystem::path& file, const std::string& what,
                                 std::vector<long>* lines) {
  std::vector<int> values;
  if (lines) lines->clear();
  for (const auto& row : read_text_rows(file)) {
    if (row.fields.size() != 1) {
      throw Error::in_file(
          file.string(), row.line,
          "expected 1 column (" + what + "), found " + std::to_string(row.fields.size()));
    }
    const std::string& f = row.fields[0];
    const char* first = f.data();
    const char* last = f.data() + f.size();
    if (first != last && *first == '+') ++first;
    int value = 0;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last || first == last) {
      throw Error::in_file(file.string(), row.line,
                           "column 1: expected an integer, found '" + f + "'");
    }
    values.push_back(value);
    if (lines) lines->push_back(row.line);
  }
  return values;
}

}  // namespace fringe::telescope
