#include "fringe/io/ms/ms_column_writer.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Slicer.h>
#include <casacore/tables/DataMan/TiledColumnStMan.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableDesc.h>
#include <casacore/tables/Tables/TableRecord.h>

#include <algorithm>

#include "fringe/core/error.h"
#include "fringe/io/ms/ms_column_detail.h"
#include "fringe/io/ms/write_error.h"

namespace fringe::io {

namespace detail {

void add_visibility_column(casacore::Table& main, const std::string& column, int npol, int nchan) {
  if (main.tableDesc().isColumn(column)) return;
  casacore::ArrayColumnDesc<casacore::Complex> desc(column, "visibilities (fringe)",
                                                    casacore::IPosition(2, npol, nchan),
                                                    casacore::ColumnDesc::FixedShape);
  desc.rwKeywordSet().define("UNIT", "Jy");
  // Tiles of about 1 MiB, whole rows (as DATA's in ms_tables.cpp).
  const std::size_t bytes_per_row = std::size_t(npol) * std::size_t(nchan) * 8;
  const ssize_t rows = static_cast<ssize_t>(std::max<std::size_t>(
      1, std::min<std::size_t>(65536, (std::size_t(1) << 20) / bytes_per_row)));
  casacore::TiledColumnStMan tiled("Tiled" + column, casacore::IPosition(3, npol, nchan, rows));
  main.addColumn(desc, tiled);
}

}  // namespace detail

namespace {
Error column_error(const std::string& path, const std::string& what) {
  return Error::in_file(path, 0, what);
}
}  // namespace

struct MsColumnWriter::Impl {
  std::string path;
  std::string column;
  casacore::Table table;
  int npol = 0;
  int nchan = 0;
  bool added = false;  // this writer added `column` (it was not in the MS before)

  // After a failed write or flush (disk full, file-size limit): a column this writer added
  // is removed again, with its storage files, so that the input MS reads as before (a
  // half-written new column leaves table.dat naming a data file that was never written, and
  // the MS cannot be opened). Returns what was done, for the message. Never throws.
  std::string undo() noexcept {
    if (!added) return "";
    try {
      table.removeColumn(column);
      table.flush();
      added = false;
      return " (the new column " + column + " was removed; the Measurement Set is as before)";
    } catch (const std::exception& e) {
      return " (removing the new column " + column + " failed too: " + e.what() + ")";
    }
  }

  // Runs f (a write or a flush); a casacore failure undoes the added column and becomes a
  // fringe::Error "<what> failed: ..." naming the MS.
  template <typename F>
  void guarded(const std::string& what, F&& f) {
    try {
      f();
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      const std::string why = detail::write_failure_text(e.what());
      throw column_error(path, what + " failed: " + why + undo());
    }
  }
};

MsColumnWriter::MsColumnWriter(const std::string& path, const std::string& column)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = path;
  m.column = column;
  try {
    if (!casacore::Table::isReadable(path)) {
      throw column_error(path, "not a readable Measurement Set (casacore table)");
    }
    if (!casacore::Table::isWritable(path)) {
      throw column_error(path, "the Measurement Set is not writable");
    }
    m.table = casacore::Table(path, casacore::Table::Update);
    if (!m.table.tableDesc().isColumn("DATA")) {
      throw column_error(path, "the Measurement Set has no DATA column");
    }
    casacore::ArrayColumn<casacore::Complex> data(m.table, "DATA");
    if (m.table.nrow() == 0) throw column_error(path, "the Measurement Set has no rows");
    const casacore::IPosition shape = data.shape(0);
    m.npol = int(shape(0));
    m.nchan = int(shape(1));
    m.added = !m.table.tableDesc().isColumn(column);
    detail::add_visibility_column(m.table, column, m.npol, m.nchan);
    // Flushed at once: table.dat then names the new column's storage files, so a process
    // killed (SIGKILL) before its first flush leaves no orphan files beside a readable MS.
    if (m.added) m.guarded("adding " + column, [&] { m.table.flush(); });
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw column_error(path, "cannot open for writing column " + column + ": " + e.what());
  }
}

MsColumnWriter::~MsColumnWriter() {
  if (impl_) {
    try {
      impl_->table.flush();
    } catch (...) {
      impl_->undo();
    }
  }
}
MsColumnWriter::MsColumnWriter(MsColumnWriter&&) noexcept = default;
MsColumnWriter& MsColumnWriter::operator=(MsColumnWriter&&) noexcept = default;

std::size_t MsColumnWriter::num_rows() const { return impl_->table.nrow(); }
int MsColumnWriter::num_channels() const { return impl_->nchan; }
int MsColumnWriter::num_pols() const { return impl_->npol; }

namespace {
// Throws unless values fill rows [start_row, start_row + num_rows) of the table exactly.
void check_rows(const casacore::Table& table, const std::string& path, const std::string& column,
                int npol, int nchan, std::size_t start_row, std::size_t num_rows,
                std::size_t num_values) {
  const std::size_t expected = num_rows * std::size_t(nchan) * std::size_t(npol);
  if (num_values != expected) {
    throw column_error(path, column + ": " + std::to_string(num_values) + " values for " +
                                 std::to_string(num_rows) + " rows, expected " +
                                 std::to_string(expected));
  }
  if (start_row + num_rows > table.nrow()) {
    throw column_error(path, column + ": rows " + std::to_string(start_row) + ".." +
                                 std::to_string(start_row + num_rows) + " beyond the table's " +
                                 std::to_string(table.nrow()));
  }
}

// arr: (npol, nchan, num_rows), pol fastest, then channel, then row.
template <typename Out>
void put_array(casacore::Table& table, const std::string& column, std::size_t start_row,
               std::size_t num_rows, const casacore::Array<Out>& arr) {
  casacore::ArrayColumn<Out> col(table, column);
  col.putColumnRange(casacore::Slicer(casacore::IPosition(1, ssize_t(start_row)),
                                      casacore::IPosition(1, ssize_t(num_rows))),
                     arr);
}
}  // namespace

void MsColumnWriter::write(std::size_t start_row, std::size_t num_rows,
                           const std::vector<Complex<float>>& values) {
  Impl& m = *impl_;
  check_rows(m.table, m.path, m.column, m.npol, m.nchan, start_row, num_rows, values.size());
  if (num_rows == 0) return;
  // casacore reads the values where they are (an Array sharing their storage; putColumnRange
  // does not write to it): no temporary copy of the block.
  static_assert(sizeof(Complex<float>) == sizeof(casacore::Complex) &&
                alignof(Complex<float>) <= alignof(casacore::Complex));
  auto* shared =
      const_cast<casacore::Complex*>(reinterpret_cast<const casacore::Complex*>(values.data()));
  const casacore::Array<casacore::Complex> arr(
      casacore::IPosition(3, m.npol, m.nchan, ssize_t(num_rows)), shared, casacore::SHARE);
  m.guarded("writing " + m.column, [&] { put_array(m.table, m.column, start_row, num_rows, arr); });
}

void MsColumnWriter::write_flags(std::size_t start_row, std::size_t num_rows,
                                 const std::vector<std::uint8_t>& flags) {
  Impl& m = *impl_;
  check_rows(m.table, m.path, "FLAG", m.npol, m.nchan, start_row, num_rows, flags.size());
  if (num_rows == 0) return;
  casacore::Array<casacore::Bool> arr(casacore::IPosition(3, m.npol, m.nchan, ssize_t(num_rows)));
  casacore::Bool* d = arr.data();
  for (std::size_t i = 0; i < flags.size(); ++i) d[i] = flags[i] != 0;
  m.guarded("writing FLAG", [&] { put_array(m.table, "FLAG", start_row, num_rows, arr); });
}

void MsColumnWriter::flush() {
  impl_->guarded("flushing", [&] { impl_->table.flush(); });
}

}  // namespace fringe::io
