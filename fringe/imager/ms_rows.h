// The steps of reading visibilities that the whole read (ms_input.cpp, read_visibilities) and
// the streamed read (vis_chunks.h) share, per input: checking its layout against the run
// (channels, correlations), selecting its rows, and converting its cells into a VisBuffer's
// image products and weights. The conventions are ms_input.h's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/log.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/input_columns.h"
#include "fringe/imager/ms_input.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// The channels inside the frequency range (the same in every input).
struct ChannelSelection {
  std::vector<int> chans;  // channel indices
  std::vector<double> freqs;
};

// A selected cross-correlation row of an input.
struct SelectedRow {
  int file, a1, a2;
  double time;
  std::size_t index;  // into the arrays of its FileRows
};

// Columns of rows [first_row, first_row + rows) of one input, with the input's layout.
struct FileRows {
  std::size_t first_row = 0;
  std::vector<std::array<double, 3>> uvw;
  std::vector<Complex<float>> data;
  std::vector<std::uint8_t> flag;
  std::vector<float> weight;
  std::vector<int> corr_slot;  // XX, XY, YX, YY -> index in the input (or -1)
  std::vector<int> use;        // the correlations the product needs (indices 0..3 = XX..YY)
  int npol = 0, nchan_ms = 0;
  bool scalar() const { return npol == 1 && corr_slot[0] == 0; }
};

// Checks the metadata of input f (cfg.input_ms[f]) against the run: its channels inside the
// frequency range (the first input's become `sel` and the summary's channels and phase
// centre; the others must match them) and the correlations the product needs. Returns the
// input's layout (no rows). Bad input throws fringe::Error naming the file.
FileRows check_input_layout(const ImagerConfig& cfg, std::size_t f, const InputColumns& in,
                            ChannelSelection& sel, InputSummary& sum);

// Takes rows [first_row, first_row + in.num_rows()) from `in` (its row arrays are moved into
// fd) after checking that their cells have the layout's shape (the data column's too when
// data_read), and appends the selected ones (cross-correlations with a finite TIME inside the
// time range; non-finite TIME counted) to rows.
void take_rows(const ImagerConfig& cfg, std::size_t f, std::size_t first_row, bool data_read,
               InputColumns& in, FileRows& fd, std::vector<SelectedRow>& rows, InputSummary& sum);

// What converting visibilities counts (summed over threads into InputSummary afterwards).
struct ReadCounts {
  std::size_t non_finite = 0, flagged = 0, uv_filtered = 0;
};

// Buffer row i of v (already sized) from a selected row: its metadata, weights (flags, the
// uv range) and product values.
template <typename T>
void fill_row(const ImagerConfig& cfg, const FileRows& fd, const SelectedRow& row, std::size_t i,
              const ChannelSelection& sel, VisBuffer<T>& v, ReadCounts& counts);

// Converts the selected rows into v (resized to them), rows in parallel (cfg.num_threads),
// adding the counts to sum. files: indexed by SelectedRow::file.
template <typename T>
void convert_rows(const ImagerConfig& cfg, const std::vector<FileRows>& files,
                  const std::vector<SelectedRow>& rows, const ChannelSelection& sel,
                  VisBuffer<T>& v, InputSummary& sum);

// The largest |w| and uv length in wavelengths of v's visibilities with weight, merged into
// sum (max with what it holds).
template <typename T>
void add_uv_extent(const VisBuffer<T>& v, InputSummary& sum);

// After the last visibility: throws fringe::Error (what was read, flagged and filtered) when
// none of the `usable` visibilities is left; else logs the read's summary.
void finish_read(const ImagerConfig& cfg, const InputSummary& sum, std::size_t usable, Logger* log);

}  // namespace fringe::imager
