// Loader for OSKAR telescope model directories (.tm), following OSKAR 2.x's rules
// (docs/conventions.md, "Telescope model folders"):
//  - position.txt (required): array centre lon, lat [deg], alt [m, default 0].
//  - station coordinates from the first of layout.txt, layout_enu.txt (E N [U [dE dN dU]]),
//    layout_ecef.txt (X Y Z [dX dY dZ]), layout_wgs84.txt (lon lat [alt]); columns 1-3 are
//    the measured position, adding the error columns gives the true position.
//  - station folders, sorted by name as OSKAR sorts them (byte order): none (each station is
//    one element), one (shared by all), one per station, or any number with
//    station_type_map.txt (one 0-based folder index per station).
//  - in a station folder: layout.txt / layout_enu.txt (+ layout_x / layout_y variants),
//    gain_phase, cable_length_error, apodisation / apodization, feed_angle (each with _x / _y
//    variants), element_types, mount_types, permitted_beams; sub-folders are tiles (one shared,
//    or one per element), loaded recursively.
//  - noise: noise_frequencies.txt at the root, rms.txt at the root or per station folder.
//  - root cable_length_error[_x|_y].txt: one length error per station.
//  - gain_model.h5 at the root: OSKAR's station gain table (gain_model.h); in a station folder
//    or a shared tile folder: per-element gains (StationModel::element_gains; one in one of
//    several per-element tile folders is refused).
// Files fringe does not load (HARP/FEKO coefficients, numerical element patterns other than
// spherical-wave text files, virtual_antenna_angle.txt, which OSKAR 2.13 ignores too) are
// listed in TelescopeModel::unsupported_files and reported as warnings. Malformed input
// raises fringe::Error naming the file and line.
#pragma once

#include <filesystem>

#include "fringe/core/log.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::telescope {

// Loads a .tm directory. Warnings go to `logger` (nullable) and to TelescopeModel::warnings.
TelescopeModel load_telescope_model(const std::filesystem::path& directory,
                                    Logger* logger = nullptr);

// Loads one station folder (and its tiles) on its own; `depth` 1 = top-level station.
// Exposed for tests and tools; load_telescope_model uses it for every station folder.
StationModel load_station_model(const std::filesystem::path& directory,
                                std::vector<UnsupportedFile>* unsupported = nullptr,
                                std::vector<std::string>* warnings = nullptr);

}  // namespace fringe::telescope
