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

std::string number(double v) {
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

// Frequency and time axes of a product (see beam_pattern_output.h).
std::vector<io::FitsAxis> spectral_time_axes(const BeamProduct& p, const OutputContext& ctx) {
  const ObservationConfig& o = ctx.config->observation;
  const double df = o.frequency_inc_hz > 0.0 ? o.frequency_inc_hz : 1.0;
  io::FitsAxis f{out_channels(p, ctx), "FREQ", o.start_frequency_hz, df, 1.0, "Hz", "Frequency"};
  if (p.channel_average) {
    f.crval = o.channel_frequency_hz(0) + 0.5 * (o.num_channels - 1) * o.frequency_inc_hz;
    f.cdelt = o.frequency_inc_hz > 0.0 ? o.num_channels * o.frequency_inc_hz : 1.0;
  }
  const double start_s = o.start_mjd_utc * kSecondsPerDay;
  io::FitsAxis t{out_times(p, ctx),
                 "UTC",
                 start_s + 0.5 * o.interval_sec(),
                 o.interval_sec(),
                 1.0,
                 "s",
                 "Time"};
  if (p.time_average) {
    t.crval = start_s + 0.5 * o.length_sec;
    t.cdelt = o.length_sec;
  }
  return {f, t};
}

std::string selected_list(const std::vector<std::size_t>& ids) {
  std::string s;
  for (std::size_t i = 0; i < ids.size() && i < 16; ++i)
    s += (i ? ", " : "") + std::to_string(ids[i]);
  if (ids.size() > 16) s += ", ...";
  return s;
}

// One-line descriptions for the text header.
std::string what(const BeamProduct& p, const OutputContext& ctx) {
  std::string s = p.quantity_name();
  if (!p.component_name().empty()) s += " " + p.component_name();
  if (p.test_source == 0) s += ", test source: unpolarised, I = 1";
  if (p.test_source == 1) {
    const TestSourceConfig& t = ctx.config->test_source;
    s += ", test source: I, Q, U, V = " + number(t.i) + ", " + number(t.q) + ", " + number(t.u) +
         ", " + number(t.v);
  }
  return s;
}

std::vector<std::string> value_columns(const BeamProduct& p, bool full) {
  switch (p.value) {
    case ProductValue::Complex:
      if (!full) return {"re", "im"};
      return {"xx_re", "xx_im", "xy_re", "xy_im", "yx_re", "yx_im", "yy_re", "yy_im"};
    case ProductValue::Amp:
      return {"amp"};
    case ProductValue::Phase:
      return {"phase_rad"};
    case ProductValue::Real:
      return {"real"};
    default:
      return {"imag"};
  }
}

std::vector<std::string> text_header(const BeamProduct& p, const OutputContext& ctx) {
  const BeamPatternConfig& c = *ctx.config;
  const BeamGrid& g = *ctx.grid;
  const ObservationConfig& o = c.observation;
  const bool eq = g.frame == BeamFrame::Equatorial;
  std::vector<std::string> h;
  // The first line starts with kTextProductSignature (how a later run recognises the file).
  const std::string sign = std::string(kTextProductSignature).substr(2);  // without "# "
  const bool signed_name = ctx.application.rfind(sign, 0) == 0;
  h.push_back((signed_name ? ctx.application : sign + " (" + ctx.application + ")") + ": " +
              what(p, ctx));
  h.push_back("File: " + p.path);
  if (p.station_slot >= 0) {
    h.push_back("Station: " + std::to_string(p.station_id) + " (index in the telescope model)");
  } else {
    const std::size_t n = ctx.station_ids.size();
    h.push_back("Telescope: mean over the " + std::to_string(n * (n - 1) / 2) + " pairs of the " +
                std::to_string(n) + " stations " + selected_list(ctx.station_ids));
  }
  if (g.is_image) {
    h.push_back(std::string("Frame: ") + (eq ? "Equatorial" : "Horizon") + ", image " +
                std::to_string(g.width) + " x " + std::to_string(g.height) +
                " pixels; pixel_index = y * " + std::to_string(g.width) +
                " + x (x along FITS axis 1, y along axis 2)");
  } else {
    h.push_back(std::string("Frame: ") + (eq ? "Equatorial" : "Horizon") + ", " +
                std::to_string(g.size()) + " positions from '" + g.source_file +
                "'; pixel_index = position in that file");
  }
  if (p.time_average) {
    h.push_back("Times: averaged over " + std::to_string(o.num_time_steps) + " time(s)");
  } else {
    h.push_back("Times: " + std::to_string(o.num_time_steps) + " dump centre(s), MJD(UTC) " +
                number(o.time_centre_mjd(0)) + " + time_index * " + number(o.interval_sec()) +
                " s");
  }
  if (p.channel_average) {
    h.push_back("Channels: averaged over " + std::to_string(o.num_channels) + " channel(s)");
  } else {
    h.push_back("Channels: " + std::to_string(o.num_channels) + ", " +
                number(o.start_frequency_hz) + " Hz + channel_index * " +
                number(o.frequency_inc_hz) + " Hz");
  }
  h.push_back("Rows: one per pixel, time and channel (nan outside the projection)");
  std::string cols = "Columns: time_index channel_index pixel_index ";
  cols += eq ? "ra_deg dec_deg" : "az_deg el_deg";
  for (const auto& v : value_columns(p, full_pol(ctx))) cols += " " + v;
  h.push_back(cols);
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
    if (p.value == ProductValue::Phase) h.keywords.push_back({"BUNIT", std::string("rad"), ""});
    h.keywords.push_back({"TIMESYS", std::string("UTC"), ""});
    h.keywords.push_back({"TIMEUNIT", std::string("s"), "time axis unit"});
    h.keywords.push_back({"MJDREF", 0.0, "time axis zero (MJD)"});
    h.keywords.push_back({"MJD-OBS", c.observation.start_mjd_utc, "start of the observation"});
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
        grid_(*ctx.grid),
        num_values_(std::size_t(p.num_values(full_pol(ctx)))),
        format_(ctx.config->precision == Precision::Single ? " %.9g" : " %.15g"),
        keep_open_(ctx.keep_open) {
    out_.open(temp_, std::ios::out | std::ios::trunc);
    if (!out_) throw Error::in_file(path_, 0, "cannot create the text file (as '" + temp_ + "')");
    for (const auto& line : text_header(p, ctx)) out_ << "# " << line << '\n';
    check("write the header of");
    if (!keep_open_) out_.close();
  }

  ~TextProductWriter() override {
    if (!finished_) out_.close();  // temporary_ then removes the file
  }
  TextProductWriter(const TextProductWriter&) = delete;
  TextProductWriter& operator=(const TextProductWriter&) = delete;

  void write(int t, int c, std::size_t first, std::span<const double> values) override {
    if (!out_.is_open()) {
      out_.open(temp_, std::ios::out | std::ios::app);
      if (!out_) throw Error::in_file(path_, 0, "cannot reopen the text file '" + temp_ + "'");
    }
    const std::size_t n = values.size() / num_values_;
    std::string rows;
    char buf[64];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t px = first + i;
      std::snprintf(buf, sizeof buf, "%d %d %zu", t, c, px);
      rows += buf;
      for (double a : {grid_.lon[px], grid_.lat[px]}) {
        std::snprintf(buf, sizeof buf, " %.10g", a * kRadToDeg);
        rows += buf;
      }
      for (std::size_t k = 0; k < num_values_; ++k) {
        std::snprintf(buf, sizeof buf, format_, values[i * num_values_ + k]);
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
  const BeamGrid& grid_;
  std::size_t num_values_;
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
