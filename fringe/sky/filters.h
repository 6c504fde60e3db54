// Sky filters and per-group adjustments (docs/settings.md; docs/conventions.md, "Sky assembly"), in
// SI units/radians:
//  - flux filter on Stokes I at the reference frequency: keep flux_min < I <= flux_max;
//  - radius filter: keep radius_inner <= r < radius_outer, r the great-circle distance from
//    the phase centre (callers skip it in drift-scan mode, as OSKAR does);
//  - extended-source defaults: set every source's FWHM major/minor and position angle when
//    both configured FWHM are > 0;
//  - spectral index override: every source gets one log spectral index drawn from
//    N(mean, std_dev) (CounterRng(seed)) and the reference frequency ref_frequency_hz.
#pragma once

#include <cstdint>
#include <vector>

#include "fringe/sky/sky_config.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

std::vector<std::uint8_t> flux_filter_mask(const SkyModel& sky, double flux_min, double flux_max);
std::vector<std::uint8_t> radius_filter_mask(const SkyModel& sky, double ra0, double dec0,
                                             double radius_inner_rad, double radius_outer_rad);
// Applies the flux filter, then (unless drift_scan) the radius filter.
SkyModel apply_filter(const SkyModel& sky, const FilterConfig& filter, double ra0, double dec0,
                      bool drift_scan);
void apply_extended_sources(SkyModel& sky, const ExtendedSourceConfig& config);
void override_spectral_index(SkyModel& sky, const SpectralIndexConfig& config);

// Great-circle distance [rad] between two directions (haversine form, stable for small r).
double angular_distance(double ra1, double dec1, double ra2, double dec2);

}  // namespace fringe::sky
