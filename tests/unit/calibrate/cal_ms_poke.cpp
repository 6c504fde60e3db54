// cal_ms_poke: a test helper that sets one main-table column of a Measurement Set to a value
// in every row, to make hostile inputs for calibrate's safety tests (NaN or negative WEIGHT,
// NaN TIME) that our own writers never produce.
//   cal_ms_poke MS COLUMN VALUE      (COLUMN: TIME or WEIGHT; VALUE: a number, nan, -1, ...)
// Exit 0 on success, 1 with a message otherwise. C++17 (casacore headers).
#include <casacore/casa/Arrays/Array.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: cal_ms_poke MS COLUMN VALUE (COLUMN: TIME or WEIGHT)\n";
    return 1;
  }
  const std::string path = argv[1], column = argv[2];
  const double value = std::strtod(argv[3], nullptr);
  try {
    casacore::Table table(path, casacore::Table::Update);
    if (column == "TIME") {
      casacore::ScalarColumn<casacore::Double> col(table, column);
      for (casacore::rownr_t r = 0; r < table.nrow(); ++r) col.put(r, value);
    } else if (column == "WEIGHT") {
      casacore::ArrayColumn<casacore::Float> col(table, column);
      for (casacore::rownr_t r = 0; r < table.nrow(); ++r) {
        casacore::Array<casacore::Float> w = col(r);
        w = casacore::Float(value);
        col.put(r, w);
      }
    } else {
      std::cerr << "cal_ms_poke: column must be TIME or WEIGHT, not " << column << "\n";
      return 1;
    }
    table.flush();
  } catch (const std::exception& e) {
    std::cerr << "cal_ms_poke: " << path << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
