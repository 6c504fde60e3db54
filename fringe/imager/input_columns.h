// The columns the imager reads from one input, from a Measurement Set or an OSKAR .vis file
// (docs/vis_format.md), in the Measurement Set's layout: one row per (time, baseline), cells
// [row][channel][correlation]. A .vis file gives its cross-correlations with ANTENNA1 = p,
// ANTENNA2 = q (p < q), TIME the dump centre (MJD(UTC) s), UVW = uvw_p - uvw_q (m), no flags
// and weight 1, and correlations XX, XY, YX, YY (or XX alone for scalar data), as fringe's
// Measurement Set writer stores the same visibilities.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::io {
class MsReader;
}

namespace fringe::imager {

struct InputColumns {
  std::vector<double> freqs_hz;   // channel centres
  std::vector<double> widths_hz;  // channel widths
  std::array<double, 2> phase_centre_rad{0.0, 0.0};
  std::vector<int> corr_types;  // CORR_TYPE values (9..12: XX, XY, YX, YY)
  int num_pols = 0;
  int num_channels = 0;
  std::vector<double> time;  // [row] MJD(UTC) s
  std::vector<int> antenna1, antenna2;
  std::vector<std::array<double, 3>> uvw;  // [row] m
  std::vector<Complex<float>> data;        // [row][channel][pol] (empty when not read)
  std::vector<std::uint8_t> flag;          // [row][channel][pol]
  std::vector<float> weight;               // [row][pol]
  bool vis_file = false;                   // read from an OSKAR .vis file
  std::size_t num_rows() const { return time.size(); }
};

// True when path names an OSKAR .vis file (its name ends in .vis, any case).
bool is_vis_file(const std::string& path);

// Reads a Measurement Set: `column` (DATA, MODEL_DATA, ...) unless read_data is false (a PSF).
// Throws fringe::Error naming the file when it does not exist or lacks the column.
InputColumns read_ms_columns(const std::string& path, const std::string& column, bool read_data);

// The same in two steps, for reading a Measurement Set a slice of rows at a time
// (vis_chunks.h): its metadata (frequencies, widths, phase centre, correlations; no rows), after
// checking that it has `column` when read_data is true, and then the main columns of rows
// [start, start + count) into in's row arrays (replacing them; capacities reused).
InputColumns read_ms_metadata(const io::MsReader& ms, const std::string& column, bool read_data);
void read_ms_rows(const io::MsReader& ms, const std::string& column, bool read_data,
                  std::size_t start, std::size_t count, InputColumns& in);

// Opens a Measurement Set for reading (fringe::Error naming the path when it does not exist).
std::unique_ptr<io::MsReader> open_input_ms(const std::string& path);

// The phase centre (RA, Dec) in radians of a Measurement Set or an OSKAR .vis file.
std::array<double, 2> input_phase_centre_rad(const std::string& path);

// Reads an OSKAR .vis file (its cross-correlations; `column` must be DATA, as a .vis file has
// only that). Throws fringe::Error naming the file for a missing or bad file.
InputColumns read_vis_columns(const std::string& path, const std::string& column, bool read_data);

}  // namespace fringe::imager
