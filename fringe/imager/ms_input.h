// Reads the visibilities an imager run uses from Measurement Sets into a VisBuffer: the data
// column asked for, cross-correlations only, rows inside the time range, channels inside the
// frequency range, converted to the image products (Stokes from linear correlations:
// I = (XX + YY)/2, Q = (XX - YY)/2, U = (XY + YX)/2, V = -i (XY - YX)/2; a one-correlation
// MS (OSKAR's scalar mode) holds I as XX), FLAG and WEIGHT (mean over the correlations used)
// applied, visibilities outside the uv range given weight 0; visibilities with a NaN/Inf
// value or weight and rows with a NaN/Inf UVW or TIME dropped and counted (non_finite.h). For
// IDG the rows are sorted by (file, ANTENNA1, ANTENNA2, TIME), else kept in file order. Bad input
// (missing file or column, no linear correlations the product needs, different channels in
// different files, nothing selected) is a fringe::Error naming the file.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/non_finite.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

struct InputSummary {
  std::size_t rows_read = 0;                         // rows of all files
  std::size_t rows_used = 0;                         // cross-correlation rows inside the time range
  std::size_t visibilities = 0;                      // rows_used x selected channels
  std::size_t flagged = 0;                           // flagged or zero weight
  std::size_t uv_filtered = 0;                       // outside the uv range
  NonFiniteCount non_finite;                         // dropped: NaN/Inf value, weight, UVW, TIME
  std::vector<std::uint8_t> bad_uvw_rows;            // [buffer row] 1: its UVW was NaN/Inf
  std::array<double, 2> phase_centre_rad{0.0, 0.0};  // of the first file
  std::vector<double> channel_width_hz;              // selected channels
  double max_abs_w_lambda = 0.0;
  double max_uv_lambda = 0.0;
  std::vector<int> row_file;           // [buffer row] index of its input file
  std::vector<std::size_t> row_index;  // [buffer row] its row in that file
  std::vector<int> channels;           // selected channel indices (same in every file)
};

template <typename T>
VisBuffer<T> read_visibilities(const ImagerConfig& config, InputSummary& summary,
                               Logger* log = nullptr);

// Number of values per visibility the product needs (1 or 4).
int num_product_pols(ImageType type);

}  // namespace fringe::imager
