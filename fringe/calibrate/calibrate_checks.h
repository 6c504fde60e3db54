// Checks made before a calibration touches anything (docs/reliability.md, issue 16): the
// outputs (gain table and its CSV twin) against what is at their paths and against the
// run's inputs (the Measurement Set, the sky model), the MS's writability when
// CORRECTED_DATA is to be written, and the settings that depend on the MS (columns,
// polarisations, reference station, minimum baselines). Every failure is a fringe::Error
// naming the config field ("CalibrateMsConfig.gains_path", ...; the app layer shows its
// settings key), the value and what was expected; the calibrate app reports them
// as bad input (exit 2). calibrate_ms() makes the same checks itself before it opens the MS
// for writing, so a library caller (sim_interferometer's calibration step) gets them too.
#pragma once

#include <string>
#include <vector>

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/log.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/resources.h"

namespace fringe::io {
class MsReader;
}

namespace fringe::calibrate {

// The gain table's path: CalibrateMsConfig.gains_path, or "<ms_path>.gains" when it is empty
// (trailing '/' of ms_path left out).
std::string gains_path_of(const CalibrateMsConfig& config);

// The run's outputs: the gain table (a casacore table of the gain-table type, which may
// replace only an earlier gain table) and its CSV twin "<gains>.csv" (a text file starting
// with the gain CSV's signature line). Field: CalibrateMsConfig.gains_path.
std::vector<OutputTarget> calibration_outputs(const CalibrateMsConfig& config);

// The run's inputs, which no output may be, contain or lie inside: the MS and the sky model.
std::vector<std::string> calibration_inputs(const CalibrateMsConfig& config);

// The settings that depend on the opened MS: the data and model columns exist, 1 or 4
// polarisations (1: Scalar gains only), CalOptions.reference_station in 0..N-1 and
// CalOptions.min_baselines in 0..N-1 (a station has at most N-1 baselines; N stations).
void check_settings_against_ms(const CalibrateMsConfig& config, const io::MsReader& ms);

// A file can be created in the gain table's folder (an empty probe file of a temporary name,
// removed at once: this also finds folders root cannot write to), else fringe::Error naming
// CalibrateMsConfig.gains_path; with config.write_corrected, the MS folder and its table.dat
// are writable (CORRECTED_DATA is added and FLAG updated in place), else fringe::Error naming
// CalibrateMsConfig.ms_path.
void check_writable(const CalibrateMsConfig& config);

// Room on disk, and under the process's file-size limit (RLIMIT_FSIZE, `ulimit -f`), for a
// new CORRECTED_DATA column of rows x nchan x npol complex floats in the MS at ms_path, stored
// as MsColumnWriter adds it (fringe/io/ms/ms_column_writer.cpp: tiles of about 1 MiB of
// whole rows, so the file is at least one tile). Else fringe::Error naming the MS, with the
// bytes needed and free: a column that cannot be written completely is never added (a
// write that fails half-way can leave the MS without the column's storage file).
void check_room_for_new_column(const std::string& ms_path, std::size_t rows, int nchan, int npol);

// Peak host memory of the calibration of an MS of num_rows rows, num_stations stations,
// nchan channels and npol pols (fringe/core/resources.h): the samples of one solution
// interval (an upper bound of its rows: every row, or times_per_solution x N(N+1)/2 for N
// stations; read as floats, the next interval read meanwhile, reordered into the cells in
// the solver's precision, CORRECTED_DATA computed and written) and the normal equations of
// the interval's cells (Scalar, Diagonal: n x n complex + real per channel group, n = N or
// 2N receptors). Full-Jones on a GPU adds at most 1 GiB (its chunks), not counted.
RunEstimate calibration_estimate(const CalibrateMsConfig& config, std::size_t num_rows,
                                 int num_stations, int nchan, int npol);

// Everything above, reading only the MS's metadata (opened read-only and closed again):
// check_outputs(calibration_outputs, calibration_inputs + extra_inputs),
// check_settings_against_ms, the sky model (read, and at least one source), check_writable
// and check_run_size(calibration_estimate, config.force, log): a calibration that would
// need more memory than is available is refused (with the estimate and the fields that set
// it) unless config.force. Nothing is written.
void check_calibration(const CalibrateMsConfig& config,
                       const std::vector<std::string>& extra_inputs = {}, Logger* log = nullptr);

}  // namespace fringe::calibrate
