#include "fringe/io/ms/ms_writer.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Slicer.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/ms/MeasurementSets/MSMainColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <casacore/tables/Tables/ArrayColumn.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <system_error>

#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/ms/column_tasks.h"
#include "fringe/io/ms/ms_column_detail.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/io/ms/ms_tables.h"
#include "fringe/io/ms/write_error.h"

namespace fringe::io {

namespace fs = std::filesystem;
using casacore::IPosition;
using casacore::Slicer;

namespace {

// One main-table row of a dump: an auto-correlation of station `a` or the cross-correlation
// of baseline `b` = (a, q).
struct RowSlot {
  bool is_auto;
  int a;          // station (auto) or p (cross)
  int q;          // q (cross)
  std::size_t b;  // baseline index (cross)
};

Error ms_error(const std::string& path, const std::string& message) {
  return Error::in_file(path, 0, message);
}

// Checks that the folder of `path` exists and can be written, with a plain message if not.
// (What may be at `path` itself is the output guard's rule: check_output.)
void check_output_folder(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  std::error_code ec;
  const auto status = fs::status(parent, ec);
  if (ec || !fs::exists(status)) {
    throw ms_error(
        path, "cannot create Measurement Set: folder '" + parent.string() + "' does not exist");
  }
  if (!fs::is_directory(status)) {
    throw ms_error(path,
                   "cannot create Measurement Set: '" + parent.string() + "' is not a folder");
  }
  if (::access(parent.c_str(), W_OK | X_OK) != 0) {
    throw ms_error(
        path, "cannot create Measurement Set: folder '" + parent.string() + "' is not writable");
  }
}

}  // namespace

struct MsWriter::Impl {
  std::string final_path;
  std::string temp_path;
  std::unique_ptr<TemporaryOutput> temp;  // the MS being written; removed unless committed
  bool failed = false;                    // abandoned after an error: no further use
  vis::VisMeta meta;
  Logger* log = nullptr;
  int ms_npol = 4;
  std::vector<RowSlot> slots;  // the rows of one dump, in order
  std::unique_ptr<casacore::MeasurementSet> ms;
  std::unique_ptr<casacore::MSMainColumns> cols;
  bool finished = false;
  std::vector<bool> times_written;
  std::size_t num_rows = 0;  // main-table rows so far (kept after the table is closed)

  // Flushes every table explicitly (so a write error is an exception here, not in a
  // destructor), then closes the MS.
  void close() {
    cols.reset();
    if (ms) {
      ms->flush();  // main table and the standard subtables
      static_cast<casacore::Table&>(*ms).flush(/*fsync=*/false, /*recursive=*/true);  // others
      ms.reset();
    }
  }

  // Gives up the temporary MS after an error or without finish(): the tables are marked for
  // delete before they are released (abandon_ms), so casacore's destructors write nothing (a
  // failed write there would abort the process), and the temporary is removed. The final
  // path is never touched. Never throws (used by the destructor).
  void abandon() noexcept {
    failed = true;
    try {
      cols.reset();
    } catch (...) {
    }
    detail::abandon_ms(ms);
    try {
      if (temp) temp->discard();
    } catch (...) {
    }
  }

  // Throws when the writer cannot be used any more.
  void check_usable(const char* what) const {
    if (finished) throw ms_error(final_path, std::string(what) + " after finish()");
    if (failed || !ms) {
      throw ms_error(final_path, std::string(what) +
                                     " after an earlier error (the Measurement Set was abandoned)");
    }
  }

  template <typename T>
  void check_block(const vis::VisBlock<T>& block) const {
    auto fail = [&](const std::string& what) {
      throw ms_error(final_path, "visibility block does not match the Measurement Set: " + what);
    };
    if (block.num_stations() != static_cast<int>(meta.num_stations())) {
      fail(std::to_string(block.num_stations()) + " stations, expected " +
           std::to_string(meta.num_stations()));
    }
    if (block.pol_mode() != meta.pol_mode) fail("polarisation mode differs");
    if (block.has_cross() != meta.write_crosscorrelations ||
        block.has_autos() != meta.write_autocorrelations) {
      fail("auto/cross-correlation selection differs");
    }
    if (block.start_time_index < 0 || block.num_times() < 0 ||
        block.start_time_index + block.num_times() > meta.num_times) {
      fail("times " + std::to_string(block.start_time_index) + ".." +
           std::to_string(block.start_time_index + block.num_times() - 1) +
           " outside the observation's " + std::to_string(meta.num_times));
    }
    if (block.start_channel_index < 0 ||
        block.start_channel_index + block.num_channels() > meta.num_channels) {
      fail("channels " + std::to_string(block.start_channel_index) + ".." +
           std::to_string(block.start_channel_index + block.num_channels() - 1) +
           " outside the observation's " + std::to_string(meta.num_channels));
    }
    for (int c = 0; c < block.num_channels(); ++c) {
      const double f = meta.channel_frequency_hz(block.start_channel_index + c);
      if (!(std::abs(block.frequency_hz(c) - f) <= 1e-9 * std::abs(f))) {
        fail("channel " + std::to_string(block.start_channel_index + c) + " frequency " +
             std::to_string(block.frequency_hz(c)) + " Hz, expected " + std::to_string(f));
      }
    }
    for (int t = 0; t < block.num_times(); ++t) {
      const double tc = meta.time_centre_mjd_utc_sec(block.start_time_index + t);
      if (!(std::abs(block.time_mjd_utc_sec(t) - tc) <= 1e-3)) {
        fail("time " + std::to_string(block.start_time_index + t) + " is " +
             std::to_string(block.time_mjd_utc_sec(t)) + " s, expected the dump centre " +
             std::to_string(tc));
      }
    }
  }

  // The scalar columns that are constant within a time step (TIME, TIME_CENTROID, EXPOSURE,
  // INTERVAL and the zero ids, FLAG_ROW) live in the IncrementalStMan, which stores a value
  // once per run of equal values and gives new rows the value of the last row. Writing them
  // row by row costs a bucket search per row (a quarter of the writer's time at 2 million
  // rows), so the rows of a new time step are added as one row carrying the values followed by
  // per_time - 1 rows that inherit them. Rows that already exist (a block of other channels of
  // the same times) or that follow a gap are written row by row.
  template <typename T>
  void add_rows_with_time_constants(const vis::VisBlock<T>& block, std::size_t row0,
                                    std::size_t per_time) {
    for (int t = 0; t < block.num_times(); ++t) {
      const std::size_t r = row0 + std::size_t(t) * per_time;
      const double time = block.time_mjd_utc_sec(t);
      if (std::size_t(ms->nrow()) == r) {
        ms->addRow(1);
        put_time_constants(r, 1, time);
        if (per_time > 1) ms->addRow(per_time - 1);
      } else {
        if (std::size_t(ms->nrow()) < r + per_time) ms->addRow(r + per_time - ms->nrow());
        put_time_constants(r, per_time, time);
      }
    }
  }

  void put_time_constants(std::size_t row, std::size_t count, double time) {
    const Slicer rows(IPosition(1, static_cast<ssize_t>(row)),
                      IPosition(1, static_cast<ssize_t>(count)));
    const casacore::Vector<casacore::Double> times(count, time);
    cols->time().putColumnRange(rows, times);
    cols->timeCentroid().putColumnRange(rows, times);
    cols->exposure().putColumnRange(
        rows, casacore::Vector<casacore::Double>(count, meta.time_average_sec));
    cols->interval().putColumnRange(rows,
                                    casacore::Vector<casacore::Double>(count, meta.time_inc_sec));
    const casacore::Vector<casacore::Int> zeros(count, 0);
    cols->arrayId().putColumnRange(rows, zeros);
    cols->dataDescId().putColumnRange(rows, zeros);
    cols->feed1().putColumnRange(rows, zeros);
    cols->feed2().putColumnRange(rows, zeros);
    cols->fieldId().putColumnRange(rows, zeros);
    cols->observationId().putColumnRange(rows, zeros);
    cols->processorId().putColumnRange(rows, zeros);
    cols->scanNumber().putColumnRange(rows, zeros);
    cols->stateId().putColumnRange(rows, zeros);
    cols->flagRow().putColumnRange(rows, casacore::Vector<casacore::Bool>(count, false));
  }

  // Arrays of constants reused from block to block (no fresh pages to fault in and clear).
  const casacore::Array<casacore::Bool>& false_flags(const IPosition& shape) {
    if (!flags_false.shape().isEqual(shape)) {
      flags_false.resize(shape);  // (Array::operator= needs conforming shapes)
      flags_false = false;
    }
    return flags_false;
  }
  const casacore::Matrix<casacore::Float>& unit_weights(std::size_t nrows) {
    if (ones.ncolumn() != nrows || int(ones.nrow()) != ms_npol) {
      ones.resize(ms_npol, nrows);
      ones = 1.0f;
    }
    return ones;
  }
  casacore::Array<casacore::Bool> flags_false;
  casacore::Matrix<casacore::Float> ones;

  // DATA (or MODEL_DATA) of the block in MS order: Fortran order, pol fastest, then channel,
  // then row.
  template <typename T>
  casacore::Array<casacore::Complex> visibilities(const vis::VisBlock<T>& block) const {
    const int nt = block.num_times();
    const int nc = block.num_channels();
    const std::size_t per_time = slots.size();
    const std::size_t nrows = per_time * std::size_t(nt);
    const int npol_in = block.num_pols();
    const bool casa = meta.casa_phase_convention;
    const bool expand_scalar = (npol_in == 1 && ms_npol == 4);
    casacore::Array<casacore::Complex> data(IPosition(3, ms_npol, nc, nrows));
    casacore::Complex* d = data.data();
    for (int t = 0; t < nt; ++t) {
      for (std::size_t s = 0; s < per_time; ++s) {
        const std::size_t row = std::size_t(t) * per_time + s;
        const RowSlot& slot = slots[s];
        const bool flip = !slot.is_auto && !casa;  // write V^H (non-CASA convention, crosses)
        for (int c = 0; c < nc; ++c) {
          const Complex<T>* v =
              slot.is_auto ? &block.autos(t, c, slot.a, 0) : &block.cross(t, c, slot.b, 0);
          casacore::Complex* out = d + (row * nc + std::size_t(c)) * ms_npol;
          auto cf = [&](const Complex<T>& z) {
            return flip ? casacore::Complex(float(z.re), -float(z.im))
                        : casacore::Complex(float(z.re), float(z.im));
          };
          if (npol_in == 4) {
            // V^H of [[XX, XY], [YX, YY]] is [[XX*, YX*], [XY*, YY*]].
            out[0] = cf(v[0]);
            out[1] = cf(v[flip ? 2 : 1]);
            out[2] = cf(v[flip ? 1 : 2]);
            out[3] = cf(v[3]);
          } else if (expand_scalar) {
            out[0] = out[3] = cf(v[0]);
            out[1] = out[2] = casacore::Complex(0.0f, 0.0f);
          } else {
            out[0] = cf(v[0]);
          }
        }
      }
    }
    return data;
  }

  // UVW [m] of the block's rows (non-CASA convention: negated).
  template <typename T>
  casacore::Matrix<casacore::Double> baseline_uvw(const vis::VisBlock<T>& block) const {
    const std::size_t per_time = slots.size();
    const double sign = meta.casa_phase_convention ? 1.0 : -1.0;
    casacore::Matrix<casacore::Double> uvw(3, per_time * std::size_t(block.num_times()), 0.0);
    for (int t = 0; t < block.num_times(); ++t) {
      for (std::size_t s = 0; s < per_time; ++s) {
        if (slots[s].is_auto) continue;
        const std::array<double, 3>& w = block.uvw(t, slots[s].b);
        for (int k = 0; k < 3; ++k) uvw(k, std::size_t(t) * per_time + s) = sign * w[k];
      }
    }
    return uvw;
  }

  // ANTENNA1 (second = false) or ANTENNA2 of `num_times` dumps (non-CASA convention: q, p).
  casacore::Vector<casacore::Int> antennas(int num_times, bool second) const {
    const std::size_t per_time = slots.size();
    const bool casa = meta.casa_phase_convention;
    casacore::Vector<casacore::Int> ant(per_time * std::size_t(num_times));
    for (std::size_t s = 0; s < per_time; ++s) {
      const RowSlot& slot = slots[s];
      const int value = slot.is_auto ? slot.a : ((casa != second) ? slot.a : slot.q);
      for (int t = 0; t < num_times; ++t) ant(std::size_t(t) * per_time + s) = value;
    }
    return ant;
  }

  template <typename T>
  void write(const vis::VisBlock<T>& block, bool model = false) {
    check_usable(model ? "append_model_block()" : "append_block()");
    check_block(block);
    const int nt = block.num_times();
    const int nc = block.num_channels();
    const std::size_t per_time = slots.size();
    const std::size_t nrows = per_time * std::size_t(nt);
    if (nrows == 0 || nc == 0) return;
    const std::size_t row0 = per_time * std::size_t(block.start_time_index);
    const Slicer rows(IPosition(1, static_cast<ssize_t>(row0)),
                      IPosition(1, static_cast<ssize_t>(nrows)));
    const bool all_channels = (nc == meta.num_channels);
    const Slicer chans(IPosition(2, 0, block.start_channel_index), IPosition(2, ms_npol, nc));
    try {
      if (model) {  // MODEL_DATA of existing rows only
        if (row0 + nrows > std::size_t(ms->nrow())) {
          throw ms_error(final_path, "append_model_block() before append_block() of its times");
        }
        detail::add_visibility_column(*ms, "MODEL_DATA", ms_npol, meta.num_channels);
        casacore::ArrayColumn<casacore::Complex> col(*ms, "MODEL_DATA");
        const casacore::Array<casacore::Complex> data = visibilities(block);
        if (all_channels) {
          col.putColumnRange(rows, data);
        } else {
          col.putColumnRange(rows, chans, data);
        }
        return;
      }
      // Rows first (one thread), then one task per storage manager (column_tasks.h): DATA,
      // FLAG, UVW, WEIGHT and SIGMA each have their own tiled manager, ANTENNA1/2 share one
      // (ms_tables.cpp). The time constants went into the IncrementalStMan with the rows.
      add_rows_with_time_constants(block, row0, per_time);
      const IPosition cells(3, ms_npol, nc, static_cast<ssize_t>(nrows));
      const casacore::Array<casacore::Bool>& flag = false_flags(cells);
      const casacore::Matrix<casacore::Float>& unit = unit_weights(nrows);
      detail::run_column_tasks({
          [&] {
            const casacore::Array<casacore::Complex> data = visibilities(block);
            if (all_channels) {
              cols->data().putColumnRange(rows, data);
            } else {
              cols->data().putColumnRange(rows, chans, data);
            }
          },
          [&] {
            if (all_channels) {
              cols->flag().putColumnRange(rows, flag);
            } else {
              cols->flag().putColumnRange(rows, chans, flag);
            }
          },
          [&] { cols->uvw().putColumnRange(rows, baseline_uvw(block)); },
          [&] { cols->weight().putColumnRange(rows, unit); },
          [&] { cols->sigma().putColumnRange(rows, unit); },
          [&] {  // one StandardStMan holds both
            cols->antenna1().putColumnRange(rows, antennas(nt, false));
            cols->antenna2().putColumnRange(rows, antennas(nt, true));
          },
      });
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      // A casacore write failed (disk full, file too large, I/O error): the temporary MS is
      // incomplete and its tables may hold unwritten buffers; give it up now.
      const std::string why = detail::write_failure_text(e.what());
      abandon();
      throw ms_error(final_path, "writing the Measurement Set failed (temporary '" + temp_path +
                                     "' removed): " + why);
    }
    for (int t = 0; t < nt; ++t) times_written[block.start_time_index + t] = true;
    num_rows = static_cast<std::size_t>(ms->nrow());
  }
};

MsWriter::MsWriter(const std::string& name, const vis::VisMeta& meta, Logger* log)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.final_path = ms_output_path(name);
  vis::validate(meta);
  m.meta = meta;
  m.log = log;
  const bool scalar = meta.pol_mode == vis::PolMode::Scalar;
  m.ms_npol = (scalar && !meta.force_polarised) ? 1 : 4;
  const int n = static_cast<int>(meta.num_stations());
  for (int p = 0; p < n; ++p) {
    if (meta.write_autocorrelations) m.slots.push_back({true, p, p, 0});
    if (meta.write_crosscorrelations) {
      for (int q = p + 1; q < n; ++q) {
        m.slots.push_back({false, p, q, vis::baseline_index(std::size_t(n), p, q)});
      }
    }
  }
  m.times_written.assign(meta.num_times, false);
  check_output_folder(m.final_path);
  // Only nothing or an earlier Measurement Set may be at the final path (output_guard.h).
  OutputTarget target;
  target.path = m.final_path;
  target.kind = OutputKind::MeasurementSet;
  check_output(target);
  m.temp = std::make_unique<TemporaryOutput>(target);  // removed on a signal, too
  m.temp_path = m.temp->path();
  try {
    m.ms = detail::create_ms(m.temp_path, meta, m.ms_npol, m.slots.size());
    m.cols = std::make_unique<casacore::MSMainColumns>(*m.ms);
  } catch (const std::exception& e) {
    m.abandon();
    throw ms_error(m.final_path,
                   "cannot create Measurement Set: " + detail::write_failure_text(e.what()));
  }
}

MsWriter::~MsWriter() {
  if (impl_ && !impl_->finished) impl_->abandon();
}

MsWriter::MsWriter(MsWriter&&) noexcept = default;

MsWriter& MsWriter::operator=(MsWriter&& other) noexcept {
  if (this != &other) {
    if (impl_ && !impl_->finished) impl_->abandon();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void MsWriter::append_block(const vis::VisBlock<float>& block) { impl_->write(block); }
void MsWriter::append_block(const vis::VisBlock<double>& block) { impl_->write(block); }
void MsWriter::append_model_block(const vis::VisBlock<float>& block) { impl_->write(block, true); }
void MsWriter::append_model_block(const vis::VisBlock<double>& block) { impl_->write(block, true); }

void MsWriter::add_history(const std::vector<std::string>& lines, const std::string& origin) {
  Impl& m = *impl_;
  m.check_usable("add_history()");
  try {
    detail::add_history_rows(*m.ms, lines, origin, m.meta.application);
  } catch (const std::exception& e) {
    const std::string why = detail::write_failure_text(e.what());
    m.abandon();
    throw ms_error(m.final_path, "writing HISTORY failed: " + why);
  }
}

void MsWriter::finish() {
  Impl& m = *impl_;
  if (m.finished) throw ms_error(m.final_path, "finish() called twice");
  m.check_usable("finish()");
  int missing = 0;
  for (bool w : m.times_written) missing += w ? 0 : 1;
  if (missing > 0) {
    log_warning(m.log, "Measurement Set '" + m.final_path + "': " + std::to_string(missing) +
                           " of " + std::to_string(m.meta.num_times) +
                           " time steps were not written");
  }
  try {
    m.close();
  } catch (const std::exception& e) {
    const std::string why = detail::write_failure_text(e.what());
    m.abandon();
    throw ms_error(m.final_path, "closing the Measurement Set failed (temporary '" + m.temp_path +
                                     "' removed): " + why);
  }
  // Replaces an earlier Measurement Set only now, after checking again what is there; on
  // failure the temporary is removed and the final path keeps what it held.
  try {
    m.temp->commit();
  } catch (...) {
    m.failed = true;
    throw;
  }
  m.finished = true;
  log_info(m.log, "Measurement Set written: " + m.final_path);
}

const std::string& MsWriter::path() const { return impl_->final_path; }
const std::string& MsWriter::temporary_path() const { return impl_->temp_path; }
std::size_t MsWriter::num_rows() const { return impl_->num_rows; }
std::size_t MsWriter::rows_per_time() const { return impl_->slots.size(); }
int MsWriter::num_ms_pols() const { return impl_->ms_npol; }
bool MsWriter::finished() const { return impl_->finished; }

}  // namespace fringe::io
