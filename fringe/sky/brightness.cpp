#include "fringe/sky/brightness.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "fringe/core/constants.h"
#include "fringe/sky/spectrum_math.h"
#include "fringe/sky/text_parse.h"

namespace fringe::sky {

std::optional<MapUnits> parse_map_units(std::string_view t) {
  t = text::trim(t);
  if (text::iequals(t, "JY/BEAM")) return MapUnits::JyPerBeam;
  if (text::iequals(t, "JY/PIXEL") || text::iequals(t, "JY/PIX")) return MapUnits::JyPerPixel;
  if (t == "mK" || t == "MK" || t == "mk") return MapUnits::mK;
  if (t == "K" || t == "k") return MapUnits::K;
  return std::nullopt;
}

std::string to_string(MapUnits units) {
  switch (units) {
    case MapUnits::JyPerBeam:
      return "Jy/beam";
    case MapUnits::JyPerPixel:
      return "Jy/pixel";
    case MapUnits::K:
      return "K";
    case MapUnits::mK:
      return "mK";
  }
  return "?";
}

double kelvin_to_jy_per_pixel(double freq_hz, double omega_sr) {
  const double lambda = kSpeedOfLight / freq_hz;
  return 2.0 * kBoltzmann * omega_sr * 1e26 / (lambda * lambda);
}

double beam_area_pixels(double bmaj, double bmin, double pixel_area) {
  return kPi * bmaj * bmin / (4.0 * std::numbers::ln2 * pixel_area);
}

std::vector<std::uint8_t> pixel_selection(std::span<const double> values, double min_peak_fraction,
                                          double min_abs_val) {
  double peak = 0.0;
  for (double v : values)
    if (v > peak) peak = v;
  const double peak_min = peak * min_peak_fraction;
  std::vector<std::uint8_t> keep(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    // As OSKAR: the peak rule applies only with a positive fraction (so that a negative
    // min_abs_val keeps negative pixels above it).
    const bool below_peak = min_peak_fraction > 0.0 && v < peak_min;
    keep[i] = (std::isfinite(v) && v != 0.0 && !below_peak && !(v < min_abs_val)) ? 1 : 0;
  }
  return keep;
}

}  // namespace fringe::sky
