// OSKAR visibility files (.vis): header and blocks (layout in vis_file.h, docs/vis_format.md).
#include "fringe/io/vis/vis_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <utility>

#include "fringe/astro/geodesy.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/vis/oskar_binary.h"

namespace fringe::io {

namespace {

using vis_tag::kGroupBlock;
using vis_tag::kGroupHeader;
using vis_tag::kGroupMetadata;
using vis_tag::kGroupRun;
using vis_tag::kGroupSettings;

// Header tag ids (group 11).
enum HeaderTag : std::uint8_t {
  kTelescopePath = 1,
  kNumTagsPerBlock = 2,
  kWriteAutos = 3,
  kWriteCrosses = 4,
  kAmpType = 5,
  kCoordPrecision = 6,
  kMaxTimesPerBlock = 7,
  kNumTimesTotal = 8,
  kMaxChannelsPerBlock = 9,
  kNumChannelsTotal = 10,
  kNumStations = 11,
  kPolType = 12,
  kCasaPhaseConvention = 13,
  kPhaseCentreType = 21,
  kPhaseCentreDeg = 22,
  kFreqStartHz = 23,
  kFreqIncHz = 24,
  kChannelBandwidthHz = 25,
  kTimeStartMjdUtc = 26,
  kTimeIncSec = 27,
  kTimeAverageSec = 28,
  kTelescopeLonDeg = 29,
  kTelescopeLatDeg = 30,
  kTelescopeAltM = 31,
  kStationXOffsetEcef = 32,  // 33, 34: Y, Z
  kElementXEnu = 35,         // 36, 37: Y, Z
  kStationName = 41,
  kStationDiameter = 42,
  kFeedAngleFirst = 43,  // 43..48
};

// Metadata tags (group 1), settings (group 3) and run log (group 4).
constexpr std::uint8_t kMetaDateTime = 1;
constexpr std::uint8_t kMetaVersion = 2;
constexpr std::uint8_t kMetaUsername = 3;
constexpr std::uint8_t kMetaCwd = 4;
constexpr std::uint8_t kSettingsContents = 2;
constexpr std::uint8_t kRunLog = 1;

std::array<double, 3> geodetic_to_ecef(double lon_rad, double lat_rad, double alt_m) {
  const astro::Vec3 v = astro::geodetic_to_ecef({lon_rad, lat_rad, alt_m});
  return {v.x, v.y, v.z};
}

std::array<double, 3> ecef_to_geodetic(const std::array<double, 3>& x) {
  try {
    const astro::Geodetic g = astro::ecef_to_geodetic({x[0], x[1], x[2]});
    return {g.lon, g.lat, g.height};
  } catch (const Error& e) {
    throw Error("visibility header: telescope centre (VisMeta array_centre_ecef_m): " +
                e.message());
  }
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  return text;
}

// Writes n reals from `value(i)` as single or double.
template <typename F>
void write_reals(BinaryFileWriter& f, Precision p, std::uint8_t group, std::uint8_t tag,
                 std::int32_t index, std::size_t n, F value) {
  if (p == Precision::Double) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = value(i);
    f.write(oskar_type::kDouble, group, tag, index, v.data(), v.size() * sizeof(double));
  } else {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = float(value(i));
    f.write(oskar_type::kSingle, group, tag, index, v.data(), v.size() * sizeof(float));
  }
}

// Writes complex values (re, im pairs) of `data`, optionally as the non-CASA form: each group
// of num_pols values is replaced by its Hermitian transpose (2x2) or conjugate (scalar).
template <typename S, typename T>
void write_complex_as(BinaryFileWriter& f, std::uint8_t amp_type, std::uint8_t tag,
                      std::int32_t index, const std::vector<Complex<T>>& data, int num_pols,
                      bool hermitian) {
  std::vector<S> out(2 * data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    std::size_t src = i;
    if (hermitian && num_pols == 4) {
      const std::size_t pol = i % 4;
      if (pol == 1) src = i + 1;
      if (pol == 2) src = i - 1;
    }
    out[2 * i] = S(data[src].re);
    out[2 * i + 1] = hermitian ? S(-data[src].im) : S(data[src].im);
  }
  f.write(amp_type, kGroupBlock, tag, index, out.data(), out.size() * sizeof(S));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// VisFileHeader

int VisFileHeader::num_time_blocks() const {
  if (max_times_per_block <= 0 || num_times_total <= 0) return 0;
  return (num_times_total + max_times_per_block - 1) / max_times_per_block;
}

int VisFileHeader::num_channel_blocks() const {
  if (max_channels_per_block <= 0 || num_channels_total <= 0) return 0;
  return (num_channels_total + max_channels_per_block - 1) / max_channels_per_block;
}

int VisFileHeader::num_tags_per_block() const {
  return 1 + (write_crosscorrelations ? 4 : 0) + (write_autocorrelations ? 1 : 0);
}

std::uint8_t VisFileHeader::amp_type() const {
  std::uint8_t t = coord_type() | oskar_type::kComplex;
  if (pol_mode == vis::PolMode::Full) t |= oskar_type::kMatrix;
  return t;
}

std::uint8_t VisFileHeader::coord_type() const {
  return precision == Precision::Double ? oskar_type::kDouble : oskar_type::kSingle;
}

std::array<int, 4> VisFileHeader::block_extent(int b) const {
  const int ncb = num_channel_blocks();
  const int tb = ncb > 0 ? b / ncb : 0;
  const int cb = ncb > 0 ? b % ncb : 0;
  const int t0 = tb * max_times_per_block;
  const int c0 = cb * max_channels_per_block;
  return {t0, std::min(max_times_per_block, num_times_total - t0), c0,
          std::min(max_channels_per_block, num_channels_total - c0)};
}

void validate(const VisFileHeader& h, const std::string& what) {
  auto fail = [&](const std::string& m) {
    throw Error::in_file(what, 0, "visibility header: " + m);
  };
  if (h.num_stations < 1) fail("number of stations " + std::to_string(h.num_stations) + " < 1");
  if (h.num_times_total < 1 || h.num_channels_total < 1) {
    fail("expected at least one time and one channel, got " + std::to_string(h.num_times_total) +
         " and " + std::to_string(h.num_channels_total));
  }
  if (h.max_times_per_block < 1 || h.max_channels_per_block < 1) {
    fail("expected block sizes of at least 1, got " + std::to_string(h.max_times_per_block) +
         " times and " + std::to_string(h.max_channels_per_block) + " channels");
  }
  if (!h.write_autocorrelations && !h.write_crosscorrelations) {
    fail("neither auto- nor cross-correlations are selected");
  }
  const auto ns = std::size_t(h.num_stations);
  auto check_size = [&](std::size_t size, const char* name, bool may_be_empty) {
    if (size != ns && !(may_be_empty && size == 0)) {
      fail(std::string(name) + " has " + std::to_string(size) + " entries, expected " +
           std::to_string(ns) + " (one per station)");
    }
  };
  check_size(h.station_offset_ecef_m.size(), "station_offset_ecef_m", false);
  check_size(h.station_names.size(), "station_names", false);
  check_size(h.station_diameter_m.size(), "station_diameter_m", false);
  check_size(h.element_enu_m.size(), "element_enu_m", true);
  check_size(h.element_feed_angle_rad.size(), "element_feed_angle_rad", true);
  const bool full = h.pol_mode == vis::PolMode::Full;
  const bool four =
      h.pol_type == vis_pol_type::kStokesIQUV || h.pol_type == vis_pol_type::kLinearXXXYYXYY;
  const bool one = (h.pol_type >= 1 && h.pol_type <= 4) || (h.pol_type >= 11 && h.pol_type <= 14);
  if ((full && !four) || (!full && !one)) {
    fail("polarisation type " + std::to_string(h.pol_type) + " does not fit " +
         (full ? "four products (expected 0 or 10)" : "one product (expected 1-4 or 11-14)"));
  }
}

VisFileHeader vis_header_from_meta(const vis::VisMeta& meta, Precision precision,
                                   int max_times_per_block, int max_channels_per_block) {
  VisFileHeader h;
  h.precision = precision;
  h.pol_mode = meta.pol_mode;
  h.pol_type =
      meta.pol_mode == vis::PolMode::Full ? vis_pol_type::kLinearXXXYYXYY : vis_pol_type::kStokesI;
  h.write_autocorrelations = meta.write_autocorrelations;
  h.write_crosscorrelations = meta.write_crosscorrelations;
  h.num_times_total = meta.num_times;
  h.num_channels_total = meta.num_channels;
  h.max_times_per_block = std::min(max_times_per_block, meta.num_times);
  h.max_channels_per_block = std::min(max_channels_per_block, meta.num_channels);
  h.num_stations = int(meta.num_stations());
  h.casa_phase_convention = meta.casa_phase_convention;
  h.phase_centre_type = meta.phase_centre_type;
  h.phase_centre_deg = {meta.phase_centre_ra_rad * kRadToDeg,
                        meta.phase_centre_dec_rad * kRadToDeg};
  h.freq_start_hz = meta.start_frequency_hz;
  h.freq_inc_hz = meta.frequency_inc_hz;
  h.channel_bandwidth_hz = meta.channel_bandwidth_hz;
  h.time_start_mjd_utc = meta.start_time_mjd_utc;
  h.time_inc_sec = meta.time_inc_sec;
  h.time_average_sec = meta.time_average_sec;
  const auto geo = ecef_to_geodetic(meta.array_centre_ecef_m);
  h.telescope_lon_deg = geo[0] * kRadToDeg;
  h.telescope_lat_deg = geo[1] * kRadToDeg;
  h.telescope_alt_m = geo[2];
  for (const auto& s : meta.station_ecef_m) {
    h.station_offset_ecef_m.push_back({s[0] - meta.array_centre_ecef_m[0],
                                       s[1] - meta.array_centre_ecef_m[1],
                                       s[2] - meta.array_centre_ecef_m[2]});
  }
  // Station names as OSKAR writes them, the Measurement Set's ANTENNA names: antenna_names, or
  // "s0003 (<station name>)" ("s0003" for an empty one), as fringe/io/ms does.
  for (std::size_t s = 0; s < meta.num_stations(); ++s) {
    if (meta.antenna_names.size() == meta.num_stations()) {
      h.station_names.push_back(meta.antenna_names[s]);
      continue;
    }
    char id[32];
    std::snprintf(id, sizeof id, "s%04zu", s);
    const std::string& label = meta.station_names[s];
    h.station_names.push_back(label.empty() ? std::string(id)
                                            : std::string(id) + " (" + label + ")");
  }
  h.station_diameter_m.assign(meta.num_stations(), meta.dish_diameter_m);
  // Aperture-array element positions (ENU, m): OSKAR writes the X feeds' true positions.
  h.element_enu_m = meta.element_enu_m;
  if (h.element_enu_m.size() != meta.num_stations())
    h.element_enu_m.assign(meta.num_stations(), {});
  h.element_feed_angle_rad.assign(meta.num_stations(), {});
  if (meta.feed_angles_rad.size() == meta.num_stations()) {
    // One value each for X and Y alpha (what OSKAR's MS writer takes as receptor angles).
    for (std::size_t s = 0; s < meta.num_stations(); ++s) {
      h.element_feed_angle_rad[s][0] = {meta.feed_angles_rad[s][0]};
      h.element_feed_angle_rad[s][1] = {meta.feed_angles_rad[s][1]};
    }
  }
  h.settings = join_lines(meta.settings_lines);
  return h;
}

vis::VisMeta vis_meta_from_header(const VisFileHeader& h) {
  vis::VisMeta m;
  m.telescope_name = "OSKAR";
  m.station_names = h.station_names;
  m.antenna_names = h.station_names;  // the .vis names are the ANTENNA names
  bool any_elements = false;
  for (const auto& e : h.element_enu_m) any_elements = any_elements || !e.empty();
  if (any_elements) m.element_enu_m = h.element_enu_m;
  m.array_centre_ecef_m = geodetic_to_ecef(h.telescope_lon_deg * kDegToRad,
                                           h.telescope_lat_deg * kDegToRad, h.telescope_alt_m);
  for (const auto& o : h.station_offset_ecef_m) {
    m.station_ecef_m.push_back({o[0] + m.array_centre_ecef_m[0], o[1] + m.array_centre_ecef_m[1],
                                o[2] + m.array_centre_ecef_m[2]});
  }
  if (!h.station_diameter_m.empty()) m.dish_diameter_m = h.station_diameter_m[0];
  bool any_feed = false;
  std::vector<std::array<double, 2>> feeds(std::size_t(h.num_stations), {0.0, 0.0});
  for (std::size_t s = 0; s < h.element_feed_angle_rad.size(); ++s) {
    const auto& a = h.element_feed_angle_rad[s];
    if (!a[0].empty() && !a[1].empty()) {
      feeds[s] = {a[0][0], a[1][0]};
      any_feed = true;
    }
  }
  if (any_feed) m.feed_angles_rad = feeds;
  m.phase_centre_type = h.phase_centre_type;
  m.phase_centre_ra_rad = h.phase_centre_deg[0] * kDegToRad;
  m.phase_centre_dec_rad = h.phase_centre_deg[1] * kDegToRad;
  m.num_channels = h.num_channels_total;
  m.start_frequency_hz = h.freq_start_hz;
  m.frequency_inc_hz = h.freq_inc_hz;
  m.channel_bandwidth_hz = h.channel_bandwidth_hz;
  m.num_times = h.num_times_total;
  m.start_time_mjd_utc = h.time_start_mjd_utc;
  m.time_inc_sec = h.time_inc_sec;
  m.time_average_sec = h.time_average_sec;
  m.pol_mode = h.pol_mode;
  m.write_autocorrelations = h.write_autocorrelations;
  m.write_crosscorrelations = h.write_crosscorrelations;
  m.casa_phase_convention = h.casa_phase_convention;
  m.application = "OSKAR";
  m.settings_lines = split_lines(h.settings);
  m.log_lines = split_lines(h.run_log);
  return m;
}

// ---------------------------------------------------------------------------------------------
// Writer

OutputTarget vis_output_target(const std::string& key, const std::string& path) {
  return OutputTarget{key, path, OutputKind::Text, "", "OSKARBIN"};
}

VisFileWriter::VisFileWriter(OutputTarget target, VisFileHeader header)
    : header_(std::move(header)) {
  validate(header_, target.path);
  check_output(target);
  output_ = std::make_unique<TemporaryOutput>(std::move(target));
  file_ = std::make_unique<BinaryFileWriter>(output_->path());
  BinaryFileWriter& f = *file_;
  const VisFileHeader& h = header_;

  // Group 1: date and time, creator, working directory, user (OSKAR's order).
  std::string date = h.date_time;
  if (date.empty()) {
    const std::time_t now = std::time(nullptr);
    char buf[80] = {};
    std::strftime(buf, sizeof(buf), "%Y-%m-%d, %H:%M:%S (%Z)", std::localtime(&now));
    date = buf;
  }
  f.write_string(kGroupMetadata, kMetaDateTime, 0, date);
  f.write_string(kGroupMetadata, kMetaVersion, 0, h.creator);
  std::string cwd = h.cwd;
  if (cwd.empty()) {
    std::error_code ec;
    cwd = std::filesystem::current_path(ec).string();
  }
  if (!cwd.empty()) f.write_string(kGroupMetadata, kMetaCwd, 0, cwd);
  std::string user = h.username;
  if (user.empty()) {
    const char* u = std::getenv("USERNAME");
    if (!u) u = std::getenv("USER");
    if (u) user = u;
  }
  if (!user.empty()) f.write_string(kGroupMetadata, kMetaUsername, 0, user);
  // Group 3: the settings file as it was (no terminating zero, as OSKAR).
  if (!h.settings.empty()) f.write_string(kGroupSettings, kSettingsContents, 0, h.settings, false);

  // Group 11, in OSKAR's order.
  f.write_string(kGroupHeader, kTelescopePath, 0, h.telescope_path, !h.telescope_path.empty());
  f.write_int(kGroupHeader, kNumTagsPerBlock, 0, h.num_tags_per_block());
  f.write_int(kGroupHeader, kWriteAutos, 0, h.write_autocorrelations ? 1 : 0);
  f.write_int(kGroupHeader, kWriteCrosses, 0, h.write_crosscorrelations ? 1 : 0);
  f.write_int(kGroupHeader, kAmpType, 0, h.amp_type());
  f.write_int(kGroupHeader, kCoordPrecision, 0, h.coord_type());
  f.write_int(kGroupHeader, kMaxTimesPerBlock, 0, h.max_times_per_block);
  f.write_int(kGroupHeader, kNumTimesTotal, 0, h.num_times_total);
  f.write_int(kGroupHeader, kMaxChannelsPerBlock, 0, h.max_channels_per_block);
  f.write_int(kGroupHeader, kNumChannelsTotal, 0, h.num_channels_total);
  f.write_int(kGroupHeader, kNumStations, 0, h.num_stations);
  f.write_int(kGroupHeader, kPolType, 0, h.pol_type);
  f.write_int(kGroupHeader, kCasaPhaseConvention, 0, h.casa_phase_convention ? 1 : 0);
  f.write_int(kGroupHeader, kPhaseCentreType, 0, h.phase_centre_type);
  f.write(oskar_type::kDouble, kGroupHeader, kPhaseCentreDeg, 0, h.phase_centre_deg.data(),
          2 * sizeof(double));
  f.write_double(kGroupHeader, kFreqStartHz, 0, h.freq_start_hz);
  f.write_double(kGroupHeader, kFreqIncHz, 0, h.freq_inc_hz);
  f.write_double(kGroupHeader, kChannelBandwidthHz, 0, h.channel_bandwidth_hz);
  f.write_double(kGroupHeader, kTimeStartMjdUtc, 0, h.time_start_mjd_utc);
  f.write_double(kGroupHeader, kTimeIncSec, 0, h.time_inc_sec);
  f.write_double(kGroupHeader, kTimeAverageSec, 0, h.time_average_sec);
  f.write_double(kGroupHeader, kTelescopeLonDeg, 0, h.telescope_lon_deg);
  f.write_double(kGroupHeader, kTelescopeLatDeg, 0, h.telescope_lat_deg);
  f.write_double(kGroupHeader, kTelescopeAltM, 0, h.telescope_alt_m);
  const auto ns = std::size_t(h.num_stations);
  for (int d = 0; d < 3; ++d) {
    write_reals(f, h.precision, kGroupHeader, std::uint8_t(kStationXOffsetEcef + d), 0, ns,
                [&](std::size_t s) { return h.station_offset_ecef_m[s][d]; });
  }
  for (std::size_t s = 0; s < ns; ++s) {
    const auto* e = h.element_enu_m.empty() ? nullptr : &h.element_enu_m[s];
    for (int d = 0; d < 3; ++d) {
      write_reals(f, h.precision, kGroupHeader, std::uint8_t(kElementXEnu + d), std::int32_t(s),
                  e ? e->size() : 0, [&](std::size_t i) { return (*e)[i][d]; });
    }
  }
  for (std::size_t s = 0; s < ns; ++s) {
    f.write_string(kGroupHeader, kStationName, std::int32_t(s), h.station_names[s]);
  }
  f.write(oskar_type::kDouble, kGroupHeader, kStationDiameter, 0, h.station_diameter_m.data(),
          ns * sizeof(double));
  for (std::size_t s = 0; s < ns; ++s) {
    for (int k = 0; k < 6; ++k) {
      const std::vector<double>* a =
          h.element_feed_angle_rad.empty() ? nullptr : &h.element_feed_angle_rad[s][k];
      f.write(oskar_type::kDouble, kGroupHeader, std::uint8_t(kFeedAngleFirst + k), std::int32_t(s),
              a ? a->data() : nullptr, a ? a->size() * sizeof(double) : 0);
    }
  }
}

VisFileWriter::~VisFileWriter() = default;  // an uncommitted TemporaryOutput removes the file

const std::string& VisFileWriter::temporary_path() const { return output_->path(); }

template <typename T>
void VisFileWriter::write_block(const vis::VisBlock<T>& block,
                                std::span<const std::array<double, 3>> station_uvw_m) {
  const VisFileHeader& h = header_;
  const std::string& where = output_->target().path;
  const int b = blocks_written_;
  auto fail = [&](const std::string& m) {
    throw Error::in_file(where, 0, "visibility block " + std::to_string(b) + ": " + m);
  };
  if (b >= h.num_blocks()) {
    fail("the header describes " + std::to_string(h.num_blocks()) + " blocks, all written");
  }
  const auto ext = h.block_extent(b);
  if (block.start_time_index != ext[0] || block.num_times() != ext[1] ||
      block.start_channel_index != ext[2] || block.num_channels() != ext[3]) {
    fail("expected times " + std::to_string(ext[0]) + " + " + std::to_string(ext[1]) +
         " and channels " + std::to_string(ext[2]) + " + " + std::to_string(ext[3]) +
         " (blocks in time, channel order), got times " + std::to_string(block.start_time_index) +
         " + " + std::to_string(block.num_times()) + " and channels " +
         std::to_string(block.start_channel_index) + " + " + std::to_string(block.num_channels()));
  }
  if (block.num_stations() != h.num_stations || block.pol_mode() != h.pol_mode ||
      block.has_cross() != h.write_crosscorrelations ||
      block.has_autos() != h.write_autocorrelations) {
    fail("stations, polarisation mode or products differ from the header");
  }
  const int nt = block.num_times();
  const int nc = block.num_channels();
  const std::size_t ns = std::size_t(h.num_stations);
  const std::size_t nb = h.num_baselines();
  const bool cross = h.write_crosscorrelations;
  if (cross && !station_uvw_m.empty() && station_uvw_m.size() != std::size_t(nt) * ns) {
    fail("station (u, v, w) has " + std::to_string(station_uvw_m.size()) + " entries, expected " +
         std::to_string(std::size_t(nt) * ns) + " (times x stations)");
  }

  BinaryFileWriter& f = *file_;
  const std::int32_t dims[6] = {ext[0],          ext[2], nt, nc, cross ? std::int32_t(nb) : 0,
                                std::int32_t(ns)};
  f.write(oskar_type::kInt, kGroupBlock, vis_tag::kDims, b, dims, sizeof(dims));
  const std::uint8_t amp = h.amp_type();
  const int np = h.num_pols();
  auto write_amps = [&](std::uint8_t tag, const std::vector<Complex<T>>& data, bool herm) {
    if (h.precision == Precision::Double) {
      write_complex_as<double>(f, amp, tag, b, data, np, herm);
    } else {
      write_complex_as<float>(f, amp, tag, b, data, np, herm);
    }
  };
  if (h.write_autocorrelations) write_amps(vis_tag::kAutos, block.auto_data(), false);
  if (cross) {
    write_amps(vis_tag::kCrosses, block.cross_data(), !h.casa_phase_convention);
    // Station (u, v, w): given, or from baselines (0, q): uvw_0q = u_0 - u_q with u_0 = 0.
    std::vector<std::array<double, 3>> derived;
    if (station_uvw_m.empty()) {
      derived.assign(std::size_t(nt) * ns, {0.0, 0.0, 0.0});
      for (int t = 0; t < nt; ++t) {
        for (std::size_t q = 1; q < ns; ++q) {
          const auto& w = block.uvw(t, vis::baseline_index(ns, 0, q));
          derived[std::size_t(t) * ns + q] = {-w[0], -w[1], -w[2]};
        }
      }
      station_uvw_m = derived;
    }
    for (int d = 0; d < 3; ++d) {
      write_reals(f, h.precision, kGroupBlock, std::uint8_t(vis_tag::kStationU + d), b,
                  station_uvw_m.size(), [&](std::size_t i) { return station_uvw_m[i][d]; });
    }
  }
  ++blocks_written_;
}

void VisFileWriter::write_run_log(const std::string& log) {
  file_->write_string(kGroupRun, kRunLog, 0, log, false);
}

void VisFileWriter::commit() {
  if (blocks_written_ != header_.num_blocks()) {
    throw Error::in_file(output_->target().path, 0,
                         "visibility file incomplete: " + std::to_string(blocks_written_) + " of " +
                             std::to_string(header_.num_blocks()) + " blocks written");
  }
  file_->close();
  output_->commit();
}

template void VisFileWriter::write_block<float>(const vis::VisBlock<float>&,
                                                std::span<const std::array<double, 3>>);
template void VisFileWriter::write_block<double>(const vis::VisBlock<double>&,
                                                 std::span<const std::array<double, 3>>);

// ---------------------------------------------------------------------------------------------
// Reader

namespace {

// n reals of a single or double chunk, as double. at_least: the chunk may hold more values
// (OSKAR 2.13 writes the station (u, v, w) of a short last time block with the length of a full
// block: the arrays grow but never shrink); the first n are used.
std::vector<double> read_reals(const BinaryFileReader& r, const BinaryChunk& c, std::uint64_t n,
                               const std::string& what, bool at_least = false) {
  const std::uint8_t t = c.data_type;
  if (t != oskar_type::kSingle && t != oskar_type::kDouble) {
    throw Error::in_file(r.path(), 0,
                         c.describe() + " (" + what + ") holds " + oskar_type_name(t) +
                             " data, expected single or double reals");
  }
  const std::size_t size = t == oskar_type::kDouble ? 8 : 4;
  if (!at_least || c.payload_size < n * size) r.check_payload_size(c, n, size, what);
  const auto bytes = r.read(c);
  std::vector<double> out(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (size == 8) {
      std::memcpy(&out[i], bytes.data() + 8 * i, 8);
    } else {
      float v = 0;
      std::memcpy(&v, bytes.data() + 4 * i, 4);
      out[i] = v;
    }
  }
  return out;
}

// A real array of any length (element positions, feed angles).
std::vector<double> read_real_array(const BinaryFileReader& r, const BinaryChunk& c,
                                    const std::string& what) {
  const std::size_t size = c.data_type == oskar_type::kDouble ? 8 : 4;
  return read_reals(r, c, c.payload_size / size, what);
}

}  // namespace

VisFileReader::VisFileReader(const std::string& path)
    : file_(std::make_unique<BinaryFileReader>(path)) {
  const BinaryFileReader& r = *file_;
  VisFileHeader& h = header_;
  auto fail_chunk = [&](std::uint8_t tag, const std::string& m) {
    const BinaryChunk* c = r.find(kGroupHeader, tag, 0);
    throw Error::in_file(path, 0,
                         (c ? c->describe() : std::string("visibility header")) + ": " + m);
  };
  auto read_int = [&](std::uint8_t tag) { return r.read_int(kGroupHeader, tag, 0); };
  auto read_double = [&](std::uint8_t tag) { return r.read_double(kGroupHeader, tag, 0); };

  const int amp = read_int(kAmpType);
  if (!(amp & oskar_type::kComplex) ||
      ((amp & 0x0F) != oskar_type::kSingle && (amp & 0x0F) != oskar_type::kDouble) ||
      (amp & ~0x6F) != 0) {
    fail_chunk(kAmpType, "amplitude type " + std::to_string(amp) +
                             " is not single or double complex (scalar or matrix)");
  }
  h.precision = (amp & 0x0F) == oskar_type::kDouble ? Precision::Double : Precision::Single;
  h.pol_mode = (amp & oskar_type::kMatrix) ? vis::PolMode::Full : vis::PolMode::Scalar;
  h.write_autocorrelations = read_int(kWriteAutos) != 0;
  h.write_crosscorrelations = read_int(kWriteCrosses) != 0;
  h.max_times_per_block = read_int(kMaxTimesPerBlock);
  h.num_times_total = read_int(kNumTimesTotal);
  h.max_channels_per_block = read_int(kMaxChannelsPerBlock);
  h.num_channels_total = read_int(kNumChannelsTotal);
  h.num_stations = read_int(kNumStations);
  h.pol_type = read_int(kPolType);
  if (h.num_stations < 1 || h.num_stations > (1 << 20)) {
    fail_chunk(kNumStations, "number of stations " + std::to_string(h.num_stations) +
                                 " is out of range (1 to 1048576)");
  }
  const BinaryChunk* casa = r.find(kGroupHeader, kCasaPhaseConvention, 0, oskar_type::kInt);
  h.casa_phase_convention = casa ? read_int(kCasaPhaseConvention) != 0 : false;  // old files: 0
  h.phase_centre_type = read_int(kPhaseCentreType);
  {
    const BinaryChunk& c = r.require(kGroupHeader, kPhaseCentreDeg, 0, oskar_type::kDouble);
    const auto v = read_reals(r, c, 2, "phase centre");
    h.phase_centre_deg = {v[0], v[1]};
  }
  h.freq_start_hz = read_double(kFreqStartHz);
  h.freq_inc_hz = read_double(kFreqIncHz);
  h.channel_bandwidth_hz = read_double(kChannelBandwidthHz);
  h.time_start_mjd_utc = read_double(kTimeStartMjdUtc);
  h.time_inc_sec = read_double(kTimeIncSec);
  h.time_average_sec = read_double(kTimeAverageSec);
  h.telescope_lon_deg = read_double(kTelescopeLonDeg);
  h.telescope_lat_deg = read_double(kTelescopeLatDeg);
  h.telescope_alt_m = read_double(kTelescopeAltM);
  const auto ns = std::size_t(h.num_stations);
  std::array<std::vector<double>, 3> xyz;
  for (int d = 0; d < 3; ++d) {
    const auto tag = std::uint8_t(kStationXOffsetEcef + d);
    const BinaryChunk* c = r.find(kGroupHeader, tag, 0);
    if (!c) r.require(kGroupHeader, tag, 0, h.coord_type());  // throws: missing
    xyz[d] = read_reals(r, *c, ns, "station offset ECEF coordinates");
  }
  h.station_offset_ecef_m.resize(ns);
  for (std::size_t s = 0; s < ns; ++s)
    h.station_offset_ecef_m[s] = {xyz[0][s], xyz[1][s], xyz[2][s]};
  // Optional per-station arrays (absent in older files).
  h.element_enu_m.assign(ns, {});
  h.element_feed_angle_rad.assign(ns, {});
  h.station_names.assign(ns, "");
  for (std::size_t s = 0; s < ns; ++s) {
    const auto si = std::int32_t(s);
    std::array<std::vector<double>, 3> e;
    bool have = true;
    for (int d = 0; d < 3; ++d) {
      const BinaryChunk* c = r.find(kGroupHeader, std::uint8_t(kElementXEnu + d), si);
      if (!c) {
        have = false;
        break;
      }
      e[d] = read_real_array(r, *c, "element ENU coordinates");
    }
    if (have) {
      if (e[1].size() != e[0].size() || e[2].size() != e[0].size()) {
        throw Error::in_file(path, 0,
                             "element coordinates of station " + std::to_string(s) +
                                 " (group 11, tags 35-37): arrays of different lengths");
      }
      for (std::size_t i = 0; i < e[0].size(); ++i) {
        h.element_enu_m[s].push_back({e[0][i], e[1][i], e[2][i]});
      }
    }
    if (const BinaryChunk* c = r.find(kGroupHeader, kStationName, si, oskar_type::kChar)) {
      h.station_names[s] = r.read_string(*c);
    } else {
      char buf[16];
      std::snprintf(buf, sizeof(buf), "s%04d", int(s));  // OSKAR's default station name
      h.station_names[s] = buf;
    }
    for (int k = 0; k < 6; ++k) {
      const BinaryChunk* c =
          r.find(kGroupHeader, std::uint8_t(kFeedAngleFirst + k), si, oskar_type::kDouble);
      if (c) h.element_feed_angle_rad[s][k] = read_real_array(r, *c, "element feed angles");
    }
  }
  if (const BinaryChunk* c = r.find(kGroupHeader, kStationDiameter, 0, oskar_type::kDouble)) {
    h.station_diameter_m = read_reals(r, *c, ns, "station diameters");
  } else {
    h.station_diameter_m.assign(ns, 0.0);
  }
  if (const BinaryChunk* c = r.find(kGroupHeader, kTelescopePath, 0, oskar_type::kChar)) {
    h.telescope_path = r.read_string(*c);
  }
  if (const BinaryChunk* c = r.find(kGroupSettings, kSettingsContents, 0, oskar_type::kChar)) {
    h.settings = r.read_string(*c);
  }
  if (const BinaryChunk* c = r.find(kGroupRun, kRunLog, 0, oskar_type::kChar)) {
    h.run_log = r.read_string(*c);
  }
  auto meta = [&](std::uint8_t tag, std::string& out) {
    if (const BinaryChunk* c = r.find(kGroupMetadata, tag, 0, oskar_type::kChar)) {
      out = r.read_string(*c);
    }
  };
  meta(kMetaDateTime, h.date_time);
  h.creator.clear();
  meta(kMetaVersion, h.creator);
  meta(kMetaUsername, h.username);
  meta(kMetaCwd, h.cwd);
  validate(h, path);
  const int per_block = read_int(kNumTagsPerBlock);
  if (per_block != h.num_tags_per_block()) {
    fail_chunk(kNumTagsPerBlock, std::to_string(per_block) + " chunks per block, expected " +
                                     std::to_string(h.num_tags_per_block()) +
                                     " for the products in the header");
  }
}

VisFileReader::~VisFileReader() = default;

const std::string& VisFileReader::path() const { return file_->path(); }

std::vector<std::array<double, 3>> VisFileReader::read_station_uvw(int b) const {
  const BinaryFileReader& r = *file_;
  std::vector<std::array<double, 3>> out;
  const BinaryChunk* u = r.find(kGroupBlock, vis_tag::kStationU, b);
  if (!u) return out;
  const BinaryChunk& dims_chunk = r.require(kGroupBlock, vis_tag::kDims, b, oskar_type::kInt);
  r.check_payload_size(dims_chunk, 6, 4, "block dimensions");
  const auto dims_bytes = r.read(dims_chunk);
  std::int32_t dims[6];
  std::memcpy(dims, dims_bytes.data(), sizeof(dims));
  const std::uint64_t n = std::uint64_t(std::max(dims[2], 0)) * std::uint64_t(header_.num_stations);
  std::array<std::vector<double>, 3> c;
  for (int d = 0; d < 3; ++d) {
    const auto tag = std::uint8_t(vis_tag::kStationU + d);
    const BinaryChunk* ch = r.find(kGroupBlock, tag, b);
    if (!ch) r.require(kGroupBlock, tag, b, header_.coord_type());
    c[d] = read_reals(r, *ch, n, "station (u, v, w)", true);
  }
  out.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) out[i] = {c[0][i], c[1][i], c[2][i]};
  return out;
}

template <typename T>
vis::VisBlock<T> VisFileReader::read_block(int b) const {
  const BinaryFileReader& r = *file_;
  const VisFileHeader& h = header_;
  if (b < 0 || b >= h.num_blocks()) {
    throw Error::in_file(r.path(), 0,
                         "visibility block " + std::to_string(b) +
                             " does not exist (the file has " + std::to_string(h.num_blocks()) +
                             " blocks)");
  }
  const BinaryChunk& dc = r.require(kGroupBlock, vis_tag::kDims, b, oskar_type::kInt);
  r.check_payload_size(dc, 6, 4, "block dimensions");
  const auto db = r.read(dc);
  std::int32_t dims[6];
  std::memcpy(dims, db.data(), sizeof(dims));
  const auto ext = h.block_extent(b);
  const std::int32_t nb = h.write_crosscorrelations ? std::int32_t(h.num_baselines()) : 0;
  if (dims[0] != ext[0] || dims[1] != ext[2] || dims[2] != ext[1] || dims[3] != ext[3] ||
      dims[5] != h.num_stations || (h.write_crosscorrelations && dims[4] != nb)) {
    throw Error::in_file(
        r.path(), 0,
        dc.describe() + ": block dimensions (" + std::to_string(dims[0]) + ", " +
            std::to_string(dims[1]) + ", " + std::to_string(dims[2]) + ", " +
            std::to_string(dims[3]) + ", " + std::to_string(dims[4]) + ", " +
            std::to_string(dims[5]) + ") do not match the header: expected (" +
            std::to_string(ext[0]) + ", " + std::to_string(ext[2]) + ", " + std::to_string(ext[1]) +
            ", " + std::to_string(ext[3]) + ", " + std::to_string(nb) + ", " +
            std::to_string(h.num_stations) +
            ") = (start time, start channel, times, channels, baselines, stations)");
  }
  const int nt = dims[2];
  const int nc = dims[3];
  const std::size_t ns = std::size_t(h.num_stations);
  const int np = h.num_pols();
  vis::VisBlock<T> blk(nt, nc, int(ns), h.pol_mode, h.write_crosscorrelations,
                       h.write_autocorrelations);
  blk.start_time_index = ext[0];
  blk.start_channel_index = ext[2];
  for (int t = 0; t < nt; ++t) {
    blk.time_mjd_utc_sec(t) =
        h.time_start_mjd_utc * kSecondsPerDay + (ext[0] + t + 0.5) * h.time_inc_sec;
  }
  for (int c = 0; c < nc; ++c) blk.frequency_hz(c) = h.freq_start_hz + (ext[2] + c) * h.freq_inc_hz;

  const std::uint8_t amp = h.amp_type();
  const std::size_t elem = std::size_t(oskar_element_size(amp));
  auto read_amps = [&](std::uint8_t tag, std::vector<Complex<T>>& out, bool herm,
                       const char* what) {
    const BinaryChunk& c = r.require(kGroupBlock, tag, b, amp);
    const std::size_t nvis = out.size() / std::size_t(np);
    r.check_payload_size(c, nvis, elem, what);
    const auto bytes = r.read(c);
    const bool dbl = h.precision == Precision::Double;
    for (std::size_t i = 0; i < out.size(); ++i) {
      double re = 0;
      double im = 0;
      if (dbl) {
        std::memcpy(&re, bytes.data() + 16 * i, 8);
        std::memcpy(&im, bytes.data() + 16 * i + 8, 8);
      } else {
        float fr = 0;
        float fi = 0;
        std::memcpy(&fr, bytes.data() + 8 * i, 4);
        std::memcpy(&fi, bytes.data() + 8 * i + 4, 4);
        re = fr;
        im = fi;
      }
      std::size_t dst = i;
      if (herm && np == 4) {
        if (i % 4 == 1) dst = i + 1;
        if (i % 4 == 2) dst = i - 1;
      }
      out[dst] = {T(re), T(herm ? -im : im)};
    }
  };
  if (h.write_autocorrelations) {
    read_amps(vis_tag::kAutos, blk.auto_data(), false, "auto-correlations");
  }
  if (h.write_crosscorrelations) {
    read_amps(vis_tag::kCrosses, blk.cross_data(), !h.casa_phase_convention, "cross-correlations");
    const auto st = read_station_uvw(b);
    if (!st.empty()) {
      for (int t = 0; t < nt; ++t) {
        const auto* u = &st[std::size_t(t) * ns];
        for (std::size_t p = 0; p < ns; ++p) {
          for (std::size_t q = p + 1; q < ns; ++q) {
            blk.uvw(t, vis::baseline_index(ns, p, q)) = {u[p][0] - u[q][0], u[p][1] - u[q][1],
                                                         u[p][2] - u[q][2]};
          }
        }
      }
    } else if (r.find(kGroupBlock, vis_tag::kBaselineUU, b)) {
      // Older files: baseline coordinates, u_p - u_q (CASA) or u_q - u_p (OSKAR's old sign).
      const std::uint64_t n = std::uint64_t(nt) * h.num_baselines();
      std::array<std::vector<double>, 3> c;
      for (int d = 0; d < 3; ++d) {
        const auto tag = std::uint8_t(vis_tag::kBaselineUU + d);
        const BinaryChunk* ch = r.find(kGroupBlock, tag, b);
        if (!ch) r.require(kGroupBlock, tag, b, h.coord_type());
        c[d] = read_reals(r, *ch, n, "baseline (uu, vv, ww)", true);
      }
      const double sign = h.casa_phase_convention ? 1.0 : -1.0;
      for (std::uint64_t i = 0; i < n; ++i) {
        blk.uvw_data()[i] = {sign * c[0][i], sign * c[1][i], sign * c[2][i]};
      }
    } else {
      throw Error::in_file(r.path(), 0,
                           "visibility block " + std::to_string(b) +
                               ": missing coordinates: expected station (u, v, w) chunks "
                               "(group 12, tags 7-9, index " +
                               std::to_string(b) + ") or baseline ones (tags 4-6)");
    }
  }
  return blk;
}

template vis::VisBlock<float> VisFileReader::read_block<float>(int) const;
template vis::VisBlock<double> VisFileReader::read_block<double>(int) const;

VisFileHeader read_vis_header(const std::string& path) { return VisFileReader(path).header(); }

template <typename T>
vis::VisBlock<T> read_vis_block(const std::string& path, int block_index) {
  return VisFileReader(path).read_block<T>(block_index);
}

template vis::VisBlock<float> read_vis_block<float>(const std::string&, int);
template vis::VisBlock<double> read_vis_block<double>(const std::string&, int);

}  // namespace fringe::io
