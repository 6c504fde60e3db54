// vis_add_noise's settings (fringe/app/vis_noise_settings.h): the keys OSKAR's
// oskar_vis_add_noise reads from a sim_interferometer settings file give the noise table the
// tests of vis_add_noise use (tests/data/vis_tools/noise.ini: telescope-model frequencies and
// per-station RMS from noise_tel.tm, seed 7), a Range, and errors naming the key.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fringe/app/vis_noise_settings.h"
#include "fringe/core/error.h"
#include "fringe/settings/embedded_schemas.h"
#include "test_data.h"

namespace fringe::vistools {
namespace {

app::VisNoiseSettings read(const std::string& path) {
  std::ostringstream out, err;
  Logger log(out);
  return app::read_vis_noise_settings(path, settings::embedded_schemas(), log, err);
}

TEST(VisNoiseSettings, TelescopeModelFilesAndSeed) {
  const app::VisNoiseSettings s = read(test::data("noise.ini"));
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.table.freq_hz, (std::vector<double>{100e6, 120e6, 140e6}));
  ASSERT_EQ(s.table.rms_jy.size(), 8u);
  for (int k = 0; k < 8; ++k) {
    const double r = 0.5 + 0.25 * k;  // noise_tel.tm/station00k/rms.txt
    EXPECT_EQ(s.table.rms_jy[k], (std::vector<double>{r, 1.5 * r, 2 * r})) << "station " << k;
  }
}

TEST(VisNoiseSettings, RangeAndDisabled) {
  const std::string dir = test::fresh_dir();
  const std::string tel = test::data("noise_tel.tm");
  {
    std::ofstream f(dir + "/range.ini");
    f << "[telescope]\ninput_directory=" << tel
      << "\n[interferometer]\nnoise/enable=true\nnoise/seed=3\nnoise/freq=Range\n"
         "noise/freq/start=1e8\nnoise/freq/inc=1e7\nnoise/freq/number=3\nnoise/rms=Range\n"
         "noise/rms/start=1\nnoise/rms/end=3\n";
  }
  const app::VisNoiseSettings s = read(dir + "/range.ini");
  EXPECT_EQ(s.seed, 3u);
  EXPECT_EQ(s.table.freq_hz, (std::vector<double>{100e6, 110e6, 120e6}));
  // The same RMS for every station, linear from start to end over the frequencies.
  EXPECT_EQ(s.table.rms_jy.at(5), (std::vector<double>{1, 2, 3}));
  {
    std::ofstream f(dir + "/off.ini");
    f << "[telescope]\ninput_directory=" << tel << "\n";
  }
  try {
    read(dir + "/off.ini");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("interferometer/noise/enable"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace fringe::vistools
