#include "fringe/beam_pattern/beam_pattern_products.h"

#include <cmath>
#include <cstdio>

namespace fringe::beam_pattern {
namespace {

struct Averaging {
  bool time, channel;
};

// The test sources of the power products: Scalar mode has the unpolarised source only.
std::vector<int> test_sources(const BeamPatternConfig& c) {
  if (c.pol_mode == PolarisationMode::Scalar) return {0};
  std::vector<int> out;
  if (c.test_source.stokes_i) out.push_back(0);
  if (c.test_source.custom) out.push_back(1);
  return out;
}

class Planner {
 public:
  Planner(const BeamPatternConfig& c, std::span<const std::size_t> ids)
      : c_(c), ids_(ids), full_(c.pol_mode == PolarisationMode::Full) {}

  std::vector<BeamProduct> plan() {
    if (c_.separate) voltage();
    if (c_.separate) power({false, false});
    if (c_.average_all) power({true, true});
    if (c_.average_axis == AverageAxis::Channel) power({false, true});
    if (c_.average_axis == AverageAxis::Time) power({true, false});
    for (auto& p : out_) p.path = product_path(c_.root_path, p);
    return std::move(out_);
  }

 private:
  void add(ProductSource src, ProductValue v, ProductFormat f, int slot, Averaging a, int ts,
           int comp) {
    BeamProduct p;
    p.source = src;
    p.value = v;
    p.format = f;
    p.station_slot = slot;
    p.station_id = slot >= 0 ? ids_[std::size_t(slot)] : 0;
    p.time_average = a.time;
    p.channel_average = a.channel;
    p.test_source = ts;
    p.component = comp;
    out_.push_back(std::move(p));
  }

  // Amplitude or phase: one product per matrix element in Full mode.
  void per_element(ProductValue v, ProductFormat f, int slot) {
    if (!full_) {
      add(ProductSource::Voltage, v, f, slot, {false, false}, -1, -1);
      return;
    }
    for (int k = 0; k < 4; ++k) add(ProductSource::Voltage, v, f, slot, {false, false}, -1, k);
  }

  void voltage() {
    const BeamOutputs& o = c_.outputs;
    const bool image = c_.coordinates == BeamCoordinates::Image;
    for (int s = 0; s < int(ids_.size()); ++s) {
      if (o.text_raw_complex) {
        add(ProductSource::Voltage, ProductValue::Complex, ProductFormat::Text, s, {false, false},
            -1, -1);
      }
      if (o.text_amp) per_element(ProductValue::Amp, ProductFormat::Text, s);
      if (o.text_phase) per_element(ProductValue::Phase, ProductFormat::Text, s);
      if (!image) continue;
      if (o.fits_amp) per_element(ProductValue::Amp, ProductFormat::Fits, s);
      if (o.fits_phase) per_element(ProductValue::Phase, ProductFormat::Fits, s);
    }
  }

  void power(Averaging a) {
    const BeamOutputs& o = c_.outputs;
    const bool image = c_.coordinates == BeamCoordinates::Image;
    const int num_stokes = full_ ? 4 : 1;
    const std::vector<int> sources = test_sources(c_);
    const struct {
      bool on;
      ProductValue value;
    } auto_fits[] = {{o.fits_auto_power, ProductValue::Amp},
                     {o.fits_auto_power_phase, ProductValue::Phase},
                     {o.fits_auto_power_real, ProductValue::Real},
                     {o.fits_auto_power_imag, ProductValue::Imag}},
      cross_fits[] = {{o.fits_cross_amp, ProductValue::Amp},
                      {o.fits_cross_phase, ProductValue::Phase},
                      {o.fits_cross_real, ProductValue::Real},
                      {o.fits_cross_imag, ProductValue::Imag}};
    for (int s = 0; s < int(ids_.size()); ++s) {
      for (int ts : sources) {
        for (int k = 0; k < num_stokes && o.text_auto_power; ++k) {
          add(ProductSource::AutoPower, ProductValue::Amp, ProductFormat::Text, s, a, ts, k);
        }
      }
      if (!image) continue;
      for (int ts : sources) {
        for (int k = 0; k < num_stokes; ++k) {
          for (const auto& f : auto_fits) {
            if (f.on) add(ProductSource::AutoPower, f.value, ProductFormat::Fits, s, a, ts, k);
          }
        }
      }
    }
    for (int ts : sources) {
      if (o.text_cross_raw_complex) {
        add(ProductSource::CrossPower, ProductValue::Complex, ProductFormat::Text, -1, a, ts, -1);
      }
      for (int k = 0; k < num_stokes; ++k) {
        if (o.text_cross_amp) {
          add(ProductSource::CrossPower, ProductValue::Amp, ProductFormat::Text, -1, a, ts, k);
        }
        if (o.text_cross_phase) {
          add(ProductSource::CrossPower, ProductValue::Phase, ProductFormat::Text, -1, a, ts, k);
        }
      }
    }
    if (!image) return;
    for (int ts : sources) {
      for (int k = 0; k < num_stokes; ++k) {
        for (const auto& f : cross_fits) {
          if (f.on) add(ProductSource::CrossPower, f.value, ProductFormat::Fits, -1, a, ts, k);
        }
      }
    }
  }

  const BeamPatternConfig& c_;
  std::span<const std::size_t> ids_;
  bool full_;
  std::vector<BeamProduct> out_;
};

}  // namespace

int BeamProduct::num_values(bool full) const {
  if (value != ProductValue::Complex) return 1;
  return full ? 8 : 2;
}

std::string BeamProduct::quantity_name() const {
  const char* v = value == ProductValue::Complex ? "RAW_COMPLEX"
                  : value == ProductValue::Amp   ? "AMP"
                  : value == ProductValue::Phase ? "PHASE"
                  : value == ProductValue::Real  ? "REAL"
                                                 : "IMAG";
  if (source == ProductSource::AutoPower) return std::string("AUTO_POWER_") + v;
  if (source == ProductSource::CrossPower) return std::string("CROSS_POWER_") + v;
  return v;
}

std::string BeamProduct::component_name() const {
  if (component < 0) return "";
  // OSKAR's names: the feed (matrix row) and the theta/phi component (column).
  static const char* const kElements[] = {"X_THETA", "X_PHI", "Y_THETA", "Y_PHI"};
  static const char* const kStokes[] = {"I", "Q", "U", "V"};
  return source == ProductSource::Voltage ? kElements[component] : kStokes[component];
}

std::vector<BeamProduct> plan_products(const BeamPatternConfig& config,
                                       std::span<const std::size_t> station_ids) {
  return Planner(config, station_ids).plan();
}

std::string product_path(const std::string& root, const BeamProduct& p) {
  std::string name = root;
  if (p.station_slot >= 0) {
    char s[32];
    std::snprintf(s, sizeof s, "_S%04zu", p.station_id);
    name += s;
  }
  name += p.time_average ? "_TIME_AVG" : "_TIME_SEP";
  name += p.channel_average ? "_CHAN_AVG" : "_CHAN_SEP";
  name += "_" + p.quantity_name();
  if (p.test_source == 0) name += "_I";
  if (p.test_source == 1) name += "_CUSTOM";
  const std::string comp = p.component_name();
  if (!comp.empty()) name += "_" + comp;
  return name + (p.format == ProductFormat::Fits ? ".fits" : ".txt");
}

Jones<double> test_source_brightness(const TestSourceConfig& t, int test_source) {
  if (test_source != 1) return jones_identity<double>();  // I = 1, Q = U = V = 0
  return {{t.i + t.q, 0.0}, {t.u, t.v}, {t.u, -t.v}, {t.i - t.q, 0.0}};
}

Complex<double> power_stokes(const Jones<double>& p, int stokes, bool full) {
  if (!full) return stokes == 0 ? p.a : Complex<double>{0.0, 0.0};
  switch (stokes) {
    case 0:
      return (p.a + p.d) * 0.5;
    case 1:
      return (p.a - p.d) * 0.5;
    case 2:
      return (p.b + p.c) * 0.5;
    default: {
      // V = -i (XY - YX) / 2
      const Complex<double> diff = p.b - p.c;
      return {0.5 * diff.im, -0.5 * diff.re};
    }
  }
}

double complex_value(Complex<double> z, ProductValue value) {
  switch (value) {
    case ProductValue::Amp:
      return std::hypot(z.re, z.im);
    case ProductValue::Phase:
      return std::atan2(z.im, z.re);
    case ProductValue::Real:
      return z.re;
    default:
      return z.im;
  }
}

}  // namespace fringe::beam_pattern
