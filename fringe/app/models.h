// Loading the simulation inputs named by the settings: the sky (assembled in OSKAR's order,
// docs/conventions.md, "Sky assembly") and the telescope model ("Telescope model folders"), with
// one-paragraph summaries for the run log: source count, Stokes I range, Gaussian count; stations,
// elements, longest baseline.
#pragma once

#include <string>

#include "fringe/core/log.h"
#include "fringe/settings/settings.h"
#include "fringe/sky/sky_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::app {

// `strict` turns malformed sky lines into errors. Warnings go to the logger.
sky::SkyModel load_sky(const settings::Settings& s, Logger& logger, bool strict);
telescope::TelescopeModel load_telescope(const settings::Settings& s, Logger& logger);

// "3 sources (1 Gaussian), Stokes I 0.5 .. 3 Jy (total 4.5 Jy)".
std::string sky_summary(const sky::SkyModel& sky);

}  // namespace fringe::app
