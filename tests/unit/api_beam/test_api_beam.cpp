// api::station_beams against closed forms: an isotropic station is the identity (Full) or 1
// (Scalar) everywhere above the horizon; a station of two isotropic elements d apart on the
// East axis, beam at the zenith and normalised there, is the two-element array factor
// cos(pi d e / lambda) with e = cos(el) sin(az) the direction's East component (e.g. Thompson,
// Moran & Swenson, "Interferometry and Synthesis", ch. 3: the response of two antennas is
// the sum of two phase factors exp(+-i pi d e / lambda)).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>

#include "fringe/api/beam.h"
#include "fringe/api/telescope.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace {

using namespace fringe;

// A .tm folder of one station at the array centre with two elements at East +-d/2.
std::string two_element_telescope(double d_m) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("fringe_api_beam_" + std::to_string(::getpid()) + ".tm");
  std::filesystem::create_directories(dir / "station");
  std::ofstream(dir / "position.txt") << "20.0 -30.0 0.0\n";
  std::ofstream(dir / "layout.txt") << "0 0 0\n";
  std::ofstream(dir / "station" / "layout.txt") << std::setprecision(17) << -d_m / 2 << " 0 0\n"
                                                << d_m / 2 << " 0 0\n";
  return dir.string();
}

TEST(ApiStationBeams, IsotropicStationIsTheIdentity) {
  const std::string tm = two_element_telescope(1.0);
  const api::Telescope tel = api::load_telescope(tm);
  api::StationBeamRequest r;
  r.beam.station_type = jones::StationType::Isotropic;
  r.drift_scan = true;  // the beam at the zenith: never below the horizon
  r.time_mjd_utc = 60000.25;
  r.freq_hz = 100e6;
  r.phase_centre_ra_rad = 0.3;
  r.phase_centre_dec_rad = -0.5;
  const std::vector<double> ra = {0.3, 0.5, 1.0}, dec = {-0.5, -0.4, -0.9};
  const api::StationBeams b = api::station_beams(tel, r, ra, dec);
  ASSERT_EQ(b.jones.size(), 3u);
  for (const auto& j : b.jones) {
    EXPECT_DOUBLE_EQ(j.a.re, 1.0);
    EXPECT_DOUBLE_EQ(j.d.re, 1.0);
    EXPECT_DOUBLE_EQ(std::hypot(j.b.re, j.b.im) + std::hypot(j.c.re, j.c.im), 0.0);
  }
  r.full_polarisation = false;
  const api::StationBeams s = api::station_beams(tel, r, ra, dec);
  for (const auto& z : s.scalar) EXPECT_DOUBLE_EQ(z.re, 1.0);
  std::filesystem::remove_all(tm);
}

TEST(ApiStationBeams, TwoElementArrayFactor) {
  const double freq = 150e6, lambda = kSpeedOfLight / freq, d = 1.7 * lambda;
  const std::string tm = two_element_telescope(d);
  const api::Telescope tel = api::load_telescope(tm);
  api::StationBeamRequest r;
  r.beam.station_type = jones::StationType::ApertureArray;
  r.beam.aperture_array.element_pattern.functional_type = jones::ElementFunctionalType::Isotropic;
  r.full_polarisation = false;
  r.drift_scan = true;  // beam and normalisation at the zenith
  r.horizon_frame = true;
  r.time_mjd_utc = 60000.0;
  r.freq_hz = freq;
  std::vector<double> az, el;
  for (double a : {0.0, 30.0, 90.0, 200.0, 271.0})
    for (double e : {10.0, 45.0, 80.0, 90.0}) {
      az.push_back(a * kDegToRad);
      el.push_back(e * kDegToRad);
    }
  const api::StationBeams b = api::station_beams(tel, r, az, el);
  ASSERT_EQ(b.scalar.size(), az.size());
  for (std::size_t i = 0; i < az.size(); ++i) {
    const double east = std::cos(el[i]) * std::sin(az[i]);
    const double expected = std::cos(kPi * d * east / lambda);
    EXPECT_NEAR(b.scalar[i].re, expected, 1e-9) << "az " << az[i] << " el " << el[i];
    EXPECT_NEAR(b.scalar[i].im, 0.0, 1e-9);
  }
  std::filesystem::remove_all(tm);
}

TEST(ApiStationBeams, BadInputThrows) {
  const std::string tm = two_element_telescope(1.0);
  const api::Telescope tel = api::load_telescope(tm);
  api::StationBeamRequest r;
  r.beam.station_type = jones::StationType::Isotropic;
  r.freq_hz = 1e8;
  const std::vector<double> one = {0.0}, two = {0.0, 0.1};
  EXPECT_THROW(api::station_beams(tel, r, one, two), Error);
  r.station_ids = {3};
  EXPECT_THROW(api::station_beams(tel, r, one, one), Error);
  r.station_ids = {};
  r.freq_hz = 0;
  EXPECT_THROW(api::station_beams(tel, r, one, one), Error);
  std::filesystem::remove_all(tm);
}

}  // namespace
