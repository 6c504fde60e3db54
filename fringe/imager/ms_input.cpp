#include "fringe/imager/ms_input.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

#include <omp.h>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/imager/geometry.h"
#include "fringe/imager/input_columns.h"
#include "fringe/imager/rephase.h"

namespace fringe::imager {

int num_product_pols(ImageType t) {
  return (t == ImageType::Linear || t == ImageType::Stokes) ? 4 : 1;
}

namespace {

enum Corr { XX = 0, XY = 1, YX = 2, YY = 3 };

// Which correlations (XX, XY, YX, YY) a product needs.
std::vector<int> needed(ImageType t, bool scalar) {
  switch (t) {
    case ImageType::XX:
      return {XX};
    case ImageType::XY:
      return {XY};
    case ImageType::YX:
      return {YX};
    case ImageType::YY:
      return {YY};
    case ImageType::I:
      return scalar ? std::vector<int>{XX} : std::vector<int>{XX, YY};
    case ImageType::Q:
      return {XX, YY};
    case ImageType::U:
    case ImageType::V:
      return {XY, YX};
    case ImageType::Linear:
    case ImageType::Stokes:
      return {XX, XY, YX, YY};
    case ImageType::Psf:
      return {};
  }
  return {};
}

const char* corr_name(int c) {
  static const char* names[] = {"XX", "XY", "YX", "YY"};
  return names[c];
}

// A selected cross-correlation row of an input.
struct Row {
  int file, a1, a2;
  double time;
  std::size_t index;  // into the file's arrays (FileData)
};

// The columns read from one input.
struct FileData {
  std::vector<std::array<double, 3>> uvw;
  std::vector<Complex<float>> data;
  std::vector<std::uint8_t> flag;
  std::vector<float> weight;
  std::vector<int> corr_slot;  // XX, XY, YX, YY -> index in the MS (or -1)
  int npol = 0, nchan_ms = 0;
  bool scalar() const { return npol == 1 && corr_slot[XX] == 0; }
};

// The channels inside the frequency range (the same in every input).
struct ChannelSelection {
  std::vector<int> chans;  // channel indices
  std::vector<double> freqs;
};

// Selects the channels of input f (the first input's become the selection, the others must
// match it) and checks its SPECTRAL_WINDOW; returns the number of channels it has.
std::size_t select_channels(const ImagerConfig& cfg, std::size_t f, const InputColumns& in,
                            ChannelSelection& sel, InputSummary& sum) {
  const std::string& path = cfg.input_ms[f];
  const std::vector<double>& all_freqs = in.freqs_hz;
  const std::vector<double>& widths = in.widths_hz;
  if (widths.size() != all_freqs.size())  // found by fuzz_ms_metadata (tests/fuzz)
    throw Error::in_file(path, 0,
                         "SPECTRAL_WINDOW has " + std::to_string(all_freqs.size()) +
                             " CHAN_FREQ values but " + std::to_string(widths.size()) +
                             " CHAN_WIDTH values");
  ChannelSelection mine;
  for (int c = 0; c < static_cast<int>(all_freqs.size()); ++c)
    if (all_freqs[c] >= cfg.freq_min_hz && all_freqs[c] <= cfg.freq_max_hz) {
      mine.chans.push_back(c);
      mine.freqs.push_back(all_freqs[c]);
    }
  if (f == 0) {
    sel = mine;
    sum.channels = mine.chans;
    sum.phase_centre_rad = in.phase_centre_rad;
    for (int c : mine.chans) sum.channel_width_hz.push_back(widths.at(c));
  } else if (mine.freqs != sel.freqs) {
    throw Error::in_file(path, 0,
                         "its selected channel frequencies differ from those of " +
                             cfg.input_ms[0] + " (all inputs must have the same channels)");
  }
  return all_freqs.size();
}

// The correlation slots of an input, checked against what the product needs.
void find_correlations(const ImagerConfig& cfg, const std::string& path,
                       const std::vector<int>& corr, const char* what, FileData& fd) {
  fd.corr_slot.assign(4, -1);
  for (int i = 0; i < static_cast<int>(corr.size()); ++i)
    if (corr[i] >= 9 && corr[i] <= 12) fd.corr_slot[corr[i] - 9] = i;
  const bool scalar = corr.size() == 1 && fd.corr_slot[XX] == 0;
  for (int c : needed(cfg.image_type, scalar))
    if (fd.corr_slot[c] < 0)
      throw Error::in_file(path, 0,
                           std::string("image type ") + to_string(cfg.image_type) + " needs the " +
                               corr_name(c) + " correlation, which the " + what + " does not have");
}

// Reads input f: its channels, correlations and columns, and appends its selected rows
// (cross-correlations with a finite TIME inside the time range) to rows.
FileData read_file(const ImagerConfig& cfg, std::size_t f, ChannelSelection& sel,
                   std::vector<Row>& rows, InputSummary& sum) {
  const std::string& path = cfg.input_ms[f];
  const bool psf = cfg.image_type == ImageType::Psf;
  InputColumns in = is_vis_file(path) ? read_vis_columns(path, cfg.ms_column, !psf)
                                      : read_ms_columns(path, cfg.ms_column, !psf);
  const std::size_t nfreq = select_channels(cfg, f, in, sel, sum);
  FileData fd;
  fd.npol = in.num_pols;
  fd.nchan_ms = in.num_channels;
  const std::vector<int>& corr = in.corr_types;
  find_correlations(cfg, path, corr, in.vis_file ? ".vis file" : "Measurement Set", fd);
  sum.rows_read += in.num_rows();
  sum.file_rows.push_back(in.num_rows());
  sum.file_pols.push_back(in.num_pols);
  const std::vector<double>& time = in.time;
  const std::vector<int>& a1 = in.antenna1;
  const std::vector<int>& a2 = in.antenna2;
  fd.uvw = std::move(in.uvw);
  fd.data = std::move(in.data);
  fd.flag = std::move(in.flag);
  fd.weight = std::move(in.weight);
  // The sizes the metadata promise are those read, or the loops below index past the cells
  // (found by fuzz_ms_metadata, tests/fuzz).
  const std::size_t ncells =
      time.size() * std::size_t(std::max(fd.nchan_ms, 0)) * std::size_t(std::max(fd.npol, 0));
  if (fd.nchan_ms != static_cast<int>(nfreq) || fd.npol < 1 ||
      fd.npol != static_cast<int>(corr.size()) || fd.flag.size() != ncells ||
      (!psf && fd.data.size() != ncells) || fd.weight.size() != time.size() * fd.npol)
    throw Error::in_file(path, 0,
                         "inconsistent Measurement Set: NUM_CHAN " + std::to_string(fd.nchan_ms) +
                             " with " + std::to_string(nfreq) + " CHAN_FREQ values, NUM_CORR " +
                             std::to_string(fd.npol) + " with " + std::to_string(corr.size()) +
                             " CORR_TYPE values, or DATA/FLAG/WEIGHT cells of another shape");
  for (std::size_t r = 0; r < time.size(); ++r) {
    if (a1[r] == a2[r]) continue;
    if (!std::isfinite(time[r])) {  // would break the (baseline, time) sort and the plan
      ++sum.non_finite.time_rows;
      continue;
    }
    if (cfg.time_min_s > 0 && time[r] < cfg.time_min_s) continue;
    if (cfg.time_max_s > 0 && time[r] > cfg.time_max_s) continue;
    rows.push_back({static_cast<int>(f), a1[r], a2[r], time[r], r});
  }
  return fd;
}

// The weight of a visibility (the mean over the correlations used), 0 when it is flagged,
// non-finite or outside the uv range (each counted).
// What the per-visibility pass counts (summed over threads into InputSummary afterwards).
struct ReadCounts {
  std::size_t non_finite = 0, flagged = 0, uv_filtered = 0;
};

double visibility_weight(const ImagerConfig& cfg, const FileData& fd, const std::vector<int>& use,
                         std::size_t row, std::size_t base, double uvlen, ReadCounts& sum) {
  bool flagged = false;
  double wsum = 0;
  for (int q : use) {
    flagged |= fd.flag[base + fd.corr_slot[q]] != 0;
    wsum += fd.weight[row * fd.npol + fd.corr_slot[q]];
  }
  double wt = use.empty() ? fd.weight[row * fd.npol] : wsum / use.size();
  if (use.empty()) {
    for (int q = 0; q < fd.npol; ++q) flagged |= fd.flag[base + q] != 0;
  }
  if (!flagged && !std::isfinite(static_cast<float>(wt))) {  // NaN/Inf, or beyond float
    wt = 0;
    ++sum.non_finite;
  } else if (flagged || !(wt > 0)) {
    wt = 0;
    ++sum.flagged;
  } else if (uvlen < cfg.uv_min_lambda || uvlen > cfg.uv_max_lambda) {
    wt = 0;
    ++sum.uv_filtered;
  }
  return wt;
}

// The product values of one visibility (the cells from base on) into out (ms_input.h).
template <typename T>
void put_products(ImageType type, const FileData& fd, const std::vector<int>& use, std::size_t base,
                  Complex<T>* out) {
  const bool scalar = fd.scalar();
  auto d = [&](int q) {
    const Complex<float> x = fd.data[base + fd.corr_slot[q]];
    return Complex<double>{x.re, x.im};
  };
  auto put = [&](int k, Complex<double> x) { out[k] = {T(x.re), T(x.im)}; };
  auto half = [](Complex<double> a, Complex<double> b, double sign) {
    return Complex<double>{0.5 * (a.re + sign * b.re), 0.5 * (a.im + sign * b.im)};
  };
  auto stokes_v = [&] {  // -i (XY - YX) / 2
    const Complex<double> dxy = d(XY), dyx = d(YX);
    return Complex<double>{0.5 * (dxy.im - dyx.im), -0.5 * (dxy.re - dyx.re)};
  };
  switch (type) {
    case ImageType::XX:
    case ImageType::XY:
    case ImageType::YX:
    case ImageType::YY:
      put(0, d(use[0]));
      break;
    case ImageType::I:
      put(0, scalar ? d(XX) : half(d(XX), d(YY), 1));
      break;
    case ImageType::Q:
      put(0, half(d(XX), d(YY), -1));
      break;
    case ImageType::U:
      put(0, half(d(XY), d(YX), 1));
      break;
    case ImageType::V:
      put(0, stokes_v());
      break;
    case ImageType::Linear:
      for (int q = 0; q < 4; ++q) put(q, d(q));
      break;
    case ImageType::Stokes:
      put(0, half(d(XX), d(YY), 1));
      put(1, half(d(XX), d(YY), -1));
      put(2, half(d(XY), d(YX), 1));
      put(3, stokes_v());
      break;
    case ImageType::Psf:
      break;
  }
}

// Buffer row i from the selected row: its metadata, weights and product values.
template <typename T>
void fill_row(const ImagerConfig& cfg, const FileData& fd, const std::vector<int>& use,
              const Row& row, std::size_t i, const ChannelSelection& sel, VisBuffer<T>& v,
              InputSummary& sum, ReadCounts& counts) {
  const int nchan = static_cast<int>(sel.chans.size());
  const int nprod = v.num_pols;
  const bool psf = cfg.image_type == ImageType::Psf;
  v.uvw_m[i] = fd.uvw[row.index];
  sum.row_file[i] = row.file;
  sum.row_index[i] = row.index;
  v.time_s[i] = row.time;
  v.baseline[i] = (row.file * 65536 + row.a1) * 65536 + row.a2;
  v.station1[i] = row.a1;
  v.station2[i] = row.a2;
  for (int c = 0; c < nchan; ++c) {
    const std::size_t base = (row.index * fd.nchan_ms + sel.chans[c]) * fd.npol;
    const double s = sel.freqs[c] / kSpeedOfLight;
    const double uvlen = std::hypot(v.uvw_m[i][0], v.uvw_m[i][1]) * s;
    const double wt = visibility_weight(cfg, fd, use, row.index, base, uvlen, counts);
    v.weight[i * nchan + c] = static_cast<float>(wt);
    Complex<T>* out = &v.vis[(i * nchan + c) * nprod];
    if (psf) {
      out[0] = {T(1.0), T(0.0)};
      continue;
    }
    if (wt == 0) continue;
    put_products(cfg.image_type, fd, use, base, out);
  }
}

// The largest |w| and uv length in wavelengths of the visibilities with weight.
template <typename T>
void uv_extent(const VisBuffer<T>& v, const std::vector<double>& freqs, InputSummary& sum) {
  const int nchan = v.num_channels;
  sum.max_abs_w_lambda = 0;
  sum.max_uv_lambda = 0;
  for (std::size_t i = 0; i < v.num_rows; ++i)
    for (int c = 0; c < nchan; ++c)
      if (v.weight[i * nchan + c] > 0) {
        const double s = freqs[c] / kSpeedOfLight;
        sum.max_abs_w_lambda = std::max(sum.max_abs_w_lambda, std::abs(v.uvw_m[i][2]) * s);
        sum.max_uv_lambda =
            std::max(sum.max_uv_lambda, std::hypot(v.uvw_m[i][0], v.uvw_m[i][1]) * s);
      }
}

}  // namespace

template <typename T>
VisBuffer<T> read_visibilities(const ImagerConfig& cfg, InputSummary& sum, Logger* log) {
  if (cfg.input_ms.empty()) throw Error("imager: no input Measurement Set (ImagerConfig.input_ms)");
  std::vector<FileData> files(cfg.input_ms.size());
  std::vector<Row> rows;
  ChannelSelection sel;
  for (std::size_t f = 0; f < cfg.input_ms.size(); ++f) {
    interrupt::throw_if_requested();
    files[f] = read_file(cfg, f, sel, rows, sum);
  }
  // IDG's plan needs the rows of a baseline together, in time order; the other algorithms take
  // the rows as the files hold them (OSKAR's order), which saves a sort of every row.
  if (cfg.algorithm == Algorithm::Idg)
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      if (a.file != b.file) return a.file < b.file;
      if (a.a1 != b.a1) return a.a1 < b.a1;
      if (a.a2 != b.a2) return a.a2 < b.a2;
      return a.time < b.time;
    });
  VisBuffer<T> v;
  const int nchan = static_cast<int>(sel.chans.size());
  v.resize(rows.size(), nchan, num_product_pols(cfg.image_type));
  v.freq_hz = sel.freqs;
  sum.rows_used = rows.size();
  sum.visibilities = rows.size() * nchan;
  sum.row_file.assign(rows.size(), 0);
  sum.row_index.assign(rows.size(), 0);
  std::vector<std::vector<int>> use(files.size());  // the correlations each file's product needs
  for (std::size_t f = 0; f < files.size(); ++f) use[f] = needed(cfg.image_type, files[f].scalar());
  // Rows are independent: filled in parallel, the counts summed per thread.
  std::size_t n_nonfinite = 0, n_flagged = 0, n_uv = 0;
  const long long nrows = static_cast<long long>(rows.size());
#pragma omp parallel for schedule(static) reduction(+ : n_nonfinite, n_flagged, n_uv) \
    num_threads(cfg.num_threads > 0 ? cfg.num_threads : omp_get_max_threads())
  for (long long i = 0; i < nrows; ++i) {
    ReadCounts counts;
    const Row& row = rows[static_cast<std::size_t>(i)];
    fill_row(cfg, files[row.file], use[row.file], row, static_cast<std::size_t>(i), sel, v, sum,
             counts);
    n_nonfinite += counts.non_finite;
    n_flagged += counts.flagged;
    n_uv += counts.uv_filtered;
  }
  sum.non_finite.visibilities += n_nonfinite;
  sum.flagged += n_flagged;
  sum.uv_filtered += n_uv;
  // NaN/Inf values and UVWs (the converted products: a finite double beyond float range
  // counts too) are dropped before anything sums over them.
  drop_non_finite(v, sum.non_finite, &sum.bad_uvw_rows);
  const std::string dropped = describe(sum.non_finite);
  const std::size_t usable =
      std::count_if(v.weight.begin(), v.weight.end(), [](float w) { return w > 0; });
  if (usable == 0)
    throw Error("no visibilities selected from " + cfg.input_ms[0] + ": " +
                std::to_string(sum.rows_read) + " rows read, " + std::to_string(sum.rows_used) +
                " cross-correlation rows in the time range, " + std::to_string(nchan) +
                " channels in the frequency range, " + std::to_string(sum.flagged) + " flagged, " +
                std::to_string(sum.uv_filtered) + " outside the uv range" +
                (dropped.empty() ? "" : ", " + dropped + " dropped"));
  if (cfg.rephase) {
    rephase(v, sum.phase_centre_rad, {cfg.centre_ra_rad, cfg.centre_dec_rad},
            cfg.image_type == ImageType::Psf);
    sum.phase_centre_rad = {cfg.centre_ra_rad, cfg.centre_dec_rad};
  }
  uv_extent(v, sel.freqs, sum);
  log_info(log, "Read " + std::to_string(sum.rows_read) + " rows from " +
                    std::to_string(cfg.input_ms.size()) + " Measurement Set(s); using " +
                    std::to_string(usable) + " of " + std::to_string(sum.visibilities) +
                    " visibilities (" + std::to_string(sum.flagged) + " flagged, " +
                    std::to_string(sum.uv_filtered) + " outside the uv range" +
                    (dropped.empty() ? "" : ", " + dropped + " dropped") + ")");
  return v;
}

template VisBuffer<float> read_visibilities<float>(const ImagerConfig&, InputSummary&, Logger*);
template VisBuffer<double> read_visibilities<double>(const ImagerConfig&, InputSummary&, Logger*);

}  // namespace fringe::imager
