// Settings -> ImagerConfig: the image/ group of settings/imager.xml (oskar-compat.md 1.5) in
// SI units. Used by the imager app and by sim_interferometer's optional imaging step. Values
// that cannot run (odd size, unsupported options) are fringe::Error naming the key.
#pragma once

#include "fringe/imager/imager_config.h"
#include "fringe/settings/settings.h"

namespace fringe::sim {

// image/root_path empty: the first input's name without its extension.
imager::ImagerConfig imager_config(const settings::Settings& s);

}  // namespace fringe::sim
