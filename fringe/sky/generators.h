// Sky generators (docs/settings.md; docs/conventions.md, "Sky assembly"), producing point sources
// in SI units/radians:
//  - grid: side_length^2 sources on the phase-centre tangent plane, l from +sin(fov/2) to
//    -sin(fov/2) (fastest index), m from -sin(fov/2) to +sin(fov/2); flux mean + std N(0,1);
//  - random power law: positions uniform on the sphere, fluxes with dN/dS ~ S^power in
//    [flux_min, flux_max] (inverse-CDF sampling);
//  - random broken power law: dN/dS ~ S^power1 below threshold, S^power2 above, continuous
//    at the threshold;
//  - HEALPix: one source of `amplitude` Jy at each of the 12 nside^2 RING pixel centres
//    (taken as equatorial RA = phi, Dec = pi/2 - theta).
// Random numbers come from CounterRng(seed, stream) (random.h). Invalid parameters (e.g.
// flux_min > flux_max, flux_min <= 0 with a power law) throw fringe::Error naming the field.
#pragma once

#include "fringe/sky/sky_config.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

SkyModel generate_grid(const GridConfig& config, double ra0, double dec0);
SkyModel generate_random_power_law(const RandomPowerLawConfig& config);
SkyModel generate_random_broken_power_law(const RandomBrokenPowerLawConfig& config);
SkyModel generate_healpix(const HealpixGeneratorConfig& config);

// Inverse CDF of dN/dS ~ S^power on [s_min, s_max] at u in [0, 1].
double power_law_sample(double u, double s_min, double s_max, double power);

}  // namespace fringe::sky
