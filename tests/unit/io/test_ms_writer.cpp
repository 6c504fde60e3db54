// MsWriter + MsReader round trips on a small MS (3 stations, 2 channels, 2 times): row order
// and antenna numbering (docs/conventions.md, "Baselines and their order": time-major; per ANTENNA1
// the auto then the crosses), the two phase conventions ("Phase sign and the measurement
// equation"), force_polarised_ms, TIME at dump centres, and the write-to-temporary-then-rename
// behaviour; at the end, the concurrent column access the writer and calibrate rely on
// (column_tasks.h). Expected values are built here from the documented rules, not from the writer's
// code.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/io/ms/column_tasks.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/vis/vis_block.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;
using vis::PolMode;
using vis::VisBlock;
using vis::VisMeta;

constexpr int kStations = 3;
constexpr double kStartMjd = 60000.5;
constexpr double kDt = 10.0;

std::string test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_io_ms" /
                       (std::string(info->test_suite_name()) + "_" + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

struct Options {
  PolMode pol = PolMode::Full;
  bool autos = false;
  bool cross = true;
  bool casa = true;
  bool force = false;
};

VisMeta make_meta(const Options& o) {
  VisMeta m;
  m.telescope_name = "test telescope";
  m.station_names = {"st0", "st1", "st2"};
  m.station_ecef_m = {{{-1601614.0, -5042001.0, 3554652.0}},
                      {{-1601714.0, -5041901.0, 3554752.0}},
                      {{-1601514.0, -5042101.0, 3554552.0}}};
  m.array_centre_ecef_m = {{-1601614.0, -5042001.0, 3554652.0}};
  m.dish_diameter_m = 25.0;
  m.feed_angles_rad = {{{0.0, 0.0}}, {{0.1, 0.2}}, {{0.0, 0.0}}};
  m.phase_centre_ra_rad = 3.5;
  m.phase_centre_dec_rad = 0.5;
  m.num_channels = 2;
  m.start_frequency_hz = 100e6;
  m.frequency_inc_hz = 2e6;
  m.channel_bandwidth_hz = 1e6;
  m.num_times = 2;
  m.start_time_mjd_utc = kStartMjd;
  m.time_inc_sec = kDt;
  m.time_average_sec = 5.0;
  m.pol_mode = o.pol;
  m.write_autocorrelations = o.autos;
  m.write_crosscorrelations = o.cross;
  m.casa_phase_convention = o.casa;
  m.force_polarised = o.force;
  m.settings_lines = {"[observation]", "num_channels=2"};
  m.log_lines = {"a log line"};
  return m;
}

// Distinct, exactly representable values for every (time, channel, baseline/station, pol).
Complex<double> cross_value(int t, int c, int b, int pol) {
  return {1.0 + 1000.0 * t + 100.0 * c + 10.0 * b + pol, 0.5 - 7.0 * t + 3.0 * c - 2.0 * b + pol};
}
Complex<double> auto_value(int t, int c, int s, int pol) {
  return {5000.0 + 1000.0 * t + 100.0 * c + 10.0 * s + pol,
          pol == 1 ? 0.25 : (pol == 2 ? -0.25 : 0.0)};
}
// A made-up station (u, v, w) per time; the baseline value is uvw_p - uvw_q.
std::array<double, 3> station_uvw(int s, int t) {
  return {100.0 * s + 3.0 * t, 10.0 * s - 2.0 * t, 1.0 * s + 0.5 * t};
}

template <typename T>
VisBlock<T> make_block(const VisMeta& m, int t0, int nt, int c0, int nc) {
  VisBlock<T> b(nt, nc, kStations, m.pol_mode, m.write_crosscorrelations, m.write_autocorrelations);
  b.set_axes(m, t0, c0);
  const int np = b.num_pols();
  for (int t = 0; t < nt; ++t) {
    for (int p = 0; p < kStations; ++p) {
      for (int q = p + 1; q < kStations; ++q) {
        const std::size_t bl = vis::baseline_index(kStations, p, q);
        const auto up = station_uvw(p, t0 + t), uq = station_uvw(q, t0 + t);
        b.uvw(t, bl) = {up[0] - uq[0], up[1] - uq[1], up[2] - uq[2]};
      }
    }
    for (int c = 0; c < nc; ++c) {
      for (int pol = 0; pol < np; ++pol) {
        if (b.has_cross()) {
          for (std::size_t bl = 0; bl < b.num_baselines(); ++bl) {
            b.cross(t, c, bl, pol) = complex_cast<T>(cross_value(t0 + t, c0 + c, int(bl), pol));
          }
        }
        if (b.has_autos()) {
          for (int s = 0; s < kStations; ++s) {
            b.autos(t, c, s, pol) = complex_cast<T>(auto_value(t0 + t, c0 + c, s, pol));
          }
        }
      }
    }
  }
  return b;
}

// The rows of one dump per OSKAR: per a1, the auto (if any) then crosses a2 > a1.
struct ExpectedRow {
  int p, q;  // station pair as simulated, p <= q
};
std::vector<ExpectedRow> rows_of_dump(bool autos, bool cross) {
  std::vector<ExpectedRow> rows;
  for (int a1 = 0; a1 < kStations; ++a1) {
    if (autos) rows.push_back({a1, a1});
    if (cross)
      for (int a2 = a1 + 1; a2 < kStations; ++a2) rows.push_back({a1, a2});
  }
  return rows;
}

int baseline_of(int p, int q) {  // (0,1) -> 0, (0,2) -> 1, (1,2) -> 2 for 3 stations
  return p == 0 ? q - 1 : 2;
}

// Reads back an MS written from make_block() data and checks every column against the rules.
void check_ms(const std::string& path, const Options& o) {
  MsReader r(path);
  const auto dump = rows_of_dump(o.autos, o.cross);
  const int nt = 2, nc = 2;
  const int np_ms = (o.pol == PolMode::Full || o.force) ? 4 : 1;
  ASSERT_EQ(r.num_rows(), dump.size() * nt);
  EXPECT_EQ(r.num_stations(), kStations);
  EXPECT_EQ(r.num_channels(), nc);
  EXPECT_EQ(r.num_pols(), np_ms);
  const std::vector<int> expected_corr =
      np_ms == 4 ? std::vector<int>{9, 10, 11, 12} : std::vector<int>{9};
  EXPECT_EQ(r.corr_types(), expected_corr);
  const auto freqs = r.channel_frequencies_hz();
  ASSERT_EQ(freqs.size(), 2u);
  EXPECT_EQ(freqs[0], 100e6);
  EXPECT_EQ(freqs[1], 102e6);
  EXPECT_EQ(r.channel_widths_hz(), (std::vector<double>{2e6, 2e6}));
  EXPECT_EQ(r.station_names(),
            (std::vector<std::string>{"s0000 (st0)", "s0001 (st1)", "s0002 (st2)"}));
  EXPECT_EQ(r.station_positions_ecef_m()[1][2], 3554752.0);
  EXPECT_EQ(r.phase_centre_rad()[0], 3.5);
  EXPECT_EQ(r.phase_centre_rad()[1], 0.5);
  EXPECT_EQ(r.telescope_name(), "test telescope");

  const auto time = r.read_time();
  const auto interval = r.read_interval();
  const auto exposure = r.read_exposure();
  const auto a1 = r.read_antenna1();
  const auto a2 = r.read_antenna2();
  const auto uvw = r.read_uvw();
  const auto data = r.read_data();
  const auto flag = r.read_flag();
  const auto weight = r.read_weight();
  ASSERT_EQ(data.size(), r.num_rows() * nc * np_ms);
  ASSERT_EQ(flag.size(), data.size());
  ASSERT_EQ(weight.size(), r.num_rows() * np_ms);
  for (std::size_t i = 0; i < flag.size(); ++i) EXPECT_EQ(flag[i], 0);
  for (float w : weight) EXPECT_EQ(w, 1.0f);

  std::size_t row = 0;
  for (int t = 0; t < nt; ++t) {
    for (const ExpectedRow& e : dump) {
      SCOPED_TRACE("time " + std::to_string(t) + " pair " + std::to_string(e.p) + "," +
                   std::to_string(e.q));
      // TIME at the dump centre: MJD * 86400 + (t + 1/2) dt.
      EXPECT_DOUBLE_EQ(time[row], kStartMjd * 86400.0 + (t + 0.5) * kDt);
      EXPECT_EQ(interval[row], kDt);
      EXPECT_EQ(exposure[row], 5.0);
      const bool is_auto = e.p == e.q;
      const bool swapped = !is_auto && !o.casa;
      EXPECT_EQ(a1[row], swapped ? e.q : e.p);
      EXPECT_EQ(a2[row], swapped ? e.p : e.q);
      // UVW = uvw(ANTENNA1) - uvw(ANTENNA2) in both conventions; 0 for autos.
      const auto u1 = station_uvw(a1[row], t), u2 = station_uvw(a2[row], t);
      for (int k = 0; k < 3; ++k) EXPECT_DOUBLE_EQ(uvw[row][k], u1[k] - u2[k]);
      for (int c = 0; c < nc; ++c) {
        for (int pol = 0; pol < np_ms; ++pol) {
          Complex<double> v;
          if (o.pol == PolMode::Scalar && np_ms == 4) {
            // force_polarised_ms: XX = YY = V, XY = YX = 0.
            v = (pol == 0 || pol == 3) ? (is_auto ? auto_value(t, c, e.p, 0)
                                                  : cross_value(t, c, baseline_of(e.p, e.q), 0))
                                       : Complex<double>{0.0, 0.0};
            if (swapped) v = conj(v);
          } else if (is_auto) {
            v = auto_value(t, c, e.p, pol);
          } else if (!swapped) {
            v = cross_value(t, c, baseline_of(e.p, e.q), pol);
          } else {
            // V_qp = V_pq^H: element (i, j) of V_qp is conj of element (j, i) of V_pq.
            const int transposed[4] = {0, 2, 1, 3};
            v = conj(cross_value(t, c, baseline_of(e.p, e.q), np_ms == 4 ? transposed[pol] : 0));
          }
          const Complex<float> got = data[(row * nc + c) * np_ms + pol];
          EXPECT_EQ(got.re, float(v.re)) << "c " << c << " pol " << pol;
          EXPECT_EQ(got.im, float(v.im)) << "c " << c << " pol " << pol;
        }
      }
      ++row;
    }
  }
}

template <typename T>
void round_trip(const Options& o) {
  const std::string dir = test_dir();
  const VisMeta meta = make_meta(o);
  {
    MsWriter w(dir + "/out", meta);
    EXPECT_EQ(w.path(), dir + "/out.MS");
    w.append_block(make_block<T>(meta, 0, 2, 0, 2));
    w.finish();
  }
  check_ms(dir + "/out.MS", o);
}

TEST(MsWriter, FullCrossDouble) { round_trip<double>({PolMode::Full, false, true, true, false}); }
TEST(MsWriter, FullCrossFloat) { round_trip<float>({PolMode::Full, false, true, true, false}); }
TEST(MsWriter, FullBoth) { round_trip<double>({PolMode::Full, true, true, true, false}); }
TEST(MsWriter, FullAutosOnly) { round_trip<double>({PolMode::Full, true, false, true, false}); }
TEST(MsWriter, ScalarCross) { round_trip<float>({PolMode::Scalar, false, true, true, false}); }
TEST(MsWriter, ScalarBoth) { round_trip<double>({PolMode::Scalar, true, true, true, false}); }
TEST(MsWriter, ScalarForcePolarised) {
  round_trip<double>({PolMode::Scalar, true, true, true, true});
}
TEST(MsWriter, FullNonCasaConvention) {
  round_trip<double>({PolMode::Full, true, true, false, false});
}
TEST(MsWriter, ScalarNonCasaConvention) {
  round_trip<float>({PolMode::Scalar, false, true, false, false});
}
TEST(MsWriter, ForcePolarisedNonCasa) {
  round_trip<double>({PolMode::Scalar, false, true, false, true});
}

TEST(MsWriter, BlocksOfTimesAndChannelsAssembleTheSameMs) {
  const Options o{PolMode::Full, true, true, true, false};
  const std::string dir = test_dir();
  const VisMeta meta = make_meta(o);
  MsWriter w(dir + "/split.ms", meta);
  // One time per block, and the channels of each time in two blocks.
  for (int t = 0; t < 2; ++t) {
    w.append_block(make_block<double>(meta, t, 1, 0, 1));
    w.append_block(make_block<double>(meta, t, 1, 1, 1));
  }
  EXPECT_EQ(w.num_rows(), 2 * w.rows_per_time());
  w.finish();
  EXPECT_EQ(w.num_rows(), 2 * w.rows_per_time());
  check_ms(dir + "/split.ms", o);
}

TEST(MsWriter, HistoryHoldsSettingsAndLog) {
  // Only checks that the HISTORY rows exist through a reader-independent route: the table
  // folder is there and the writer accepted more lines before finish().
  const std::string dir = test_dir();
  const VisMeta meta = make_meta({});
  MsWriter w(dir + "/h.MS", meta);
  w.append_block(make_block<float>(meta, 0, 2, 0, 2));
  w.add_history({"run finished"});
  w.finish();
  EXPECT_TRUE(fs::is_directory(dir + "/h.MS/HISTORY"));
  EXPECT_THROW(w.add_history({"late"}), Error);
  EXPECT_THROW(w.finish(), Error);
}

// An earlier Measurement Set whose main table holds one dump (the one the tests replace).
void write_earlier_ms(const std::string& path) {
  VisMeta meta = make_meta({});
  meta.num_times = 1;
  MsWriter w(path, meta);
  w.append_block(make_block<float>(meta, 0, 1, 0, 2));
  w.finish();
}

TEST(MsWriter, ExistingOutputSurvivesUntilFinish) {
  const std::string dir = test_dir();
  const std::string final_path = dir + "/out.ms";
  write_earlier_ms(final_path);
  const auto earlier_size = fs::file_size(final_path + "/table.f0");
  const VisMeta meta = make_meta({});
  MsWriter w(final_path, meta);
  EXPECT_NE(w.temporary_path(), final_path);
  EXPECT_EQ(fs::path(w.temporary_path()).parent_path(), fs::path(final_path).parent_path());
  EXPECT_TRUE(fs::is_directory(w.temporary_path()));
  w.append_block(make_block<float>(meta, 0, 2, 0, 2));
  EXPECT_EQ(MsReader(final_path).num_rows(), 3u);  // the earlier MS, untouched while writing
  EXPECT_EQ(fs::file_size(final_path + "/table.f0"), earlier_size);
  w.finish();
  EXPECT_FALSE(fs::exists(w.temporary_path()));
  check_ms(final_path, {});
  // Nothing else is left in the folder (no temporary or moved-aside copies).
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
}

TEST(MsWriter, DestroyedWithoutFinishLeavesNothing) {
  const std::string dir = test_dir();
  const std::string final_path = dir + "/out.MS";
  write_earlier_ms(final_path);
  std::string temp;
  {
    const VisMeta meta = make_meta({});
    MsWriter w(final_path, meta);
    temp = w.temporary_path();
    w.append_block(make_block<float>(meta, 0, 1, 0, 2));
    EXPECT_TRUE(fs::exists(temp));
  }
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_EQ(MsReader(final_path).num_rows(), 3u);  // the earlier MS
  // Also no new output when none existed.
  {
    const VisMeta meta = make_meta({});
    MsWriter w(dir + "/fresh", meta);
  }
  EXPECT_FALSE(fs::exists(dir + "/fresh.MS"));
}

TEST(MsWriter, UnwritablePathIsAClearError) {
  const std::string dir = test_dir();
  std::ofstream(dir + "/plain_file") << "x";
  const VisMeta meta = make_meta({});
  try {
    MsWriter w(dir + "/plain_file/out.ms", meta);
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().file, dir + "/plain_file/out.ms");
    EXPECT_NE(std::string(e.what()).find("not a folder"), std::string::npos) << e.what();
  }
  try {
    MsWriter w(dir + "/no/such/folder/out.ms", meta);
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("out.ms"), std::string::npos) << e.what();
  }
  // A plain file where the MS should go.
  std::ofstream(dir + "/taken.ms") << "x";
  EXPECT_THROW(MsWriter(dir + "/taken.ms", meta), Error);
}

TEST(MsWriter, InconsistentBlockIsAnError) {
  const std::string dir = test_dir();
  const VisMeta meta = make_meta({});
  MsWriter w(dir + "/bad.ms", meta);
  VisBlock<float> no_axes(2, 2, kStations, PolMode::Full, true, false);  // times/freqs zero
  EXPECT_THROW(w.append_block(no_axes), Error);
  VisBlock<float> wrong_pol(2, 2, kStations, PolMode::Scalar, true, false);
  wrong_pol.set_axes(meta, 0, 0);
  EXPECT_THROW(w.append_block(wrong_pol), Error);
  VisBlock<float> too_late(1, 2, kStations, PolMode::Full, true, false);
  too_late.set_axes(meta, 2, 0);  // time index 2 of 2
  EXPECT_THROW(w.append_block(too_late), Error);
  VisBlock<float> autos(2, 2, kStations, PolMode::Full, true, true);
  autos.set_axes(meta, 0, 0);
  EXPECT_THROW(w.append_block(autos), Error);
}

TEST(MsWriter, InvalidMetaIsAnError) {
  const std::string dir = test_dir();
  VisMeta meta = make_meta({});
  meta.station_ecef_m.pop_back();
  EXPECT_THROW(MsWriter(dir + "/m.ms", meta), Error);
  EXPECT_FALSE(fs::exists(dir + "/m.ms"));
}

TEST(MsReader, ErrorsNameThePath) {
  const std::string dir = test_dir();
  try {
    MsReader r(dir + "/missing.ms");
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().file, dir + "/missing.ms");
  }
  const VisMeta meta = make_meta({});
  {
    MsWriter w(dir + "/r.ms", meta);
    w.append_block(make_block<float>(meta, 0, 2, 0, 2));
    w.finish();
  }
  MsReader r(dir + "/r.ms");
  EXPECT_FALSE(r.has_column("MODEL_DATA"));
  EXPECT_THROW(r.read_data(0, MsReader::kAllRows, "MODEL_DATA"), Error);
  EXPECT_THROW(r.read_time(r.num_rows() + 1), Error);
  EXPECT_THROW(r.read_time(0, r.num_rows() + 1), Error);
  // A row range in the middle.
  const auto t = r.read_time(3, 3);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t[0], kStartMjd * 86400.0 + 1.5 * kDt);
  EXPECT_EQ(r.read_data(3, 3).size(), 3u * 2 * 4);
  // Into a caller's buffer: the same values as the returning form, row range after row range,
  // reusing the buffer's storage (no reallocation for a range no larger than the first).
  const auto all = r.read_data();
  std::vector<Complex<float>> buf;
  r.read_data(0, 4, "DATA", buf);
  ASSERT_EQ(buf.size(), 4u * 2 * 4);
  const Complex<float>* storage = buf.data();
  r.read_data(2, 3, "DATA", buf);
  ASSERT_EQ(buf.size(), 3u * 2 * 4);
  EXPECT_EQ(buf.data(), storage);
  for (std::size_t i = 0; i < buf.size(); ++i) {
    EXPECT_EQ(buf[i].re, all[2 * 2 * 4 + i].re) << i;
    EXPECT_EQ(buf[i].im, all[2 * 2 * 4 + i].im) << i;
  }
  EXPECT_THROW(r.read_data(0, 1, "MODEL_DATA", buf), Error);
}

}  // namespace
}  // namespace fringe::io

namespace fringe::io {
namespace {

// A finished MS of make_meta({}) holding make_block's 2 times x 2 channels.
void write_small_ms(const std::string& path) {
  const VisMeta meta = make_meta({});
  MsWriter w(path, meta);
  w.append_block(make_block<float>(meta, 0, 2, 0, 2));
  w.finish();
}

// Column tasks (column_tasks.h): every task runs, and the first failure in task order is the
// one rethrown, after all have ended.
TEST(ColumnTasks, RunEveryTaskAndRethrowTheFirstFailure) {
  std::atomic<int> ran{0};
  std::vector<std::function<void()>> tasks;
  for (int i = 0; i < 5; ++i) {
    tasks.push_back([i, &ran] {
      ++ran;
      if (i == 1 || i == 3) throw Error("task " + std::to_string(i));
    });
  }
  try {
    detail::run_column_tasks(tasks);
    FAIL() << "expected fringe::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("task 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ran.load(), 5);
}

// The writer binds DATA, FLAG, UVW, WEIGHT and SIGMA to storage managers of their own and
// ANTENNA1/2 to one (OSKAR's layout): what the column tasks rely on.
TEST(MsReader, StorageManagersOfAWrittenMs) {
  const std::string dir = test_dir();
  write_small_ms(dir + "/s.ms");
  const MsReader r(dir + "/s.ms");
  std::set<std::string> managers;
  for (const char* c : {"DATA", "FLAG", "UVW", "WEIGHT", "SIGMA", "ANTENNA1", "TIME"}) {
    managers.insert(r.storage_manager(c));
  }
  EXPECT_EQ(managers.size(), 7u);
  EXPECT_EQ(r.storage_manager("ANTENNA1"), r.storage_manager("ANTENNA2"));
  EXPECT_EQ(r.storage_manager("TIME"), r.storage_manager("EXPOSURE"));
  EXPECT_THROW(r.storage_manager("NO_SUCH_COLUMN"), Error);
}

// An ExclusiveUpdate reader and a column writer of the same MS in one process share the open
// table and its lock: DATA is read on one thread while CORRECTED_DATA is written on another,
// many times over, and every value read back is the one written.
TEST(MsReader, ExclusiveUpdateReadsAndWritesColumnsConcurrently) {
  const std::string dir = test_dir();
  write_small_ms(dir + "/c.ms");
  MsReader r(dir + "/c.ms", MsReader::Access::ExclusiveUpdate);
  MsColumnWriter corrected(dir + "/c.ms", "CORRECTED_DATA");
  EXPECT_NE(r.storage_manager("DATA"), r.storage_manager("CORRECTED_DATA"));
  const std::vector<Complex<float>> data = r.read_data();
  const std::size_t rows = r.num_rows();
  std::vector<Complex<float>> values(data.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = {float(i), -float(i)};
  std::atomic<bool> reads_equal{true};
  std::thread reader([&] {
    std::vector<Complex<float>> buf;
    for (int k = 0; k < 200; ++k) {
      r.read_data(0, rows, "DATA", buf);
      for (std::size_t i = 0; i < buf.size(); ++i) {
        if (buf[i].re != data[i].re || buf[i].im != data[i].im) reads_equal = false;
      }
    }
  });
  for (int k = 0; k < 200; ++k) corrected.write(0, rows, values);
  reader.join();
  EXPECT_TRUE(reads_equal.load());
  corrected.flush();
  const std::vector<Complex<float>> back = r.read_data(0, MsReader::kAllRows, "CORRECTED_DATA");
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i].re, values[i].re) << i;
    EXPECT_EQ(back[i].im, values[i].im) << i;
  }
}

}  // namespace
}  // namespace fringe::io
