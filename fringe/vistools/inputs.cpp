#include "fringe/vistools/inputs.h"

#include <cctype>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "fringe/io/vis/oskar_binary.h"

namespace fringe::vistools {
namespace fs = std::filesystem;

DataSetKind data_set_kind(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    throw Error::in_file(path, 0,
                         "file not found (expected an OSKAR .vis file or a Measurement Set)");
  }
  if (fs::is_directory(st)) {
    if (!fs::exists(fs::path(path) / "table.dat", ec)) {
      throw Error::in_file(path, 0,
                           "is a folder but not a Measurement Set (no table.dat); expected an "
                           "OSKAR .vis file or a Measurement Set");
    }
    return DataSetKind::MeasurementSet;
  }
  return DataSetKind::VisFile;
}

DataSetKind common_kind(const std::vector<std::string>& paths) {
  if (paths.empty()) throw Error("no input files");
  const DataSetKind first = data_set_kind(paths.front());
  for (const auto& p : paths) {
    if (data_set_kind(p) != first) {
      throw Error::in_file(
          p, 0,
          std::string("is ") +
              (first == DataSetKind::VisFile ? "a Measurement Set" : "not a Measurement Set") +
              ", unlike the first input '" + paths.front() +
              "': the inputs must all be .vis files or all Measurement Sets");
    }
  }
  return first;
}

std::string incompatibility(const io::VisFileHeader& a, const io::VisFileHeader& b) {
  auto differs = [](const char* what, auto x, auto y) {
    return std::string(what) + " " + std::to_string(y) + " differs from the first file's " +
           std::to_string(x);
  };
  if (a.num_channels_total != b.num_channels_total)
    return differs("channel count", a.num_channels_total, b.num_channels_total);
  if (a.max_channels_per_block != b.max_channels_per_block)
    return differs("channels per block", a.max_channels_per_block, b.max_channels_per_block);
  if (a.num_times_total != b.num_times_total)
    return differs("time count", a.num_times_total, b.num_times_total);
  if (a.max_times_per_block != b.max_times_per_block)
    return differs("times per block", a.max_times_per_block, b.max_times_per_block);
  if (a.num_stations != b.num_stations)
    return differs("station count", a.num_stations, b.num_stations);
  // OSKAR compares the frequencies to DBL_EPSILON (absolute, in Hz).
  if (std::fabs(a.freq_start_hz - b.freq_start_hz) > DBL_EPSILON)
    return differs("start frequency (Hz)", a.freq_start_hz, b.freq_start_hz);
  if (std::fabs(a.freq_inc_hz - b.freq_inc_hz) > DBL_EPSILON)
    return differs("channel spacing (Hz)", a.freq_inc_hz, b.freq_inc_hz);
  if (a.amp_type() != b.amp_type()) {
    return "amplitude type " + io::oskar_type_name(b.amp_type()) +
           " differs from the first file's " + io::oskar_type_name(a.amp_type());
  }
  if (a.pol_type != b.pol_type) return differs("polarisation type", a.pol_type, b.pol_type);
  return "";
}

namespace {
bool ends_with_nocase(const std::string& s, const std::string& tail) {
  if (s.size() < tail.size()) return false;
  for (std::size_t i = 0; i < tail.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[s.size() - tail.size() + i])) != tail[i])
      return false;
  }
  return true;
}
}  // namespace

std::string noise_output_path(const std::string& input, DataSetKind kind) {
  std::string name = input;
  if (kind == DataSetKind::MeasurementSet) {
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    std::string ext = ".ms";
    if (ends_with_nocase(name, ".ms")) {
      ext = name.substr(name.size() - 3);
      name.resize(name.size() - 3);
    }
    return name + "_noise" + ext;
  }
  if (ends_with_nocase(name, ".vis")) name.resize(name.size() - 4);
  return name + "_noise.vis";
}

}  // namespace fringe::vistools
