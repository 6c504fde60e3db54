// The files a simulator run reads and writes, collected before any work so that
// fringe::check_outputs (core/output_guard.h) can refuse an output that would destroy
// something (docs/reliability.md): an existing folder that is not a Measurement Set, a file
// of another kind, an input of the same run.
//
// Inputs: the settings file and every enabled input-file, input-file-list and
// input-folder setting of the schema (sky models, telescope model, pointing file, noise
// files, ...), resolved against the settings file's folder.
// The outputs are listed by each app's translator (interferometer_outputs in
// simulation_settings.h, beam_pattern_outputs in beam_pattern_settings.h).
#pragma once

#include <string>
#include <vector>

#include "fringe/settings/settings.h"

namespace fringe::app {

// The settings file (when not empty) and every enabled input path the settings name, except
// those that are one of `exclude` (the run's own Measurement Set, which a chained step such
// as calibrate/input_ms may name: it reads it after the run wrote it).
std::vector<std::string> run_inputs(const settings::Settings& s, const std::string& settings_file,
                                    const std::vector<std::string>& exclude = {});

}  // namespace fringe::app
