// The objects of the public API (docs/cpp_api.md, docs/python.md). They are the library's own
// typed models, so a program and the library share them without copies:
//   Sky          a list of sources, structure of arrays (SI units, radians, Jy, Hz)
//   Telescope    a telescope model (stations, elements, beams), as loaded from a .tm folder
//   Observation  phase centre, start time, times, channels (astro/observation.h)
// The Python classes fringe.Sky, fringe.Telescope and fringe.Observation wrap exactly these.
#pragma once

#include "fringe/astro/observation.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::api {

using Sky = sky::SkyModel;
using Telescope = telescope::TelescopeModel;
using Observation = astro::ObservationConfig;

}  // namespace fringe::api
