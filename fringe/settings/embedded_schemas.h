// The schema files compiled into an executable. The CMake function
// fringe_embed_schemas(<target> [BASE_DIR dir] <xml files...>) (fringe/settings/CMakeLists.txt)
// generates the definition of embedded_schemas() for that target: a map from each file's
// path relative to BASE_DIR (default: the repository's settings/ folder, e.g.
// "sim_interferometer.xml", "common/sky.xml") to its text. Each executable embeds one set.
#pragma once

#include "fringe/settings/schema.h"

namespace fringe::settings {

const SchemaFiles& embedded_schemas();

}  // namespace fringe::settings
