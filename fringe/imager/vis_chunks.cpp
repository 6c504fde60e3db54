#include "fringe/imager/vis_chunks.h"

#include <algorithm>
#include <filesystem>
#include <future>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/resources.h"
#include "fringe/core/timer.h"
#include "fringe/imager/input_columns.h"
#include "fringe/imager/ms_rows.h"
#include "fringe/imager/rephase.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::imager {

std::size_t auto_read_bytes(std::size_t target) {
  // Two reads are in memory at once: at most 1/16 of the memory available now each.
  const std::int64_t avail = available_memory_bytes();
  return avail > 0 ? std::min(target, std::size_t(avail) / 16) : target;
}

template <typename T>
struct VisChunks<T>::Impl {
  // Rows [start, start + count) of input `file`.
  struct Slice {
    std::size_t file, start, count;
  };

  ImagerConfig cfg;
  bool read_data = true;
  std::vector<std::unique_ptr<io::MsReader>> ms;  // [file], null for a .vis file
  std::vector<InputColumns> vis_columns;          // [file] a .vis file's columns, read at opening
  std::vector<FileRows> files;                    // [file] layout; the current slice's columns
  ChannelSelection sel;
  InputSummary sum;
  std::array<double, 2> data_centre{0.0, 0.0};  // the visibilities' phase centre
  std::vector<Slice> slices;
  std::size_t next_slice = 0;  // the slice `pending` reads
  std::future<InputColumns> pending;
  InputColumns spare;  // the buffers of the slice before the current one, for the next read
  std::vector<SelectedRow> rows;
  std::size_t usable = 0;
  double waiting = 0.0, converting = 0.0;

  // Reads slice s into `in` (on the reader thread: the only thread using the readers then).
  InputColumns read(const Slice& s, InputColumns in) const {
    if (!ms[s.file]) return InputColumns(vis_columns[s.file]);
    read_ms_rows(*ms[s.file], cfg.ms_column, read_data, s.start, s.count, in);
    return in;
  }

  void launch() {
    if (next_slice >= slices.size()) return;
    const Slice s = slices[next_slice];
    pending = std::async(std::launch::async, [this, s, in = std::move(spare)]() mutable {
      return read(s, std::move(in));
    });
    spare = InputColumns{};
  }
};

template <typename T>
VisChunks<T>::VisChunks(const ImagerConfig& cfg, std::size_t rows_per_read, bool read_data)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  if (cfg.input_ms.empty()) throw Error("imager: no input Measurement Set (ImagerConfig.input_ms)");
  d.cfg = cfg;
  d.read_data = read_data;
  const std::size_t n = cfg.input_ms.size();
  d.ms.resize(n);
  d.vis_columns.resize(n);
  d.files.resize(n);
  for (std::size_t f = 0; f < n; ++f) {
    interrupt::throw_if_requested();
    const std::string& path = cfg.input_ms[f];
    std::size_t rows = 0;
    InputColumns meta;
    if (is_vis_file(path)) {
      d.vis_columns[f] = read_vis_columns(path, cfg.ms_column, read_data);
      meta = d.vis_columns[f];
      rows = meta.num_rows();
    } else {
      d.ms[f] = open_input_ms(path);
      meta = read_ms_metadata(*d.ms[f], cfg.ms_column, read_data);
      rows = d.ms[f]->num_rows();
    }
    d.files[f] = check_input_layout(cfg, f, meta, d.sel, d.sum);
    if (d.ms[f]) {
      // Bytes per row: data (8) and flag (1) per cell, weight (4) per correlation, UVW, TIME
      // and the antennas.
      const std::size_t cells = std::size_t(d.files[f].nchan_ms) * d.files[f].npol;
      const std::size_t row_bytes = cells * (read_data ? 9 : 1) + d.files[f].npol * 4 + 40;
      const std::size_t target =
          cfg.algorithm == Algorithm::Idg ? kAutoReadBytesIdg : kAutoReadBytes;
      const std::size_t step = rows_per_read > 0
                                   ? rows_per_read
                                   : std::max<std::size_t>(1, auto_read_bytes(target) / row_bytes);
      for (std::size_t start = 0; start < rows; start += step)
        d.slices.push_back({f, start, std::min(step, rows - start)});
    } else {
      d.slices.push_back({f, 0, rows});
    }
  }
  d.data_centre = d.sum.phase_centre_rad;
  if (cfg.rephase) d.sum.phase_centre_rad = {cfg.centre_ra_rad, cfg.centre_dec_rad};
  d.launch();
}

template <typename T>
VisChunks<T>::~VisChunks() {
  if (impl_ && impl_->pending.valid()) impl_->pending.wait();
}

template <typename T>
bool VisChunks<T>::next(VisBuffer<T>& chunk) {
  Impl& d = *impl_;
  while (d.next_slice < d.slices.size()) {
    interrupt::throw_if_requested();
    const typename Impl::Slice s = d.slices[d.next_slice];
    Timer wait;
    wait.start();
    InputColumns in = d.pending.get();
    d.waiting += wait.seconds();
    d.rows.clear();
    take_rows(d.cfg, s.file, s.start, d.read_data, in, d.files[s.file], d.rows, d.sum);
    d.spare = std::move(in);  // now holds the previous slice's buffers
    ++d.next_slice;
    d.launch();  // the next slice is read while this one is converted and imaged
    if (d.rows.empty()) continue;
    Timer convert;
    convert.start();
    convert_rows(d.cfg, d.files, d.rows, d.sel, chunk, d.sum);
    drop_non_finite(chunk, d.sum.non_finite);
    d.usable +=
        std::count_if(chunk.weight.begin(), chunk.weight.end(), [](float w) { return w > 0; });
    if (d.cfg.rephase)
      rephase(chunk, d.data_centre, {d.cfg.centre_ra_rad, d.cfg.centre_dec_rad},
              d.cfg.image_type == ImageType::Psf);
    add_uv_extent(chunk, d.sum);
    d.converting += convert.seconds();
    return true;
  }
  return false;
}

template <typename T>
void VisChunks<T>::finish(Logger* log) const {
  finish_read(impl_->cfg, impl_->sum, impl_->usable, log);
}

template <typename T>
const std::vector<double>& VisChunks<T>::freq_hz() const {
  return impl_->sel.freqs;
}
template <typename T>
int VisChunks<T>::num_pols() const {
  return num_product_pols(impl_->cfg.image_type);
}
template <typename T>
const InputSummary& VisChunks<T>::summary() const {
  return impl_->sum;
}
template <typename T>
double VisChunks<T>::seconds_waiting() const {
  return impl_->waiting;
}

template <typename T>
double VisChunks<T>::seconds_converting() const {
  return impl_->converting;
}

template <typename T>
double VisChunks<T>::fraction_read() const {
  return impl_->slices.empty() ? 1.0 : double(impl_->next_slice) / impl_->slices.size();
}

template class VisChunks<float>;
template class VisChunks<double>;

}  // namespace fringe::imager
