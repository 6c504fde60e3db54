// MsReader: reads the main columns of a Measurement Set (TIME, ANTENNA1/2, UVW, DATA or
// another complex column, FLAG, WEIGHT, INTERVAL, EXPOSURE) by row ranges, and the
// metadata later stages need (SPECTRAL_WINDOW frequencies, POLARIZATION CORR_TYPE, ANTENNA
// names and ITRF positions, FIELD phase centre, OBSERVATION telescope name, PHASED_ARRAY rows)
// and the column layout of any subtable.
// Units: metres, radians, Hz, seconds (TIME: MJD(UTC) * 86400). Array results are flat,
// row-major: data [row][channel][pol], flags likewise, weights [row][pol], UVW [row][3].
// Errors (not an MS, missing column, rows out of range) throw fringe::Error naming the path.
// casacore-free header, C++17.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::io {

// False when the environment has FRINGE_MS_IO_THREADS=1: then callers keep every column
// access of a Measurement Set on one thread (for A/B timing).
bool concurrent_column_access();

// One row of the PHASED_ARRAY subtable (OSKAR 2.13 / EveryBeam layout; docs/ms_output.md).
struct PhasedArrayRow {
  int antenna_id = 0;
  std::array<double, 3> position_ecef_m{};  // ITRF, m
  // COORDINATE_AXES column j (casacore axes(0..2, j)) = the station's p, q, r unit vector.
  std::array<std::array<double, 3>, 3> axes{};
  std::vector<std::array<double, 3>> element_offset_ecef_m;  // ITRF offsets from position
  int flag_receptors = 0;          // first axis of ELEMENT_FLAG (2, or 1 for one product)
  std::size_t num_flagged = 0;     // true entries of ELEMENT_FLAG
  std::size_t num_flag_cells = 0;  // entries of ELEMENT_FLAG
};

// A column of a (sub)table as casacore describes it, for comparing layouts with OSKAR's.
struct ColumnLayout {
  std::string name;
  std::string data_type;  // casacore's name of the type: "Int", "double", "Bool", ...
  bool is_array = false;
  int ndim = 0;             // -1: any number of dimensions
  std::vector<long> shape;  // fixed shape, empty if none
  std::string comment;
  std::vector<std::string> keywords;  // names of the column keywords (QuantumUnits, MEASINFO)
  std::vector<std::string> units;     // QuantumUnits, if any
};

class MsReader {
 public:
  static constexpr std::size_t kAllRows = std::numeric_limits<std::size_t>::max();

  // How the MS is opened.
  enum class Access {
    Shared,     // read-only, no read lock: other processes may write to it meanwhile
    Exclusive,  // read-only, locked until the reader closes (casacore PermanentLocking)
    // The same, open for writing: an MsColumnWriter of the same MS in this process shares the
    // open table and its lock.
    ExclusiveUpdate,
  };
  explicit MsReader(const std::string& path, Access access = Access::Shared);
  ~MsReader();
  MsReader(MsReader&&) noexcept;
  MsReader& operator=(MsReader&&) noexcept;
  MsReader(const MsReader&) = delete;
  MsReader& operator=(const MsReader&) = delete;

  const std::string& path() const;
  std::size_t num_rows() const;
  int num_stations() const;                        // ANTENNA rows
  int num_channels() const;                        // SPECTRAL_WINDOW row 0 NUM_CHAN
  int num_pols() const;                            // POLARIZATION row 0 NUM_CORR
  bool has_column(const std::string& name) const;  // in the main table
  // An identifier of the storage manager that holds a main-table column. With Exclusive access,
  // columns of different storage managers may be read (or written through an MsColumnWriter of
  // this MS) on different threads at once, accesses of one storage manager one at a time
  // (fringe/io/ms/column_tasks.h says why).
  std::string storage_manager(const std::string& column) const;

  // Metadata.
  std::vector<double> channel_frequencies_hz(int spectral_window = 0) const;
  std::vector<double> channel_widths_hz(int spectral_window = 0) const;
  std::vector<int> corr_types() const;  // 9..12 = XX, XY, YX, YY
  std::vector<std::string> station_names() const;
  std::vector<std::array<double, 3>> station_positions_ecef_m() const;
  std::array<double, 2> phase_centre_rad() const;  // FIELD row 0 PHASE_DIR (RA, Dec)
  std::string telescope_name() const;
  // PHASED_ARRAY rows (empty if the subtable has none; throws if it is missing).
  std::vector<PhasedArrayRow> phased_array() const;
  // The columns of the main table ("") or of a subtable ("PHASED_ARRAY"), sorted by name.
  std::vector<ColumnLayout> column_layout(const std::string& subtable) const;

  // Main-table columns for rows [start_row, start_row + num_rows) (kAllRows: to the end).
  std::vector<double> read_time(std::size_t start_row = 0, std::size_t num_rows = kAllRows) const;
  std::vector<double> read_interval(std::size_t start_row = 0,
                                    std::size_t num_rows = kAllRows) const;
  std::vector<double> read_exposure(std::size_t start_row = 0,
                                    std::size_t num_rows = kAllRows) const;
  std::vector<int> read_antenna1(std::size_t start_row = 0, std::size_t num_rows = kAllRows) const;
  std::vector<int> read_antenna2(std::size_t start_row = 0, std::size_t num_rows = kAllRows) const;
  std::vector<std::array<double, 3>> read_uvw(std::size_t start_row = 0,
                                              std::size_t num_rows = kAllRows) const;
  // A complex visibility column ("DATA", "MODEL_DATA", "CORRECTED_DATA", ...).
  std::vector<Complex<float>> read_data(std::size_t start_row = 0, std::size_t num_rows = kAllRows,
                                        const std::string& column = "DATA") const;
  // The same into out (resized; its capacity is reused, so a caller reading chunk after chunk
  // allocates once). Throws if the column's cells do not all have one shape.
  void read_data(std::size_t start_row, std::size_t num_rows, const std::string& column,
                 std::vector<Complex<float>>& out) const;
  std::vector<std::uint8_t> read_flag(std::size_t start_row = 0,
                                      std::size_t num_rows = kAllRows) const;  // 1 = flagged
  std::vector<float> read_weight(std::size_t start_row = 0, std::size_t num_rows = kAllRows) const;
  // The same columns into out (resized; capacity reused, casacore reading straight into it):
  // no allocation when a caller reads slice after slice of the same size.
  void read_time(std::size_t start, std::size_t num_rows, std::vector<double>& out) const;
  void read_antenna1(std::size_t start, std::size_t num_rows, std::vector<int>& out) const;
  void read_antenna2(std::size_t start, std::size_t num_rows, std::vector<int>& out) const;
  void read_uvw(std::size_t start, std::size_t num_rows,
                std::vector<std::array<double, 3>>& out) const;
  void read_flag(std::size_t start, std::size_t num_rows, std::vector<std::uint8_t>& out) const;
  void read_weight(std::size_t start, std::size_t num_rows, std::vector<float>& out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::io
