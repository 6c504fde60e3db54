// imager_ms_poke: a test helper that writes hostile values into one row (or every row) of a
// Measurement Set, for the imager's safety tests (docs/reliability/imager.md): values our own
// writers never produce.
//   imager_ms_poke MS COLUMN ROW VALUE
// COLUMN: DATA (every correlation and channel of the row), UVW (all three), TIME, WEIGHT
// (every correlation), FLAG (VALUE 0 or 1, every correlation and channel), FLAG_CHANNEL
// (flags channel VALUE, every correlation). ROW: a row number
// or "all". VALUE: a number, nan, inf, -inf. Exit 0 on success, 1 with a message otherwise.
// C++17 (casacore headers).
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/BasicSL/Complex.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: imager_ms_poke MS COLUMN ROW VALUE (COLUMN: DATA, UVW, TIME, WEIGHT, "
                 "FLAG; ROW: a number or all)\n";
    return 1;
  }
  const std::string path = argv[1], column = argv[2], row = argv[3];
  const double value = std::strtod(argv[4], nullptr);
  try {
    casacore::Table table(path, casacore::Table::Update);
    casacore::rownr_t r0 = 0, r1 = table.nrow();
    if (row != "all") {
      r0 = std::stoul(row);
      r1 = r0 + 1;
      if (r0 >= table.nrow()) {
        std::cerr << "imager_ms_poke: " << path << " has " << table.nrow() << " rows\n";
        return 1;
      }
    }
    for (casacore::rownr_t r = r0; r < r1; ++r) {
      if (column == "TIME") {
        casacore::ScalarColumn<casacore::Double>(table, column).put(r, value);
      } else if (column == "UVW") {
        casacore::ArrayColumn<casacore::Double> col(table, column);
        casacore::Array<casacore::Double> a = col(r);
        a = value;
        col.put(r, a);
      } else if (column == "WEIGHT") {
        casacore::ArrayColumn<casacore::Float> col(table, column);
        casacore::Array<casacore::Float> a = col(r);
        a = casacore::Float(value);
        col.put(r, a);
      } else if (column == "DATA") {
        casacore::ArrayColumn<casacore::Complex> col(table, column);
        casacore::Array<casacore::Complex> a = col(r);
        a = casacore::Complex(float(value), 0.0f);
        col.put(r, a);
      } else if (column == "FLAG_CHANNEL") {  // VALUE: the channel flagged (every correlation)
        casacore::ArrayColumn<casacore::Bool> col(table, "FLAG");
        casacore::Array<casacore::Bool> a = col(r);
        const long ch = static_cast<long>(value);
        if (ch < 0 || ch >= a.shape()[1]) {
          std::cerr << "imager_ms_poke: no channel " << ch << "\n";
          return 1;
        }
        for (long p = 0; p < a.shape()[0]; ++p) a(casacore::IPosition(2, p, ch)) = true;
        col.put(r, a);
      } else if (column == "FLAG") {
        casacore::ArrayColumn<casacore::Bool> col(table, column);
        casacore::Array<casacore::Bool> a = col(r);
        a = value != 0;
        col.put(r, a);
      } else {
        std::cerr << "imager_ms_poke: unknown column " << column << "\n";
        return 1;
      }
    }
    table.flush();
  } catch (const std::exception& e) {
    std::cerr << "imager_ms_poke: " << path << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
