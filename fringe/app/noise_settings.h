// interferometer/noise/... -> sim::NoiseConfig: the simulator's noise keys (docs/settings.md),
// read by sim_interferometer and by vis_add_noise (OSKAR's tool reads the same keys).
#pragma once

#include "fringe/settings/settings.h"
#include "fringe/sim/simulation_config.h"

namespace fringe::app {

// With interferometer/noise/enable = false, only `enable` is read. Bad values are
// fringe::Error::in_setting naming the key: a missing frequency or RMS file, fewer than one
// noise frequency, an RMS outside [0, sim::kMaxNoiseRmsJy] Jy, an unknown option.
sim::NoiseConfig noise_config(const settings::Settings& s);

}  // namespace fringe::app
