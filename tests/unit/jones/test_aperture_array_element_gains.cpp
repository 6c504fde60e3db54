// Per-element gain tables (StationModel::element_gains, gain_model.h5 in a station or tile
// folder) in the aperture-array beam (aperture_array.h), CPU, against the closed form of a
// two-element array of isotropic elements: with the beam at the zenith the weights are the
// gains alone, so AF(s) = g_0 exp(-i k0 d/2 s_e) + g_1 exp(+i k0 d/2 s_e) for elements at
// E = -d/2 and +d/2. Checked: the table's time (clamped) and channel (nearest) selection, the
// Y row's gains (gain_ypol only with Y-specific beamforming files, OSKAR's rule), and the
// uniform, grouped (mixed feed angles) and general (distinct tiles) paths. The visibilities
// against OSKAR 2.13: external.sim_vs_oskar.element_gain_model*.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <numbers>
#include <vector>

#include "fringe/jones/aperture_array.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::jones {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;
constexpr double kC = 299792458.0;
constexpr double kD = 1.7;  // element spacing, m

using telescope::GainModel;
using telescope::StationModel;

// A table of 2 times x 2 channels (100, 150 MHz) x 2 elements; X gain of (t, c, k) =
// (1 + t + 0.5 k) exp(i (0.3 + 0.2 c - 0.7 k)), Y its conjugate times 0.8.
std::complex<double> gain_x(int t, int c, int k) {
  return std::polar(1.0 + t + 0.5 * k, 0.3 + 0.2 * c - 0.7 * k);
}
std::complex<double> gain_y(int t, int c, int k) { return 0.8 * std::conj(gain_x(t, c, k)); }

std::shared_ptr<const GainModel> table() {
  auto g = std::make_shared<GainModel>();
  g->path = "test table";
  g->freq_hz = {100e6, 150e6};
  g->num_times = 2;
  g->num_channels = 2;
  g->num_stations = 2;
  for (int t = 0; t < 2; ++t)
    for (int c = 0; c < 2; ++c)
      for (int k = 0; k < 2; ++k) {
        g->x.push_back(gain_x(t, c, k));
        g->y.push_back(gain_y(t, c, k));
      }
  return g;
}

StationModel two_elements() {
  StationModel m;
  m.resize(2);
  for (auto& f : m.feeds) {
    f.measured_enu = {{-kD / 2, 0, 0}, {kD / 2, 0, 0}};
    f.true_enu = f.measured_enu;
  }
  m.element_gains = table();
  return m;
}

telescope::TelescopeModel telescope_of(StationModel m) {
  telescope::TelescopeModel t;
  t.station_models = {std::move(m)};
  telescope::Station s;
  s.model_index = 0;
  s.geodetic = {0.0, -30.0 * kDeg, 0.0};
  t.stations.push_back(s);
  return t;
}

// Beam of the one station at direction (s_e, 0, sqrt(1 - s_e^2)), beam at the zenith.
Jones<double> beam(const telescope::TelescopeModel& tel, double freq, int time_index, double se,
                   bool* uniform = nullptr) {
  ApertureArrayConfig config;
  config.element_pattern.functional_type = ElementFunctionalType::Isotropic;
  const ApertureArrayModel m(tel, config);
  AaPointing p;
  p.station_enu = {0, 0, 1};
  const AaStationPlan plan =
      make_aa_plan(m, 0, {0.0, -30.0 * kDeg, 0.0}, p, {0, 0, 1}, false, 0.0, freq, time_index);
  if (uniform) *uniform = plan.uniform;
  const double e[1] = {se}, n[1] = {0.0}, u[1] = {std::sqrt(1 - se * se)};
  Jones<double> out[1];
  aa_beam_enu(m, plan, e, n, u, out);
  return out[0];
}

std::complex<double> closed_form(double freq, int t, int c, double se, bool y) {
  const double k0 = 2 * kPi * freq / kC;
  const auto g = [&](int k) { return y ? gain_y(t, c, k) : gain_x(t, c, k); };
  return g(0) * std::polar(1.0, -k0 * kD / 2 * se) + g(1) * std::polar(1.0, k0 * kD / 2 * se);
}

void expect_near(Complex<double> a, std::complex<double> b) {
  EXPECT_NEAR(a.re, b.real(), 1e-12 * std::abs(b) + 1e-15);
  EXPECT_NEAR(a.im, b.imag(), 1e-12 * std::abs(b) + 1e-15);
}

TEST(ApertureArrayElementGains, TimeAndChannelSelectionMatchClosedForm) {
  const auto tel = telescope_of(two_elements());
  bool uniform = false;
  // 110 MHz takes the 100 MHz channel (0), 140 MHz the 150 MHz one (1); time step 7 is past
  // the table's 2 times: its last (1).
  for (const auto& [freq, c] : {std::pair{110e6, 0}, std::pair{140e6, 1}})
    for (const auto& [step, t] : {std::pair{0, 0}, std::pair{1, 1}, std::pair{7, 1}})
      for (double se : {0.0, 0.3, -0.8}) {
        const Jones<double> j = beam(tel, freq, step, se, &uniform);
        EXPECT_TRUE(uniform);
        // Isotropic elements: X row (AF_x, 0), Y row (0, AF_y); no Y-specific files, so the
        // Y row takes the X gains as well.
        expect_near(j.a, closed_form(freq, t, c, se, false));
        expect_near(j.d, closed_form(freq, t, c, se, false));
      }
}

TEST(ApertureArrayElementGains, YRowTakesYGainsOnlyWithYSpecificFiles) {
  StationModel m = two_elements();
  m.y_feed_files = true;  // e.g. gain_phase_y.txt of unit gains
  const auto tel = telescope_of(std::move(m));
  const Jones<double> j = beam(tel, 140e6, 0, 0.3);
  expect_near(j.a, closed_form(140e6, 0, 1, 0.3, false));
  expect_near(j.d, closed_form(140e6, 0, 1, 0.3, true));
  // Without a table the weights are 1: the gains did act.
  StationModel plain = two_elements();
  plain.element_gains = nullptr;
  const Jones<double> p = beam(telescope_of(std::move(plain)), 140e6, 0, 0.3);
  EXPECT_GT(std::abs(std::complex<double>(j.a.re - p.a.re, j.a.im - p.a.im)), 0.1);
}

TEST(ApertureArrayElementGains, GroupedPathAppliesTheGains) {
  // Different feed angles split the elements into groups; isotropic elements do not depend
  // on the angle, so the closed form still holds.
  StationModel m = two_elements();
  for (auto& f : m.feeds) f.feed_angle[1].alpha = 30 * kDeg;
  bool uniform = true;
  const Jones<double> j = beam(telescope_of(std::move(m)), 110e6, 1, -0.4, &uniform);
  expect_near(j.a, closed_form(110e6, 1, 0, -0.4, false));
  expect_near(j.d, closed_form(110e6, 1, 0, -0.4, false));
}

TEST(ApertureArrayElementGains, GeneralPathAppliesStationLevelGains) {
  // Two one-antenna tile models (equal in content; fringe evaluates distinct tile folders
  // separately) at the element positions: the general recursive path; each tile's response
  // is 1.
  StationModel m = two_elements();
  StationModel tile_a;
  tile_a.resize(1);
  const StationModel tile_b = tile_a;
  m.tiles = {tile_a, tile_b};
  m.tile_index = {0, 1};
  bool uniform = true;
  const Jones<double> j = beam(telescope_of(std::move(m)), 140e6, 7, 0.5, &uniform);
  EXPECT_FALSE(uniform);
  expect_near(j.a, closed_form(140e6, 1, 1, 0.5, false));
  expect_near(j.d, closed_form(140e6, 1, 1, 0.5, false));
}

}  // namespace
}  // namespace fringe::jones
