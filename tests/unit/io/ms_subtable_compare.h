// Cell-by-cell comparison of Measurement Set subtables (fringe/io/ms/ms_cells.h), for
// ms_metadata_compare: a fringe MS against OSKAR 2.13's MS of the same run (issue 18,
// docs/ms_output.md). Differences are reported through a Report: `fail` for a difference that
// must not be there, `note` for one that docs/ms_output.md lists as intended.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fringe/io/ms/ms_cells.h"

namespace fringe::io::compare {

struct Report {
  std::function<void(const std::string&)> fail;  // an unexpected difference
  std::function<void(const std::string&)> note;  // a documented, intended difference
};

// How one column is compared; columns without a rule must be equal cell for cell (defined,
// shape, strings, numbers).
struct ColumnRule {
  double abs_tolerance = 0.0;  // numbers: |ours - ref| allowed
  bool trim_strings = false;   // strings: trailing spaces ignored (OSKAR pads its version)
  bool skip = false;           // compared by other code
  std::string intended;        // non-empty: a difference here is noted (with this reason)
};

using Table = std::vector<TableColumnCells>;

// Compares two tables: the same columns (names, types, measure type and reference), the same
// number of rows, then every cell by the rules. Returns the largest numeric difference seen
// per column (for the summary line).
std::map<std::string, double> compare_table(const std::string& table_name, const Table& ours,
                                            const Table& ref,
                                            const std::map<std::string, ColumnRule>& rules,
                                            const Report& report);

// HISTORY as OSKAR 2.13 writes it: row 0 "Measurement Set created at YYYY-MM-DD, hh:mm:ss
// (TZ)" with ORIGIN = APPLICATION, then the settings file line by line (ORIGIN
// OSKAR_SETTINGS), then the run log (OSKAR: OSKAR_LOG; fringe: FRINGE_LOG, noted). Settings
// lines must be equal except those whose key (the text before '=') is in
// `settings_may_differ` (paths that the test's copy of the settings file changed), which
// must then be present in both. PRIORITY, OBSERVATION_ID, OBJECT_ID, APP_PARAMS and
// CLI_COMMAND as OSKAR's; TIME whole seconds (the time of writing: not compared);
// APPLICATION the same on every row (fringe's own name: noted).
void compare_history(const Table& ours, const Table& ref,
                     const std::vector<std::string>& settings_may_differ, const Report& report);

}  // namespace fringe::io::compare
