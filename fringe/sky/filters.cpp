#include "fringe/sky/filters.h"

#include <algorithm>
#include <cmath>

#include "fringe/sky/random.h"

namespace fringe::sky {

double angular_distance(double ra1, double dec1, double ra2, double dec2) {
  const double sd = std::sin(0.5 * (dec2 - dec1));
  const double sr = std::sin(0.5 * (ra2 - ra1));
  const double h = sd * sd + std::cos(dec1) * std::cos(dec2) * sr * sr;
  return 2.0 * std::asin(std::min(1.0, std::sqrt(std::max(0.0, h))));
}

std::vector<std::uint8_t> flux_filter_mask(const SkyModel& sky, double flux_min, double flux_max) {
  std::vector<std::uint8_t> keep(sky.size());
  for (std::size_t i = 0; i < sky.size(); ++i)
    keep[i] = (sky.I[i] > flux_min && sky.I[i] <= flux_max) ? 1 : 0;
  return keep;
}

std::vector<std::uint8_t> radius_filter_mask(const SkyModel& sky, double ra0, double dec0,
                                             double radius_inner_rad, double radius_outer_rad) {
  std::vector<std::uint8_t> keep(sky.size());
  for (std::size_t i = 0; i < sky.size(); ++i) {
    const double r = angular_distance(ra0, dec0, sky.ra[i], sky.dec[i]);
    keep[i] = (r >= radius_inner_rad && r < radius_outer_rad) ? 1 : 0;
  }
  return keep;
}

SkyModel apply_filter(const SkyModel& sky, const FilterConfig& filter, double ra0, double dec0,
                      bool drift_scan) {
  auto keep = flux_filter_mask(sky, filter.flux_min, filter.flux_max);
  if (!drift_scan) {
    const auto r =
        radius_filter_mask(sky, ra0, dec0, filter.radius_inner_rad, filter.radius_outer_rad);
    for (std::size_t i = 0; i < keep.size(); ++i) keep[i] = keep[i] && r[i];
  }
  return sky.select(keep);
}

void apply_extended_sources(SkyModel& sky, const ExtendedSourceConfig& config) {
  if (!(config.fwhm_major_rad > 0.0 && config.fwhm_minor_rad > 0.0)) return;
  std::fill(sky.fwhm_major.begin(), sky.fwhm_major.end(), config.fwhm_major_rad);
  std::fill(sky.fwhm_minor.begin(), sky.fwhm_minor.end(), config.fwhm_minor_rad);
  std::fill(sky.position_angle.begin(), sky.position_angle.end(), config.position_angle_rad);
}

void override_spectral_index(SkyModel& sky, const SpectralIndexConfig& config) {
  if (!config.override) return;
  const CounterRng rng(config.seed, 0);
  Ragged spix;
  for (std::size_t i = 0; i < sky.size(); ++i) {
    const double alpha = config.mean + config.std_dev * rng.normal(i);
    spix.push_back(std::span<const double>(&alpha, 1));
    sky.ref_freq[i] = config.ref_frequency_hz;
    sky.flags[i] &= ~(kLinearSpectralIndex | kHasCurvature);
  }
  sky.spectral_index = std::move(spix);
}

}  // namespace fringe::sky
