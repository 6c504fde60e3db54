// calibrate_ms on small Measurement Sets written with MsWriter: DATA = G M G^H with known
// time-variable diagonal gains, MODEL_DATA = M. Checks the gain table (against the truth),
// CORRECTED_DATA (against MODEL_DATA), flagged stations and the errors for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cal_test_ms.h"
#include "cal_test_util.h"
#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/ms/ms_writer.h"

namespace {

namespace fs = std::filesystem;
using fringe::Complex;
using fringe::Jones;
using namespace fringe::calibrate;
using cal_test::kChannels;
using cal_test::kStations;
using cal_test::kTimes;
using cal_test::TestMs;
using cal_test::write_ms;

CalibrateMsConfig config_for(const std::string& path) {
  CalibrateMsConfig c;
  c.ms_path = path;
  c.options.type = GainType::Diagonal;
  c.options.solver.tolerance = 1e-10;
  c.times_per_solution = 1;
  c.devices.use_gpus = false;
  return c;
}

// The solved gains of time t (its gain-table rows: one per station, in order, over every
// channel) and the true gains of that time.
std::pair<std::vector<Jones<double>>, std::vector<Jones<double>>> gains_at(
    const fringe::io::GainTable& table, const TestMs& ms, int t) {
  std::vector<Jones<double>> sol, truth;
  for (int p = 0; p < kStations; ++p) {
    const auto& row = table.rows[t * kStations + p];
    EXPECT_EQ(row.station, p);
    EXPECT_EQ(row.chan_start, 0);
    EXPECT_EQ(row.chan_end, kChannels - 1);
    sol.push_back({row.gain[0], row.gain[1], row.gain[2], row.gain[3]});
    truth.push_back(ms.gains[t * kStations + p]);
  }
  return {sol, truth};
}

class CalibrateMs : public ::testing::TestWithParam<bool> {};

TEST_P(CalibrateMs, RecoversGainsAndCorrectsData) {
  const bool casa = GetParam();
  const TestMs ms = write_ms(casa ? "casa.MS" : "oskar.MS", casa, true);
  CalibrateMsConfig c = config_for(ms.path);
  c.options.reference_station = 1;
  const CalibrateMsResult r = calibrate_ms(c, nullptr);
  EXPECT_EQ(r.num_cells, kTimes);
  EXPECT_EQ(r.num_converged + r.num_stalled, kTimes);  // float data: may stall near 1e-7
  EXPECT_EQ(r.num_flagged_station_cells, 0);
  EXPECT_GT(r.rms_before, 0.1);
  EXPECT_LT(r.rms_after, 1e-5);

  const auto table = fringe::io::read_gain_table(r.gains_path);
  ASSERT_EQ(table.rows.size(), std::size_t(kTimes * kStations));
  EXPECT_EQ(table.gain_type, "diagonal");
  EXPECT_TRUE(fs::exists(r.gains_path + ".csv"));
  for (int t = 0; t < kTimes; ++t) {
    const auto [sol, truth] = gains_at(table, ms, t);
    // Stored as complex float: 1e-5 relative.
    EXPECT_LT(cal_test::max_relative_error(sol, truth, GainType::Diagonal, 1,
                                           std::vector<std::uint8_t>(kStations, 0)),
              1e-5)
        << "time " << t;
  }
  fringe::io::MsReader reader(ms.path);
  ASSERT_TRUE(reader.has_column("CORRECTED_DATA"));
  const auto corrected = reader.read_data(0, fringe::io::MsReader::kAllRows, "CORRECTED_DATA");
  const auto model = reader.read_data(0, fringe::io::MsReader::kAllRows, "MODEL_DATA");
  const auto a1 = reader.read_antenna1(), a2 = reader.read_antenna2();
  double worst = 0;
  for (std::size_t i = 0; i < model.size(); ++i) {
    const std::size_t row = i / (kChannels * 4);
    if (a1[row] == a2[row]) continue;  // autos: DATA = model there, not G A G^H
    const int pol = int(i % 4);
    if (pol == 1 || pol == 2) continue;  // X-Y phase not solved by diagonal gains (docs)
    worst = std::max(worst, double(fringe::abs(corrected[i] - model[i])));
  }
  EXPECT_LT(worst, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Conventions, CalibrateMs, ::testing::Values(true, false));

// Full-Jones gains from the MS (CPU; the GPU path is compared with this one in
// test_calibrate_gpu): a polarised model, so the diagonal true gains are found as 2x2 gains.
TEST(CalibrateMsFullJones, RecoversGainsOnTheCpu) {
  const TestMs ms = write_ms("full_jones.MS", true, true);
  CalibrateMsConfig c = config_for(ms.path);
  c.options.type = GainType::FullJones;
  c.options.solver.tolerance = 1e-12;  // as test_calibrate_gpu's CalibrateMsGpuEqualsCpu
  c.options.solver.max_iterations = 2000;
  const CalibrateMsResult r = calibrate_ms(c, nullptr);
  EXPECT_EQ(r.backend, "cpu");
  EXPECT_EQ(r.num_cells, kTimes);
  EXPECT_EQ(r.num_max_iterations, 0);
  EXPECT_LT(r.rms_after, 1e-5);
  const auto table = fringe::io::read_gain_table(r.gains_path);
  ASSERT_EQ(table.rows.size(), std::size_t(kTimes * kStations));
  EXPECT_EQ(table.gain_type, "full_jones");
  for (int t = 0; t < kTimes; ++t) {
    const auto [sol, truth] = gains_at(table, ms, t);
    EXPECT_LT(cal_test::max_relative_error(sol, truth, GainType::FullJones, 0,
                                           std::vector<std::uint8_t>(kStations, 0)),
              1e-5)
        << "time " << t;
  }
}

TEST(CalibrateMsFlags, FlaggedStationIsUnsolvedAndFlaggedInCorrectedData) {
  const TestMs ms = write_ms("flagged.MS", true, true);
  fringe::io::MsReader reader(ms.path);
  const auto a1 = reader.read_antenna1(), a2 = reader.read_antenna2();
  std::vector<std::uint8_t> flags = reader.read_flag();
  const std::size_t per_row = kChannels * 4;
  for (std::size_t r = 0; r < a1.size(); ++r) {
    if (a1[r] == 4 || a2[r] == 4) {
      for (std::size_t k = 0; k < per_row; ++k) flags[r * per_row + k] = 1;
    }
  }
  {
    fringe::io::MsColumnWriter w(ms.path, "DATA");
    w.write_flags(0, a1.size(), flags);
  }
  const CalibrateMsResult r = calibrate_ms(config_for(ms.path), nullptr);
  EXPECT_EQ(r.num_converged + r.num_stalled, kTimes);
  EXPECT_EQ(r.num_flagged_station_cells, kTimes);
  const auto table = fringe::io::read_gain_table(r.gains_path);
  for (const auto& row : table.rows) EXPECT_EQ(row.flag, row.station == 4);
  EXPECT_LT(r.rms_after, 1e-5);
}

TEST(CalibrateMsErrors, MissingModelColumnNamesTheSetting) {
  const TestMs ms = write_ms("nomodel.MS", true, false);
  try {
    calibrate_ms(config_for(ms.path), nullptr);
    FAIL() << "no error without MODEL_DATA";
  } catch (const fringe::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("CalibrateMsConfig.model_column"), std::string::npos) << what;
    EXPECT_NE(what.find("MODEL_DATA"), std::string::npos) << what;
    EXPECT_NE(what.find("sky model"), std::string::npos) << what;
  }
}

TEST(CalibrateMsErrors, DiagonalGainsOnOnePolarisationIsRefused) {
  const TestMs ms = write_ms("scalar.MS", true, true, fringe::vis::PolMode::Scalar);
  try {
    calibrate_ms(config_for(ms.path), nullptr);
    FAIL() << "no error for diagonal gains on 1 pol";
  } catch (const fringe::Error& e) {
    EXPECT_NE(std::string(e.what()).find("CalOptions.type"), std::string::npos) << e.what();
  }
  // Scalar gains work on it.
  CalibrateMsConfig c = config_for(ms.path);
  c.options.type = GainType::Scalar;
  const CalibrateMsResult r = calibrate_ms(c, nullptr);
  EXPECT_EQ(r.num_cells, kTimes);
}

TEST(CalibrateMsErrors, NotAMeasurementSet) {
  CalibrateMsConfig c = config_for("/nonexistent/path.MS");
  EXPECT_THROW(calibrate_ms(c, nullptr), fringe::Error);
}

}  // namespace
