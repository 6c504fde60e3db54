// Every cell of a Measurement Set subtable as plain values, for comparing the metadata of two
// Measurement Sets column by column (tests/unit/io/ms_metadata_compare.cpp; docs/ms_output.md).
// Meant for the small subtables (OBSERVATION, FIELD, HISTORY, FEED, ...): everything is read
// into memory. Numbers keep their values (Bool as 0/1, complex as re, im pairs); strings as
// written (trailing spaces kept).
// casacore-free header, C++17.
#pragma once

#include <string>
#include <vector>

namespace fringe::io {

struct TableCell {
  bool defined = false;
  std::vector<long> shape;           // array cells: casacore's shape; scalar cells: empty
  std::vector<double> numbers;       // numeric and Bool cells, in casacore's storage order
  std::vector<std::string> strings;  // String cells
};

struct TableColumnCells {
  std::string name;
  std::string data_type;         // casacore's name of the type ("double", "String", "Int", ...)
  std::string measure_type;      // MEASINFO type ("epoch", "direction", ...), "" if none
  std::string measure_ref;       // MEASINFO Ref ("UTC", "J2000", "ITRF", ...), "" if none
  std::vector<TableCell> cells;  // one per row
};

// The columns of subtable `subtable` of the MS at ms_path, sorted by name, with every cell.
// Throws fringe::Error naming the path when the MS or the subtable cannot be read.
std::vector<TableColumnCells> read_subtable_cells(const std::string& ms_path,
                                                  const std::string& subtable);

}  // namespace fringe::io
