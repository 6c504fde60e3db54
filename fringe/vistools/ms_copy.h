// A copy of a Measurement Set under a temporary name, for the tools that change a column of an
// MS (vis_add, vis_add_noise): the copy is changed and renamed into place when complete
// (core/output_guard.h), so the source, and an earlier output at the final path, stay whole
// until then, also when the output replaces the source itself (in-place noise addition).
#pragma once

#include <string>

#include "fringe/core/output_guard.h"

namespace fringe::vistools {

// The output target of a Measurement Set written by a tool (OutputKind::MeasurementSet).
OutputTarget ms_target(const std::string& path);

// Copies the folder `source` (a Measurement Set) to out.path(), recursively. Throws
// RunFailure (vistools/inputs.h) naming both paths when the copy fails.
void copy_ms(const std::string& source, const TemporaryOutput& out);

}  // namespace fringe::vistools
