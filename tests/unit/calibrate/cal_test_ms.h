// Small Measurement Sets for the calibrate_ms tests: DATA = G M G^H with known
// time-variable diagonal gains, MODEL_DATA = M (random polarised model), autocorrelations.
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cal_test_util.h"
#include "fringe/io/ms/ms_writer.h"

namespace cal_test {

namespace fs = std::filesystem;

constexpr int kStations = 10, kTimes = 3, kChannels = 4;

struct TestMs {
  std::string path;
  std::vector<Jones<double>> gains;  // [t][station]
};

inline fringe::vis::VisMeta make_meta(bool casa, fringe::vis::PolMode pol) {
  fringe::vis::VisMeta m;
  for (int p = 0; p < kStations; ++p) {
    m.station_names.push_back("st" + std::to_string(p));
    m.station_ecef_m.push_back({-1601614.0 + 10.0 * p, -5042001.0 - 5.0 * p, 3554652.0 + p});
  }
  m.array_centre_ecef_m = {-1601614.0, -5042001.0, 3554652.0};
  m.phase_centre_ra_rad = 1.0;
  m.phase_centre_dec_rad = -0.5;
  m.num_channels = kChannels;
  m.start_frequency_hz = 100e6;
  m.frequency_inc_hz = 1e6;
  m.num_times = kTimes;
  m.start_time_mjd_utc = 60000.0;
  m.time_inc_sec = 10.0;
  m.pol_mode = pol;
  m.write_autocorrelations = true;
  m.casa_phase_convention = casa;
  return m;
}

// DATA = G M G^H and MODEL_DATA = M, gains diag(gX, gY) per (time, station).
inline TestMs write_ms(const std::string& name, bool casa, bool with_model,
                       fringe::vis::PolMode pol = fringe::vis::PolMode::Full) {
  const auto meta = make_meta(casa, pol);
  TestMs out;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> amp(0.7, 1.3), ph(-M_PI, M_PI);
  for (int i = 0; i < kTimes * kStations; ++i) {
    out.gains.push_back(
        fringe::jones_diagonal(fringe::polar(amp(rng), ph(rng)), fringe::polar(amp(rng), ph(rng))));
  }
  fs::path dir = fs::path(FRINGE_BINARY_DIR) / "test_calibrate_ms";
  fs::create_directories(dir);
  fringe::io::MsWriter writer((dir / name).string(), meta);
  out.path = writer.path();
  fringe::vis::VisBlock<double> model(kTimes, kChannels, kStations, pol, true, true);
  model.set_axes(meta, 0, 0);
  auto data = model;
  const int np = model.num_pols();
  for (int t = 0; t < kTimes; ++t) {
    for (int c = 0; c < kChannels; ++c) {
      std::size_t b = 0;
      for (int p = 0; p < kStations; ++p) {
        for (int q = p + 1; q < kStations; ++q, ++b) {
          const Jones<double> m{cal_test::rand_c(rng) + Complex<double>{1, 0},
                                cal_test::rand_c(rng, 0.3), cal_test::rand_c(rng, 0.3),
                                cal_test::rand_c(rng) + Complex<double>{1, 0}};
          const Jones<double> r =
              fringe::jones_sandwich(out.gains[t * kStations + p], m, out.gains[t * kStations + q]);
          const Complex<double> mv[4] = {m.a, m.b, m.c, m.d}, rv[4] = {r.a, r.b, r.c, r.d};
          for (int k = 0; k < np; ++k) {
            model.cross(t, c, b, k) = mv[np == 4 ? k : 0];
            data.cross(t, c, b, k) = rv[np == 4 ? k : 0];
          }
        }
        for (int k = 0; k < np; ++k) {
          model.autos(t, c, p, k) = {k == 0 || k == 3 ? 2.0 : 0.0, 0.0};
          data.autos(t, c, p, k) = model.autos(t, c, p, k);  // not used by the solver
        }
      }
    }
  }
  writer.append_block(data);
  if (with_model) writer.append_model_block(model);
  writer.finish();
  return out;
}

}  // namespace cal_test
