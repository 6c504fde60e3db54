#include "fringe/telescope/tm_detail.h"

#include <algorithm>

#include "fringe/core/error.h"
#include "fringe/telescope/spherical_wave_files.h"
#include "fringe/telescope/text_table.h"

namespace fringe::telescope::detail {

bool has_file(const fs::path& dir, const char* name) {
  std::error_code ec;
  return fs::is_regular_file(dir / name, ec);
}

std::optional<fs::path> first_existing(const fs::path& dir,
                                       std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (has_file(dir, n)) return dir / n;
  return std::nullopt;
}

namespace {
// A folder's entries; an unreadable folder is a fringe::Error naming it (not a bare
// std::filesystem::filesystem_error).
fs::directory_iterator list_folder(const fs::path& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw Error::in_file(dir.string(), 0, "cannot list the folder: " + ec.message());
  return it;
}
}  // namespace

std::vector<std::string> sorted_subdirs(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : list_folder(dir)) {
    std::error_code ec;
    if (entry.is_directory(ec)) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());  // std::string compares bytes as unsigned, as strcmp
  return names;
}

std::vector<std::string> sorted_files(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : list_folder(dir)) {
    std::error_code ec;
    if (entry.is_regular_file(ec)) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string list_names(const std::vector<std::string>& names, std::size_t max_shown) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < max_shown; ++i) {
    if (i) s += ", ";
    s += names[i];
  }
  if (names.size() > max_shown) s += ", ... (" + std::to_string(names.size()) + " in all)";
  return s;
}

void scan_unsupported(const fs::path& dir, int /*depth*/, const Report& report) {
  for (const auto& name : sorted_files(dir)) {
    const fs::path path = dir / name;
    const bool h5 = name.size() > 3 && name.compare(name.size() - 3, 3, ".h5") == 0;
    if (name == "gain_model.h5") {
      // At the root: the station gain table, loaded by tm_loader.cpp; in a station or tile
      // folder: the per-element gains, loaded by station_loader.cpp (gain_model.h).
    } else if (name.find("HARP") != std::string::npos) {
      report.unsupported_file(path, "HARP beam coefficients: not supported");
    } else if (is_spherical_wave_file(name) || is_feko_h5_file(name)) {
      // Loaded by jones/ when element_pattern/enable_numerical is true (spherical_wave_files.h,
      // spherical_wave_feko_h5.h): plain, Galileo and FEKO text files and FEKO HDF5 files.
    } else if (name.rfind("element_pattern", 0) == 0) {
      report.unsupported_file(
          path,
          "element pattern file that fringe does not evaluate (not a spherical-wave "
          "coefficient text file, e.g. an old fitted pattern): not supported");
    } else if (h5) {
      report.unsupported_file(path, "HDF5 file: not supported");
    } else if (name == "virtual_antenna_angle.txt") {
      // OSKAR 2.9-2.10 rotated the station's antennas by it; OSKAR 2.13 no longer reads it
      // (its ChangeLog: "Remove unused virtual antenna angle option"), so neither does fringe.
      report.unsupported_file(path,
                              "virtual antenna angle: ignored, as by OSKAR 2.13 (which removed "
                              "this option; OSKAR 2.9-2.10 read it)");
    }
  }
}

std::vector<double> read_single_column(const fs::path& file, const std::string& what) {
  std::vector<double> out;
  for (const auto& v : read_number_table(file, 1, {0}, what)) out.push_back(v[0]);
  return out;
}

}  // namespace fringe::telescope::detail
