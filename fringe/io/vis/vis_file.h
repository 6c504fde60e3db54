// OSKAR visibility files (.vis), as OSKAR 2.13 writes and reads them (docs/vis_format.md).
//
// Layout (OSKAR binary container, oskar_binary.h), in file order:
//   group 1  metadata: 1 date/time, 2 version, 4 working directory, 3 user name  [char]
//   group 3  tag 2: the settings file contents [char] (when there are settings)
//   group 11 the visibility header: 1 telescope path [char], 2 chunks per block, 3 autos?,
//            4 crosses?, 5 amplitude data type, 6 coordinate data type, 7 max times per
//            block, 8 times in total, 9 max channels per block, 10 channels in total,
//            11 stations, 12 polarisation type, 13 CASA phase convention, 21 phase-centre
//            type [int]; 22 phase centre (deg)[2], 23 start frequency (Hz), 24 frequency
//            increment (Hz), 25 channel bandwidth (Hz), 26 start time MJD(UTC), 27 time
//            increment (s), 28 integration time (s), 29-31 telescope longitude, latitude (deg),
//            altitude (m) [double]; 32-34 station X, Y, Z offsets from the telescope centre
//            in ECEF (m) [coordinate type]; per station s (index s): 35-37 element E, N, U (m)
//            [coordinate type], 41 name [char], then 42 station diameters (m) [double], then
//            per station 43-48 element feed angles X/Y alpha, beta, gamma (rad) [double].
//   group 12 one set per block b (index b), blocks in (time, channel) order, channel
//            fastest: 1 dims [int 6] (start time, start channel, times, channels,
//            baselines, stations); 2 autos [amp type] (time, channel, station, pol);
//            3 crosses [amp type] (time, channel, baseline, pol); 7-9 station u, v, w (m)
//            [coordinate type] (time, station). Older files have 4-6 baseline uu, vv, ww
//            instead of 7-9; they are read too.
//   group 4  tag 1: the run log [char] (written after the blocks).
//
// fringe's vis::VisBlock always holds V_pq (p < q) with UVW = uvw_p - uvw_q (CASA convention).
// A file with casa_phase_convention = 0 holds the Hermitian transpose of each 2x2 cross product
// (the conjugate for scalar data), as OSKAR writes it; the writer converts to it and the reader
// back, so a VisBlock is the same either way. Baseline UVW is not stored: the block's station
// (u, v, w) are, and baseline (p, q) is u_p - u_q.
//
// Units: metres, degrees (header angles), radians (feed angles), Hz, seconds; times MJD(UTC).
// Errors: fringe::Error naming the file, the chunk (group, tag, index, byte offset) and what was
// expected.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fringe/core/output_guard.h"
#include "fringe/core/precision.h"
#include "fringe/vis/vis_block.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::io {

class BinaryFileReader;
class BinaryFileWriter;

// Group and tag ids (OSKAR 2.13 oskar_binary.h, oskar_vis_header.h, oskar_vis_block.h).
namespace vis_tag {
inline constexpr std::uint8_t kGroupMetadata = 1;
inline constexpr std::uint8_t kGroupSettings = 3;
inline constexpr std::uint8_t kGroupRun = 4;
inline constexpr std::uint8_t kGroupHeader = 11;
inline constexpr std::uint8_t kGroupBlock = 12;
// Block tags.
inline constexpr std::uint8_t kDims = 1;
inline constexpr std::uint8_t kAutos = 2;
inline constexpr std::uint8_t kCrosses = 3;
inline constexpr std::uint8_t kBaselineUU = 4;
inline constexpr std::uint8_t kStationU = 7;
}  // namespace vis_tag

// OSKAR polarisation type codes (header tag 12).
namespace vis_pol_type {
inline constexpr int kStokesIQUV = 0;
inline constexpr int kStokesI = 1;
inline constexpr int kLinearXXXYYXYY = 10;
inline constexpr int kLinearXX = 11;
}  // namespace vis_pol_type

// Everything in a .vis file that is not per-block data. Per-station vectors have num_stations
// entries (element arrays may be empty for stations that are not aperture arrays).
struct VisFileHeader {
  Precision precision = Precision::Double;  // amplitudes and coordinates
  vis::PolMode pol_mode = vis::PolMode::Full;
  int pol_type = vis_pol_type::kLinearXXXYYXYY;  // OSKAR: 10 for Full, 1 (Stokes I) for Scalar
  bool write_autocorrelations = false;
  bool write_crosscorrelations = true;
  int max_times_per_block = 0;
  int num_times_total = 0;
  int max_channels_per_block = 0;
  int num_channels_total = 0;
  int num_stations = 0;
  bool casa_phase_convention = true;
  int phase_centre_type = 0;  // 0: tracking (RA, Dec); 1: drift scan (azimuth, elevation)
  std::array<double, 2> phase_centre_deg{};
  double freq_start_hz = 0.0;
  double freq_inc_hz = 0.0;
  double channel_bandwidth_hz = 0.0;
  double time_start_mjd_utc = 0.0;  // start of the first dump
  double time_inc_sec = 0.0;
  double time_average_sec = 0.0;
  double telescope_lon_deg = 0.0;  // WGS84 geodetic reference position
  double telescope_lat_deg = 0.0;
  double telescope_alt_m = 0.0;
  std::vector<std::array<double, 3>> station_offset_ecef_m;  // station minus telescope centre
  std::vector<std::vector<std::array<double, 3>>> element_enu_m;
  std::vector<std::string> station_names;
  std::vector<double> station_diameter_m;
  // Per station, the six feed-angle arrays in tag order 43..48: X alpha, Y alpha, X beta,
  // Y beta, X gamma, Y gamma (one value per element, radians).
  std::vector<std::array<std::vector<double>, 6>> element_feed_angle_rad;

  std::string settings;        // settings file contents (group 3)
  std::string telescope_path;  // OSKAR 2.13 writes it empty
  // Group 1 metadata. The writer fills date_time and cwd when empty.
  std::string date_time;
  std::string creator = "fringe";  // the "version" string (tag 2)
  std::string username;            // written when not empty
  std::string cwd;
  std::string run_log;  // group 4, read back only (VisFileWriter::write_run_log writes it)

  std::size_t num_baselines() const { return vis::num_baselines(std::size_t(num_stations)); }
  int num_pols() const { return vis::num_pols(pol_mode); }
  int num_time_blocks() const;
  int num_channel_blocks() const;
  int num_blocks() const { return num_time_blocks() * num_channel_blocks(); }
  // Chunks per block (header tag 2): dims, plus autos, plus crosses and station u, v, w.
  int num_tags_per_block() const;
  // OSKAR data type codes (header tags 5 and 6).
  std::uint8_t amp_type() const;
  std::uint8_t coord_type() const;
  // Placement of block b: first time index and time count, first channel and channel count.
  std::array<int, 4> block_extent(int block_index) const;
};

// Throws fringe::Error (naming `what`, e.g. a path) if the header is inconsistent: counts,
// per-station array sizes, polarisation type against the mode.
void validate(const VisFileHeader& header, const std::string& what);

// The header of a run described by meta, in `precision`, blocks of at most max_times_per_block
// dumps and max_channels_per_block channels. Station offsets are station_ecef_m minus
// array_centre_ecef_m; telescope longitude, latitude and altitude are the WGS84 geodetic
// position of array_centre_ecef_m (a caller holding the telescope model's own values should
// set them instead, to carry them unchanged). Station names are the ANTENNA names
// (antenna_names, or "s0003 (<station name>)"); element positions come from element_enu_m and
// feed angles (X and Y alpha, one value per station) from feed_angles_rad, when present.
VisFileHeader vis_header_from_meta(const vis::VisMeta& meta, Precision precision,
                                   int max_times_per_block, int max_channels_per_block);
// The VisMeta of a file: absolute station ECEF from the offsets and the WGS84 position of the
// telescope centre; feed angles from the first element's X and Y alpha of each station;
// station and antenna names both the file's station names.
vis::VisMeta vis_meta_from_header(const VisFileHeader& header);

// The output target of a .vis file: an existing file at path may be replaced only when it is an
// OSKAR binary file (it begins with "OSKARBIN"; OutputKind::Text with that signature). key: the
// config field that names the path ("" in a writer's own check: errors name the file).
OutputTarget vis_output_target(const std::string& key, const std::string& path);

// Writes a .vis file: check_output(target) first (core/output_guard.h: the final path may hold
// only nothing or an earlier output of target's kind), then under a temporary name beside
// target.path: header chunks at construction, write_block() per block in (time,
// channel) order, write_run_log() optionally at the end, commit() renames it into place. A
// writer destroyed before commit() removes the temporary.
class VisFileWriter {
 public:
  VisFileWriter(OutputTarget target, VisFileHeader header);
  ~VisFileWriter();
  VisFileWriter(const VisFileWriter&) = delete;
  VisFileWriter& operator=(const VisFileWriter&) = delete;

  // Appends the next block (index = blocks written so far). Its start indices and sizes must be
  // those of header().block_extent(index), its stations, products and polarisation mode those
  // of the header. station_uvw_m: (time, station) station (u, v, w) in metres, time slowest;
  // empty: derived from the block's baseline UVW with station 0 at the origin (baselines read
  // back equal, up to rounding). Any T is converted to the header's precision.
  template <typename T>
  void write_block(const vis::VisBlock<T>& block,
                   std::span<const std::array<double, 3>> station_uvw_m = {});
  void write_run_log(const std::string& log);
  // Checks that every block was written, closes and renames the file into place.
  void commit();

  const VisFileHeader& header() const { return header_; }
  int blocks_written() const { return blocks_written_; }
  const std::string& temporary_path() const;

 private:
  VisFileHeader header_;
  std::unique_ptr<TemporaryOutput> output_;
  std::unique_ptr<BinaryFileWriter> file_;
  int blocks_written_ = 0;
};

// Reads a .vis file: the header at construction (with every chunk indexed and the header's
// chunks CRC checked), blocks on demand.
class VisFileReader {
 public:
  explicit VisFileReader(const std::string& path);
  ~VisFileReader();
  VisFileReader(const VisFileReader&) = delete;
  VisFileReader& operator=(const VisFileReader&) = delete;

  const VisFileHeader& header() const { return header_; }
  int num_blocks() const { return header_.num_blocks(); }
  const std::string& path() const;
  // Block b in precision T: visibilities in the CASA convention, baseline UVW, dump-centre
  // times (MJD(UTC) * 86400 s) and channel-centre frequencies from the header.
  template <typename T>
  vis::VisBlock<T> read_block(int block_index) const;
  // The station (u, v, w) of block b, (time, station), metres (empty for files that hold
  // baseline coordinates only or no cross-correlations).
  std::vector<std::array<double, 3>> read_station_uvw(int block_index) const;

 private:
  std::unique_ptr<BinaryFileReader> file_;
  VisFileHeader header_;
};

VisFileHeader read_vis_header(const std::string& path);
template <typename T>
vis::VisBlock<T> read_vis_block(const std::string& path, int block_index);

extern template void VisFileWriter::write_block<float>(const vis::VisBlock<float>&,
                                                       std::span<const std::array<double, 3>>);
extern template void VisFileWriter::write_block<double>(const vis::VisBlock<double>&,
                                                        std::span<const std::array<double, 3>>);
extern template vis::VisBlock<float> VisFileReader::read_block<float>(int) const;
extern template vis::VisBlock<double> VisFileReader::read_block<double>(int) const;
extern template vis::VisBlock<float> read_vis_block<float>(const std::string&, int);
extern template vis::VisBlock<double> read_vis_block<double>(const std::string&, int);

}  // namespace fringe::io
