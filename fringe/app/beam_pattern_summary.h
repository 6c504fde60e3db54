// The run summary of sim_beam_pattern, from its typed config (observation, telescope, beam
// pattern, outputs), and its log file.
#pragma once

#include <string>

#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/core/log.h"

namespace fringe::app {

// Observation, Telescope and Beam pattern sections.
void log_beam_pattern_summary(const beam_pattern::BeamPatternConfig& config, Logger& log);

// The log file (simulator/keep_log_file): its first line is kBeamPatternLogSignature
// (beam_pattern_settings.h), which lets a later run replace it; the lines are the logger's
// history. Written under a temporary name and renamed when complete; fringe::Error naming
// the file when it cannot be written.
void write_beam_pattern_log(const std::string& path, const Logger& log);

}  // namespace fringe::app
