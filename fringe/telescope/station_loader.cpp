// Station and tile folders of a .tm directory (see tm_loader.h for the rules).
#include <cctype>
#include <complex>
#include <memory>
#include <string>
#include <utility>

#include "fringe/core/error.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/telescope/text_table.h"
#include "fringe/telescope/tm_detail.h"
#include "fringe/telescope/tm_loader.h"

namespace fringe::telescope::detail {
namespace {

// Input ranges (docs/reliability/parsers.md). Element positions are offsets within a station
// or tile: 1e7 m (larger than the Earth) bounds any real one. Gains are dimensionless and ~1;
// 1e3 leaves room for unnormalised inputs while keeping gain^2 x flux finite even in single
// precision. Phases (deg) beyond 1e5 lose their meaning in double precision sums anyway.
constexpr double kMaxElementCoordinate = 1e7;  // m
constexpr double kMaxGain = 1e3;               // dimensionless
constexpr double kMaxPhaseDeg = 1e5;           // deg

// Element positions from a layout file: E N [U [dE dN dU]].
struct LayoutColumns {
  std::vector<astro::Vec3> measured, truth;
};

LayoutColumns read_element_layout(const fs::path& file) {
  LayoutColumns out;
  for (const auto& row : read_text_rows(file)) {
    const auto v = parse_row(file, row, 2, {0, 0, 0, 0, 0, 0}, "E N [U [dE dN dU]] in metres");
    for (std::size_t i = 0; i < v.size(); ++i)
      check_range(file, row, i + 1, v[i], -kMaxElementCoordinate, kMaxElementCoordinate,
                  "element coordinate", "metres");
    out.measured.push_back({v[0], v[1], v[2]});
    out.truth.push_back({v[0] + v[3], v[1] + v[4], v[2] + v[5]});
  }
  return out;
}

void check_count(const fs::path& file, std::size_t found, std::size_t expected,
                 const std::string& expected_from) {
  if (found != expected) {
    throw Error::in_file(file.string(), 0,
                         "has " + std::to_string(found) + " entries, but " + expected_from +
                             " gives " + std::to_string(expected) + " (one line per element)");
  }
}

struct FeedFileNames {
  std::initializer_list<const char*> both;  // applies to X (and to Y unless a Y file exists)
  std::initializer_list<const char*> x;
  std::initializer_list<const char*> y;
};

// Loads one per-feed quantity. OSKAR's rules: the plain file and the _x file set the X feed,
// the _y file the Y feed; a feed without its own data uses X's. `plain_sets_both` is OSKAR's
// feed_angle.txt rule (the plain file sets both feeds explicitly, and a file of one line sets
// every element; docs/conventions.md, "Telescope model folders").
template <class T, class ReadFile>
void load_feed_quantity(const fs::path& dir, StationModel& m, std::vector<T> FeedData::*member,
                        const FeedFileNames& names, bool plain_sets_both,
                        const std::string& size_source, ReadFile read_file) {
  const std::size_t n = m.num_elements();
  bool y_set = false;
  auto load = [&](const fs::path& file) {
    std::vector<T> v = read_file(file);
    if (plain_sets_both && v.size() == 1 && n > 1) v.assign(n, v.front());
    check_count(file, v.size(), n, size_source);
    return v;
  };
  if (auto f = first_existing(dir, names.both)) {
    m.feeds[0].*member = load(*f);
    if (plain_sets_both) {
      m.feeds[1].*member = m.feeds[0].*member;
      y_set = true;
    }
  }
  if (auto f = first_existing(dir, names.x)) m.feeds[0].*member = load(*f);
  if (auto f = first_existing(dir, names.y)) {
    m.feeds[1].*member = load(*f);
    y_set = true;
  }
  if (!y_set) m.feeds[1].*member = m.feeds[0].*member;
}

std::vector<ElementGainPhase> read_gain_phase(const fs::path& file) {
  std::vector<ElementGainPhase> out;
  for (const auto& row : read_text_rows(file)) {
    const auto v = parse_row(file, row, 1, {1, 0, 0, 0}, "G0 [phi0 deg [sigma_G [sigma_phi deg]]]");
    check_range(file, row, 1, v[0], -kMaxGain, kMaxGain, "element gain G0", "");
    check_range(file, row, 2, v[1], -kMaxPhaseDeg, kMaxPhaseDeg, "element phase phi0", "degrees");
    check_range(file, row, 3, v[2], 0.0, kMaxGain, "gain error sigma_G", "");
    check_range(file, row, 4, v[3], 0.0, kMaxPhaseDeg, "phase error sigma_phi", "degrees");
    out.push_back({v[0], v[1] * kDegToRad, v[2], v[3] * kDegToRad});
  }
  return out;
}

std::vector<std::complex<double>> read_apodisation(const fs::path& file) {
  std::vector<std::complex<double>> out;
  for (const auto& v : read_number_table(file, 1, {1, 0}, "weight: real [imaginary]"))
    out.emplace_back(v[0], v[1]);
  return out;
}

std::vector<FeedAngle> read_feed_angle(const fs::path& file) {
  std::vector<FeedAngle> out;
  for (const auto& v : read_number_table(file, 1, {0, 0, 0}, "alpha [beta [gamma]] in degrees"))
    out.push_back({v[0] * kDegToRad, v[1] * kDegToRad, v[2] * kDegToRad});
  return out;
}

std::vector<MountType> read_mount_types(const fs::path& file) {
  std::vector<MountType> out;
  for (const auto& row : read_text_rows(file)) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(row.fields[0][0])));
    if (c != 'F' && c != 'A') {
      throw Error::in_file(file.string(), row.line,
                           "expected a mount type starting with F (fixed) or A (alt-az), found '" +
                               row.fields[0] + "'");
    }
    out.push_back(static_cast<MountType>(c));
  }
  return out;
}

std::vector<PermittedBeam> read_permitted_beams(const fs::path& file) {
  std::vector<PermittedBeam> out;
  for (const auto& v : read_number_table(file, 2, {0, 0}, "azimuth elevation in degrees"))
    out.push_back({v[0] * kDegToRad, v[1] * kDegToRad});
  return out;
}

// The gain_model.h5 of a station or tile folder: the root table's layout (gain_model.h) with
// one entry per element (OSKAR does not check; it leaves elements beyond the table at weight 0
// and ignores entries beyond the elements, fringe refuses both).
GainModel load_element_gain_model(const fs::path& file, std::size_t num_elements,
                                  const std::string& size_source) {
  GainModel g = load_gain_model(file, 0);
  if (g.num_stations != num_elements)
    throw Error(g.path + ": dataset 'gain_xpol' has dimensions (" + std::to_string(g.num_times) +
                ", " + std::to_string(g.num_channels) + ", " + std::to_string(g.num_stations) +
                "); expected (times, channels, " + std::to_string(num_elements) +
                "): one gain per element of " + size_source + " in the third dimension");
  return g;
}

// Path of the first gain_model.h5 in a tile's folder or below it; "" when none.
std::string first_element_gain_file(const StationModel& m) {
  if (m.element_gains) return m.element_gains->path;
  for (const auto& t : m.tiles)
    if (const std::string g = first_element_gain_file(t); !g.empty()) return g;
  return "";
}

}  // namespace

StationModel load_station_folder(const fs::path& dir, int depth, const Report& report,
                                 std::vector<fs::path> descent) {
  std::error_code ec;
  fs::path canonical = fs::canonical(dir, ec);
  if (ec) throw Error::in_file(dir.string(), 0, "cannot resolve the folder: " + ec.message());
  for (const fs::path& above : descent) {
    if (above == canonical) {
      throw Error::in_file(dir.string(), 0,
                           "folder loop: this is the folder " + canonical.string() +
                               ", which contains it (a symbolic link back up the telescope "
                               "model?); station and tile folders must not contain themselves");
    }
  }
  if (depth > kMaxStationDepth) {
    throw Error::in_file(dir.string(), 0,
                         "station folders nest " + std::to_string(depth) +
                             " levels deep; at most " + std::to_string(kMaxStationDepth) +
                             " are supported (station, tiles, ...)");
  }
  descent.push_back(std::move(canonical));

  StationModel m;
  m.name = dir.filename().string();
  m.directory = dir.string();
  scan_unsupported(dir, depth, report);

  // Element positions: layout.txt / layout_enu.txt set X (and Y unless a Y file exists);
  // layout_x / layout_enu_x override X, layout_y / layout_enu_y set Y.
  const auto plain = first_existing(dir, {"layout.txt", "layout_enu.txt"});
  const auto fx = first_existing(dir, {"layout_x.txt", "layout_enu_x.txt"});
  const auto fy = first_existing(dir, {"layout_y.txt", "layout_enu_y.txt"});
  if (!plain && !fx && !fy) {
    std::string hint;
    if (has_file(dir, "layout_ecef.txt") || has_file(dir, "layout_wgs84.txt"))
      hint =
          " (element layouts must be local East-North-Up; layout_ecef.txt and "
          "layout_wgs84.txt are read only at the root)";
    throw Error::in_file((dir / "layout.txt").string(), 0,
                         "missing station layout: the station folder has no layout.txt, "
                         "layout_enu.txt, layout_x.txt or layout_y.txt" +
                             hint);
  }
  std::optional<LayoutColumns> lx, ly;
  fs::path size_file;
  if (plain) {
    lx = read_element_layout(*plain);
    size_file = *plain;
  }
  if (fx) {
    LayoutColumns c = read_element_layout(*fx);
    if (lx) check_count(*fx, c.measured.size(), lx->measured.size(), size_file.filename().string());
    lx = std::move(c);
    if (size_file.empty()) size_file = *fx;
  }
  if (fy) {
    ly = read_element_layout(*fy);
    if (lx) {
      check_count(*fy, ly->measured.size(), lx->measured.size(), size_file.filename().string());
    } else {
      lx = ly;  // only a Y layout: X uses it as well
      size_file = *fy;
    }
  }
  if (lx->measured.empty())
    throw Error::in_file(size_file.string(), 0, "the station layout has no elements");

  const std::size_t n = lx->measured.size();
  m.resize(n);
  m.feeds[0].measured_enu = lx->measured;
  m.feeds[0].true_enu = lx->truth;
  m.feeds[1].measured_enu = ly ? ly->measured : lx->measured;
  m.feeds[1].true_enu = ly ? ly->truth : lx->truth;
  const std::string size_source = "the station layout (" + size_file.filename().string() + ")";

  load_feed_quantity(dir, m, &FeedData::gain_phase,
                     {{"gain_phase.txt"}, {"gain_phase_x.txt"}, {"gain_phase_y.txt"}}, false,
                     size_source, read_gain_phase);
  load_feed_quantity(
      dir, m, &FeedData::cable_length_error,
      {{"cable_length_error.txt"}, {"cable_length_error_x.txt"}, {"cable_length_error_y.txt"}},
      false, size_source,
      [](const fs::path& f) { return read_single_column(f, "cable length error in metres"); });
  load_feed_quantity(dir, m, &FeedData::apodisation,
                     {{"apodisation.txt", "apodization.txt"},
                      {"apodisation_x.txt", "apodization_x.txt"},
                      {"apodisation_y.txt", "apodization_y.txt"}},
                     false, size_source, read_apodisation);
  load_feed_quantity(dir, m, &FeedData::feed_angle,
                     {{"feed_angle.txt"}, {"feed_angle_x.txt"}, {"feed_angle_y.txt"}}, true,
                     size_source, read_feed_angle);

  m.y_feed_files = fy || first_existing(dir, {"gain_phase_y.txt", "cable_length_error_y.txt",
                                              "apodisation_y.txt", "apodization_y.txt"});
  if (has_file(dir, "gain_model.h5"))
    m.element_gains = std::make_shared<const GainModel>(
        load_element_gain_model(dir / "gain_model.h5", n, size_source));

  if (has_file(dir, "element_types.txt")) {
    const fs::path f = dir / "element_types.txt";
    std::vector<long> lines;
    m.element_types = read_int_column(f, "element type index", &lines);
    check_count(f, m.element_types.size(), n, size_source);
    for (std::size_t i = 0; i < n; ++i)
      if (m.element_types[i] < 0)
        throw Error::in_file(f.string(), lines[i], "element type must be 0 or more");
  }
  if (has_file(dir, "mount_types.txt")) {
    const fs::path f = dir / "mount_types.txt";
    m.mount_types = read_mount_types(f);
    check_count(f, m.mount_types.size(), n, size_source);
  }
  if (has_file(dir, "permitted_beams.txt"))
    m.permitted_beams = read_permitted_beams(dir / "permitted_beams.txt");

  // Noise files deeper than the top-level station have no meaning (noise is per station).
  if (depth > 1 && has_file(dir, "rms.txt"))
    report.warn((dir / "rms.txt").string() +
                ": ignored (noise RMS is read only at the root or in a top-level station folder)");
  if (depth >= 1 && has_file(dir, "noise_frequencies.txt"))
    report.warn((dir / "noise_frequencies.txt").string() +
                ": ignored (noise frequencies are read only at the root of the telescope model)");

  // Tiles.
  const auto subdirs = sorted_subdirs(dir);
  if (subdirs.size() == 1) {
    m.tiles.push_back(load_station_folder(dir / subdirs[0], depth + 1, report, descent));
    m.tile_index.assign(n, 0);
  } else if (subdirs.size() > 1) {
    if (subdirs.size() != n) {
      throw Error::in_file(
          dir.string(), 0,
          "found " + std::to_string(subdirs.size()) + " tile folders (" + list_names(subdirs) +
              ") but " + size_source + " has " + std::to_string(n) +
              " elements: expected 1 tile folder (shared by all elements) or one per element");
    }
    for (std::size_t i = 0; i < n; ++i) {
      m.tiles.push_back(load_station_folder(dir / subdirs[i], depth + 1, report, descent));
      m.tile_index.push_back(static_cast<int>(i));
      if (const std::string g = first_element_gain_file(m.tiles.back()); !g.empty())
        throw Error::in_file(
            g, 0,
            "a per-element gain model in one of several tile folders is not supported: OSKAR "
            "2.13 ignores gain tables when it decides whether a station's tiles are identical, "
            "so it may apply the first tile's gains to every tile; put gain_model.h5 in a tile "
            "folder shared by all elements (the only tile folder) or in the station folder");
    }
  }
  return m;
}

}  // namespace fringe::telescope::detail

namespace fringe::telescope {
namespace fs = std::filesystem;

StationModel load_station_model(const fs::path& directory,
                                std::vector<UnsupportedFile>* unsupported,
                                std::vector<std::string>* warnings) {
  std::error_code ec;
  if (!fs::is_directory(directory, ec))
    throw Error::in_file(directory.string(), 0, "station folder does not exist");
  detail::Report report{unsupported, warnings, nullptr};
  return detail::load_station_folder(directory, 1, report);
}

}  // namespace fringe::telescope
