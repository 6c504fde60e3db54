// OSKAR's station gain model (telescope/gain_model.h, gain_model.h5 at the telescope model's
// root) applied to a simulated block as OSKAR 2.13's interferometer does: after the sum over
// sources and before the system noise, V_pq -> G_p V_pq G_q^H with the table's gains for the
// block's times (clamped to the table's last time) and channels (closest table frequency).
// Both back ends (CPU and GPU) hand their summed block to this host step, so the gains are
// applied identically; its cost is one 2x2 product per visibility, small beside the sum over
// sources.
#pragma once

#include "fringe/core/log.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/vis/vis_block.h"

namespace fringe::sim {

// Applies `gains` to every visibility and autocorrelation of `block`. Warns once through
// `logger` (nullable) when the block's times run past the table's (OSKAR warns likewise and
// uses the last time).
template <typename T>
void apply_station_gain_model(vis::VisBlock<T>& block, const telescope::GainModel& gains,
                              Logger* logger);

}  // namespace fringe::sim
