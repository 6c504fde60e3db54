// Assembles the simulation sky from a SkyConfig in OSKAR's order (docs/conventions.md, "Sky
// assembly"): text sky files, FITS images, HEALPix FITS maps, grid, HEALPix generator, random power
// law, random broken power law — each group with its own filter (flux; radius unless drift scan)
// and extended-source defaults where the group has them — then the spectral-index override,
// then the optional text output of the final sky.
#pragma once

#include "fringe/sky/diagnostics.h"
#include "fringe/sky/sky_config.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

struct SkyGeometry {
  double phase_centre_ra = 0.0;   // rad
  double phase_centre_dec = 0.0;  // rad
  bool drift_scan = false;        // radius filters are not applied in drift-scan mode
};

// `strict` turns malformed text sky lines into errors.
SkyModel assemble_sky(const SkyConfig& config, const SkyGeometry& geometry, bool strict,
                      const Diagnostics& diagnostics = {});

}  // namespace fringe::sky
