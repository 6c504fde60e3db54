// MsColumnWriter: writes a complex visibility column (CORRECTED_DATA, MODEL_DATA, ...) and
// optionally FLAG into an existing Measurement Set, in place (as CASA and DP3 do: a column of
// an existing MS cannot be built under a temporary name). A missing column is added with
// DATA's shape [npol, nchan] as complex float, tiled like DATA (ms_tables.cpp), UNIT Jy.
// Values are flat [row][channel][pol], as MsReader::read_data returns them.
// Errors (not an MS, read-only, rows out of range, wrong sizes) throw fringe::Error naming
// the path. A write or flush that fails (disk full, file-size limit) is a fringe::Error too,
// never an abort; a column this writer added is then removed again with its files, so the
// MS opens and reads as before (issue 16). casacore-free header, C++17.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::io {

class MsColumnWriter {
 public:
  MsColumnWriter(const std::string& path, const std::string& column);
  ~MsColumnWriter();
  MsColumnWriter(MsColumnWriter&&) noexcept;
  MsColumnWriter& operator=(MsColumnWriter&&) noexcept;
  MsColumnWriter(const MsColumnWriter&) = delete;
  MsColumnWriter& operator=(const MsColumnWriter&) = delete;

  std::size_t num_rows() const;
  int num_channels() const;
  int num_pols() const;

  // Rows [start_row, start_row + num_rows), every channel: values.size() must be
  // num_rows * num_channels() * num_pols().
  void write(std::size_t start_row, std::size_t num_rows,
             const std::vector<Complex<float>>& values);
  // FLAG of the same rows (1 = flagged), same layout.
  void write_flags(std::size_t start_row, std::size_t num_rows,
                   const std::vector<std::uint8_t>& flags);
  // Flushes to disk (also done by the destructor).
  void flush();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::io
