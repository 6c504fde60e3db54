#include "fringe/io/ms/ms_cells.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Containers/Record.h>
#include <casacore/casa/Utilities/ValType.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ColumnDesc.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableColumn.h>
#include <casacore/tables/Tables/TableDesc.h>
#include <casacore/tables/Tables/TableRecord.h>

#include <algorithm>
#include <exception>

#include "fringe/core/error.h"

namespace fringe::io {

namespace {

using casacore::Table;

template <typename T>
void put_number(TableCell& cell, const T& v) {
  cell.numbers.push_back(static_cast<double>(v));
}
template <typename T>
void put_number(TableCell& cell, const std::complex<T>& v) {
  cell.numbers.push_back(static_cast<double>(v.real()));
  cell.numbers.push_back(static_cast<double>(v.imag()));
}

template <typename T>
void read_numbers(const Table& t, const casacore::ColumnDesc& cd, TableColumnCells& out) {
  const casacore::TableColumn any(t, cd.name());
  for (casacore::rownr_t r = 0; r < t.nrow(); ++r) {
    TableCell cell;
    cell.defined = any.isDefined(r);
    if (cell.defined) {
      if (cd.isArray()) {
        const casacore::Array<T> a = casacore::ArrayColumn<T>(t, cd.name()).get(r);
        for (std::size_t k = 0; k < a.shape().nelements(); ++k) cell.shape.push_back(a.shape()(k));
        for (const T& v : a) put_number(cell, v);
      } else {
        put_number(cell, casacore::ScalarColumn<T>(t, cd.name()).get(r));
      }
    }
    out.cells.push_back(std::move(cell));
  }
}

void read_strings(const Table& t, const casacore::ColumnDesc& cd, TableColumnCells& out) {
  const casacore::TableColumn any(t, cd.name());
  for (casacore::rownr_t r = 0; r < t.nrow(); ++r) {
    TableCell cell;
    cell.defined = any.isDefined(r);
    if (cell.defined) {
      if (cd.isArray()) {
        const casacore::Array<casacore::String> a =
            casacore::ArrayColumn<casacore::String>(t, cd.name()).get(r);
        for (std::size_t k = 0; k < a.shape().nelements(); ++k) cell.shape.push_back(a.shape()(k));
        for (const auto& v : a) cell.strings.push_back(v);
      } else {
        cell.strings.push_back(casacore::ScalarColumn<casacore::String>(t, cd.name()).get(r));
      }
    }
    out.cells.push_back(std::move(cell));
  }
}

}  // namespace

std::vector<TableColumnCells> read_subtable_cells(const std::string& ms_path,
                                                  const std::string& subtable) {
  std::vector<TableColumnCells> out;
  try {
    const Table main(ms_path, Table::Old);
    if (!main.keywordSet().isDefined(subtable))
      throw Error::in_file(ms_path, 0, "no " + subtable + " subtable");
    const Table t = main.keywordSet().asTable(subtable);
    const casacore::TableDesc& desc = t.tableDesc();
    for (casacore::uInt c = 0; c < desc.ncolumn(); ++c) {
      const casacore::ColumnDesc& cd = desc.columnDesc(c);
      TableColumnCells col;
      col.name = cd.name();
      col.data_type = casacore::ValType::getTypeStr(cd.dataType());
      const casacore::TableRecord& kw = cd.keywordSet();
      if (kw.isDefined("MEASINFO") && kw.dataType("MEASINFO") == casacore::TpRecord) {
        const casacore::TableRecord& m = kw.asRecord("MEASINFO");
        if (m.isDefined("type")) col.measure_type = m.asString("type");
        if (m.isDefined("Ref")) col.measure_ref = m.asString("Ref");
      }
      switch (cd.dataType()) {
        case casacore::TpBool:
          read_numbers<casacore::Bool>(t, cd, col);
          break;
        case casacore::TpInt:
          read_numbers<casacore::Int>(t, cd, col);
          break;
        case casacore::TpUInt:
          read_numbers<casacore::uInt>(t, cd, col);
          break;
        case casacore::TpInt64:
          read_numbers<casacore::Int64>(t, cd, col);
          break;
        case casacore::TpFloat:
          read_numbers<casacore::Float>(t, cd, col);
          break;
        case casacore::TpDouble:
          read_numbers<casacore::Double>(t, cd, col);
          break;
        case casacore::TpComplex:
          read_numbers<casacore::Complex>(t, cd, col);
          break;
        case casacore::TpDComplex:
          read_numbers<casacore::DComplex>(t, cd, col);
          break;
        case casacore::TpString:
          read_strings(t, cd, col);
          break;
        default:
          throw Error::in_file(
              ms_path, 0,
              subtable + "::" + col.name + ": unsupported column type " + col.data_type);
      }
      out.push_back(std::move(col));
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error::in_file(ms_path, 0, "cannot read the " + subtable + " subtable: " + e.what());
  }
  std::sort(out.begin(), out.end(),
            [](const TableColumnCells& a, const TableColumnCells& b) { return a.name < b.name; });
  return out;
}

}  // namespace fringe::io
