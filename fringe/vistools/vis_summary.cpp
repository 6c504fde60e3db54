#include "fringe/vistools/vis_summary.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <set>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/vis/oskar_binary.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/vistools/inputs.h"

namespace fringe::vistools {
namespace {

// OSKAR's log layout (its default value width of 40 columns): a section is a blank line, "=|== "
// and the title, a blank line; a value " | + <name>", padded, ": <value>"; a message at
// depth d " |", 2 d spaces, " + " / " - " / " * ", the text. Blank lines are " |" and 67
// spaces.
class LogText {
 public:
  explicit LogText(std::ostream& out) : out_(out) {}
  void blank() { out_ << " |" << std::string(67, ' ') << "\n"; }
  void section(const std::string& title) {
    blank();
    out_ << "=|== " << title << "\n";
    blank();
  }
  void value(const std::string& name, const std::string& text) {
    constexpr int kWidth = 40;
    const int pad = kWidth - (4 + int(name.size()));
    out_ << " | + " << name << std::string(std::size_t(std::max(pad, 0)), ' ') << ": " << text
         << "\n";
  }
  void message(int depth, const std::string& text) {
    static const char symbols[3] = {'+', '-', '*'};
    out_ << " |" << std::string(std::size_t(2 * depth), ' ') << ' ' << symbols[depth % 3] << ' '
         << text << "\n";
  }

 private:
  std::ostream& out_;
};

template <typename... A>
std::string format(const char* fmt, A... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

// Running statistics of complex values (Welford's update of the mean; the "variance" OSKAR
// prints is sqrt(sum |x - mean|^2 / n), the real part of its complex M2).
struct Stats {
  std::size_t count = 0, zeros = 0;
  double abs_min = DBL_MAX, abs_max = -DBL_MAX;
  double min_re = DBL_MAX, min_im = DBL_MAX, max_re = -DBL_MAX, max_im = -DBL_MAX;
  double mean_re = 0, mean_im = 0, m2 = 0;

  void add(double re, double im) {
    const double a = std::sqrt(re * re + im * im);
    ++count;
    if (a < DBL_MIN) ++zeros;
    if (a > abs_max) {
      abs_max = a;
      max_re = re;
      max_im = im;
    }
    if (a < abs_min) {
      abs_min = a;
      min_re = re;
      min_im = im;
    }
    const double dr = re - mean_re, di = im - mean_im;
    mean_re += dr / double(count);
    mean_im += di / double(count);
    m2 += dr * (re - mean_re) + di * (im - mean_im);
  }

  void print(LogText& log, const char* what) const {
    if (count == 0) return;
    log.message(0, std::string("Stokes-I ") + what + ":");
    log.message(1, format("Minimum : % 6.3e % +6.3ej Jy", min_re, min_im));
    log.message(1, format("Maximum : % 6.3e % +6.3ej Jy", max_re, max_im));
    log.message(1, format("Mean    : % 6.3e % +6.3ej Jy", mean_re, mean_im));
    log.message(1, format("Std.dev.: % 6.3e Jy", std::sqrt(m2 / double(count))));
    log.message(1, format("Zeros   :  %zu/%zu (%.1f%%)", zeros, count,
                          double(zeros) / double(count) * 100.0));
  }
};

// Stokes I of the num_pols values at v: (XX + YY) / 2, or the value. The sum is formed in T,
// as OSKAR forms it from the stored values.
template <typename T>
void add_stokes_i(Stats& s, const Complex<T>* v, int num_pols, bool conjugate) {
  double re = 0, im = 0;
  if (num_pols == 4) {
    re = 0.5 * T(v[0].re + v[3].re);
    im = 0.5 * T(v[0].im + v[3].im);
  } else {
    re = v[0].re;
    im = v[0].im;
  }
  s.add(re, conjugate ? -im : im);
}

template <typename T>
void vis_stats(const io::VisFileReader& reader, Stats& autos, Stats& cross) {
  const io::VisFileHeader& h = reader.header();
  const int np = h.num_pols();
  // The reader gives crosses in the CASA convention; files in the other one store conjugates.
  const bool conj = !h.casa_phase_convention;
  for (int b = 0; b < reader.num_blocks(); ++b) {
    const vis::VisBlock<T> blk = reader.read_block<T>(b);
    if (blk.has_cross()) {
      for (std::size_t k = 0; k < blk.cross_data().size(); k += std::size_t(np))
        add_stokes_i(cross, &blk.cross_data()[k], np, conj);
    }
    if (blk.has_autos()) {
      for (std::size_t k = 0; k < blk.auto_data().size(); k += std::size_t(np))
        add_stokes_i(autos, &blk.auto_data()[k], np, false);
    }
  }
}

void print_stats(LogText& log, const Stats& autos, const Stats& cross) {
  log.section("Visibility Statistics");
  autos.print(log, "auto-correlations");
  cross.print(log, "cross-correlations");
}

void summarise_vis(const VisSummaryConfig& c, const std::string& path, int i, int n,
                   std::ostream& out) {
  io::VisFileReader reader(path);
  const io::VisFileHeader& h = reader.header();
  LogText log(out);
  if (c.header) {
    const int ns = h.num_stations;
    log.section("Visibility Header");
    log.value("File", format("[%i/%i] %s", i + 1, n, path.c_str()));
    std::string type = io::oskar_type_name(h.amp_type());
    for (char& ch : type) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    log.value("Amplitude type", type);
    log.value("Max. times per block", std::to_string(h.max_times_per_block));
    log.value("Max. channels per block", std::to_string(h.max_channels_per_block));
    log.value("No. times total", std::to_string(h.num_times_total));
    log.value("No. channels", std::to_string(h.num_channels_total));
    log.value("No. blocks", std::to_string(h.num_blocks()));
    log.value("No. stations", std::to_string(ns));
    log.value("No. baselines", std::to_string(ns * (ns - 1) / 2));
    log.value("Start frequency (MHz)", format("%.6f", h.freq_start_hz / 1.0e6));
    log.value("Channel separation (MHz)", format("%.6f", h.freq_inc_hz / 1.0e6));
    log.value("Channel bandwidth (Hz)", format("%f", h.channel_bandwidth_hz));
    log.value("Start time (MJD, UTC)", format("%f", h.time_start_mjd_utc));
    log.value("Time increment (s)", format("%f", h.time_inc_sec));
    log.value("Integration time (s)", format("%f", h.time_average_sec));
  }
  if (c.stats) {
    Stats autos, cross;
    if (h.precision == Precision::Double) {
      vis_stats<double>(reader, autos, cross);
    } else {
      vis_stats<float>(reader, autos, cross);
    }
    print_stats(log, autos, cross);
  }
  if (c.log) out << h.run_log;
  if (c.settings) out << h.settings;
}

void summarise_ms(const VisSummaryConfig& c, const std::string& path, int i, int n,
                  std::ostream& out, std::ostream& err) {
  io::MsReader ms(path);
  LogText log(out);
  const std::vector<double> time = ms.read_time();
  if (c.header) {
    const int ns = ms.num_stations(), np = ms.num_pols();
    const std::vector<double> f = ms.channel_frequencies_hz();
    const std::vector<double> w = ms.channel_widths_hz();
    std::set<double> distinct(time.begin(), time.end());
    const double interval = ms.num_rows() > 0 ? ms.read_interval(0, 1).front() : 0.0;
    const double exposure = ms.num_rows() > 0 ? ms.read_exposure(0, 1).front() : 0.0;
    const double t0 = distinct.empty() ? 0.0 : *distinct.begin();
    log.section("Measurement Set");
    log.value("File", format("[%i/%i] %s", i + 1, n, path.c_str()));
    log.value("Amplitude type", np == 4   ? "SINGLE COMPLEX MATRIX"
                                : np == 1 ? "SINGLE COMPLEX"
                                          : std::to_string(np) + " x SINGLE COMPLEX");
    log.value("No. rows", std::to_string(ms.num_rows()));
    log.value("No. times total", std::to_string(distinct.size()));
    log.value("No. channels", std::to_string(ms.num_channels()));
    log.value("No. stations", std::to_string(ns));
    log.value("No. baselines", std::to_string(ns * (ns - 1) / 2));
    log.value("Start frequency (MHz)", format("%.6f", f.empty() ? 0.0 : f.front() / 1.0e6));
    log.value("Channel separation (MHz)",
              format("%.6f", f.size() > 1 ? (f[1] - f[0]) / 1.0e6 : 0.0));
    log.value("Channel width (Hz)", format("%f", w.empty() ? 0.0 : w.front()));
    // TIME is the dump centre: the observation starts half an interval earlier.
    log.value("Start time (MJD, UTC)", format("%f", (t0 - 0.5 * interval) / kSecondsPerDay));
    log.value("Time increment (s)", format("%f", interval));
    log.value("Integration time (s)", format("%f", exposure));
    log.value("Telescope name", ms.telescope_name());
  }
  if (c.stats) {
    Stats autos, cross;
    const int np = ms.num_pols(), nc = ms.num_channels();
    const std::vector<int> a1 = ms.read_antenna1(), a2 = ms.read_antenna2();
    constexpr std::size_t kChunk = 8192;
    std::vector<Complex<float>> data;
    for (std::size_t r0 = 0; r0 < ms.num_rows(); r0 += kChunk) {
      const std::size_t m = std::min(kChunk, ms.num_rows() - r0);
      ms.read_data(r0, m, "DATA", data);
      for (std::size_t k = 0; k < m; ++k) {
        Stats& s = a1[r0 + k] == a2[r0 + k] ? autos : cross;
        for (int ch = 0; ch < nc; ++ch) {
          add_stokes_i(s, &data[(k * std::size_t(nc) + std::size_t(ch)) * std::size_t(np)],
                       np == 4 ? 4 : 1, false);
        }
      }
    }
    print_stats(log, autos, cross);
  }
  if (c.log || c.settings) {
    err << "warning: " << path
        << ": the run log and settings of a Measurement Set are in its HISTORY table (not "
           "printed by vis_summary)\n";
  }
}

}  // namespace

void vis_summary(const VisSummaryConfig& config, std::ostream& out, std::ostream& err) {
  VisSummaryConfig c = config;
  if (!c.header && !c.stats && !c.log && !c.settings) c.header = true;
  const int n = int(c.inputs.size());
  for (int i = 0; i < n; ++i) {
    const std::string& path = c.inputs[std::size_t(i)];
    if (data_set_kind(path) == DataSetKind::MeasurementSet) {
      summarise_ms(c, path, i, n, out, err);
    } else {
      summarise_vis(c, path, i, n, out);
    }
  }
}

}  // namespace fringe::vistools
