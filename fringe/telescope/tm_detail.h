// Internal helpers shared by the .tm loader's files (not a public API): warning collection,
// folder listings in OSKAR's order, detection of files fringe does not support, and the
// recursive station folder loader.
#pragma once

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/log.h"
#include "fringe/telescope/station_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::telescope::detail {
namespace fs = std::filesystem;

// Collects warnings and unsupported files while a model loads.
struct Report {
  std::vector<UnsupportedFile>* unsupported = nullptr;
  std::vector<std::string>* warnings = nullptr;
  Logger* logger = nullptr;

  void warn(const std::string& message) const {
    if (warnings) warnings->push_back(message);
    log_warning(logger, message);
  }
  void unsupported_file(const fs::path& path, const std::string& reason) const {
    if (unsupported) unsupported->push_back({path.string(), reason});
  }
};

bool has_file(const fs::path& dir, const char* name);
// The first of `names` that exists in `dir`.
std::optional<fs::path> first_existing(const fs::path& dir,
                                       std::initializer_list<const char*> names);
// Sub-folder names sorted as OSKAR sorts them (strcmp, i.e. byte order). Like OSKAR, every
// folder except "." and ".." counts, hidden ones included.
std::vector<std::string> sorted_subdirs(const fs::path& dir);
std::vector<std::string> sorted_files(const fs::path& dir);
// "a, b, c, ... (n in all)".
std::string list_names(const std::vector<std::string>& names, std::size_t max_shown = 6);
// Records files that OSKAR can read but fringe does not, found in a folder at `depth`
// (0 = root).
void scan_unsupported(const fs::path& dir, int depth, const Report& report);
// One number per line.
std::vector<double> read_single_column(const fs::path& file, const std::string& what);

// Deepest station hierarchy accepted (1 = station, 2 = tiles, ...): real models use 2 or 3;
// the limit bounds the work a hostile model can ask for (each level may multiply it).
constexpr int kMaxStationDepth = 10;

// Loads a station (depth 1) or tile (depth > 1) folder and its tiles, recursively.
// `descent` holds the canonical paths of the folders above `dir` (the model's root first):
// a folder that is one of them (a symbolic link such as `ln -s . station000/loop`) would nest
// without end and is refused, naming the path.
StationModel load_station_folder(const fs::path& dir, int depth, const Report& report,
                                 std::vector<fs::path> descent = {});

}  // namespace fringe::telescope::detail
