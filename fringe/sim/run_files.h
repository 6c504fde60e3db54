// The files a simulator run reads and writes, collected before any work so that
// fringe::check_outputs (core/output_guard.h) can refuse an output that would destroy
// something (docs/reliability.md): an existing folder that is not a Measurement Set, a file
// of another kind, an input of the same run.
//
// Inputs: the settings file and every enabled input-file, input-file-list and
// input-folder setting of the schema (sky models, telescope model, pointing file, noise
// files, ...), resolved against the settings file's folder.
// Outputs of sim_interferometer: the Measurement Set (interferometer/ms_filename), the true
// gains table and CSV of gain corruption (<ms>.true_gains[.csv]), the sky model text file
// (sky/output_text_file), the gain table and CSV of the calibration step (calibrate/
// output_gains, default <ms>.gains) and the FITS images of the imaging step (image/
// root_path + _<product>.fits). Outputs of sim_beam_pattern: each product's FITS or text
// file and the log file (<root>.log).
#pragma once

#include <string>
#include <vector>

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/output_guard.h"
#include "fringe/imager/imager_config.h"
#include "fringe/settings/settings.h"
#include "fringe/sim/beam_pattern_products.h"
#include "fringe/sim/simulation_config.h"

namespace fringe::sim {

// First line of sim_beam_pattern's log file (simulator/keep_log_file), which lets a later run
// replace it. (The other outputs' kinds and signatures come from their writers: io/ms,
// io/fits, sky/sky_writer.h, sim/beam_pattern_output.h.)
inline constexpr const char* kBeamPatternLogSignature = "# fringe sim_beam_pattern log";

// The settings file (when not empty) and every enabled input path the settings name, except
// those that are one of `exclude` (the run's own Measurement Set, which a chained step such
// as calibrate/input_ms may name: it reads it after the run wrote it).
std::vector<std::string> run_inputs(const settings::Settings& s, const std::string& settings_file,
                                    const std::vector<std::string>& exclude = {});

// Every output of a sim_interferometer run; calibration and imaging may be null (not run).
std::vector<OutputTarget> interferometer_outputs(const SimulationConfig& config,
                                                 const settings::Settings& s,
                                                 const calibrate::CalibrateMsConfig* calibration,
                                                 const imager::ImagerConfig* imaging);

// Every output of a sim_beam_pattern run: its products (final paths set) and the log file
// when keep_log_file.
std::vector<OutputTarget> beam_pattern_outputs(const std::vector<BeamProduct>& products,
                                               const std::string& root_path, bool keep_log_file);

}  // namespace fringe::sim
