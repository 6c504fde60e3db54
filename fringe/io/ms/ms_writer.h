// MsWriter: writes visibility blocks into a CASA Measurement Set laid out as OSKAR 2.13 does
// (docs/conventions.md, "Measurement Set output"): main table with UVW [m], DATA (complex float
// [npol, nchan], UNIT Jy), FLAG (false), WEIGHT = SIGMA = 1, TIME = TIME_CENTROID = dump centre [s,
// MJD UTC], INTERVAL = time_inc_sec, EXPOSURE = time_average_sec; rows time-major and, per
// ANTENNA1, the auto-correlation (if written) then the cross-correlations in baseline order;
// subtables ANTENNA, FEED, FIELD, SPECTRAL_WINDOW, POLARIZATION, DATA_DESCRIPTION, OBSERVATION,
// STATE, HISTORY, PHASED_ARRAY (rows for stations with meta.element_enu_m; docs/ms_output.md)
// (+ empty FLAG_CMD, POINTING, PROCESSOR, SOURCE as OSKAR).
//
// Conventions applied here (VisBlock data are always the CASA convention, p < q):
//  - casa_phase_convention = false: ANTENNA1 = q, ANTENNA2 = p, UVW negated and DATA the
//    conjugate transpose V_pq^H (XY <-> YX swapped and conjugated), so that w.r.t. the written
//    UVW the phase is still exp(+2 pi i (u l + v m + w (n - 1))) (docs/conventions.md, "Phase sign
//    and the measurement equation").
//  - force_polarised with Scalar data: a 4-product MS with XX = YY = V, XY = YX = 0.
//  - ANTENNA NAME meta.antenna_names, else "s0000 (<station name>)"; STATION "s0000";
//    OBSERVATION TELESCOPE_NAME meta.telescope_name; DISH_DIAMETER dish_diameter_m;
//    FEED RECEPTOR_ANGLE = [alpha_x + pi/2, alpha_y]; CHAN_WIDTH = EFFECTIVE_BW = RESOLUTION
//    = frequency_inc_hz (1 Hz if <= 0), MEAS_FREQ_REF TOPO; CORR_TYPE 9..12 or [9].
//  - HISTORY as OSKAR 2.13: a creation row "Measurement Set created at <UTC> (UTC)" (ORIGIN
//    = APPLICATION = meta.application), settings_lines (ORIGIN "OSKAR_SETTINGS"), then
//    log_lines (ORIGIN "FRINGE_LOG"); more rows with add_history(). OBSERVATION_ID -1, TIME
//    the current UTC in whole seconds. OBSERVATION and FIELD as OSKAR's (docs/ms_output.md).
//
// Output safety (fringe/core/output_guard.h, docs/reliability.md): the constructor refuses
// a final path that holds anything but an earlier Measurement Set (a folder of other files, a
// regular file, another casacore table). The MS is built under a temporary name beside the
// final path (registered with fringe::interrupt, so SIGINT/SIGTERM remove it); finish()
// flushes and closes it and commits it (commit_output), replacing an earlier MS only at that
// moment. Nothing is ever created under the final name before then. If the writer is
// destroyed without finish(), or a write fails (disk full, file-size limit, I/O error), the
// temporary MS is marked for delete and removed, the final path is left as it was, and the
// failure is a fringe::Error naming the final path (never an abort from a casacore
// destructor); the writer is then unusable. Inconsistent blocks throw without harm.
// Not thread-safe: one thread (the pipeline's writer thread) owns a writer. A moved-from
// writer may only be destroyed or assigned to.
// casacore-free header, C++17.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fringe/core/log.h"
#include "fringe/io/ms/ms_history.h"
#include "fringe/vis/vis_block.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::io {

class MsWriter {
 public:
  // Creates the MS for `name` (".MS" appended unless it ends in .ms/.MS, see ms_path.h).
  // Validates meta (fringe::vis::validate) and writes every subtable.
  MsWriter(const std::string& name, const vis::VisMeta& meta, Logger* log = nullptr);
  ~MsWriter();
  MsWriter(MsWriter&&) noexcept;
  MsWriter& operator=(MsWriter&&) noexcept;
  MsWriter(const MsWriter&) = delete;
  MsWriter& operator=(const MsWriter&) = delete;

  // Writes one block at its place in the observation (block.start_time_index,
  // block.start_channel_index); rows are added as needed, so blocks of all channels come in
  // time order and channel sub-blocks of the same times may follow each other. The block
  // must match meta: station count, pol mode, which products, times and frequencies (its
  // axes as from VisBlock::set_axes). DATA is stored as complex float.
  void append_block(const vis::VisBlock<float>& block);
  void append_block(const vis::VisBlock<double>& block);
  // Writes a block into MODEL_DATA (added on first use, shaped and stored like DATA) of the
  // rows append_block() already wrote for the same times (e.g. the uncorrupted model of a
  // simulation with gain corruption).
  void append_model_block(const vis::VisBlock<float>& block);
  void append_model_block(const vis::VisBlock<double>& block);

  // Appends HISTORY rows (e.g. the run log at the end of a run) with the given ORIGIN.
  void add_history(const std::vector<std::string>& lines, const std::string& origin = kMsLogOrigin);

  // Flushes and closes the MS and moves it to path(). Warns (through the logger) if fewer
  // than meta.num_times dumps were written. Calling it twice is an error.
  void finish();

  const std::string& path() const;            // the final path
  const std::string& temporary_path() const;  // where it is being written
  std::size_t num_rows() const;               // rows in the main table so far
  std::size_t rows_per_time() const;          // autos (N) + crosses (N (N - 1) / 2) as written
  int num_ms_pols() const;                    // 4 or 1 (4 for force_polarised Scalar data)
  bool finished() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fringe::io
