#include "fringe/app/models.h"

#include <algorithm>
#include <sstream>

#include "fringe/app/settings_to_config.h"
#include "fringe/sky/sky_assembly.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::app {

sky::SkyModel load_sky(const settings::Settings& s, Logger& logger, bool strict) {
  const astro::ObservationConfig observation = observation_config(s);
  sky::Diagnostics diagnostics;
  diagnostics.logger = &logger;
  sky::SkyConfig config = sky_config(s);
  if (observation.mode == astro::ObservationMode::DriftScan &&
      config.generator.grid.side_length > 0) {
    // The grid is laid out about the RA/Dec phase centre, which a drift scan does not have.
    log_warning(&logger,
                "setting 'sky/generator/grid/side_length' = '" +
                    s.get("sky/generator/grid/side_length") +
                    "': the grid generator is not used in drift-scan mode (as OSKAR 2.13)");
    config.generator.grid.side_length = 0;
  }
  return sky::assemble_sky(config, sky_geometry(observation), strict, diagnostics);
}

telescope::TelescopeModel load_telescope(const settings::Settings& s, Logger& logger) {
  return telescope::load_telescope_model(telescope_config(s).input_directory, &logger);
}

std::string sky_summary(const sky::SkyModel& sky) {
  std::ostringstream out;
  const std::size_t n = sky.size();
  out << n << (n == 1 ? " source" : " sources") << " (" << sky.num_gaussian() << " Gaussian)";
  if (n > 0) {
    const auto [lo, hi] = std::minmax_element(sky.I.begin(), sky.I.end());
    double total = 0.0;
    for (double v : sky.I) total += v;
    out << ", Stokes I " << *lo << " .. " << *hi << " Jy (total " << total << " Jy)";
  }
  return out.str();
}

}  // namespace fringe::app
