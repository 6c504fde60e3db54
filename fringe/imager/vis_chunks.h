// VisChunks: the imager's inputs read as a stream of VisBuffers of a bounded number of rows,
// for the streamed imaging path (stream_imager.h): each Measurement Set is read in slices of
// rows_per_read rows (TIME, ANTENNA1/2, UVW, the data column, FLAG, WEIGHT) on a reader thread
// while the caller works on the previous slice, and every slice is converted exactly as
// read_visibilities converts the whole input (ms_input.h: the same products, weights, flags, uv
// range, dropped non-finite values, re-phasing), rows in the files' order. An OSKAR .vis file
// is read whole and given as one chunk. Memory: two slices of raw columns and one chunk.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/ms_input.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// The columns one automatic read holds (bytes): large enough that a read costs little more
// than its bytes, small enough that two fit in any memory.
constexpr std::size_t kAutoReadBytes = std::size_t(64) << 20;
// IDG plans each read on its own (idg_stream.h): a subgrid gathers only the time steps of one
// read, so its reads are larger (SKA-Low AA4: 512 MB are about 12 of its time steps).
constexpr std::size_t kAutoReadBytesIdg = std::size_t(512) << 20;

// The automatic read size: target, or 1/16 of the memory available now when that is less.
std::size_t auto_read_bytes(std::size_t target = kAutoReadBytes);

template <typename T>
class VisChunks {
 public:
  // Opens every input and checks its layout (bad input: fringe::Error naming the file); reads
  // no rows yet. read_data false: no data column (weights and coordinates only: a first pass,
  // or a PSF). rows_per_read 0: auto_read_bytes() of columns per read.
  VisChunks(const ImagerConfig& cfg, std::size_t rows_per_read, bool read_data);
  ~VisChunks();  // waits for a read in flight
  VisChunks(const VisChunks&) = delete;
  VisChunks& operator=(const VisChunks&) = delete;

  // The next chunk (at least one selected row), or false when every input has been read.
  // Throws interrupt::Cancelled on SIGINT/SIGTERM.
  bool next(VisBuffer<T>& chunk);

  // After the last chunk: the error of read_visibilities when nothing is usable, else its
  // log line.
  void finish(Logger* log) const;

  // The selected channels' frequencies (Hz), the product values per visibility, and the
  // summary: channels and phase centre (the image centre when re-phasing) from the opening,
  // counts and uv extent of the chunks read so far (row_file, row_index, bad_uvw_rows empty).
  const std::vector<double>& freq_hz() const;
  int num_pols() const;
  const InputSummary& summary() const;
  double seconds_waiting() const;     // time next() waited for the reader thread
  double seconds_converting() const;  // time next() spent converting (rows, weights, products)
  double fraction_read() const;       // of the reads (0 to 1), for progress reports

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::imager
