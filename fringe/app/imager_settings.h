// Settings -> ImagerConfig: the image/ group of settings/imager.xml (docs/settings.md) in
// SI units. Used by the imager app and by sim_interferometer's optional imaging step. Values
// that cannot run (odd size, unsupported options) are fringe::Error naming the key.
#pragma once

#include <string>

#include "fringe/imager/imager_config.h"
#include "fringe/settings/schema.h"
#include "fringe/settings/settings.h"

namespace fringe::app {

// image/root_path empty: the first input's name without its extension. image/input_vis_data
// empty: `default_input` when given (sim_interferometer's imaging step: the Measurement Set
// it writes), else an error naming the key. image/idg/aterms = Station beams reads the
// telescope/ group (present in both apps' schemas) and loads the telescope model here; without
// telescope/input_directory it is an error naming image/idg/aterms.
imager::ImagerConfig imager_config(const settings::Settings& s,
                                   const std::string& default_input = "");

// The imager app's schema files: `files` (imager.xml and the fragments it imports) with the
// telescope group of common/telescope.xml (shared with the simulators, where it is always
// used) made to depend on image/idg/aterms = Station beams, so that its required
// telescope/input_directory is required only for station-beam A-terms. Throws fringe::Error
// when common/telescope.xml is missing or has no <s k="telescope"> group.
settings::SchemaFiles imager_schema_files(const settings::SchemaFiles& files);

}  // namespace fringe::app
