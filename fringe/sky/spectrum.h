// Host-side spectral evaluation of a whole SkyModel at one frequency (one channel), using the
// per-source formulas of spectrum_math.h, and the per-channel common flux filter.
// Frequencies in Hz, fluxes in Jy.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fringe/sky/sky_config.h"
#include "fringe/sky/sky_model.h"
#include "fringe/sky/spectrum_math.h"

namespace fringe::sky {

// View of source i's spectral fields (pointers into `sky`, valid while it is unchanged).
SpectrumView<double> spectrum_view(const SkyModel& sky, std::size_t i);

// Stokes I, Q, U, V of every source at freq_hz. Output spans must have sky.size() elements.
void evaluate_stokes(const SkyModel& sky, double freq_hz, std::span<double> I, std::span<double> Q,
                     std::span<double> U, std::span<double> V);

struct StokesColumns {
  std::vector<double> I, Q, U, V;
};
StokesColumns evaluate_stokes(const SkyModel& sky, double freq_hz);

// sky/common_flux_filter: keep[i] = flux_min < I[i] <= flux_max (Stokes I at the channel).
std::vector<std::uint8_t> common_flux_filter_mask(std::span<const double> I,
                                                  const CommonFluxFilterConfig& config);

}  // namespace fringe::sky
