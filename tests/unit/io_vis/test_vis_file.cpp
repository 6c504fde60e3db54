// OSKAR binary container and .vis files (fringe/io/vis): CRC-32C against the standard check
// value and a bitwise reference, a chunk assembled byte by byte here against the writer and
// reader, write -> read round trips in double and single precision (CASA and non-CASA phase
// conventions, partial last blocks, auto-correlations), CRC and truncation errors that name
// the chunk, and the output-safety behaviour of the writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../io/fault_injection.h"
#include "fringe/core/error.h"
#include "fringe/io/vis/oskar_binary.h"
#include "fringe/io/vis/vis_file.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;

std::string test_dir() { return test::fresh_test_dir("tmp_io_vis"); }

std::vector<unsigned char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Bit-by-bit CRC-32C (RFC 3720 appendix B.4 definition), independent of the table code.
std::uint32_t crc32c_bitwise(const std::vector<unsigned char>& bytes) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
  }
  return crc ^ 0xFFFFFFFFu;
}

template <typename V>
void append_le(std::vector<unsigned char>& out, V v) {
  unsigned char b[sizeof(V)];
  std::memcpy(b, &v, sizeof(V));  // the test host is little-endian (static_assert in the library)
  out.insert(out.end(), b, b + sizeof(V));
}

TEST(OskarCrc, StandardCheckValueAndContinuation) {
  const char* check = "123456789";
  EXPECT_EQ(crc32c(check, 9), 0xE3069283u);  // CRC-32C check value (RFC 3720)
  std::vector<unsigned char> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 37 + 11);
  EXPECT_EQ(crc32c(data.data(), data.size()), crc32c_bitwise(data));
  // OSKAR computes tag and payload in two steps; the result equals one pass.
  for (std::size_t split : {0, 1, 7, 20, 999}) {
    const std::uint32_t first = crc32c(data.data(), split);
    EXPECT_EQ(crc32c_update(first, data.data() + split, data.size() - split), crc32c_bitwise(data))
        << "split at " << split;
  }
}

// One int chunk (group 11, tag 7, index 3, value 42) assembled here from the documented layout.
std::vector<unsigned char> hand_made_file() {
  std::vector<unsigned char> f(64, 0);
  std::memcpy(f.data(), "OSKARBIN", 9);
  f[9] = 2;
  std::vector<unsigned char> chunk = {'T', 0x42, 'G', 4, 0x40, 0x02, 11, 7};
  append_le<std::int32_t>(chunk, 3);
  append_le<std::uint64_t>(chunk, 4 + 4);  // payload + CRC
  append_le<std::int32_t>(chunk, 42);
  const std::uint32_t crc = crc32c_bitwise(chunk);
  append_le<std::uint32_t>(chunk, crc);
  f.insert(f.end(), chunk.begin(), chunk.end());
  return f;
}

TEST(OskarBinary, WriterMatchesTheDocumentedLayoutByteForByte) {
  const std::string dir = test_dir();
  const std::string path = dir + "/one.bin";
  {
    BinaryFileWriter w(path);
    w.write_int(11, 7, 3, 42);
    w.close();
  }
  EXPECT_EQ(slurp(path), hand_made_file());
}

TEST(OskarBinary, ReaderIndexesAHandMadeFile) {
  const std::string dir = test_dir();
  const std::string path = dir + "/hand.bin";
  spit(path, hand_made_file());
  BinaryFileReader r(path);
  EXPECT_EQ(r.version(), 2);
  ASSERT_EQ(r.chunks().size(), 1u);
  const BinaryChunk& c = r.chunks()[0];
  EXPECT_EQ(c.group, 11);
  EXPECT_EQ(c.tag, 7);
  EXPECT_EQ(c.index, 3);
  EXPECT_EQ(c.offset, 64u);
  EXPECT_EQ(c.payload_offset, 84u);
  EXPECT_EQ(c.payload_size, 4u);
  EXPECT_TRUE(c.has_crc);
  EXPECT_EQ(r.read_int(11, 7, 3), 42);
  EXPECT_EQ(r.find(11, 7, 0), nullptr);
  try {
    (void)r.read_double(11, 7, 3);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds int data, expected double"), std::string::npos)
        << e.what();
  }
}

TEST(OskarBinary, BadMagicAndTagAreNamed) {
  const std::string dir = test_dir();
  auto bytes = hand_made_file();
  bytes[0] = 'X';
  spit(dir + "/a.bin", bytes);
  EXPECT_THROW(BinaryFileReader(dir + "/a.bin"), Error);
  bytes = hand_made_file();
  bytes[64] = 'X';  // first byte of the tag
  spit(dir + "/b.bin", bytes);
  try {
    BinaryFileReader r(dir + "/b.bin");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(dir + "/b.bin"), std::string::npos) << m;
    EXPECT_NE(m.find("at byte 64"), std::string::npos) << m;
    EXPECT_NE(m.find("expected a chunk tag"), std::string::npos) << m;
  }
}

// A small observation: 3 stations, 5 times in blocks of 2, 3 channels in blocks of 2.
VisFileHeader small_header(Precision p, vis::PolMode mode, bool autos, bool casa) {
  VisFileHeader h;
  h.precision = p;
  h.pol_mode = mode;
  h.pol_type = mode == vis::PolMode::Full ? vis_pol_type::kLinearXXXYYXYY : vis_pol_type::kStokesI;
  h.write_autocorrelations = autos;
  h.write_crosscorrelations = true;
  h.max_times_per_block = 2;
  h.num_times_total = 5;
  h.max_channels_per_block = 2;
  h.num_channels_total = 3;
  h.num_stations = 3;
  h.casa_phase_convention = casa;
  h.phase_centre_deg = {201.365, -43.019};
  h.freq_start_hz = 100e6;
  h.freq_inc_hz = 1e6;
  h.channel_bandwidth_hz = 10e3;
  h.time_start_mjd_utc = 60000.25;
  h.time_inc_sec = 10.0;
  h.time_average_sec = 9.5;
  h.telescope_lon_deg = 116.63;
  h.telescope_lat_deg = -26.70;
  h.telescope_alt_m = 377.0;
  h.station_offset_ecef_m = {{1.5, -2.25, 3.0}, {100.0, 50.0, -25.0}, {-300.0, 10.0, 7.0}};
  h.station_names = {"s0000 (station000)", "s0001 (station001)", "s0002"};
  h.station_diameter_m = {35.0, 35.0, 35.0};
  h.element_enu_m = {{{0.0, 0.0, 0.0}, {1.0, 2.0, 0.0}}, {}, {{-1.0, 0.5, 0.0}}};
  h.element_feed_angle_rad.assign(3, {});
  h.element_feed_angle_rad[0][0] = {0.1, 0.2};
  h.element_feed_angle_rad[0][1] = {1.6, 1.7};
  h.settings = "[observation]\nnum_time_steps=5\n";
  h.date_time = "2026-11-25, 03:00:00 (UTC)";
  h.cwd = "/work";
  h.username = "tester";
  return h;
}

// Block b of the small observation with values that identify every sample.
template <typename T>
vis::VisBlock<T> make_block(const VisFileHeader& h, int b) {
  const auto ext = h.block_extent(b);
  vis::VisBlock<T> blk(ext[1], ext[3], h.num_stations, h.pol_mode, h.write_crosscorrelations,
                       h.write_autocorrelations);
  blk.start_time_index = ext[0];
  blk.start_channel_index = ext[2];
  for (std::size_t i = 0; i < blk.cross_data().size(); ++i) {
    blk.cross_data()[i] = {T(0.25 * double(i) + b), T(-0.5 * double(i) + 1.0 / 3.0)};
  }
  for (std::size_t i = 0; i < blk.auto_data().size(); ++i) {
    blk.auto_data()[i] = {T(10.0 + double(i)), T(0.0)};
  }
  return blk;
}

// Station (u, v, w) of block b, (time, station), and the baseline UVW they imply.
std::vector<std::array<double, 3>> station_uvw(const VisFileHeader& h, int b) {
  const auto ext = h.block_extent(b);
  std::vector<std::array<double, 3>> uvw;
  for (int t = 0; t < ext[1]; ++t) {
    for (int s = 0; s < h.num_stations; ++s) {
      uvw.push_back({100.0 * s + t + 0.125, -37.5 * s + 2.0 * t, 0.75 * s - t});
    }
  }
  return uvw;
}

template <typename T>
void round_trip(Precision p, vis::PolMode mode, bool autos, bool casa) {
  const std::string dir = test_dir();
  const std::string path = dir + "/out.vis";
  const VisFileHeader h = small_header(p, mode, autos, casa);
  ASSERT_EQ(h.num_blocks(), 6);  // 3 time blocks (2, 2, 1) x 2 channel blocks (2, 1)
  {
    VisFileWriter w(vis_output_target("", path), h);
    for (int b = 0; b < h.num_blocks(); ++b) {
      const auto uvw = station_uvw(h, b);
      w.write_block(make_block<T>(h, b), uvw);
    }
    w.write_run_log("run log line 1\nline 2\n");
    EXPECT_FALSE(fs::exists(path));  // only the temporary name before commit()
    w.commit();
  }
  ASSERT_TRUE(fs::exists(path));

  VisFileReader r(path);
  const VisFileHeader& g = r.header();
  EXPECT_EQ(g.precision, p);
  EXPECT_EQ(g.pol_mode, mode);
  EXPECT_EQ(g.pol_type, h.pol_type);
  EXPECT_EQ(g.write_autocorrelations, autos);
  EXPECT_EQ(g.casa_phase_convention, casa);
  EXPECT_EQ(g.num_times_total, 5);
  EXPECT_EQ(g.num_channels_total, 3);
  EXPECT_EQ(g.max_times_per_block, 2);
  EXPECT_EQ(g.max_channels_per_block, 2);
  EXPECT_EQ(g.num_stations, 3);
  EXPECT_EQ(g.phase_centre_deg, h.phase_centre_deg);
  EXPECT_EQ(g.freq_start_hz, h.freq_start_hz);
  EXPECT_EQ(g.freq_inc_hz, h.freq_inc_hz);
  EXPECT_EQ(g.channel_bandwidth_hz, h.channel_bandwidth_hz);
  EXPECT_EQ(g.time_start_mjd_utc, h.time_start_mjd_utc);
  EXPECT_EQ(g.time_inc_sec, h.time_inc_sec);
  EXPECT_EQ(g.time_average_sec, h.time_average_sec);
  EXPECT_EQ(g.telescope_lon_deg, h.telescope_lon_deg);
  EXPECT_EQ(g.telescope_lat_deg, h.telescope_lat_deg);
  EXPECT_EQ(g.telescope_alt_m, h.telescope_alt_m);
  EXPECT_EQ(g.station_offset_ecef_m, h.station_offset_ecef_m);  // exact in float too
  EXPECT_EQ(g.element_enu_m, h.element_enu_m);
  EXPECT_EQ(g.station_names, h.station_names);
  EXPECT_EQ(g.station_diameter_m, h.station_diameter_m);
  EXPECT_EQ(g.element_feed_angle_rad[0][0], h.element_feed_angle_rad[0][0]);
  EXPECT_EQ(g.element_feed_angle_rad[0][1], h.element_feed_angle_rad[0][1]);
  EXPECT_TRUE(g.element_feed_angle_rad[1][0].empty());
  EXPECT_EQ(g.settings, h.settings);
  EXPECT_EQ(g.run_log, "run log line 1\nline 2\n");
  EXPECT_EQ(g.date_time, h.date_time);
  EXPECT_EQ(g.creator, "fringe");
  EXPECT_EQ(g.username, "tester");
  EXPECT_EQ(g.cwd, "/work");
  ASSERT_EQ(r.num_blocks(), 6);

  for (int b = 0; b < r.num_blocks(); ++b) {
    const auto want = make_block<T>(h, b);
    const auto got = r.read_block<T>(b);
    const auto ext = h.block_extent(b);
    EXPECT_EQ(got.start_time_index, ext[0]);
    EXPECT_EQ(got.start_channel_index, ext[2]);
    ASSERT_EQ(got.num_times(), ext[1]);
    ASSERT_EQ(got.num_channels(), ext[3]);
    ASSERT_EQ(got.cross_data().size(), want.cross_data().size());
    for (std::size_t i = 0; i < want.cross_data().size(); ++i) {
      ASSERT_EQ(got.cross_data()[i].re, want.cross_data()[i].re) << "block " << b << " " << i;
      ASSERT_EQ(got.cross_data()[i].im, want.cross_data()[i].im) << "block " << b << " " << i;
    }
    ASSERT_EQ(got.auto_data().size(), want.auto_data().size());
    for (std::size_t i = 0; i < want.auto_data().size(); ++i) {
      ASSERT_EQ(got.auto_data()[i].re, want.auto_data()[i].re);
    }
    // Baseline UVW = u_p - u_q of the station values as stored (float in single precision).
    const auto st = station_uvw(h, b);
    for (int t = 0; t < ext[1]; ++t) {
      for (std::size_t q = 1; q < 3; ++q) {
        for (std::size_t pp = 0; pp < q; ++pp) {
          const auto& w = got.uvw(t, vis::baseline_index(3, pp, q));
          for (int d = 0; d < 3; ++d) {
            const T up = T(st[std::size_t(t) * 3 + pp][d]);
            const T uq = T(st[std::size_t(t) * 3 + q][d]);
            ASSERT_EQ(w[d], double(up) - double(uq));
          }
        }
      }
      EXPECT_DOUBLE_EQ(got.time_mjd_utc_sec(t), 60000.25 * 86400.0 + (ext[0] + t + 0.5) * 10.0);
    }
    for (int c = 0; c < ext[3]; ++c) {
      EXPECT_DOUBLE_EQ(got.frequency_hz(c), 100e6 + (ext[2] + c) * 1e6);
    }
    const auto su = r.read_station_uvw(b);
    ASSERT_EQ(su.size(), st.size());
    EXPECT_EQ(su.back()[0], double(T(st.back()[0])));
  }
}

TEST(VisFile, RoundTripDoubleFullWithAutos) {
  round_trip<double>(Precision::Double, vis::PolMode::Full, true, true);
}
TEST(VisFile, RoundTripSingleFullNonCasa) {
  round_trip<float>(Precision::Single, vis::PolMode::Full, false, false);
}
TEST(VisFile, RoundTripSingleScalarWithAutos) {
  round_trip<float>(Precision::Single, vis::PolMode::Scalar, true, true);
}
TEST(VisFile, RoundTripDoubleScalarNonCasa) {
  round_trip<double>(Precision::Double, vis::PolMode::Scalar, false, false);
}

TEST(VisFile, NonCasaFileHoldsTheHermitianTranspose) {
  const std::string dir = test_dir();
  const std::string path = dir + "/h.vis";
  VisFileHeader h = small_header(Precision::Double, vis::PolMode::Full, false, false);
  h.num_times_total = 1;
  h.num_channels_total = 1;
  h.station_offset_ecef_m.resize(3);
  VisFileWriter w(vis_output_target("", path), h);
  auto blk = make_block<double>(h, 0);
  blk.cross(0, 0, 0, 0) = {1.0, 2.0};
  blk.cross(0, 0, 0, 1) = {3.0, 4.0};
  blk.cross(0, 0, 0, 2) = {5.0, 6.0};
  blk.cross(0, 0, 0, 3) = {7.0, 8.0};
  w.write_block(blk, station_uvw(h, 0));
  w.commit();
  BinaryFileReader r(path);
  const auto bytes = r.read(r.require(12, 3, 0, 0x68));  // double complex matrix
  double v[8];
  std::memcpy(v, bytes.data(), sizeof(v));
  // [[XX, XY], [YX, YY]]^H = [[XX*, YX*], [XY*, YY*]]
  EXPECT_EQ(std::vector<double>(v, v + 8),
            (std::vector<double>{1.0, -2.0, 5.0, -6.0, 3.0, -4.0, 7.0, -8.0}));
}

TEST(VisFile, StationUvwDerivedFromBaselines) {
  const std::string dir = test_dir();
  const std::string path = dir + "/d.vis";
  const VisFileHeader h = small_header(Precision::Double, vis::PolMode::Full, false, true);
  std::vector<vis::VisBlock<double>> blocks;
  {
    VisFileWriter w(vis_output_target("", path), h);
    for (int b = 0; b < h.num_blocks(); ++b) {
      auto blk = make_block<double>(h, b);
      const auto st = station_uvw(h, b);
      for (int t = 0; t < blk.num_times(); ++t) {
        for (std::size_t q = 1; q < 3; ++q) {
          for (std::size_t p = 0; p < q; ++p) {
            for (int d = 0; d < 3; ++d) {
              blk.uvw(t, vis::baseline_index(3, p, q))[d] =
                  st[std::size_t(t) * 3 + p][d] - st[std::size_t(t) * 3 + q][d];
            }
          }
        }
      }
      w.write_block(blk);  // no station UVW given
      blocks.push_back(blk);
    }
    w.commit();
  }
  VisFileReader r(path);
  for (int b = 0; b < r.num_blocks(); ++b) {
    const auto got = r.read_block<double>(b);
    for (std::size_t i = 0; i < got.uvw_data().size(); ++i) {
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(got.uvw_data()[i][d], blocks[b].uvw_data()[i][d], 1e-12);
      }
    }
  }
}

// Writes the small double file and returns its path.
std::string write_small(const std::string& dir) {
  const std::string path = dir + "/small.vis";
  const VisFileHeader h = small_header(Precision::Double, vis::PolMode::Full, true, true);
  VisFileWriter w(vis_output_target("", path), h);
  for (int b = 0; b < h.num_blocks(); ++b)
    w.write_block(make_block<double>(h, b), station_uvw(h, b));
  w.commit();
  return path;
}

TEST(VisFile, FlippedByteIsACrcMismatchNamingTheChunk) {
  const std::string dir = test_dir();
  const std::string path = write_small(dir);
  std::uint64_t offset = 0;
  {
    BinaryFileReader r(path);
    const BinaryChunk* c = r.find(12, 3, 2);  // cross-correlations of block 2
    ASSERT_NE(c, nullptr);
    offset = c->payload_offset + 17;
  }
  auto bytes = slurp(path);
  bytes[offset] ^= 0x10;
  spit(path, bytes);
  VisFileReader r(path);  // the header chunks are intact
  EXPECT_NO_THROW(r.read_block<double>(1));
  try {
    (void)r.read_block<double>(2);
    FAIL() << "expected a CRC error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(path), std::string::npos) << m;
    EXPECT_NE(m.find("CRC mismatch"), std::string::npos) << m;
    EXPECT_NE(m.find("group 12, tag 3, index 2"), std::string::npos) << m;
  }
}

TEST(VisFile, TruncatedFileNamesTheChunkAndSizes) {
  const std::string dir = test_dir();
  const std::string path = write_small(dir);
  std::uint64_t cut = 0;
  {
    BinaryFileReader r(path);
    const BinaryChunk* c = r.find(12, 3, 5);  // cross-correlations of the last block
    ASSERT_NE(c, nullptr);
    cut = c->payload_offset + c->payload_size / 2;
  }
  fs::resize_file(path, cut);
  try {
    VisFileReader r(path);
    FAIL() << "expected a truncation error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(path), std::string::npos) << m;
    EXPECT_NE(m.find("truncated chunk (group 12, tag 3, index 5)"), std::string::npos) << m;
    EXPECT_NE(m.find("file has " + std::to_string(cut) + " bytes"), std::string::npos) << m;
  }
  // Cut inside a tag.
  fs::resize_file(path, 64 + 10);
  EXPECT_THROW(VisFileReader{path}, Error);
}

TEST(VisFile, ContainerWithoutHeaderOrNoFileIsRefused) {
  const std::string dir = test_dir();
  const std::string path = dir + "/short.vis";
  {
    // A valid container with no chunks: the visibility header is missing.
    BinaryFileWriter w(path);
    w.close();
  }
  try {
    VisFileReader r(path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(path), std::string::npos) << m;
    EXPECT_NE(m.find("missing chunk (group 11, tag 5, index 0): expected int data"),
              std::string::npos)
        << m;
  }
  EXPECT_THROW(VisFileReader{dir + "/absent.vis"}, Error);
}

TEST(VisFileWriter, IncompleteOrWrongBlocksAreRefusedAndLeaveNoFile) {
  const std::string dir = test_dir();
  const std::string path = dir + "/x.vis";
  const VisFileHeader h = small_header(Precision::Double, vis::PolMode::Full, false, true);
  std::string temp;
  {
    VisFileWriter w(vis_output_target("", path), h);
    temp = w.temporary_path();
    EXPECT_TRUE(fs::exists(temp));
    EXPECT_THROW(w.write_block(make_block<double>(h, 1)), Error);  // block 1 before block 0
    w.write_block(make_block<double>(h, 0));
    EXPECT_THROW(w.commit(), Error);  // 1 of 6 blocks
  }
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_FALSE(fs::exists(path));
  VisFileHeader bad = h;
  bad.station_names.pop_back();
  EXPECT_THROW(VisFileWriter(vis_output_target("", path), bad), Error);
  // A file that is not an OSKAR binary file is refused and kept; an earlier .vis is replaced.
  std::ofstream(path) << "notes";
  EXPECT_THROW(VisFileWriter(vis_output_target("", path), h), Error);
  EXPECT_EQ(slurp(path).size(), 5u);
  const std::string earlier = write_small(dir);
  const auto before = fs::file_size(earlier);
  VisFileHeader one = h;
  one.num_times_total = 1;
  one.num_channels_total = 1;
  {
    VisFileWriter w(vis_output_target("", earlier), one);
    w.write_block(make_block<double>(one, 0));
    w.commit();
  }
  EXPECT_LT(fs::file_size(earlier), before);
  EXPECT_EQ(VisFileReader(earlier).num_blocks(), 1);
}

TEST(VisFile, HeaderFromMetaAndBack) {
  vis::VisMeta m;
  m.station_names = {"a", ""};
  m.element_enu_m = {{{1.0, 2.0, 0.0}, {-1.0, 0.5, 0.25}}, {}};
  m.array_centre_ecef_m = {-2559453.29059553, 5095371.73544116, -2849056.77357178};
  m.station_ecef_m = {
      {m.array_centre_ecef_m[0] + 10.0, m.array_centre_ecef_m[1] - 5.0,
       m.array_centre_ecef_m[2] + 1.0},
      {m.array_centre_ecef_m[0] - 20.0, m.array_centre_ecef_m[1] + 3.0, m.array_centre_ecef_m[2]}};
  m.dish_diameter_m = 35.0;
  m.feed_angles_rad = {{0.5, 2.0}, {0.25, 1.75}};
  m.phase_centre_ra_rad = 1.0;
  m.phase_centre_dec_rad = -0.5;
  m.num_channels = 4;
  m.start_frequency_hz = 1e8;
  m.frequency_inc_hz = 1e5;
  m.num_times = 3;
  m.start_time_mjd_utc = 59000.5;
  m.time_inc_sec = 8.0;
  m.pol_mode = vis::PolMode::Scalar;
  m.casa_phase_convention = false;
  m.settings_lines = {"[sky]", "x=1"};
  const VisFileHeader h = vis_header_from_meta(m, Precision::Single, 8, 2);
  EXPECT_EQ(h.max_times_per_block, 3);
  EXPECT_EQ(h.max_channels_per_block, 2);
  EXPECT_EQ(h.num_blocks(), 2);
  EXPECT_EQ(h.pol_type, vis_pol_type::kStokesI);
  EXPECT_EQ(h.station_offset_ecef_m[0][0], 10.0);
  EXPECT_EQ(h.settings, "[sky]\nx=1\n");
  EXPECT_EQ(h.station_names, (std::vector<std::string>{"s0000 (a)", "s0001"}));
  EXPECT_EQ(h.element_enu_m, m.element_enu_m);
  vis::VisMeta named = m;
  named.antenna_names = {"s0000 (copy of a)", "s0001 (b)"};
  EXPECT_EQ(vis_header_from_meta(named, Precision::Double, 1, 1).station_names,
            named.antenna_names);
  EXPECT_NO_THROW(validate(h, "meta"));
  const vis::VisMeta back = vis_meta_from_header(h);
  for (int i = 0; i < 2; ++i) {
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(back.station_ecef_m[i][d], m.station_ecef_m[i][d], 1e-6);
  }
  EXPECT_EQ(back.feed_angles_rad, m.feed_angles_rad);
  EXPECT_EQ(back.antenna_names, h.station_names);
  EXPECT_EQ(back.element_enu_m, m.element_enu_m);
  EXPECT_NO_THROW(vis::validate(back));
  EXPECT_EQ(back.casa_phase_convention, false);
  EXPECT_EQ(back.settings_lines, m.settings_lines);
  EXPECT_DOUBLE_EQ(back.phase_centre_dec_rad, -0.5);
}

// Files written by OSKAR 2.13 (oskar_sim_interferometer, commit 007bc17a, CPU build) from
// data/sim_{double,single}.ini: 4 stations (data/tel.tm), isotropic station beams, two
// unpolarised sources (data/sky.txt: 1 Jy at the phase centre, 2 Jy at RA 20.3, Dec -29.6 deg),
// no smearing, 3 times x 3 channels in blocks of 2 x 2, auto- and cross-correlations. Checked
// against values derived here: XX = YY = 3 Jy for every auto-correlation, and each
// cross-correlation XX = YY = 1 + 2 exp(+2 pi i (U l + V m + W (n - 1)) f / c) with (U, V, W)
// = u_p - u_q from the file's own station (u, v, w) (docs/conventions.md, "Phase sign"), to
// 1e-7 Jy in double precision (OSKAR forms its phases in another order) and 2e-4 in single.
template <typename T>
void check_oskar_file(const std::string& name, Precision precision, double tol) {
  const std::string path = std::string(FRINGE_SOURCE_DIR) + "/tests/unit/io_vis/data/" + name;
  VisFileReader r(path);
  const VisFileHeader& h = r.header();
  EXPECT_EQ(h.precision, precision);
  EXPECT_EQ(h.pol_mode, vis::PolMode::Full);
  EXPECT_EQ(h.pol_type, vis_pol_type::kLinearXXXYYXYY);
  EXPECT_TRUE(h.write_autocorrelations);
  EXPECT_TRUE(h.write_crosscorrelations);
  EXPECT_TRUE(h.casa_phase_convention);
  EXPECT_EQ(h.num_stations, 4);
  EXPECT_EQ(h.num_times_total, 3);
  EXPECT_EQ(h.num_channels_total, 3);
  EXPECT_EQ(h.max_times_per_block, 2);
  EXPECT_EQ(h.max_channels_per_block, 2);
  EXPECT_EQ(r.num_blocks(), 4);
  EXPECT_EQ(h.freq_start_hz, 100e6);
  EXPECT_EQ(h.freq_inc_hz, 20e6);
  EXPECT_EQ(h.time_start_mjd_utc, 51544.5);         // 2000-01-01 12:00 UTC
  EXPECT_EQ(h.time_inc_sec, 1200.0);                // 1 hour in 3 steps
  EXPECT_NEAR(h.phase_centre_deg[0], 20.0, 1e-12);  // OSKAR stores rad -> deg
  EXPECT_NEAR(h.phase_centre_deg[1], -30.0, 1e-12);
  EXPECT_NEAR(h.telescope_lon_deg, 116.63, 1e-12);
  EXPECT_NEAR(h.telescope_lat_deg, -26.70, 1e-12);
  EXPECT_NEAR(h.telescope_alt_m, 377.0, 1e-9);
  EXPECT_EQ(h.station_names[2], "s0002 (station000)");
  EXPECT_NE(h.settings.find("max_channels_per_block=2"), std::string::npos);
  EXPECT_NE(h.run_log.find("OSKAR"), std::string::npos);
  EXPECT_EQ(h.creator.rfind("2.13.0", 0), 0u) << h.creator;  // OSKAR_VERSION_STR
  // Station offsets are the ENU layout rotated into ECEF: lengths are kept.
  const double enu[4][3] = {{0, 0, 0}, {120, 35, 0}, {-80, 200, 1.5}, {310, -150, 0}};
  for (int s = 0; s < 4; ++s) {
    const auto& o = h.station_offset_ecef_m[s];
    const double len = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    EXPECT_NEAR(len, std::hypot(enu[s][0], enu[s][1], enu[s][2]), 1e-3) << "station " << s;
  }

  const double d2r = 3.14159265358979323846 / 180.0;
  const double ra0 = 20.0 * d2r, dec0 = -30.0 * d2r, ra = 20.3 * d2r, dec = -29.6 * d2r;
  const double l = std::cos(dec) * std::sin(ra - ra0);
  const double m =
      std::sin(dec) * std::cos(dec0) - std::cos(dec) * std::sin(dec0) * std::cos(ra - ra0);
  const double n =
      std::sin(dec) * std::sin(dec0) + std::cos(dec) * std::cos(dec0) * std::cos(ra - ra0);
  int checked = 0;
  for (int b = 0; b < r.num_blocks(); ++b) {
    const auto blk = r.read_block<T>(b);
    const auto ext = h.block_extent(b);
    EXPECT_EQ(blk.num_times(), ext[1]);
    EXPECT_EQ(blk.num_channels(), ext[3]);
    for (int t = 0; t < blk.num_times(); ++t) {
      for (int c = 0; c < blk.num_channels(); ++c) {
        for (int s = 0; s < 4; ++s) {
          EXPECT_NEAR(blk.autos(t, c, s, 0).re, 3.0, tol);
          EXPECT_NEAR(blk.autos(t, c, s, 3).re, 3.0, tol);
          EXPECT_NEAR(std::abs(blk.autos(t, c, s, 1).re), 0.0, tol);
        }
        const double f = blk.frequency_hz(c);
        EXPECT_EQ(f, 100e6 + 20e6 * (ext[2] + c));
        for (std::size_t bl = 0; bl < 6; ++bl) {
          const auto& w = blk.uvw(t, bl);
          const double phase = 2.0 * 3.14159265358979323846 * f / 299792458.0 *
                               (w[0] * l + w[1] * m + w[2] * (n - 1.0));
          const auto& xx = blk.cross(t, c, bl, 0);
          const auto& yy = blk.cross(t, c, bl, 3);
          ASSERT_NEAR(xx.re, 1.0 + 2.0 * std::cos(phase), tol) << "block " << b << " bl " << bl;
          ASSERT_NEAR(xx.im, 2.0 * std::sin(phase), tol) << "block " << b << " bl " << bl;
          EXPECT_NEAR(yy.re, xx.re, tol);
          EXPECT_NEAR(yy.im, xx.im, tol);
          // XY and YX: zero up to OSKAR's rounding of its per-source polarisation terms.
          EXPECT_LT(std::abs(blk.cross(t, c, bl, 1).re) + std::abs(blk.cross(t, c, bl, 2).im),
                    1e-3);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 3 * 3 * 6);
}

TEST(OskarVisFile, ReadsOskar213DoubleFile) {
  check_oskar_file<double>("oskar_tiny_double.vis", Precision::Double, 1e-7);
}

TEST(OskarVisFile, ReadsOskar213SingleFile) {
  check_oskar_file<float>("oskar_tiny_single.vis", Precision::Single, 2e-4);
}

// fringe rewrites OSKAR's file block by block (station (u, v, w) carried over): every chunk
// of the visibility groups 11 and 12 has the same payload bytes as OSKAR's.
TEST(OskarVisFile, RewriteGivesOskarsPayloads) {
  const std::string src =
      std::string(FRINGE_SOURCE_DIR) + "/tests/unit/io_vis/data/oskar_tiny_double.vis";
  const std::string dir = test_dir();
  const std::string out = dir + "/rewritten.vis";
  {
    VisFileReader r(src);
    VisFileWriter w(vis_output_target("", out), r.header());
    for (int b = 0; b < r.num_blocks(); ++b) {
      auto st = r.read_station_uvw(b);
      w.write_block(r.read_block<double>(b), st);
    }
    w.write_run_log(r.header().run_log);
    w.commit();
  }
  BinaryFileReader a(src);
  BinaryFileReader b(out);
  int compared = 0;
  for (const BinaryChunk& c : a.chunks()) {
    if (c.group != 11 && c.group != 12) continue;
    const BinaryChunk* d = b.find(c.group, c.tag, c.index, c.data_type);
    ASSERT_NE(d, nullptr) << c.describe();
    if (c.group == 12 && c.tag == 7) {
      // OSKAR's station u of a short last block has stale extra values; compare the used part.
      const auto x = a.read(c);
      const auto y = b.read(*d);
      ASSERT_LE(y.size(), x.size());
      EXPECT_TRUE(std::equal(y.begin(), y.end(), x.begin())) << c.describe();
    } else if (c.group == 12 && (c.tag == 8 || c.tag == 9)) {
      const auto x = a.read(c);
      const auto y = b.read(*d);
      EXPECT_TRUE(std::equal(y.begin(), y.end(), x.begin())) << c.describe();
    } else {
      EXPECT_EQ(a.read(c), b.read(*d)) << c.describe();
    }
    ++compared;
  }
  EXPECT_EQ(compared, 68 + 24);  // the chunks of group 11, and 4 blocks x 6
}

}  // namespace
}  // namespace fringe::io
