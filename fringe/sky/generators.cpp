#include "fringe/sky/generators.h"

#include <cmath>
#include <string>

#include "fringe/astro/direction.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/sky/healpix.h"
#include "fringe/sky/random.h"

namespace fringe::sky {

namespace {

enum Stream : std::uint64_t { kStreamRa = 0, kStreamDec = 1, kStreamFlux = 2, kStreamSegment = 3 };

Source point(double ra, double dec, double flux) {
  Source s;
  s.ra = ra;
  s.dec = dec;
  s.I = flux;
  return s;
}

void check_flux_range(const std::string& group, double s_min, double s_max) {
  if (!(s_min > 0.0) || !(s_max >= s_min) || !std::isfinite(s_max))
    throw Error(group + ": need 0 < flux_min <= flux_max (got flux_min = " + std::to_string(s_min) +
                ", flux_max = " + std::to_string(s_max) + ")");
}

// Integral of S^p over [a, b].
double power_integral(double a, double b, double p) {
  if (b <= a) return 0.0;
  if (std::fabs(p + 1.0) < 1e-12) return std::log(b / a);
  return (std::pow(b, p + 1.0) - std::pow(a, p + 1.0)) / (p + 1.0);
}

// Uniform on the sphere: RA = 2 pi u, Dec = asin(2 v - 1).
void random_position(const CounterRng& ra_rng, const CounterRng& dec_rng, std::uint64_t k,
                     double& ra, double& dec) {
  ra = 2.0 * kPi * ra_rng.uniform(k);
  dec = std::asin(2.0 * dec_rng.uniform(k) - 1.0);
}

}  // namespace

double power_law_sample(double u, double s_min, double s_max, double power) {
  if (s_max == s_min) return s_min;
  if (std::fabs(power + 1.0) < 1e-12) return s_min * std::pow(s_max / s_min, u);
  const double q = power + 1.0;
  const double a = std::pow(s_min, q), b = std::pow(s_max, q);
  return std::pow(a + u * (b - a), 1.0 / q);
}

SkyModel generate_grid(const GridConfig& config, double ra0, double dec0) {
  SkyModel sky;
  const std::uint64_t n = config.side_length;
  if (n == 0) return sky;
  if (!(config.fov_rad >= 0.0) || config.fov_rad > kPi)
    throw Error("generator/grid/fov_deg must be in [0, 180] (got " +
                std::to_string(config.fov_rad * 180.0 / kPi) + ")");
  const double half = std::sin(0.5 * config.fov_rad);
  const CounterRng rng(config.seed, kStreamFlux);
  sky.reserve(n * n);
  for (std::uint64_t j = 0; j < n; ++j) {
    const double m = n > 1 ? -half + 2.0 * half * static_cast<double>(j) / (n - 1) : 0.0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const double l = n > 1 ? half - 2.0 * half * static_cast<double>(i) / (n - 1) : 0.0;
      if (l * l + m * m > 1.0) continue;
      double ra = 0, dec = 0;
      astro::lm_to_radec(l, m, ra0, dec0, ra, dec);
      const std::uint64_t k = j * n + i;
      const double flux =
          config.mean_flux_jy + (config.std_flux_jy > 0 ? config.std_flux_jy * rng.normal(k) : 0.0);
      sky.push_back(point(ra, dec, flux));
    }
  }
  return sky;
}

SkyModel generate_random_power_law(const RandomPowerLawConfig& config) {
  SkyModel sky;
  if (config.num_sources == 0) return sky;
  check_flux_range("generator/random_power_law", config.flux_min, config.flux_max);
  const CounterRng ra_rng(config.seed, kStreamRa), dec_rng(config.seed, kStreamDec),
      flux_rng(config.seed, kStreamFlux);
  sky.reserve(config.num_sources);
  for (std::uint64_t k = 0; k < config.num_sources; ++k) {
    double ra = 0, dec = 0;
    random_position(ra_rng, dec_rng, k, ra, dec);
    sky.push_back(point(
        ra, dec,
        power_law_sample(flux_rng.uniform(k), config.flux_min, config.flux_max, config.power)));
  }
  return sky;
}

SkyModel generate_random_broken_power_law(const RandomBrokenPowerLawConfig& config) {
  SkyModel sky;
  if (config.num_sources == 0) return sky;
  check_flux_range("generator/random_broken_power_law", config.flux_min, config.flux_max);
  const double s_min = config.flux_min, s_max = config.flux_max;
  const double t = std::min(std::max(config.threshold, s_min), s_max);
  // Density S^p1 below t and t^(p1 - p2) S^p2 above (continuous at t).
  const double w1 = power_integral(s_min, t, config.power1);
  const double w2 =
      std::pow(t, config.power1 - config.power2) * power_integral(t, s_max, config.power2);
  const double p_low = (w1 + w2) > 0 ? w1 / (w1 + w2) : 1.0;
  const CounterRng ra_rng(config.seed, kStreamRa), dec_rng(config.seed, kStreamDec),
      flux_rng(config.seed, kStreamFlux), seg_rng(config.seed, kStreamSegment);
  sky.reserve(config.num_sources);
  for (std::uint64_t k = 0; k < config.num_sources; ++k) {
    double ra = 0, dec = 0;
    random_position(ra_rng, dec_rng, k, ra, dec);
    const double u = flux_rng.uniform(k);
    const double flux = seg_rng.uniform(k) < p_low ? power_law_sample(u, s_min, t, config.power1)
                                                   : power_law_sample(u, t, s_max, config.power2);
    sky.push_back(point(ra, dec, flux));
  }
  return sky;
}

SkyModel generate_healpix(const HealpixGeneratorConfig& config) {
  SkyModel sky;
  if (config.nside == 0) return sky;
  const std::uint64_t npix = healpix_npix(config.nside);
  sky.reserve(npix);
  for (std::uint64_t p = 0; p < npix; ++p) {
    double theta = 0, phi = 0;
    healpix_pix2ang_ring(config.nside, p, theta, phi);
    sky.push_back(point(phi, 0.5 * kPi - theta, config.amplitude));
  }
  return sky;
}

}  // namespace fringe::sky
