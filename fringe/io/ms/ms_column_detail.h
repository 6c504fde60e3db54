// Internal to fringe/io/ms (includes casacore; never include it from a public header): adds a
// complex float visibility column [npol, nchan] to a main table, tiled like DATA.
#pragma once

#include <casacore/tables/Tables/Table.h>

#include <string>

namespace fringe::io::detail {

// No-op if the column exists. The table must be open for writing.
void add_visibility_column(casacore::Table& main, const std::string& column, int npol, int nchan);

}  // namespace fringe::io::detail
