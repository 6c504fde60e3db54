#include "fringe/telescope/tm_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/telescope/text_table.h"
#include "fringe/telescope/tm_detail.h"

namespace fringe::telescope {
namespace fs = std::filesystem;
using namespace detail;

namespace {
// Input ranges (docs/reliability/parsers.md): a longitude within [-360, 360] deg, a latitude
// within [-90, 90] deg, an altitude within [-1e4, 1e5] m (ocean floor to balloon height; the
// WGS84 conversion assumes a point near the surface), and station coordinates (ENU or ECEF,
// and their error columns) within 1e8 m, the largest distance from the Earth's centre that
// astro::ecef_to_geodetic accepts.
constexpr double kMaxAltitude = 1e5, kMinAltitude = -1e4;  // m
constexpr double kMaxStationCoordinate = 1e8;              // m

void check_geodetic(const fs::path& file, const TextRow& row, const std::vector<double>& v) {
  check_range(file, row, 1, v[0], -360.0, 360.0, "longitude", "degrees");
  check_range(file, row, 2, v[1], -90.0, 90.0, "latitude", "degrees");
  check_range(file, row, 3, v[2], kMinAltitude, kMaxAltitude, "altitude", "metres");
}

void check_positions(const fs::path& file, const TextRow& row, const std::vector<double>& v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    check_range(file, row, i + 1, v[i], -kMaxStationCoordinate, kMaxStationCoordinate, "coordinate",
                "metres");
}

void read_position(const fs::path& dir, TelescopeModel& model) {
  const fs::path file = dir / "position.txt";
  if (!has_file(dir, "position.txt")) {
    throw Error::in_file(file.string(), 0,
                         "missing position.txt: a telescope model needs the array centre "
                         "(one line: longitude latitude [deg] [altitude m])");
  }
  const auto rows = read_text_rows(file);
  if (rows.empty())
    throw Error::in_file(file.string(), 0,
                         "no data: expected one line 'longitude latitude [altitude]'");
  if (rows.size() > 1)
    throw Error::in_file(file.string(), rows[1].line,
                         "expected exactly one line 'longitude latitude [altitude]', found " +
                             std::to_string(rows.size()));
  const auto v = parse_row(file, rows[0], 2, {0, 0, 0}, "longitude latitude [deg] [altitude m]");
  check_geodetic(file, rows[0], v);
  model.centre = {v[0] * kDegToRad, v[1] * kDegToRad, v[2]};
  model.centre_ecef = astro::geodetic_to_ecef(model.centre);
}

astro::Vec3 add(const astro::Vec3& a, const astro::Vec3& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
astro::Vec3 sub(const astro::Vec3& a, const astro::Vec3& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}

void read_station_layout(const fs::path& dir, TelescopeModel& model, const Report& report) {
  struct Candidate {
    const char* name;
    LayoutFrame frame;
  };
  const Candidate candidates[] = {{"layout.txt", LayoutFrame::Enu},
                                  {"layout_enu.txt", LayoutFrame::Enu},
                                  {"layout_ecef.txt", LayoutFrame::Ecef},
                                  {"layout_wgs84.txt", LayoutFrame::Wgs84}};
  std::vector<const Candidate*> present;
  for (const auto& c : candidates)
    if (has_file(dir, c.name)) present.push_back(&c);
  if (present.empty()) {
    throw Error::in_file((dir / "layout.txt").string(), 0,
                         "missing station layout: the telescope model has no layout.txt, "
                         "layout_enu.txt, layout_ecef.txt or layout_wgs84.txt");
  }
  if (present.size() > 1) {
    std::vector<std::string> ignored;
    for (std::size_t i = 1; i < present.size(); ++i) ignored.push_back(present[i]->name);
    report.warn(dir.string() + ": station coordinates taken from " + present[0]->name +
                "; also present and ignored (OSKAR's order of precedence): " + list_names(ignored));
  }
  const fs::path file = dir / present[0]->name;
  model.layout_file = file.string();
  model.layout_frame = present[0]->frame;

  const auto rows = read_text_rows(file);
  if (rows.empty()) throw Error::in_file(file.string(), 0, "no stations in the layout file");

  const auto& c = model.centre;
  for (const auto& row : rows) {
    Station s;
    switch (model.layout_frame) {
      case LayoutFrame::Enu: {
        const auto v = parse_row(file, row, 2, {0, 0, 0, 0, 0, 0}, "E N [U [dE dN dU]] in metres");
        check_positions(file, row, v);
        s.measured_enu = {v[0], v[1], v[2]};
        s.true_enu = {v[0] + v[3], v[1] + v[4], v[2] + v[5]};
        s.measured_offset_ecef = astro::enu_to_ecef_offset(s.measured_enu, c.lon, c.lat);
        s.true_offset_ecef = astro::enu_to_ecef_offset(s.true_enu, c.lon, c.lat);
        break;
      }
      case LayoutFrame::Ecef: {
        const auto v = parse_row(file, row, 3, {0, 0, 0, 0, 0, 0}, "X Y Z [dX dY dZ] in metres");
        check_positions(file, row, v);
        const astro::Vec3 measured{v[0], v[1], v[2]};
        const astro::Vec3 truth{v[0] + v[3], v[1] + v[4], v[2] + v[5]};
        s.measured_offset_ecef = sub(measured, model.centre_ecef);
        s.true_offset_ecef = sub(truth, model.centre_ecef);
        s.measured_enu = astro::ecef_offset_to_enu(s.measured_offset_ecef, c.lon, c.lat);
        s.true_enu = astro::ecef_offset_to_enu(s.true_offset_ecef, c.lon, c.lat);
        break;
      }
      case LayoutFrame::Wgs84: {
        const auto v = parse_row(file, row, 2, {0, 0, 0}, "longitude latitude [deg] [altitude m]");
        check_geodetic(file, row, v);
        const astro::Vec3 ecef =
            astro::geodetic_to_ecef({v[0] * kDegToRad, v[1] * kDegToRad, v[2]});
        s.measured_offset_ecef = sub(ecef, model.centre_ecef);
        s.true_offset_ecef = s.measured_offset_ecef;
        s.measured_enu = astro::ecef_offset_to_enu(s.measured_offset_ecef, c.lon, c.lat);
        s.true_enu = s.measured_enu;
        break;
      }
    }
    s.true_ecef = add(model.centre_ecef, s.true_offset_ecef);
    try {
      s.geodetic = astro::ecef_to_geodetic(s.true_ecef);
    } catch (const Error& e) {  // a position far from the Earth's surface: name the line
      throw Error::in_file(
          file.string(), row.line,
          "station " + std::to_string(model.stations.size() + 1) + ": " + e.message());
    }
    model.stations.push_back(s);
  }
}

void read_root_cable_length_errors(const fs::path& dir, TelescopeModel& model) {
  const std::size_t n = model.stations.size();
  const std::string source =
      "the station layout (" + fs::path(model.layout_file).filename().string() + ")";
  auto read = [&](const char* name) {
    const fs::path f = dir / name;
    auto v = read_single_column(f, "cable length error in metres");
    if (v.size() != n)
      throw Error::in_file(f.string(), 0,
                           "has " + std::to_string(v.size()) + " entries, but " + source + " has " +
                               std::to_string(n) + " stations (one line per station)");
    return v;
  };
  if (has_file(dir, "cable_length_error.txt")) {
    const auto v = read("cable_length_error.txt");
    for (std::size_t i = 0; i < n; ++i)
      model.stations[i].cable_length_error_x = model.stations[i].cable_length_error_y = v[i];
  }
  if (has_file(dir, "cable_length_error_x.txt")) {
    const auto v = read("cable_length_error_x.txt");
    for (std::size_t i = 0; i < n; ++i) model.stations[i].cable_length_error_x = v[i];
  }
  if (has_file(dir, "cable_length_error_y.txt")) {
    const auto v = read("cable_length_error_y.txt");
    for (std::size_t i = 0; i < n; ++i) model.stations[i].cable_length_error_y = v[i];
  }
}

// Element-level files placed at the root are not read by OSKAR; say so rather than ignore.
void warn_root_element_files(const fs::path& dir, const Report& report) {
  static const char* const kElementFiles[] = {
      "gain_phase.txt",    "gain_phase_x.txt",  "gain_phase_y.txt",    "apodisation.txt",
      "apodization.txt",   "apodisation_x.txt", "apodization_x.txt",   "apodisation_y.txt",
      "apodization_y.txt", "feed_angle.txt",    "feed_angle_x.txt",    "feed_angle_y.txt",
      "element_types.txt", "mount_types.txt",   "permitted_beams.txt", "layout_x.txt",
      "layout_y.txt",      "layout_enu_x.txt",  "layout_enu_y.txt"};
  for (const char* name : kElementFiles) {
    if (has_file(dir, name))
      report.warn((dir / name).string() +
                  ": ignored (an element file has effect only inside a station folder)");
  }
}

// One value per line; `ok` checks each value, `rule` says what is expected.
template <class Check>
std::vector<double> read_noise_column(const fs::path& file, const std::string& what, Check ok,
                                      const std::string& rule) {
  std::vector<double> out;
  for (const auto& row : read_text_rows(file)) {
    const double v = parse_row(file, row, 1, {0}, what)[0];
    if (!ok(v)) throw Error::in_file(file.string(), row.line, rule + ", found " + row.fields[0]);
    out.push_back(v);
  }
  return out;
}

std::vector<double> read_rms(const fs::path& file) {
  return read_noise_column(
      file, "noise RMS in Jy", [](double v) { return v >= 0.0; }, "noise RMS must not be negative");
}

void summarise_unsupported(const std::vector<UnsupportedFile>& files, const Report& report) {
  if (files.empty()) return;
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const auto& f : files) by_reason[f.reason].push_back(f.path);
  for (const auto& [reason, paths] : by_reason) {
    report.warn("telescope model file(s) not supported by fringe and not loaded — " + reason +
                ": " + list_names(paths, 10));
  }
}

}  // namespace

TelescopeModel load_telescope_model(const fs::path& directory, Logger* logger) {
  std::error_code ec;
  if (!fs::exists(directory, ec))
    throw Error::in_file(directory.string(), 0, "telescope model directory does not exist");
  if (!fs::is_directory(directory, ec))
    throw Error::in_file(directory.string(), 0, "telescope model path is not a directory");

  TelescopeModel model;
  model.directory = directory.string();
  Report report{&model.unsupported_files, &model.warnings, logger};

  read_position(directory, model);
  read_station_layout(directory, model, report);
  const std::size_t num_stations = model.stations.size();
  scan_unsupported(directory, 0, report);
  warn_root_element_files(directory, report);

  // Station folders and which one each station uses.
  const auto subdirs = sorted_subdirs(directory);
  const std::size_t num_dirs = subdirs.size();
  std::vector<int> type_map;
  const bool have_map = has_file(directory, "station_type_map.txt");
  if (have_map) {
    const fs::path f = directory / "station_type_map.txt";
    std::vector<long> lines;
    type_map = read_int_column(f, "0-based station folder index", &lines);
    if (type_map.size() != num_stations)
      throw Error::in_file(f.string(), 0,
                           "has " + std::to_string(type_map.size()) +
                               " entries, but the station layout has " +
                               std::to_string(num_stations) + " stations (one line per station)");
    const int num_models = static_cast<int>(std::max<std::size_t>(num_dirs, 1));
    for (std::size_t i = 0; i < num_stations; ++i) {
      if (type_map[i] < 0 || type_map[i] >= num_models)
        throw Error::in_file(
            f.string(), lines[i],
            "station folder index " + std::to_string(type_map[i]) + " is out of range: there " +
                (num_dirs == 1 ? "is 1 station folder"
                               : "are " + std::to_string(num_dirs) + " station folders") +
                " (valid indices 0 to " + std::to_string(num_models - 1) + ")");
    }
  }

  bool one_folder_per_station = false;
  if (num_dirs == 0) {
    model.station_models.push_back(StationModel::single_element());
  } else if (num_dirs == 1 || have_map || num_dirs == num_stations) {
    std::error_code ec;
    const fs::path root = fs::canonical(directory, ec);
    for (const auto& name : subdirs) {
      model.station_models.push_back(
          load_station_folder(directory / name, 1, report, {ec ? directory : root}));
    }
    one_folder_per_station = num_dirs > 1 && !have_map;
  } else {
    throw Error::in_file(directory.string(), 0,
                         "found " + std::to_string(num_dirs) + " station folders (" +
                             list_names(subdirs) + ") but " +
                             fs::path(model.layout_file).filename().string() + " has " +
                             std::to_string(num_stations) +
                             " stations: expected 1 station folder (shared by all stations), " +
                             std::to_string(num_stations) +
                             " (one per station, in sorted name order), or a station_type_map.txt");
  }
  for (std::size_t i = 0; i < num_stations; ++i) {
    Station& s = model.stations[i];
    s.model_index = have_map ? type_map[i] : (one_folder_per_station ? static_cast<int>(i) : 0);
    if (one_folder_per_station) {
      s.name = subdirs[i];
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "s%04zu", i);
      s.name = buf;
    }
  }

  read_root_cable_length_errors(directory, model);
  // OSKAR's station gain table (gain_model.h): applied by the simulator.
  if (has_file(directory, "gain_model.h5"))
    model.gain_model = load_gain_model(directory / "gain_model.h5", num_stations);

  // Noise: frequencies at the root; RMS at the root, overridden per top-level station folder.
  if (has_file(directory, "noise_frequencies.txt")) {
    const fs::path f = directory / "noise_frequencies.txt";
    model.noise_freq_hz = read_noise_column(
        f, "noise frequency in Hz", [](double v) { return v > 0.0; },
        "noise frequency must be positive");
  }
  std::vector<double> root_rms;
  std::string root_rms_file;
  if (has_file(directory, "rms.txt")) {
    root_rms_file = (directory / "rms.txt").string();
    root_rms = read_rms(root_rms_file);
  }
  for (auto& m : model.station_models) {
    std::string rms_file = root_rms_file;
    m.noise_rms_jy = root_rms;
    if (!m.directory.empty() && has_file(m.directory, "rms.txt")) {
      rms_file = (fs::path(m.directory) / "rms.txt").string();
      m.noise_rms_jy = read_rms(rms_file);
    }
    if (!m.noise_rms_jy.empty() && !model.noise_freq_hz.empty() &&
        m.noise_rms_jy.size() != model.noise_freq_hz.size()) {
      throw Error::in_file(rms_file, 0,
                           "has " + std::to_string(m.noise_rms_jy.size()) +
                               " RMS values, but noise_frequencies.txt has " +
                               std::to_string(model.noise_freq_hz.size()) +
                               " frequencies (one RMS per frequency)");
    }
  }

  summarise_unsupported(model.unsupported_files, report);
  return model;
}

}  // namespace fringe::telescope