// Text output of a sky model (sky/output_text_file; docs/settings.md), readable back by
// sky_text_reader.h. The first line is always kSkyTextSignature (a comment to every .osm
// reader): only a file starting with it, an earlier output, may be replaced; anything else
// at the path is refused (fringe/core/output_guard.h). Files are written to a temporary name
// beside the target and committed at the end, so a failed write never leaves a
// complete-looking file nor changes what was at the path.
//  - fixed columns (.osm, 12 columns: RA, Dec [deg], I, Q, U, V [Jy], ref freq [Hz], spectral
//    index, RM [rad/m^2], FWHM major, minor [arcsec], PA [deg]); fields the format cannot
//    hold (higher spectral terms, curvature, multi-valued spectra, lines, polarisation
//    fraction/angle, reference wavelength, linear spectral indices) are dropped with a warning;
//  - named columns: only the columns some source uses; options as TextOutputConfig
//    (use_ska_convention forces degrees and quoted vectors, no Type column, semi-axes a/b,
//    and pads spectral-index vectors to 5 entries).
// Numbers are written in the shortest form that reads back to the same double.
#pragma once

#include <string>

#include "fringe/core/output_guard.h"
#include "fringe/sky/diagnostics.h"
#include "fringe/sky/sky_config.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

// First line of every sky model fringe writes (must not contain the word "format", which
// the readers take for a column header).
inline constexpr const char* kSkyTextSignature = "# fringe sky model";

// The output-guard target of a sky text file named by settings key `key`.
OutputTarget sky_text_target(const std::string& key, const std::string& path);

void write_sky_fixed_columns(const SkyModel& sky, const std::string& path,
                             const Diagnostics& diagnostics = {});
void write_sky_named_columns(const SkyModel& sky, const std::string& path,
                             const TextOutputConfig& config);
// Chooses by config.use_named_columns; writes to config.file (no-op if empty).
void write_sky_text(const SkyModel& sky, const TextOutputConfig& config,
                    const Diagnostics& diagnostics = {});

}  // namespace fringe::sky
