// Readers for OSKAR's text sky models (docs/conventions.md, "Sky model files").
//
// Fixed columns (.osm): RA [deg], Dec [deg], I, Q, U, V [Jy], ref freq [Hz], spectral index,
// RM [rad/m^2], FWHM major, FWHM minor [arcsec], PA [deg E of N]; 3..9 values fill up to RM,
// 11 values are the legacy form without RM, 12 all; separators space/comma/tab; a token
// starting with '#' ends the line.
// Named columns: a "Format = a, b, ..." or "# (a, b, ...) = format" header, then rows.
// Dispatch: a line within the first 4 KiB with the word "format" selects the named reader
// (as OSKAR does, even on a comment line); a line where "format" is neither first nor last,
// or lacks the adjacent '=', is a malformed header and an error.
//
// Malformed data lines (wrong column count, values that are not numbers, Dec out of range,
// inconsistent vectors) are skipped with a warning naming the file and line; with
// `strict` they are errors. Unlike OSKAR, a line with an unparsable token is skipped as a
// whole (OSKAR drops the token and shifts the columns) and rows with more than 12 fixed
// columns are rejected (OSKAR truncates; its docs say error).
// Output: SI units and radians (see sky_model.h).
#pragma once

#include <string>

#include "fringe/sky/diagnostics.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

struct TextReadOptions {
  bool strict = false;  // malformed data lines are errors instead of warnings
  Diagnostics diagnostics;
};

enum class TextSkyFormat { FixedColumns, NamedColumns };

// Which reader applies to `path` (reads at most the first 4 KiB of lines). Throws
// fringe::Error if the file cannot be read or its "format" header is malformed.
TextSkyFormat detect_text_sky_format(const std::string& path);

SkyModel read_sky_fixed_columns(const std::string& path, const TextReadOptions& options = {});
SkyModel read_sky_named_columns(const std::string& path, const TextReadOptions& options = {});
// Dispatch as OSKAR's loader does.
SkyModel read_sky_text(const std::string& path, const TextReadOptions& options = {});

}  // namespace fringe::sky
