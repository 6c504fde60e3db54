// cal_ms_poke: a test helper for calibrate's safety tests (test_calibrate_safety.cpp,
// tests/integration/safety_calibrate.cmake), with casacore itself as the reader.
//   cal_ms_poke MS COLUMN VALUE   sets TIME or WEIGHT of every row to VALUE (nan, -1, ...):
//                                 hostile input our own writers never produce.
//   cal_ms_poke MS check          opens the MS and every subtable, reads DATA, FLAG, WEIGHT
//                                 and CORRECTED_DATA (when present) of every row, and finds
//                                 no orphan storage file (a table.f<N>* whose N is no data
//                                 manager of table.dat, as a half-added column would leave).
//                                 Prints "readable: <rows> rows, <n> flagged samples,
//                                 CORRECTED_DATA <yes|no>".
// Exit 0 on success, 1 with a message otherwise. C++17 (casacore headers).
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/ArrayMath.h>
#include <casacore/casa/Containers/Record.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableRecord.h>

#include <cctype>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

namespace {

int poke(const std::string& path, const std::string& column, double value) {
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
  return 0;
}

int check(const std::string& path) {
  const casacore::Table table(path);
  // Storage files: table.f<seqnr> and table.f<seqnr>_TSM<k> of the data managers.
  std::set<unsigned> seqnrs;
  const casacore::Record dms = table.dataManagerInfo();
  for (casacore::uInt i = 0; i < dms.nfields(); ++i) {
    seqnrs.insert(dms.subRecord(i).asuInt("SEQNR"));
  }
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("table.f", 0) != 0 || name.size() < 8 || !std::isdigit(name[7])) continue;
    const unsigned n = unsigned(std::strtoul(name.c_str() + 7, nullptr, 10));
    if (!seqnrs.count(n)) {
      std::cerr << "cal_ms_poke: " << path << ": orphan storage file " << name << "\n";
      return 1;
    }
  }
  for (const std::string sub : {"ANTENNA", "SPECTRAL_WINDOW", "POLARIZATION", "FIELD"}) {
    const casacore::Table t = table.keywordSet().asTable(sub);
    (void)t.nrow();
  }
  casacore::ArrayColumn<casacore::Complex> data(table, "DATA");
  (void)data.getColumn();
  casacore::ArrayColumn<casacore::Float> weight(table, "WEIGHT");
  (void)weight.getColumn();
  casacore::ArrayColumn<casacore::Bool> flag(table, "FLAG");
  const std::size_t flagged = casacore::ntrue(flag.getColumn());
  const bool corrected = table.tableDesc().isColumn("CORRECTED_DATA");
  if (corrected) {
    casacore::ArrayColumn<casacore::Complex> c(table, "CORRECTED_DATA");
    (void)c.getColumn();
  }
  std::cout << "readable: " << table.nrow() << " rows, " << flagged
            << " flagged samples, CORRECTED_DATA " << (corrected ? "yes" : "no") << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage = "usage: cal_ms_poke MS {TIME|WEIGHT} VALUE | cal_ms_poke MS check\n";
  if (argc < 3) {
    std::cerr << usage;
    return 1;
  }
  const std::string path = argv[1], what = argv[2];
  try {
    if (what == "check" && argc == 3) return check(path);
    if (argc == 4) return poke(path, what, std::strtod(argv[3], nullptr));
    std::cerr << usage;
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "cal_ms_poke: " << path << ": " << e.what() << "\n";
    return 1;
  }
}
