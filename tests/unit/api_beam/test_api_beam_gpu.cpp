// api::station_beams with a GPU (aperture_array_cuda.h) against the CPU path, element by
// element, for OSKAR's tutorial telescope (2587 dipoles per station) over the visible sky:
// both compute in double, so they agree to rounding (docs/gpu_station_beam.md: ~2e-15 of the
// beam scale). Skips without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fringe/api/beam.h"
#include "fringe/api/telescope.h"
#include "fringe/core/constants.h"
#include "fringe/core/device.h"

namespace {

using namespace fringe;

TEST(ApiStationBeamsGpu, GpuEqualsCpu) {
  if (cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const api::Telescope tel =
      api::load_telescope(std::string(FRINGE_TEST_TELESCOPES) + "/tutorial.tm");
  api::StationBeamRequest r;
  r.time_mjd_utc = 51544.625;
  r.freq_hz = 100e6;
  r.phase_centre_ra_rad = 20 * kDegToRad;
  r.phase_centre_dec_rad = -30 * kDegToRad;
  r.station_ids = {0, 3};
  std::vector<double> ra, dec;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 20; ++j) {
      ra.push_back(i * 9.0 * kDegToRad);
      dec.push_back((-85.0 + j * 8.5) * kDegToRad);
    }
  for (bool full : {true, false}) {
    r.full_polarisation = full;
    r.devices.use_gpus = false;
    const api::StationBeams cpu = api::station_beams(tel, r, ra, dec);
    r.devices.use_gpus = true;
    const api::StationBeams gpu = api::station_beams(tel, r, ra, dec);
    ASSERT_EQ(cpu.device, "CPU");
    ASSERT_NE(gpu.device, "CPU");
    const auto* a =
        full ? reinterpret_cast<const Complex<double>*>(cpu.jones.data()) : cpu.scalar.data();
    const auto* b =
        full ? reinterpret_cast<const Complex<double>*>(gpu.jones.data()) : gpu.scalar.data();
    const std::size_t n = full ? 4 * cpu.jones.size() : cpu.scalar.size();
    double peak = 0, err = 0;
    for (std::size_t k = 0; k < n; ++k) {
      peak = std::max(peak, std::hypot(a[k].re, a[k].im));
      err = std::max(err, std::hypot(a[k].re - b[k].re, a[k].im - b[k].im));
    }
    EXPECT_GT(peak, 0.1);
    EXPECT_LT(err, 1e-12 * peak) << (full ? "Full" : "Scalar");
  }
}

}  // namespace
