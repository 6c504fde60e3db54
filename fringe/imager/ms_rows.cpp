#include "fringe/imager/ms_rows.h"

#include <algorithm>
#include <cmath>

#include <omp.h>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::imager {

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

// Selects the channels of input f (the first input's become the selection, the others must
// match it) and checks its SPECTRAL_WINDOW.
void select_channels(const ImagerConfig& cfg, std::size_t f, const InputColumns& in,
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
    sum.channel_width_hz.clear();
    for (int c : mine.chans) sum.channel_width_hz.push_back(widths.at(c));
  } else if (mine.freqs != sel.freqs) {
    throw Error::in_file(path, 0,
                         "its selected channel frequencies differ from those of " +
                             cfg.input_ms[0] + " (all inputs must have the same channels)");
  }
}

// The weight of a visibility (the mean over the correlations used), 0 when it is flagged,
// non-finite or outside the uv range (each counted).
double visibility_weight(const ImagerConfig& cfg, const FileRows& fd, std::size_t row,
                         std::size_t base, double uvlen, ReadCounts& sum) {
  const std::vector<int>& use = fd.use;
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
void put_products(ImageType type, const FileRows& fd, std::size_t base, Complex<T>* out) {
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
      put(0, d(fd.use[0]));
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

}  // namespace

FileRows check_input_layout(const ImagerConfig& cfg, std::size_t f, const InputColumns& in,
                            ChannelSelection& sel, InputSummary& sum) {
  const std::string& path = cfg.input_ms[f];
  select_channels(cfg, f, in, sel, sum);
  FileRows fd;
  fd.npol = in.num_pols;
  fd.nchan_ms = in.num_channels;
  const std::vector<int>& corr = in.corr_types;
  const char* what = in.vis_file ? ".vis file" : "Measurement Set";
  fd.corr_slot.assign(4, -1);
  for (int i = 0; i < static_cast<int>(corr.size()); ++i)
    if (corr[i] >= 9 && corr[i] <= 12) fd.corr_slot[corr[i] - 9] = i;
  const bool scalar = corr.size() == 1 && fd.corr_slot[XX] == 0;
  for (int c : needed(cfg.image_type, scalar))
    if (fd.corr_slot[c] < 0)
      throw Error::in_file(path, 0,
                           std::string("image type ") + to_string(cfg.image_type) + " needs the " +
                               corr_name(c) + " correlation, which the " + what + " does not have");
  if (fd.nchan_ms != static_cast<int>(in.freqs_hz.size()) || fd.npol < 1 ||
      fd.npol != static_cast<int>(corr.size()))
    throw Error::in_file(path, 0,
                         "inconsistent Measurement Set: NUM_CHAN " + std::to_string(fd.nchan_ms) +
                             " with " + std::to_string(in.freqs_hz.size()) +
                             " CHAN_FREQ values, NUM_CORR " + std::to_string(fd.npol) + " with " +
                             std::to_string(corr.size()) + " CORR_TYPE values");
  fd.use = needed(cfg.image_type, fd.scalar());
  return fd;
}

void take_rows(const ImagerConfig& cfg, std::size_t f, std::size_t first_row, bool data_read,
               InputColumns& in, FileRows& fd, std::vector<SelectedRow>& rows, InputSummary& sum) {
  const std::vector<double>& time = in.time;
  const std::vector<int>& a1 = in.antenna1;
  const std::vector<int>& a2 = in.antenna2;
  // The cells read are those the metadata promise, or the loops below index past them (found
  // by fuzz_ms_metadata, tests/fuzz).
  const std::size_t ncells = time.size() * std::size_t(fd.nchan_ms) * std::size_t(fd.npol);
  if (in.flag.size() != ncells || (data_read && in.data.size() != ncells) ||
      in.weight.size() != time.size() * fd.npol || a1.size() != time.size() ||
      a2.size() != time.size() || in.uvw.size() != time.size())
    throw Error::in_file(cfg.input_ms[f], 0,
                         "inconsistent Measurement Set: DATA/FLAG/WEIGHT cells of rows " +
                             std::to_string(first_row) + " to " +
                             std::to_string(first_row + time.size()) + " are not " +
                             std::to_string(fd.nchan_ms) + " channels x " +
                             std::to_string(fd.npol) + " correlations");
  fd.first_row = first_row;
  std::swap(fd.uvw, in.uvw);  // swaps keep both sides' capacities for the next slice
  std::swap(fd.data, in.data);
  std::swap(fd.flag, in.flag);
  std::swap(fd.weight, in.weight);
  sum.rows_read += time.size();
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
}

template <typename T>
void fill_row(const ImagerConfig& cfg, const FileRows& fd, const SelectedRow& row, std::size_t i,
              const ChannelSelection& sel, VisBuffer<T>& v, ReadCounts& counts) {
  const int nchan = static_cast<int>(sel.chans.size());
  const int nprod = v.num_pols;
  const bool psf = cfg.image_type == ImageType::Psf;
  v.uvw_m[i] = fd.uvw[row.index];
  v.time_s[i] = row.time;
  v.baseline[i] = (row.file * 65536 + row.a1) * 65536 + row.a2;
  v.station1[i] = row.a1;
  v.station2[i] = row.a2;
  const double uv_m = std::hypot(v.uvw_m[i][0], v.uvw_m[i][1]);  // once per row
  for (int c = 0; c < nchan; ++c) {
    const std::size_t base = (row.index * fd.nchan_ms + sel.chans[c]) * fd.npol;
    const double s = sel.freqs[c] / kSpeedOfLight;
    const double uvlen = uv_m * s;
    const double wt = visibility_weight(cfg, fd, row.index, base, uvlen, counts);
    v.weight[i * nchan + c] = static_cast<float>(wt);
    Complex<T>* out = &v.vis[(i * nchan + c) * nprod];
    if (psf) {
      out[0] = {T(1.0), T(0.0)};
      continue;
    }
    if (wt == 0 || fd.data.empty()) continue;  // no data column read: weights only
    put_products(cfg.image_type, fd, base, out);
  }
}

template <typename T>
void convert_rows(const ImagerConfig& cfg, const std::vector<FileRows>& files,
                  const std::vector<SelectedRow>& rows, const ChannelSelection& sel,
                  VisBuffer<T>& v, InputSummary& sum) {
  const int nchan = static_cast<int>(sel.chans.size());
  v.resize(rows.size(), nchan, num_product_pols(cfg.image_type));
  v.freq_hz = sel.freqs;
  sum.rows_used += rows.size();
  sum.visibilities += rows.size() * nchan;
  // Rows are independent: filled in parallel, the counts summed per thread.
  std::size_t n_nonfinite = 0, n_flagged = 0, n_uv = 0;
  const long long nrows = static_cast<long long>(rows.size());
#pragma omp parallel for schedule(static) reduction(+ : n_nonfinite, n_flagged, n_uv) \
    num_threads(cfg.num_threads > 0 ? cfg.num_threads : omp_get_max_threads())
  for (long long i = 0; i < nrows; ++i) {
    ReadCounts counts;
    const SelectedRow& row = rows[static_cast<std::size_t>(i)];
    fill_row(cfg, files[row.file], row, static_cast<std::size_t>(i), sel, v, counts);
    n_nonfinite += counts.non_finite;
    n_flagged += counts.flagged;
    n_uv += counts.uv_filtered;
  }
  sum.non_finite.visibilities += n_nonfinite;
  sum.flagged += n_flagged;
  sum.uv_filtered += n_uv;
}

template <typename T>
void add_uv_extent(const VisBuffer<T>& v, InputSummary& sum) {
  const int nchan = v.num_channels;
  for (std::size_t i = 0; i < v.num_rows; ++i) {
    // The largest wavelengths-per-metre factor of the row's visibilities with weight: x * s
    // grows with s, so its maximum over the channels is x times the largest s.
    double s_max = -1.0;
    for (int c = 0; c < nchan; ++c)
      if (v.weight[i * nchan + c] > 0) s_max = std::max(s_max, v.freq_hz[c] / kSpeedOfLight);
    if (s_max < 0.0) continue;
    sum.max_abs_w_lambda = std::max(sum.max_abs_w_lambda, std::abs(v.uvw_m[i][2]) * s_max);
    sum.max_uv_lambda =
        std::max(sum.max_uv_lambda, std::hypot(v.uvw_m[i][0], v.uvw_m[i][1]) * s_max);
  }
}

void finish_read(const ImagerConfig& cfg, const InputSummary& sum, std::size_t usable,
                 Logger* log) {
  const std::string dropped = describe(sum.non_finite);
  if (usable == 0)
    throw Error("no visibilities selected from " + cfg.input_ms[0] + ": " +
                std::to_string(sum.rows_read) + " rows read, " + std::to_string(sum.rows_used) +
                " cross-correlation rows in the time range, " +
                std::to_string(sum.channels.size()) + " channels in the frequency range, " +
                std::to_string(sum.flagged) + " flagged, " + std::to_string(sum.uv_filtered) +
                " outside the uv range" + (dropped.empty() ? "" : ", " + dropped + " dropped"));
  log_info(log, "Read " + std::to_string(sum.rows_read) + " rows from " +
                    std::to_string(cfg.input_ms.size()) + " Measurement Set(s); using " +
                    std::to_string(usable) + " of " + std::to_string(sum.visibilities) +
                    " visibilities (" + std::to_string(sum.flagged) + " flagged, " +
                    std::to_string(sum.uv_filtered) + " outside the uv range" +
                    (dropped.empty() ? "" : ", " + dropped + " dropped") + ")");
}

#define FRINGE_MS_ROWS(T)                                                                          \
  template void fill_row<T>(const ImagerConfig&, const FileRows&, const SelectedRow&, std::size_t, \
                            const ChannelSelection&, VisBuffer<T>&, ReadCounts&);                  \
  template void convert_rows<T>(const ImagerConfig&, const std::vector<FileRows>&,                 \
                                const std::vector<SelectedRow>&, const ChannelSelection&,          \
                                VisBuffer<T>&, InputSummary&);                                     \
  template void add_uv_extent<T>(const VisBuffer<T>&, InputSummary&);
FRINGE_MS_ROWS(float)
FRINGE_MS_ROWS(double)
#undef FRINGE_MS_ROWS

}  // namespace fringe::imager
