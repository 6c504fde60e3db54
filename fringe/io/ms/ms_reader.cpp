#include "fringe/io/ms/ms_reader.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Slicer.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Containers/Record.h>
#include <casacore/casa/Utilities/ValType.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ColumnDesc.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableDesc.h>
#include <casacore/tables/Tables/TableRecord.h>

#include <algorithm>

#include "fringe/core/error.h"
#include "fringe/io/ms/column_tasks.h"

namespace fringe::io {

bool concurrent_column_access() { return detail::column_tasks_parallel(); }

using casacore::IPosition;
using casacore::Slicer;
using casacore::Table;

struct MsReader::Impl {
  std::string path;
  Table main;

  Error error(const std::string& message) const { return Error::in_file(path, 0, message); }

  Table subtable(const std::string& name) const {
    if (!main.keywordSet().isDefined(name)) throw error("no " + name + " subtable");
    return main.keywordSet().asTable(name);
  }

  // Clamps a row range and returns the casacore row slicer.
  Slicer rows(std::size_t start, std::size_t& count) const {
    const std::size_t n = main.nrow();
    if (start > n) {
      throw error("row " + std::to_string(start) + " is past the end (" + std::to_string(n) +
                  " rows)");
    }
    if (count == kAllRows) count = n - start;
    if (count > n - start) {
      throw error("rows " + std::to_string(start) + ".." + std::to_string(start + count - 1) +
                  " are past the end (" + std::to_string(n) + " rows)");
    }
    return Slicer(IPosition(1, static_cast<ssize_t>(start)),
                  IPosition(1, static_cast<ssize_t>(count)));
  }

  std::vector<double> spw_vector(const char* column, int spw) const {
    const Table t = subtable("SPECTRAL_WINDOW");
    if (spw < 0 || static_cast<std::size_t>(spw) >= t.nrow()) {
      throw error("no spectral window " + std::to_string(spw));
    }
    const casacore::Vector<casacore::Double> v =
        casacore::ArrayColumn<casacore::Double>(t, column)(spw);
    return std::vector<double>(v.begin(), v.end());
  }

  void require_column(const std::string& name) const {
    if (!main.tableDesc().isColumn(name)) throw error("no column " + name + " in the main table");
  }

  template <typename T>
  std::vector<T> scalar(const std::string& column, std::size_t start, std::size_t count) const {
    require_column(column);
    try {
      const Slicer s = rows(start, count);
      std::vector<T> out(count);
      if (count == 0) return out;
      casacore::ScalarColumn<T> col(main, column);
      const casacore::Vector<T> v = col.getColumnRange(s);
      std::copy(v.begin(), v.end(), out.begin());
      return out;
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw error("reading column " + column + " failed: " + e.what());
    }
  }

  // Rows [start, start + count) of a column read straight into out's storage (resized; its
  // capacity is reused, so reading slice after slice allocates nothing): casacore fills an
  // Array sharing that storage. Out holds `per_out` values of T (UVW: 3 doubles per row), cells
  // of one shape (a scalar column: one value per row).
  template <typename T, typename Out>
  void into(const std::string& column, std::size_t start, std::size_t count, std::vector<Out>& out,
            std::size_t per_out = 1) const {
    static_assert(sizeof(Out) % sizeof(T) == 0 && alignof(Out) >= alignof(T));
    require_column(column);
    try {
      const Slicer s = rows(start, count);
      if (count == 0) {
        out.clear();
        return;
      }
      const bool scalar = main.tableDesc().columnDesc(column).isScalar();
      IPosition shape(1, static_cast<ssize_t>(count));
      if (!scalar) {
        const IPosition cell = casacore::ArrayColumn<T>(main, column).shape(start);
        shape = IPosition(cell.size() + 1);
        for (std::size_t i = 0; i < cell.size(); ++i) shape[i] = cell[i];
        shape[cell.size()] = static_cast<ssize_t>(count);
      }
      const std::size_t values = static_cast<std::size_t>(shape.product());
      if (values % per_out != 0) throw error("column " + column + " has cells of another shape");
      out.resize(values / per_out);
      if (scalar) {
        casacore::Vector<T> v(shape, reinterpret_cast<T*>(out.data()), casacore::SHARE);
        casacore::ScalarColumn<T>(main, column).getColumnRange(s, v, false);
      } else {
        casacore::Array<T> a(shape, reinterpret_cast<T*>(out.data()), casacore::SHARE);
        casacore::ArrayColumn<T>(main, column).getColumnRange(s, a, false);
      }
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw error("reading column " + column + " failed: " + e.what());
    }
  }

  template <typename T>
  casacore::Array<T> array(const std::string& column, std::size_t start, std::size_t& count) const {
    require_column(column);
    try {
      const Slicer s = rows(start, count);
      if (count == 0) return casacore::Array<T>();
      casacore::ArrayColumn<T> col(main, column);
      return col.getColumnRange(s);
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw error("reading column " + column + " failed: " + e.what());
    }
  }
};

MsReader::MsReader(const std::string& path, Access access) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  try {
    if (!Table::isReadable(path)) throw impl_->error("not a readable casacore table");
    if (access == Access::Shared) {
      impl_->main = Table(path, casacore::TableLock(casacore::TableLock::AutoNoReadLocking));
    } else {
      if (access == Access::ExclusiveUpdate && !Table::isWritable(path)) {
        throw impl_->error("the Measurement Set is not writable");
      }
      impl_->main = Table(path, casacore::TableLock(casacore::TableLock::PermanentLocking),
                          access == Access::ExclusiveUpdate ? Table::Update : Table::Old);
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw impl_->error(std::string("cannot open Measurement Set") +
                       (access == Access::Shared ? "" : " (is another program using it?)") + ": " +
                       e.what());
  }
  for (const char* column : {"TIME", "ANTENNA1", "ANTENNA2", "UVW"}) {
    impl_->require_column(column);
  }
}

MsReader::~MsReader() = default;
MsReader::MsReader(MsReader&&) noexcept = default;
MsReader& MsReader::operator=(MsReader&&) noexcept = default;

const std::string& MsReader::path() const { return impl_->path; }
std::size_t MsReader::num_rows() const { return impl_->main.nrow(); }
bool MsReader::has_column(const std::string& name) const {
  return impl_->main.tableDesc().isColumn(name);
}

std::string MsReader::storage_manager(const std::string& column) const {
  impl_->require_column(column);
  // dataManagerInfo(): one record per storage manager with its NAME, TYPE and COLUMNS.
  const casacore::Record info = impl_->main.dataManagerInfo();
  for (casacore::uInt i = 0; i < info.nfields(); ++i) {
    const casacore::Record& dm = info.subRecord(i);
    const casacore::Vector<casacore::String> columns = dm.asArrayString("COLUMNS");
    if (std::find(columns.begin(), columns.end(), casacore::String(column)) != columns.end()) {
      return std::to_string(i) + ":" + std::string(dm.asString("TYPE")) + ":" +
             std::string(dm.asString("NAME"));
    }
  }
  throw impl_->error("no storage manager holds column " + column);
}

int MsReader::num_stations() const { return static_cast<int>(impl_->subtable("ANTENNA").nrow()); }

int MsReader::num_channels() const {
  const Table spw = impl_->subtable("SPECTRAL_WINDOW");
  if (spw.nrow() == 0) throw impl_->error("SPECTRAL_WINDOW has no rows");
  return casacore::ScalarColumn<casacore::Int>(spw, "NUM_CHAN")(0);
}

int MsReader::num_pols() const {
  const Table pol = impl_->subtable("POLARIZATION");
  if (pol.nrow() == 0) throw impl_->error("POLARIZATION has no rows");
  return casacore::ScalarColumn<casacore::Int>(pol, "NUM_CORR")(0);
}

std::vector<double> MsReader::channel_frequencies_hz(int spw) const {
  return impl_->spw_vector("CHAN_FREQ", spw);
}

std::vector<double> MsReader::channel_widths_hz(int spw) const {
  return impl_->spw_vector("CHAN_WIDTH", spw);
}

std::vector<int> MsReader::corr_types() const {
  const Table pol = impl_->subtable("POLARIZATION");
  if (pol.nrow() == 0) throw impl_->error("POLARIZATION has no rows");
  const casacore::Vector<casacore::Int> v =
      casacore::ArrayColumn<casacore::Int>(pol, "CORR_TYPE")(0);
  return std::vector<int>(v.begin(), v.end());
}

std::vector<std::string> MsReader::station_names() const {
  const Table ant = impl_->subtable("ANTENNA");
  casacore::ScalarColumn<casacore::String> col(ant, "NAME");
  std::vector<std::string> out;
  for (casacore::rownr_t i = 0; i < ant.nrow(); ++i) out.push_back(col(i));
  return out;
}

std::vector<std::array<double, 3>> MsReader::station_positions_ecef_m() const {
  const Table ant = impl_->subtable("ANTENNA");
  casacore::ArrayColumn<casacore::Double> col(ant, "POSITION");
  std::vector<std::array<double, 3>> out;
  for (casacore::rownr_t i = 0; i < ant.nrow(); ++i) {
    const casacore::Vector<casacore::Double> v = col(i);
    out.push_back({v(0), v(1), v(2)});
  }
  return out;
}

std::array<double, 2> MsReader::phase_centre_rad() const {
  const Table field = impl_->subtable("FIELD");
  if (field.nrow() == 0) throw impl_->error("FIELD has no rows");
  const casacore::Array<casacore::Double> dir =
      casacore::ArrayColumn<casacore::Double>(field, "PHASE_DIR")(0);
  if (dir.nelements() < 2) throw impl_->error("FIELD PHASE_DIR has fewer than 2 values");
  return {dir.data()[0], dir.data()[1]};
}

std::string MsReader::telescope_name() const {
  const Table obs = impl_->subtable("OBSERVATION");
  if (obs.nrow() == 0) return "";
  return casacore::ScalarColumn<casacore::String>(obs, "TELESCOPE_NAME")(0);
}

std::vector<PhasedArrayRow> MsReader::phased_array() const {
  const Table pa = impl_->subtable("PHASED_ARRAY");
  std::vector<PhasedArrayRow> out;
  try {
    casacore::ScalarColumn<casacore::Int> id(pa, "ANTENNA_ID");
    casacore::ArrayColumn<casacore::Double> position(pa, "POSITION");
    casacore::ArrayColumn<casacore::Double> axes(pa, "COORDINATE_AXES");
    casacore::ArrayColumn<casacore::Double> offset(pa, "ELEMENT_OFFSET");
    casacore::ArrayColumn<casacore::Bool> flag(pa, "ELEMENT_FLAG");
    for (casacore::rownr_t r = 0; r < pa.nrow(); ++r) {
      PhasedArrayRow row;
      row.antenna_id = id(r);
      const casacore::Array<casacore::Double> p = position(r);
      const casacore::Array<casacore::Double> a = axes(r);
      if (p.nelements() != 3 || a.shape() != IPosition(2, 3, 3)) {
        throw impl_->error("PHASED_ARRAY row " + std::to_string(r) +
                           ": expected POSITION [3] and COORDINATE_AXES [3, 3]");
      }
      for (int k = 0; k < 3; ++k) {
        row.position_ecef_m[k] = p(IPosition(1, k));
        for (int j = 0; j < 3; ++j) row.axes[j][k] = a(IPosition(2, k, j));
      }
      if (offset.isDefined(r)) {
        const casacore::Array<casacore::Double> o = offset(r);
        if (o.ndim() != 2 || o.shape()(0) != 3) {
          throw impl_->error("PHASED_ARRAY row " + std::to_string(r) +
                             ": expected ELEMENT_OFFSET [3, elements]");
        }
        for (ssize_t e = 0; e < o.shape()(1); ++e) {
          row.element_offset_ecef_m.push_back(
              {o(IPosition(2, 0, e)), o(IPosition(2, 1, e)), o(IPosition(2, 2, e))});
        }
      }
      if (flag.isDefined(r)) {
        const casacore::Array<casacore::Bool> f = flag(r);
        row.flag_receptors = f.ndim() > 0 ? static_cast<int>(f.shape()(0)) : 0;
        row.num_flag_cells = f.nelements();
        for (auto it = f.begin(); it != f.end(); ++it) row.num_flagged += *it ? 1 : 0;
      }
      out.push_back(std::move(row));
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw impl_->error(std::string("reading PHASED_ARRAY failed: ") + e.what());
  }
  return out;
}

std::vector<ColumnLayout> MsReader::column_layout(const std::string& subtable) const {
  const Table t = subtable.empty() ? impl_->main : impl_->subtable(subtable);
  const casacore::TableDesc& desc = t.tableDesc();
  std::vector<ColumnLayout> out;
  for (casacore::uInt c = 0; c < desc.ncolumn(); ++c) {
    const casacore::ColumnDesc& cd = desc.columnDesc(c);
    ColumnLayout col;
    col.name = cd.name();
    col.data_type = casacore::ValType::getTypeStr(cd.dataType());
    col.is_array = cd.isArray();
    col.ndim = cd.isArray() ? cd.ndim() : 0;
    if (cd.isFixedShape() || cd.shape().nelements() > 0) {
      for (std::size_t k = 0; k < cd.shape().nelements(); ++k) col.shape.push_back(cd.shape()(k));
    }
    col.comment = cd.comment();
    const casacore::TableRecord& kw = cd.keywordSet();
    for (casacore::uInt k = 0; k < kw.nfields(); ++k) col.keywords.push_back(kw.name(k));
    if (kw.isDefined("QuantumUnits")) {
      const casacore::Vector<casacore::String> units = kw.asArrayString("QuantumUnits");
      for (const auto& u : units) col.units.push_back(u);
    }
    std::sort(col.keywords.begin(), col.keywords.end());
    out.push_back(std::move(col));
  }
  std::sort(out.begin(), out.end(),
            [](const ColumnLayout& a, const ColumnLayout& b) { return a.name < b.name; });
  return out;
}

void MsReader::read_time(std::size_t start, std::size_t n, std::vector<double>& out) const {
  impl_->into<casacore::Double>("TIME", start, n, out);
}
void MsReader::read_antenna1(std::size_t start, std::size_t n, std::vector<int>& out) const {
  impl_->into<casacore::Int>("ANTENNA1", start, n, out);
}
void MsReader::read_antenna2(std::size_t start, std::size_t n, std::vector<int>& out) const {
  impl_->into<casacore::Int>("ANTENNA2", start, n, out);
}
void MsReader::read_uvw(std::size_t start, std::size_t n,
                        std::vector<std::array<double, 3>>& out) const {
  impl_->into<casacore::Double>("UVW", start, n, out, 3);
}
void MsReader::read_flag(std::size_t start, std::size_t n, std::vector<std::uint8_t>& out) const {
  static_assert(sizeof(casacore::Bool) == sizeof(std::uint8_t));  // casacore writes 0 or 1
  impl_->into<casacore::Bool>("FLAG", start, n, out);
}
void MsReader::read_weight(std::size_t start, std::size_t n, std::vector<float>& out) const {
  impl_->into<casacore::Float>("WEIGHT", start, n, out);
}

std::vector<double> MsReader::read_time(std::size_t start, std::size_t n) const {
  return impl_->scalar<casacore::Double>("TIME", start, n);
}
std::vector<double> MsReader::read_interval(std::size_t start, std::size_t n) const {
  return impl_->scalar<casacore::Double>("INTERVAL", start, n);
}
std::vector<double> MsReader::read_exposure(std::size_t start, std::size_t n) const {
  return impl_->scalar<casacore::Double>("EXPOSURE", start, n);
}
std::vector<int> MsReader::read_antenna1(std::size_t start, std::size_t n) const {
  return impl_->scalar<casacore::Int>("ANTENNA1", start, n);
}
std::vector<int> MsReader::read_antenna2(std::size_t start, std::size_t n) const {
  return impl_->scalar<casacore::Int>("ANTENNA2", start, n);
}

std::vector<std::array<double, 3>> MsReader::read_uvw(std::size_t start, std::size_t n) const {
  const casacore::Array<casacore::Double> a = impl_->array<casacore::Double>("UVW", start, n);
  std::vector<std::array<double, 3>> out(n);
  if (n == 0) return out;
  const casacore::Double* p = a.data();  // contiguous from getColumnRange, [row][3]
  for (std::size_t i = 0; i < n; ++i) out[i] = {p[3 * i], p[3 * i + 1], p[3 * i + 2]};
  return out;
}

std::vector<Complex<float>> MsReader::read_data(std::size_t start, std::size_t n,
                                                const std::string& column) const {
  std::vector<Complex<float>> out;
  read_data(start, n, column, out);
  return out;
}

void MsReader::read_data(std::size_t start, std::size_t n, const std::string& column,
                         std::vector<Complex<float>>& out) const {
  // casacore reads straight into out's storage (an Array sharing it): no temporary array and
  // no copy, and out's capacity is reused from one call to the next.
  static_assert(sizeof(Complex<float>) == sizeof(casacore::Complex) &&
                alignof(Complex<float>) <= alignof(casacore::Complex));
  impl_->require_column(column);
  try {
    std::size_t count = n;
    const Slicer s = impl_->rows(start, count);
    if (count == 0) {
      out.clear();
      return;
    }
    casacore::ArrayColumn<casacore::Complex> col(impl_->main, column);
    const IPosition cell = col.shape(start);  // (pols, channels): fixed over the column
    IPosition shape(cell.size() + 1);
    for (std::size_t i = 0; i < cell.size(); ++i) shape[i] = cell[i];
    shape[cell.size()] = static_cast<ssize_t>(count);
    out.resize(static_cast<std::size_t>(shape.product()));
    casacore::Array<casacore::Complex> a(shape, reinterpret_cast<casacore::Complex*>(out.data()),
                                         casacore::SHARE);
    col.getColumnRange(s, a, false);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw impl_->error("reading column " + column + " failed: " + e.what());
  }
}

std::vector<std::uint8_t> MsReader::read_flag(std::size_t start, std::size_t n) const {
  const casacore::Array<casacore::Bool> a = impl_->array<casacore::Bool>("FLAG", start, n);
  std::vector<std::uint8_t> out(a.nelements());
  std::size_t i = 0;
  for (const casacore::Bool f : a) out[i++] = f ? 1 : 0;
  return out;
}

std::vector<float> MsReader::read_weight(std::size_t start, std::size_t n) const {
  const casacore::Array<casacore::Float> a = impl_->array<casacore::Float>("WEIGHT", start, n);
  return std::vector<float>(a.begin(), a.end());
}

}  // namespace fringe::io
