// aperture_array.h and the aperture-array path of station_jones.h on the CPU, checked against
// closed forms written out here: the array factor of two elements, the thin-dipole far field
// projected on theta-hat/phi-hat with vector algebra, a station of tiles against the flat
// station of all its antennas, and the documented normalisation, taper and VLA PBCOR rules.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/station_jones.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::jones {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;
constexpr double kC = 299792458.0;

using telescope::StationModel;
using telescope::TelescopeModel;

StationModel flat(const std::vector<astro::Vec3>& pos) {
  StationModel m;
  m.resize(pos.size());
  for (auto& f : m.feeds) {
    f.measured_enu = pos;
    f.true_enu = pos;
  }
  return m;
}

// A telescope of the given station models, station p using models[index[p]], every station
// at (lon 0, lat -30 deg).
TelescopeModel telescope_of(std::vector<StationModel> models, std::vector<int> index) {
  TelescopeModel t;
  t.station_models = std::move(models);
  for (int i : index) {
    telescope::Station s;
    s.model_index = i;
    s.geodetic = {0.0, -30.0 * kDeg, 0.0};
    t.stations.push_back(s);
  }
  return t;
}

astro::Vec3 azel(double az_deg, double el_deg) {
  const double az = az_deg * kDeg, el = el_deg * kDeg;
  return {std::cos(el) * std::sin(az), std::cos(el) * std::cos(az), std::sin(el)};
}

ApertureArrayConfig config(ElementFunctionalType type = ElementFunctionalType::Isotropic) {
  ApertureArrayConfig c;
  c.element_pattern.functional_type = type;
  return c;
}

AaStationPlan plan_for(const ApertureArrayModel& m, std::size_t station, const astro::Vec3& beam,
                       double freq, bool normalise = false, int time_index = 0) {
  AaPointing p;
  p.station_enu = beam;
  return make_aa_plan(m, station, {0.0, -30.0 * kDeg, 0.0}, p, beam, normalise, 0.0, freq,
                      time_index);
}

Jones<double> beam_at(const ApertureArrayModel& m, const AaStationPlan& plan,
                      const astro::Vec3& d) {
  const double e[1] = {d.x}, n[1] = {d.y}, u[1] = {d.z};
  Jones<double> out[1];
  aa_beam_enu(m, plan, e, n, u, out);
  return out[0];
}

Complex<double> scalar_at(const ApertureArrayModel& m, const AaStationPlan& plan,
                          const astro::Vec3& d) {
  const double e[1] = {d.x}, n[1] = {d.y}, u[1] = {d.z};
  Complex<double> out[1];
  aa_beam_enu_scalar(m, plan, e, n, u, out);
  return out[0];
}

void expect_near(Complex<double> a, std::complex<double> b, double tol) {
  EXPECT_NEAR(a.re, b.real(), tol);
  EXPECT_NEAR(a.im, b.imag(), tol);
}

TEST(ApertureArray, TwoElementArrayFactorMatchesClosedForm) {
  // Elements at E = +-d/2: AF(s) = 2 cos(k0 d / 2 (s_e - b_e)) for isotropic elements.
  const double d = 3.0, freq = 150e6, k0 = 2 * kPi * freq / kC;
  const TelescopeModel tel = telescope_of({flat({{-d / 2, 0, 0}, {d / 2, 0, 0}})}, {0});
  const ApertureArrayModel m(tel, config());
  const astro::Vec3 b = azel(90.0, 70.0);
  const AaStationPlan plan = plan_for(m, 0, b, freq);
  ASSERT_TRUE(plan.uniform);
  for (double az : {0.0, 45.0, 100.0, 270.0}) {
    for (double el : {5.0, 30.0, 60.0, 89.0}) {
      const astro::Vec3 s = azel(az, el);
      const double af = 2.0 * std::cos(k0 * d / 2 * (s.x - b.x));
      const Jones<double> j = beam_at(m, plan, s);
      expect_near(j.a, af, 1e-12);  // isotropic element: identity rows
      expect_near(j.b, 0.0, 1e-15);
      expect_near(j.c, 0.0, 1e-15);
      expect_near(j.d, af, 1e-12);
      expect_near(scalar_at(m, plan, s), af, 1e-12);
    }
  }
  // Below the horizon the beam is zero.
  const Jones<double> below = beam_at(m, plan, azel(10.0, -1.0));
  EXPECT_EQ(below.a.re, 0.0);
  EXPECT_EQ(below.d.im, 0.0);
}

// The thin-dipole far field: E = -s_X [a - (a.s) s] F for a unit axis a, with
// F = (cos(kL a.s) - cos kL) / (1 - (a.s)^2); OSKAR's Y row has the opposite sign
// (s_X = 1, s_Y = -1); projected on theta-hat and phi-hat.
void dipole_rows(double alpha, const astro::Vec3& s, double kl, double out[4]) {
  const double theta = std::acos(s.z), phi = std::atan2(s.y, s.x);
  const double th[3] = {std::cos(theta) * std::cos(phi), std::cos(theta) * std::sin(phi),
                        -std::sin(theta)};
  const double ph[3] = {-std::sin(phi), std::cos(phi), 0.0};
  const double ax[3] = {std::cos(alpha), std::sin(alpha), 0.0};   // East turned by alpha
  const double ay[3] = {-std::sin(alpha), std::cos(alpha), 0.0};  // North turned by alpha
  const double* axes[2] = {ax, ay};
  const double sign[2] = {-1.0, 1.0};
  for (int f = 0; f < 2; ++f) {
    const double* a = axes[f];
    const double as = a[0] * s.x + a[1] * s.y + a[2] * s.z;
    const double F = (std::cos(kl * as) - std::cos(kl)) / (1.0 - as * as);
    const double at = a[0] * th[0] + a[1] * th[1] + a[2] * th[2];
    const double ap = a[0] * ph[0] + a[1] * ph[1] + a[2] * ph[2];
    out[2 * f] = sign[f] * at * F;
    out[2 * f + 1] = sign[f] * ap * F;
  }
}

TEST(ApertureArray, DipoleMatchesVectorFarField) {
  for (double length : {0.5, 1.0, 0.25}) {
    for (double alpha_deg : {0.0, 30.0, -115.0}) {
      ElementParams<double> p;
      p.kind = ElementKind::Dipole;
      p.kl = kPi * length;
      p.cos_kl = std::cos(p.kl);
      p.alpha_x = p.alpha_y = alpha_deg * kDeg;
      for (double az : {3.0, 80.0, 200.0, 333.0}) {
        for (double el : {2.0, 40.0, 75.0}) {
          const astro::Vec3 s = azel(az, el);
          double ref[4];
          dipole_rows(p.alpha_x, s, p.kl, ref);
          const ElementRows<double> r = aa_element(p, s.x, s.y, s.z);
          EXPECT_NEAR(r.x_theta, ref[0], 1e-13);
          EXPECT_NEAR(r.x_phi, ref[1], 1e-13);
          EXPECT_NEAR(r.y_theta, ref[2], 1e-13);
          EXPECT_NEAR(r.y_phi, ref[3], 1e-13);
        }
      }
    }
  }
}

TEST(ApertureArray, HalfWaveDipoleAtZenithHasUnitResponse) {
  ElementParams<double> p;
  p.kind = ElementKind::Dipole;
  p.kl = kPi / 2;
  p.cos_kl = std::cos(p.kl);
  const ElementRows<double> r = aa_element(p, 0.0, 0.0, 1.0);
  EXPECT_NEAR(std::hypot(r.x_theta, r.x_phi), 1.0, 1e-15);  // OSKAR: |E| = 1 at the zenith
  EXPECT_NEAR(std::hypot(r.y_theta, r.y_phi), 1.0, 1e-15);
  EXPECT_NEAR(aa_element_scalar(p, 0.0, 0.0, 1.0), 1.0, 1e-15);
  // Along the X dipole's axis (horizon, East) its response vanishes; Y's does not.
  const ElementRows<double> e = aa_element(p, 1.0, 0.0, 0.0);
  EXPECT_EQ(e.x_theta, 0.0);
  EXPECT_EQ(e.x_phi, 0.0);
  EXPECT_NEAR(std::hypot(e.y_theta, e.y_phi), 1.0, 1e-15);
}

TEST(ApertureArray, ElementNormaliseTaperAndSwap) {
  ElementParams<double> p;
  p.kind = ElementKind::Dipole;
  p.kl = kPi;  // full-wave dipole: zenith value 1 - cos(pi) = 2
  p.cos_kl = -1.0;
  EXPECT_NEAR(aa_element(p, 0.0, 0.0, 1.0).x_theta, -2.0, 1e-15);
  p.dipole_norm = 0.5;
  EXPECT_NEAR(aa_element(p, 0.0, 0.0, 1.0).x_theta, -1.0, 1e-15);

  ElementParams<double> iso;
  iso.taper = TaperKind::Cosine;
  iso.taper_param = 2.0;
  const astro::Vec3 s = azel(0.0, 30.0);  // zenith angle 60 deg: cos^2 = 0.25
  EXPECT_NEAR(aa_element(iso, s.x, s.y, s.z).x_theta, 0.25, 1e-15);
  iso.taper = TaperKind::Gaussian;
  iso.taper_param = 4.0 * std::log(2.0) / std::pow(120.0 * kDeg, 2);  // FWHM 120 deg
  EXPECT_NEAR(aa_element(iso, s.x, s.y, s.z).y_phi, 0.5, 1e-14);      // half power at 60 deg

  ElementParams<double> d = p;
  const ElementRows<double> a = aa_element(d, s.x, s.y, s.z);
  d.swap_xy = true;
  const ElementRows<double> b = aa_element(d, s.x, s.y, s.z);
  EXPECT_EQ(a.x_theta, b.y_theta);
  EXPECT_EQ(a.y_phi, b.x_phi);
}

TEST(ApertureArray, NormalisedAtThePhaseCentre) {
  const TelescopeModel tel =
      telescope_of({flat({{0, 0, 0}, {1.3, 0.4, 0}, {-2.1, 1.7, 0}, {0.6, -2.5, 0}})}, {0});
  const ApertureArrayModel m(tel, config(ElementFunctionalType::Dipole));
  const astro::Vec3 b = azel(140.0, 50.0);
  const AaStationPlan plan = plan_for(m, 0, b, 110e6, true);
  const Jones<double> j = beam_at(m, plan, b);
  EXPECT_NEAR(std::sqrt(jones_norm2(j) / 2.0), 1.0, 1e-13);
  EXPECT_NEAR(abs(scalar_at(m, plan, b)), 1.0, 1e-13);
  // At the beam direction the weights cancel the phases: every element adds in phase, so
  // without normalisation the amplitude of each feed's array factor is the element count.
  const AaStationPlan raw = plan_for(m, 0, b, 110e6, false);
  ApertureArrayModel iso(tel, config());
  EXPECT_NEAR(abs(scalar_at(iso, plan_for(iso, 0, b, 110e6, false), b)), 4.0, 1e-13);
  EXPECT_NEAR(raw.norm, 1.0, 0.0);
}

TEST(ApertureArray, ArrayPatternNormaliseAndDisable) {
  const TelescopeModel tel = telescope_of({flat({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}})}, {0});
  const astro::Vec3 b = azel(0.0, 90.0), s = azel(30.0, 60.0);
  ApertureArrayConfig c = config();
  const ApertureArrayModel plain(tel, c);
  c.array_pattern.normalise = true;
  const ApertureArrayModel divided(tel, c);
  const Complex<double> v1 = scalar_at(plain, plan_for(plain, 0, b, 100e6), s);
  const Complex<double> v2 = scalar_at(divided, plan_for(divided, 0, b, 100e6), s);
  EXPECT_NEAR(v2.re * 3.0, v1.re, 1e-13);
  EXPECT_NEAR(v2.im * 3.0, v1.im, 1e-13);
  c.array_pattern.enable = false;  // element pattern alone
  const ApertureArrayModel off(tel, c);
  expect_near(scalar_at(off, plan_for(off, 0, b, 100e6), s), 1.0, 0.0);
}

TEST(ApertureArray, GeneralPathEqualsUniformPath) {
  const TelescopeModel tel =
      telescope_of({flat({{0, 0, 0}, {2.2, -0.3, 0.1}, {-1.1, 1.9, -0.2}, {3.3, 2.5, 0}})}, {0});
  const ApertureArrayModel m(tel, config(ElementFunctionalType::Dipole));
  const astro::Vec3 b = azel(200.0, 65.0);
  AaStationPlan fast = plan_for(m, 0, b, 120e6, true);
  ASSERT_TRUE(fast.uniform);
  AaStationPlan general = fast;
  general.uniform = false;
  general.levels.clear();
  for (double az : {10.0, 150.0, 300.0}) {
    for (double el : {15.0, 55.0, 85.0}) {
      const astro::Vec3 s = azel(az, el);
      const Jones<double> a = beam_at(m, fast, s), g = beam_at(m, general, s);
      EXPECT_NEAR(a.a.re, g.a.re, 1e-12);
      EXPECT_NEAR(a.b.im, g.b.im, 1e-12);
      EXPECT_NEAR(a.c.re, g.c.re, 1e-12);
      EXPECT_NEAR(a.d.im, g.d.im, 1e-12);
      const Complex<double> sa = scalar_at(m, fast, s), sg = scalar_at(m, general, s);
      EXPECT_NEAR(sa.re, sg.re, 1e-12);
      EXPECT_NEAR(sa.im, sg.im, 1e-12);
    }
  }
}

// A station of identical tiles is the flat station of all its antennas (phases add).
TEST(ApertureArray, StationOfTilesEqualsFlatStationOfAllAntennas) {
  const std::vector<astro::Vec3> tile_pos = {{0, 0, 0}, {1.1, 0, 0}, {0, 1.1, 0}, {1.1, 1.1, 0}};
  const std::vector<astro::Vec3> station_pos = {{0, 0, 0}, {5.0, 1.0, 0}, {-3.0, 4.0, 0}};
  StationModel tiled = flat(station_pos);
  tiled.tiles.push_back(flat(tile_pos));
  tiled.tile_index.assign(station_pos.size(), 0);
  std::vector<astro::Vec3> all;
  for (const auto& t : station_pos)
    for (const auto& e : tile_pos) all.push_back({t.x + e.x, t.y + e.y, t.z + e.z});
  const TelescopeModel tel = telescope_of({tiled, flat(all)}, {0, 1});
  const ApertureArrayModel m(tel, config(ElementFunctionalType::Dipole));
  ASSERT_TRUE(m.is_uniform(0));
  const astro::Vec3 b = azel(45.0, 60.0);
  const AaStationPlan pt = plan_for(m, 0, b, 160e6, true);
  const AaStationPlan pf = plan_for(m, 1, b, 160e6, true);
  ASSERT_EQ(pt.levels.size(), 2u);
  AaStationPlan pg = pt;  // the recursive path on the same tiled station
  pg.uniform = false;
  for (double az : {0.0, 120.0, 250.0}) {
    for (double el : {20.0, 50.0, 80.0}) {
      const astro::Vec3 s = azel(az, el);
      const Jones<double> a = beam_at(m, pt, s), f = beam_at(m, pf, s), g = beam_at(m, pg, s);
      for (const auto& [x, y] :
           {std::pair{a.a, f.a}, {a.b, f.b}, {a.c, f.c}, {a.d, f.d}, {g.a, f.a}, {g.d, f.d}}) {
        EXPECT_NEAR(x.re, y.re, 1e-12);
        EXPECT_NEAR(x.im, y.im, 1e-12);
      }
    }
  }
}

TEST(ApertureArray, StaticGainsCableLengthsAndApodisation) {
  StationModel st = flat({{0, 0, 0}});
  const double freq = 100e6, k0 = 2 * kPi * freq / kC;
  for (auto& f : st.feeds) {
    f.gain_phase[0].gain = 2.0;
    f.gain_phase[0].phase = 0.3;
    f.cable_length_error[0] = 0.25;
    f.apodisation[0] = {0.5, 0.0};
  }
  const ApertureArrayModel m(telescope_of({st}, {0}), config());
  const AaStationPlan plan = plan_for(m, 0, azel(0, 90), freq);
  // w = apodisation * G exp(i phi) * exp(-i k0 dL) for one element at the origin.
  const std::complex<double> w = 0.5 * 2.0 * std::exp(std::complex<double>(0, 0.3 - k0 * 0.25));
  expect_near(scalar_at(m, plan, azel(77, 33)), w, 1e-14);
}

TEST(ApertureArray, TimeVariableErrorsAreSeededPerTimeStep) {
  StationModel st = flat({{0, 0, 0}, {1.5, 0, 0}, {0, 1.5, 0}});
  for (auto& f : st.feeds)
    for (auto& g : f.gain_phase) {
      g.gain_error = 0.1;
      g.phase_error = 5 * kDeg;
    }
  ApertureArrayConfig c = config();
  const ApertureArrayModel m(telescope_of({st}, {0}), c);
  const astro::Vec3 b = azel(0, 90), s = azel(60, 50);
  const Complex<double> t0 = scalar_at(m, plan_for(m, 0, b, 100e6, false, 0), s);
  const Complex<double> t0b = scalar_at(m, plan_for(m, 0, b, 100e6, false, 0), s);
  const Complex<double> t1 = scalar_at(m, plan_for(m, 0, b, 100e6, false, 1), s);
  EXPECT_EQ(t0.re, t0b.re);  // reproducible
  EXPECT_NE(t0.re, t1.re);   // a new draw each time step
  c.array_pattern.time_variable_seed = 7;
  const ApertureArrayModel m7(telescope_of({st}, {0}), c);
  EXPECT_NE(scalar_at(m7, plan_for(m7, 0, b, 100e6, false, 0), s).re, t0.re);
  // The draws are errors about the static beam: small for small sigma.
  StationModel clean = flat({{0, 0, 0}, {1.5, 0, 0}, {0, 1.5, 0}});
  const ApertureArrayModel mc(telescope_of({clean}, {0}), config());
  const Complex<double> ref = scalar_at(mc, plan_for(mc, 0, b, 100e6), s);
  EXPECT_LT(abs(t0 - ref), 0.5 * abs(ref));
}

TEST(ApertureArray, PermittedBeamsSnapTheBeamDirection) {
  StationModel st = flat({{0, 0, 0}, {1, 0, 0}});
  st.permitted_beams = {{0.0, 90 * kDeg}, {90 * kDeg, 45 * kDeg}};
  const ApertureArrayModel m(telescope_of({st}, {0}), config());
  const AaStationPlan plan = plan_for(m, 0, azel(80, 50), 100e6);
  const astro::Vec3 want = azel(90, 45);
  EXPECT_NEAR(plan.beam_enu.x, want.x, 1e-15);
  EXPECT_NEAR(plan.beam_enu.z, want.z, 1e-15);
  EXPECT_FALSE(plan_for(m, 0, azel(0, 80), 100e6).beam_off);
}

TEST(ApertureArray, BeamBelowTheHorizonIsZero) {
  const ApertureArrayModel m(telescope_of({flat({{0, 0, 0}})}, {0}), config());
  const AaStationPlan plan = plan_for(m, 0, azel(0, -5), 100e6, true);
  EXPECT_TRUE(plan.beam_off);
  EXPECT_EQ(abs(scalar_at(m, plan, azel(0, 45))), 0.0);
}

// station_jones.h with aperture arrays: J = E R; duplication shares E between stations of one
// model; the Az/El frame without R equals the ENU evaluation.
TEST(ApertureArrayJones, FullModeIsBeamTimesParallacticRotation) {
  TelescopeModel tel = telescope_of({flat({{0, 0, 0}, {2, 1, 0}, {-1, 3, 0}})}, {0, 0});
  tel.stations[1].geodetic = {0.01, -30.02 * kDeg, 0.0};
  StationBeamConfig c;
  c.station_type = StationType::ApertureArray;
  c.aperture_array = config(ElementFunctionalType::Dipole);
  const ApertureArrayModel m(tel, c.aperture_array);
  const std::vector<astro::Geodetic> sites = station_sites(tel);
  const std::vector<double> ra = {0.1, -0.2, 0.05}, dec = {-0.5, -0.7, -0.4};
  StationJonesInput in;
  in.stations = sites;
  in.pointing = default_pointing(false, 0.0, -0.52);
  in.gast_rad = 0.3;
  in.freq_hz = 120e6;
  in.ra = ra;
  in.dec = dec;
  in.aperture_array = &m;
  std::vector<Jones<double>> full(6), e_only(6), dup(6);
  evaluate_station_jones_full<double>(c, in, full);
  in.parallactic = false;
  evaluate_station_jones_full<double>(c, in, e_only);
  for (std::size_t p = 0; p < 2; ++p) {
    for (std::size_t s = 0; s < 3; ++s) {
      const double ha = in.gast_rad + sites[p].lon - ra[s];
      const double psi = std::atan2(std::cos(sites[p].lat) * std::sin(ha),
                                    std::sin(sites[p].lat) * std::cos(dec[s]) -
                                        std::cos(sites[p].lat) * std::sin(dec[s]) * std::cos(ha));
      const Jones<double> r{
          {std::cos(psi), 0}, {-std::sin(psi), 0}, {std::sin(psi), 0}, {std::cos(psi), 0}};
      const Jones<double> want = e_only[p * 3 + s] * r;
      const Jones<double>& got = full[p * 3 + s];
      EXPECT_NEAR(got.a.re, want.a.re, 1e-13);
      EXPECT_NEAR(got.b.im, want.b.im, 1e-13);
      EXPECT_NEAR(got.c.re, want.c.re, 1e-13);
      EXPECT_NEAR(got.d.im, want.d.im, 1e-13);
    }
  }
  // The two stations sit at different places: their E differ unless duplicated.
  EXPECT_NE(e_only[0].a.re, e_only[3].a.re);
  c.allow_station_beam_duplication = true;
  evaluate_station_jones_full<double>(c, in, dup);
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(dup[3 + s].a.re, dup[s].a.re);
    EXPECT_EQ(dup[3 + s].d.im, dup[s].d.im);
  }
}

TEST(ApertureArrayJones, AzElFrameMatchesEnuEvaluation) {
  const TelescopeModel tel = telescope_of({flat({{0, 0, 0}, {2, 1, 0}})}, {0});
  StationBeamConfig c;
  c.station_type = StationType::ApertureArray;
  c.normalise_at_phase_centre = false;
  c.aperture_array = config(ElementFunctionalType::Dipole);
  const ApertureArrayModel m(tel, c.aperture_array);
  const std::vector<astro::Geodetic> sites = station_sites(tel);
  const std::vector<double> az = {0.3, 2.0}, el = {0.9, 0.4};
  StationJonesInput in;
  in.stations = sites;
  in.pointing = default_pointing(true, 0, 0);  // zenith
  in.freq_hz = 100e6;
  in.ra = az;
  in.dec = el;
  in.aperture_array = &m;
  in.source_frame = DirectionFrame::AzEl;
  std::vector<Jones<double>> out(2);
  EXPECT_THROW(evaluate_station_jones_full<double>(c, in, out), Error);  // R needs RA/Dec
  in.parallactic = false;
  evaluate_station_jones_full<double>(c, in, out);
  const AaStationPlan plan = plan_for(m, 0, azel(0, 90), 100e6);
  for (std::size_t s = 0; s < 2; ++s) {
    const Jones<double> want = beam_at(m, plan, azel(az[s] / kDeg, el[s] / kDeg));
    EXPECT_NEAR(out[s].a.re, want.a.re, 1e-13);
    EXPECT_NEAR(out[s].c.im, want.c.im, 1e-13);
  }
}

TEST(ApertureArrayJones, NeedsThePreparedModel) {
  StationBeamConfig c;
  c.station_type = StationType::ApertureArray;
  const std::vector<astro::Geodetic> sites(1);
  const std::vector<double> ra = {0.0}, dec = {0.0};
  StationJonesInput in;
  in.stations = sites;
  in.freq_hz = 1e8;
  in.ra = ra;
  in.dec = dec;
  std::vector<Complex<double>> out(1);
  EXPECT_THROW(evaluate_station_jones_scalar<double>(c, in, out), Error);
}

// VLA (PBCOR): the AIPS polynomial of the nearest band and its cut-off.
TEST(VlaPbcor, PolynomialOfTheNearestBandAndCutoff) {
  StationBeamConfig c;
  c.station_type = StationType::VlaPbcor;
  const astro::Geodetic site{0.0, 34.0 * kDeg, 0.0};
  const std::vector<astro::Geodetic> sites = {site};
  // Sources on the meridian at offsets from the phase centre (RA 0, Dec 34 deg, GAST 0).
  const double dec0 = 34.0 * kDeg;
  const std::vector<double> offs_arcmin = {0.0, 10.0, 25.0, 31.0, 32.0};
  std::vector<double> ra(offs_arcmin.size(), 0.0), dec;
  for (double o : offs_arcmin) dec.push_back(dec0 + o / 60.0 * kDeg);
  StationJonesInput in;
  in.stations = sites;
  in.pointing = default_pointing(false, 0.0, dec0);
  in.freq_hz = 1.4e9;  // L band: p = (-1.343, 6.579, -1.186)
  in.ra = ra;
  in.dec = dec;
  std::vector<Complex<double>> out(ra.size());
  evaluate_station_jones_scalar<double>(c, in, out);
  for (std::size_t i = 0; i < ra.size(); ++i) {
    const double x = std::pow(offs_arcmin[i] * 1.4, 2);
    double want = 1.0 - 1.343e-3 * x + 6.579e-7 * x * x - 1.186e-10 * x * x * x;
    if (offs_arcmin[i] * 1.4 >= 44.376) want = 0.0;
    EXPECT_NEAR(out[i].re, want, 1e-9) << offs_arcmin[i] << " arcmin";
  }
  EXPECT_GT(out[3].re, 0.0);  // 31' x 1.4 GHz = 43.4 arcmin GHz: inside the cut-off
  EXPECT_EQ(out[4].re, 0.0);  // 32' x 1.4 GHz = 44.8: beyond it
}

}  // namespace
}  // namespace fringe::jones
