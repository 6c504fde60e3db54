#include "fringe/beam_pattern/beam_pattern_output.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include "fringe/astro/time.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/fits/fits_image_writer.h"

namespace fringe::beam_pattern {
namespace {

namespace fs = std::filesystem;

bool full_pol(const OutputContext& ctx) { return ctx.config->pol_mode == PolarisationMode::Full; }

int out_times(const BeamProduct& p, const OutputContext& ctx) {
  return p.time_average ? 1 : ctx.config->observation.num_time_steps;
}
int out_channels(const BeamProduct& p, const OutputContext& ctx) {
  return p.channel_average ? 1 : ctx.config->observation.num_channels;
}

std::string iso_time(double mjd) {
  const astro::CalendarTime t = astro::mjd_to_calendar(mjd);
  char s[64];
  std::snprintf(s, sizeof s, "%04d-%02d-%02dT%02d:%02d:%06.3f", t.year, t.month, t.day, t.hour,
                t.minute, t.second);
  return s;
}

// The root of the file names as the settings give it (OSKAR prints the name it opened).
std::string displayed_root(const BeamPatternConfig& c) {
  return c.root_path_as_given.empty() ? c.root_path : c.root_path_as_given;
}

// Frequency and time axes of a product (see beam_pattern_output.h): OSKAR's values for every
// product, averaged or not.
std::vector<io::FitsAxis> spectral_time_axes(const BeamProduct& p, const OutputContext& ctx) {
  const ObservationConfig& o = ctx.config->observation;
  io::FitsAxis f{out_channels(p, ctx), "FREQ", o.start_frequency_hz, o.frequency_inc_hz, 1.0, "Hz",
                 "Frequency"};
  io::FitsAxis t{out_times(p, ctx),
                 "UTC",
                 o.start_mjd_utc * kSecondsPerDay,
                 o.interval_sec(),
                 1.0,
                 "s",
                 "Time"};
  return {f, t};
}

// The header of a text product, OSKAR's lines (oskar_beam_pattern_check_init.c, new_text_file).
std::vector<std::string> text_header(const BeamProduct& p, const OutputContext& ctx) {
  const BeamPatternConfig& c = *ctx.config;
  const std::size_t chunk = c.max_pixels_per_chunk;
  const std::size_t pixels = ctx.grid->size();
  std::vector<std::string> h;
  h.push_back(kTextProductSignature + (p.station_slot >= 0
                                           ? "station " + std::to_string(p.station_id)
                                           : std::string("telescope (interferometer)")));
  h.push_back("# Filename is '" + product_path(displayed_root(c), p) + "'");
  h.push_back("# Dimension order (slowest to fastest) is:");
  h.push_back(c.average_axis == AverageAxis::Time
                  ? "#     [pixel chunk], [channel], [time], [pixel index]"
                  : "#     [pixel chunk], [time], [channel], [pixel index]");
  h.push_back("# Number of pixel chunks: " + std::to_string((pixels + chunk - 1) / chunk));
  h.push_back("# Number of times (output): " + std::to_string(out_times(p, ctx)));
  h.push_back("# Number of channels (output): " + std::to_string(out_channels(p, ctx)));
  h.push_back("# Maximum pixel chunk size: " + std::to_string(chunk));
  h.push_back("# Total number of pixels: " + std::to_string(pixels));
  return h;
}

class FitsProductWriter : public ProductWriter {
 public:
  FitsProductWriter(const BeamProduct& p, const OutputContext& ctx)
      : plane_(ctx.grid->size()),
        channels_(out_channels(p, ctx)),
        single_(ctx.config->precision == Precision::Single) {
    const BeamPatternConfig& c = *ctx.config;
    io::FitsImageHeader h;
    h.pixel_type = single_ ? io::FitsPixelType::Float32 : io::FitsPixelType::Float64;
    h.axes = image_axes(*ctx.grid);
    for (auto& a : spectral_time_axes(p, ctx)) h.axes.push_back(std::move(a));
    h.keywords = frame_keywords(*ctx.grid);
    for (int a = 1; a <= 4; ++a) h.keywords.push_back({"CROTA" + std::to_string(a), 0.0, ""});
    h.keywords.push_back({"PRODUCT", p.quantity_name(), "sim_beam_pattern product"});
    if (!p.component_name().empty()) {
      h.keywords.push_back(
          {"POLN", p.component_name(),
           p.source == ProductSource::Voltage ? "matrix element (row feed)" : "Stokes parameter"});
    }
    if (p.test_source >= 0) {
      h.keywords.push_back(
          {"TESTSRC", std::string(p.test_source == 0 ? "I" : "CUSTOM"), "test source"});
    }
    if (p.station_slot >= 0) {
      h.keywords.push_back({"STATION", long(p.station_id), "station index in the telescope"});
    } else {
      h.keywords.push_back(
          {"NSTATION", long(ctx.station_ids.size()), "stations averaged over pairs"});
    }
    h.keywords.push_back({"TIMEAVG", p.time_average, "averaged over time"});
    h.keywords.push_back({"CHANAVG", p.channel_average, "averaged over channels"});
    h.keywords.push_back({"TIMESYS", std::string("UTC"), ""});
    h.keywords.push_back({"TIMEUNIT", std::string("s"), "time axis unit"});
    h.keywords.push_back({"MJDREF", 0.0, "time axis zero (MJD)"});
    h.keywords.push_back({"MJD-OBS", c.observation.start_mjd_utc, "Start time"});
    h.keywords.push_back({"DATE-OBS", iso_time(c.observation.start_mjd_utc), "start (UTC)"});
    h.keywords.push_back({"ORIGIN", ctx.application, ""});
    h.history = ctx.history;
    writer_ = std::make_unique<io::FitsImageWriter>(p.path, h, ctx.keep_open);
  }

  void write(int t, int c, std::size_t first, std::span<const double> values) override {
    const std::size_t offset = (std::size_t(t) * std::size_t(channels_) + std::size_t(c)) * plane_;
    if (single_) {  // rounded here so the file holds what single precision computed
      buffer_.assign(values.begin(), values.end());
      writer_->write(offset + first, std::span<const float>(buffer_));
    } else {
      writer_->write(offset + first, values);
    }
  }

  void finish() override { writer_->finish(); }

 private:
  std::size_t plane_;
  int channels_;
  bool single_;
  std::vector<float> buffer_;
  std::unique_ptr<io::FitsImageWriter> writer_;
};

class TextProductWriter : public ProductWriter {
 public:
  TextProductWriter(const BeamProduct& p, const OutputContext& ctx)
      : path_(p.path),
        target_(checked_target(product_output_target("", p))),
        temporary_(target_),
        temp_(temporary_.path()),
        num_values_(std::size_t(p.num_values(full_pol(ctx)))),
        single_(ctx.config->precision == Precision::Single),
        format_(ctx.config->precision == Precision::Single ? "% .6e " : "% .14e "),
        keep_open_(ctx.keep_open) {
    out_.open(temp_, std::ios::out | std::ios::trunc);
    if (!out_) throw Error::in_file(path_, 0, "cannot create the text file (as '" + temp_ + "')");
    for (const auto& line : text_header(p, ctx)) out_ << line << '\n';
    check("write the header of");
    if (!keep_open_) out_.close();
  }

  ~TextProductWriter() override {
    if (!finished_) out_.close();  // temporary_ then removes the file
  }
  TextProductWriter(const TextProductWriter&) = delete;
  TextProductWriter& operator=(const TextProductWriter&) = delete;

  // Rows come in the order they are written (beam_pattern.h), as in OSKAR's files.
  void write(int, int, std::size_t, std::span<const double> values) override {
    if (!out_.is_open()) {
      out_.open(temp_, std::ios::out | std::ios::app);
      if (!out_) throw Error::in_file(path_, 0, "cannot reopen the text file '" + temp_ + "'");
    }
    // OSKAR's rows (oskar_mem_save_ascii): the values of one pixel per line, each as
    // "% .6e " (single precision) or "% .14e " (double), NaN as "-nan " (the sign OSKAR's
    // NaN pixels carry).
    const std::size_t n = values.size() / num_values_;
    std::string rows;
    char buf[64];
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < num_values_; ++k) {
        const double v = values[i * num_values_ + k];
        if (std::isnan(v)) {
          rows += "-nan ";
          continue;
        }
        std::snprintf(buf, sizeof buf, format_, single_ ? double(float(v)) : v);
        rows += buf;
      }
      rows += '\n';
    }
    out_ << rows;
    check("write to");
    if (!keep_open_) out_.close();
  }

  void finish() override {
    if (finished_) return;
    if (out_.is_open()) out_.close();
    if (out_.fail()) {
      temporary_.discard();
      throw Error::in_file(path_, 0, "cannot close the text file '" + temp_ + "' (removed)");
    }
    // Replaces an earlier output of the same product only now (output_guard.h).
    temporary_.commit();  // no key: an error names the file
    finished_ = true;
  }

 private:
  void check(const char* action) {
    if (!out_) {
      out_.close();
      temporary_.discard();
      throw Error::in_file(path_, 0,
                           std::string("cannot ") + action + " '" + temp_ + "' (removed)");
    }
  }

  static OutputTarget checked_target(OutputTarget target) {
    check_output(target);  // no key: an error names the file
    return target;
  }

  std::string path_;
  OutputTarget target_;
  TemporaryOutput temporary_;  // removed unless committed (also on SIGINT/SIGTERM)
  std::string temp_;
  std::size_t num_values_;
  bool single_;
  const char* format_;
  bool keep_open_;
  bool finished_ = false;
  std::ofstream out_;
};

}  // namespace

OutputTarget product_output_target(const std::string& key, const BeamProduct& product) {
  OutputTarget t;
  t.key = key;
  t.path = product.path;
  if (product.format == ProductFormat::Fits) {
    t.kind = OutputKind::Fits;
  } else {
    t.kind = OutputKind::Text;
    t.text_signature = kTextProductSignature;
  }
  return t;
}

std::unique_ptr<ProductWriter> open_product_writer(const BeamProduct& product,
                                                   const OutputContext& context) {
  if (product.format == ProductFormat::Fits) {
    return std::make_unique<FitsProductWriter>(product, context);
  }
  return std::make_unique<TextProductWriter>(product, context);
}

}  // namespace fringe::beam_pattern
