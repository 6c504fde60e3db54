// vis_add_noise against oskar_vis_add_noise. OSKAR's random numbers are its own, so the
// noise (output minus input) is compared in distribution: OSKAR's output of
// tests/data/vis_tools/noise_input.vis (oskar/noise_input_noise.vis) and fringe's output of the
// same file, with the same settings (noise.ini: per-station RMS from noise_tel.tm), are both
// checked against the expected sigma of OSKAR's formula (oskar_vis_block_add_system_noise):
//   cross-correlation (p, q), Full mode: each real and imaginary part of XX, XY, YX, YY is
//   N(0, sqrt(sigma_p sigma_q)), sigma_p the RMS of station p at the channel's frequency;
//   auto-correlation p: XX.re and YY.re get a mean sqrt(2) sigma_p sqrt(2 dnu tau)
//   (dnu = 1 kHz channel bandwidth, tau = 10 s integration time of the file's header) plus
//   N(0, sqrt(2) sigma_p).
// Bounds: a variance estimated from n normal samples has a relative standard deviation
// sqrt(2 / n); the tests allow 5 of those (a false failure about once in 10^6 runs per check).
// Also: the same seed gives the same noise, another seed other noise; Measurement Sets get
// the same cross-correlation noise as the .vis file they were made from (the same counters);
// in-place runs replace the input only when complete.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/vistools/vis_add_noise.h"
#include "fringe/vistools/vis_to_ms.h"
#include "test_data.h"

namespace fringe::vistools {
namespace {

namespace fs = std::filesystem;

// noise_tel.tm: station k's RMS is (0.5 + 0.25 k) x (1, 1.5, 2) Jy at 100, 120, 140 MHz, the
// three channels of noise_input.vis.
double sigma(int station, int channel) { return (0.5 + 0.25 * station) * (1.0 + 0.5 * channel); }
constexpr int kStations = 8;

// The noise table vis_add_noise gets from noise.ini (app/vis_noise_settings.h reads the same
// files; here written out so that the test does not depend on the settings code).
vis::NoiseTable noise_table() {
  vis::NoiseTable t;
  t.freq_hz = {100e6, 120e6, 140e6};
  for (int s = 0; s < kStations; ++s) t.rms_jy.push_back({sigma(s, 0), sigma(s, 1), sigma(s, 2)});
  return t;
}

std::string run_fringe(const std::string& dir, std::uint64_t seed) {
  fs::create_directories(dir);
  const std::string in = dir + "/noise_input.vis";
  fs::copy_file(test::data("noise_input.vis"), in, fs::copy_options::overwrite_existing);
  VisAddNoiseConfig cfg;
  cfg.inputs = {in};
  cfg.noise = noise_table();
  cfg.seed = seed;
  const VisAddNoiseResult r = vis_add_noise(cfg);
  EXPECT_EQ(r.outputs.at(0), dir + "/noise_input_noise.vis");  // OSKAR's name
  return r.outputs.at(0);
}

struct NoiseStats {
  std::vector<double> cross_var_ratio;  // per baseline: sum n^2 / sum sigma_pq^2
  double cross_var_all = 0;
  std::size_t cross_n_per_baseline = 0, cross_n = 0;
  double auto_mean_ratio = 0;  // mean of XX.re, YY.re noise / expected bias
  double auto_var_ratio = 0;   // sum (XX.re, YY.re noise - bias)^2 / sum 2 sigma_p^2
  std::size_t auto_n = 0;
};

NoiseStats measure(const std::string& input, const std::string& output) {
  io::VisFileReader in(input), out(output);
  const io::VisFileHeader& h = in.header();
  const double sefd = std::sqrt(2.0 * h.channel_bandwidth_hz * h.time_average_sec);
  const std::size_t nb = h.num_baselines();
  std::vector<double> sum2(nb, 0), sig2(nb, 0);
  std::vector<std::size_t> count(nb, 0);
  double bias_ratio = 0, auto2 = 0, auto_sig2 = 0;
  NoiseStats s;
  for (int b = 0; b < in.num_blocks(); ++b) {
    const auto bi = in.read_block<double>(b), bo = out.read_block<double>(b);
    for (int t = 0; t < bi.num_times(); ++t) {
      for (int c = 0; c < bi.num_channels(); ++c) {
        const int ch = bi.start_channel_index + c;
        std::size_t k = 0;
        for (int p = 0; p < kStations; ++p) {
          for (int q = p + 1; q < kStations; ++q, ++k) {
            const double s2 = sigma(p, ch) * sigma(q, ch);  // sqrt(sp sq)^2
            for (int pol = 0; pol < 4; ++pol) {
              const double dr = bo.cross(t, c, k, pol).re - bi.cross(t, c, k, pol).re;
              const double di = bo.cross(t, c, k, pol).im - bi.cross(t, c, k, pol).im;
              sum2[k] += dr * dr + di * di;
              sig2[k] += 2 * s2;
              count[k] += 2;
            }
          }
        }
        for (int p = 0; p < kStations; ++p) {
          const double bias = std::sqrt(2.0) * sigma(p, ch) * sefd;
          for (int pol : {0, 3}) {
            const double n = bo.autos(t, c, p, pol).re - bi.autos(t, c, p, pol).re;
            bias_ratio += n / bias;
            auto2 += (n - bias) * (n - bias);
            auto_sig2 += 2 * sigma(p, ch) * sigma(p, ch);  // (sqrt(2) sigma_p)^2
            ++s.auto_n;
          }
        }
      }
    }
  }
  double all2 = 0, allsig = 0;
  for (std::size_t k = 0; k < nb; ++k) {
    s.cross_var_ratio.push_back(sum2[k] / sig2[k]);
    all2 += sum2[k];
    allsig += sig2[k];
    s.cross_n += count[k];
  }
  s.cross_n_per_baseline = count[0];
  s.cross_var_all = all2 / allsig;
  s.auto_mean_ratio = bias_ratio / double(s.auto_n);
  s.auto_var_ratio = auto2 / auto_sig2;
  return s;
}

void expect_oskar_statistics(const NoiseStats& s, const char* who) {
  const double per_baseline = 5 * std::sqrt(2.0 / double(s.cross_n_per_baseline));
  for (std::size_t k = 0; k < s.cross_var_ratio.size(); ++k) {
    EXPECT_NEAR(s.cross_var_ratio[k], 1.0, per_baseline) << who << ", baseline " << k;
  }
  EXPECT_NEAR(s.cross_var_all, 1.0, 5 * std::sqrt(2.0 / double(s.cross_n))) << who;
  // The bias is 141 sigma here; the Gaussian part (at most 2 sigma per sample) averages out
  // to 2 / 141 / sqrt(960) of it: 0.1 % allows 2 of those.
  EXPECT_NEAR(s.auto_mean_ratio, 1.0, 1e-3) << who;
  // The Gaussian part of XX.re and YY.re: N(0, sqrt(2) sigma_p) in OSKAR's Full mode.
  EXPECT_NEAR(s.auto_var_ratio, 1.0, 5 * std::sqrt(2.0 / double(s.auto_n))) << who;
}

TEST(VisAddNoise, OskarOutputHasTheExpectedSigma) {
  // The truth of the comparison: OSKAR's own output follows the formula above.
  expect_oskar_statistics(
      measure(test::data("noise_input.vis"), test::oskar_ref("noise_input_noise.vis")), "OSKAR");
}

TEST(VisAddNoise, FringeOutputHasOskarsSigma) {
  const std::string out = run_fringe(test::fresh_dir() + "/a", 7);
  expect_oskar_statistics(measure(test::data("noise_input.vis"), out), "fringe");
}

TEST(VisAddNoise, SameSeedSameNoiseOtherSeedOtherNoise) {
  const std::string dir = test::fresh_dir();
  const std::string a = run_fringe(dir + "/a", 7), b = run_fringe(dir + "/b", 7),
                    c = run_fringe(dir + "/c", 8);
  io::VisFileReader ra(a), rb(b), rc(c);
  std::size_t same_ab = 0, same_ac = 0, n = 0;
  for (int k = 0; k < ra.num_blocks(); ++k) {
    const auto ba = ra.read_block<float>(k), bb = rb.read_block<float>(k),
               bc = rc.read_block<float>(k);
    for (std::size_t i = 0; i < ba.cross_data().size(); ++i, ++n) {
      same_ab += ba.cross_data()[i].re == bb.cross_data()[i].re;
      same_ac += ba.cross_data()[i].re == bc.cross_data()[i].re;
    }
  }
  EXPECT_EQ(same_ab, n);
  EXPECT_LT(same_ac, n / 100);  // independent deviates: equal floats are rare
}

TEST(VisAddNoise, MeasurementSetGetsTheSameCrossNoiseAsTheVisFile) {
  const std::string dir = test::fresh_dir();
  VisToMsConfig to_ms;
  to_ms.inputs = {test::data("noise_input.vis")};
  to_ms.output = dir + "/in.ms";
  vis_to_ms(to_ms);
  VisAddNoiseConfig cfg;
  cfg.inputs = {to_ms.output};
  cfg.noise = noise_table();
  cfg.seed = 7;
  const VisAddNoiseResult r = vis_add_noise(cfg);
  ASSERT_EQ(r.outputs.at(0), dir + "/in_noise.ms");
  // The .vis path's output, through the same converter.
  VisToMsConfig vis_noisy;
  vis_noisy.inputs = {run_fringe(dir + "/vis", 7)};
  vis_noisy.output = dir + "/vis_noisy.ms";
  vis_to_ms(vis_noisy);
  io::MsReader ms_path(r.outputs[0]), vis_path(vis_noisy.output), in(to_ms.output);
  const auto a1 = in.read_antenna1(), a2 = in.read_antenna2();
  const auto dm = ms_path.read_data(), dv = vis_path.read_data(), d0 = in.read_data();
  const std::size_t per_row = d0.size() / in.num_rows();
  std::size_t crosses = 0;
  for (std::size_t row = 0; row < in.num_rows(); ++row) {
    if (a1[row] == a2[row]) continue;  // the autos' bias uses CHAN_WIDTH, not the bandwidth
    for (std::size_t k = row * per_row; k < (row + 1) * per_row; ++k, ++crosses) {
      ASSERT_EQ(dm[k].re, dv[k].re) << "row " << row;
      ASSERT_EQ(dm[k].im, dv[k].im) << "row " << row;
      ASSERT_NE(dm[k].re, d0[k].re) << "row " << row;  // and noise was added
    }
  }
  EXPECT_GT(crosses, 0u);
}

TEST(VisAddNoise, InPlaceReplacesTheInputWhenComplete) {
  const std::string dir = test::fresh_dir();
  const std::string vis = dir + "/x.vis";
  fs::copy_file(test::data("noise_input.vis"), vis);
  VisAddNoiseConfig cfg;
  cfg.inputs = {vis};
  cfg.noise = noise_table();
  cfg.in_place = true;
  const VisAddNoiseResult r = vis_add_noise(cfg);
  EXPECT_EQ(r.outputs.at(0), vis);
  expect_oskar_statistics(measure(test::data("noise_input.vis"), vis), "fringe in place");
  // Nothing else is left in the folder (no temporary, no x_noise.vis).
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(VisAddNoise, MeasurementSetInPlaceAndColumn) {
  const std::string dir = test::fresh_dir();
  VisToMsConfig to_ms;
  to_ms.inputs = {test::data("noise_input.vis")};
  to_ms.output = dir + "/m.ms";
  vis_to_ms(to_ms);
  const auto before = io::MsReader(to_ms.output).read_data();
  VisAddNoiseConfig cfg;
  cfg.inputs = {to_ms.output};
  cfg.noise = noise_table();
  cfg.column = "CORRECTED_DATA";  // not in the MS: refused before anything is written
  EXPECT_THROW(vis_add_noise(cfg), Error);
  cfg.column = "DATA";
  cfg.in_place = true;
  EXPECT_EQ(vis_add_noise(cfg).outputs.at(0), to_ms.output);
  const auto after = io::MsReader(to_ms.output).read_data();
  ASSERT_EQ(after.size(), before.size());
  std::size_t changed = 0;
  for (std::size_t k = 0; k < after.size(); ++k) changed += after[k].re != before[k].re;
  EXPECT_GT(changed, after.size() * 99 / 100);
  // Only the MS is left in the folder: no temporary copy, no m_noise.ms.
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(VisAddNoise, WrongStationCountNamesTheFile) {
  const std::string dir = test::fresh_dir();
  VisAddNoiseConfig cfg;
  const std::string tiny = dir + "/tiny.vis";
  fs::copy_file(test::vis_of("oskar_tiny_double"), tiny);  // 4 stations, the table has 8
  cfg.inputs = {tiny};
  cfg.noise = noise_table();
  try {
    vis_add_noise(cfg);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tiny.vis"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("4 stations"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/tiny_noise.vis"));
}

}  // namespace
}  // namespace fringe::vistools
