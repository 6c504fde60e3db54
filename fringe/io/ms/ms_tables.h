// Internal to fringe/io/ms (includes casacore; never include it from outside this folder):
// creation of an empty Measurement Set with OSKAR's table layout and filled subtables.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <casacore/ms/MeasurementSets/MeasurementSet.h>

#include "fringe/vis/vis_meta.h"

namespace fringe::io::detail {

// Rows per tile of the tiled main-table columns: whole dumps of about 1 MiB of DATA
// (OSKAR's sizing: for 351 baselines x 2 channels x 4 pols it gives 47 dumps = 16497 rows),
// or, when one dump alone exceeds 8 MiB, about 1 MiB of rows.
std::size_t tile_rows(std::size_t bytes_per_row, std::size_t rows_per_time);

// Creates the MS at `path` (which must not exist) with num_ms_pols products per row and
// writes ANTENNA, FEED, FIELD, SPECTRAL_WINDOW, POLARIZATION, DATA_DESCRIPTION,
// OBSERVATION, STATE and the first HISTORY rows. The main table has no rows yet.
std::unique_ptr<casacore::MeasurementSet> create_ms(const std::string& path,
                                                    const vis::VisMeta& meta, int num_ms_pols,
                                                    std::size_t rows_per_time);

// Gives up a Measurement Set this run is creating (a temporary): marks the main table and
// every subtable named in its keywords for delete, then releases it (ms is null after). Its
// destructors then write nothing and remove its files. Without this, a write that fails in
// casacore's destructors (a full disk) throws from a destructor and the process ends with
// SIGABRT. Never throws.
void abandon_ms(std::unique_ptr<casacore::MeasurementSet>& ms) noexcept;

// Appends HISTORY rows, one per line, all with the given ORIGIN and the current time.
void add_history_rows(casacore::MeasurementSet& ms, const std::vector<std::string>& lines,
                      const std::string& origin, const std::string& application);

// The current time as MJD(UTC) * 86400 seconds.
double now_mjd_utc_sec();

}  // namespace fringe::io::detail
